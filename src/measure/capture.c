/*
 * capture.c - what every profiler backend (measure/backend.h) runs a
 * workload with (see capture.h): the timed run without a profiler, the
 * run under a recorder with its log and timeout, the in-process folding
 * of a recording, and the metrics read from a run.
 */
#include "measure/capture.h"
#include "profile/fold.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/string_list.h"
#include "collapse/perfdata_fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

double flame_run_metric(const struct flame_run *run, enum flame_metric m)
{
	switch (m) {
	case FLAME_METRIC_WALL: return run->wall;
	case FLAME_METRIC_RSS: return run->rss;
	case FLAME_METRIC_OFFCPU: return run->wall > run->cpu ? run->wall - run->cpu : 0;
	case FLAME_METRIC_ALLOC: return run->alloc_bytes;
	case FLAME_METRIC_PEAK_HEAP: return run->peak_heap;
	default: return run->cpu_us;
	}
}

/*
 * Run argv in dir (env: extra "NAME=value" entries, or NULL), stdout and
 * stderr to log, killed after timeout s (0: never); *wall gets its run
 * time (s).
 */
static int run_logged(const char *const *argv, const char *const *env, const char *dir,
		      const char *log, double timeout, double *wall, struct rusage *ru,
		      int *timed_out)
{
	struct child c = CHILD_INIT;
	double t0;
	int code;

	c.argv = argv;
	c.env = env;
	c.dir = dir;
	c.in = CHILD_DEVNULL;
	c.out_path = log;
	c.err_to_out = 1;
	c.timeout = timeout;
	/* peak RSS and CPU time of the workload, not of trail's copy */
	c.own_rusage = 1;
	/* what the run leaves behind ("server &") must not run into the next one */
	child_adopt_orphans();
	t0 = clock_monotonic();
	code = child_run(&c);
	*wall = clock_monotonic() - t0;
	child_kill_orphans();
	if (ru)
		*ru = c.rusage;
	*timed_out = c.timed_out;
	if (c.timed_out)
		trail_error("the workload did not finish in %g s and was killed (--timeout; log: %s)",
		      timeout, log);
	return code;
}

int flame_timed_run(const struct flame_capture_opts *o, const char *dir, struct flame_run *run)
{
	const char *sh[] = { "sh", "-c", o->run_cmd, NULL };
	char *log = xstrfmt("%s/run-timed.log", o->scratch);
	struct rusage ru;
	int code = run_logged(sh, NULL, dir, log, o->timeout, &run->wall, &ru, &run->timed_out);

	run->rss = (double)ru.ru_maxrss;
	run->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	run->cpu_us = run->cpu * 1e6;
	if (code) {
		if (code > 0 && code != CHILD_TIMED_OUT)
			trail_error("the workload %s (log: %s)", child_describe_status(code), log);
		free(log);
		return 1;
	}
	free(log);
	return 0;
}

int flame_record_run(const struct flame_capture_opts *o, const char *const *argv,
		     const char *const *env, const char *dir, const char *log,
		     struct flame_run *run)
{
	double wall;
	struct rusage ru;
	int code = run_logged(argv, env, dir, log, o->timeout, &wall, &ru, &run->timed_out);

	/*
	 * The cpu metric comes from the same runs as the profile (ends and
	 * probes alike): user + sys of the recorder's process tree, the
	 * workload and the recorder's own few percent (a recorder program:
	 * perf record, the user's; trail's sampler: measure/sample_run.c).
	 */
	if (!o->timed) {
		run->wall = wall;
		run->cpu_us = (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec +
			      (double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
	}
	if (!code)
		return 0;
	if (run->timed_out)
		return 1;	/* run_logged() said so */
	if (code > 0)
		trail_error("the profiled workload %s (log: %s)", child_describe_status(code), log);
	return code == 127 || code < 0 ? -1 : 1;
}

int flame_record_check(const struct string_list *argv)
{
	struct child c = CHILD_INIT;

	c.argv = (const char *const *)argv->items;
	c.in = CHILD_DEVNULL;
	c.out = CHILD_DEVNULL;
	c.err = CHILD_DEVNULL;
	return child_run(&c);
}

int flame_profiler_is_perf(const char *profiler)
{
	return profiler && !strcmp(profiler, "perf");
}

int flame_profiler_is_command(const char *profiler)
{
	return profiler && strpbrk(profiler, " \t$") != NULL;
}

int flame_fold_perfdata(const char *data, struct perfdata_fold *pf, struct folded_profile *p)
{
	struct fold_options fo;
	struct folder *f;
	int ret = -1;

	memset(&fo, 0, sizeof(fo));
	f = folder_new(&fo);
	if (!perfdata_fold_file(data, f, pf)) {
		folder_to_profile(&f, 1, p);
		ret = 0;
	}
	free(pf->chosen_event);
	free(pf->other_event);
	pf->chosen_event = pf->other_event = NULL;
	folder_free(f);
	return ret;
}

int flame_fold_recording(const char *data, double discard, struct folded_profile *p)
{
	struct perfdata_fold pf;

	memset(&pf, 0, sizeof(pf));
	pf.skip_fraction = discard;
	pf.count_samples = 1;	/* counts are samples, whatever the event's period */
	/*
	 * No inline frames, DWARF call chains or not: the hot function is the
	 * one the symbol table names (an always-inline helper's time stays
	 * with the function it was inlined into, as with frame pointers).
	 */
	pf.inlines = -1;
	return flame_fold_perfdata(data, &pf, p);
}

void flame_run_release(struct flame_run *run)
{
	folded_profile_release(&run->folded);
}
