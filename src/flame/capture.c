/*
 * capture.c - one profiled run of the workload (see capture.h): trail
 * record (or perf record -g) at a fixed frequency, the recording read and
 * folded in-process (profile/perfdata_fold.h) from the end of the warm-up
 * on, with perf script --time N%-100%'s meaning.
 */
#include "flame/capture.h"
#include "collapse/fold.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/progress.h"
#include "profile/perfdata_fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *flame_metric_name(enum flame_metric m)
{
	switch (m) {
	case FLAME_METRIC_WALL: return "wall";
	case FLAME_METRIC_RSS: return "rss";
	case FLAME_METRIC_OFFCPU: return "offcpu";
	default: return "cpu";
	}
}

const char *flame_metric_unit(enum flame_metric m)
{
	switch (m) {
	case FLAME_METRIC_WALL: return "s";
	case FLAME_METRIC_RSS: return "KiB";
	case FLAME_METRIC_OFFCPU: return "s";
	default: return "samples";
	}
}

double flame_run_metric(const struct flame_run *run, enum flame_metric m)
{
	switch (m) {
	case FLAME_METRIC_WALL: return run->wall;
	case FLAME_METRIC_RSS: return run->rss;
	case FLAME_METRIC_OFFCPU: return run->wall > run->cpu ? run->wall - run->cpu : 0;
	default: return run->samples;
	}
}

/* Run argv in dir, stdout and stderr to log; *wall gets its run time (s). */
static int run_logged(const char *const *argv, const char *dir, const char *log,
		      double *wall, struct rusage *ru)
{
	struct child c = CHILD_INIT;
	double t0;
	int code;

	c.argv = argv;
	c.dir = dir;
	c.in = CHILD_DEVNULL;
	c.out_path = log;
	c.err_to_out = 1;
	t0 = clock_monotonic();
	code = child_run(&c);
	*wall = clock_monotonic() - t0;
	if (ru)
		*ru = c.rusage;
	return code;
}

static int timed_run(const struct flame_capture_opts *o, const char *dir, struct flame_run *run)
{
	const char *sh[] = { "sh", "-c", o->run_cmd, NULL };
	char *log = xstrfmt("%s/run-timed.log", o->scratch);
	struct rusage ru;
	int code = run_logged(sh, dir, log, &run->wall, &ru);

	run->rss = (double)ru.ru_maxrss;
	run->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
		   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	if (code) {
		if (code > 0)
			error("the workload %s (log: %s)", child_describe_status(code), log);
		free(log);
		return 1;
	}
	free(log);
	return 0;
}

int flame_capture_run(const struct flame_capture_opts *o, const char *dir,
		      struct flame_run *run)
{
	char *data = xstrfmt("%s/perf.data", o->scratch);
	char *log = xstrfmt("%s/run.log", o->scratch);
	char *folded = xstrfmt("%s/run.folded", o->scratch);
	char freq[32];
	double wall;
	int code, ret = -1;

	memset(run, 0, sizeof(*run));
	folded_profile_init(&run->folded);
	if (o->timed && timed_run(o, dir, run)) {
		ret = 1;
		goto out;
	}
	snprintf(freq, sizeof(freq), "%u", o->freq);
	{
		/*
		 * perf: --no-bpf-event, or it spends about a second synthesising
		 * BPF program events at start-up; --timestamp-boundary lets perf
		 * script select by percent.  trail record writes both already.
		 */
		const char *perf[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
				       "--timestamp-boundary", "-F", freq, "-g", "-o", data, "--",
				       "sh", "-c", o->run_cmd, NULL };
		const char *trail[] = { o->trail_exe, "record", "-F", freq, "-o", data, "--",
					"sh", "-c", o->run_cmd, NULL };
		const char *const *rec = o->profiler && !strcmp(o->profiler, "trail") ? trail : perf;

		code = run_logged(rec, dir, log, &wall, NULL);
		if (!o->timed)
			run->wall = wall;
		if (code) {
			if (code > 0)
				error("the profiled workload %s (log: %s)",
				      child_describe_status(code), log);
			ret = code == 127 || code < 0 ? -1 : 1;
			goto out;
		}
	}
	/* Read in-process: no perf script, so the trail profiler needs no perf. */
	if (flame_fold_recording(data, o->discard, folded, &run->folded))
		goto out;
	/* The cpu metric: on-CPU samples after the warm-up. */
	run->samples = run->folded.total[0];
	ret = 0;
out:
	unlink(data);
	unlink(folded);
	free(data);
	free(log);
	free(folded);
	return ret;
}

int flame_fold_recording(const char *data, double discard, const char *scratch_path,
			 struct folded_profile *p)
{
	struct fold_options fo;
	struct folder *f;
	struct perfdata_fold pf;
	FILE *out;
	int ret = -1;

	memset(&fo, 0, sizeof(fo));
	memset(&pf, 0, sizeof(pf));
	pf.skip_fraction = discard;
	pf.count_samples = 1;	/* counts are samples, whatever the event's period */
	f = folder_new(&fo);
	if (perfdata_fold_file(data, f, &pf))
		goto out;
	out = fopen(scratch_path, "w");
	if (!out) {
		error_errno("cannot create '%s'", scratch_path);
		goto out;
	}
	if (folder_write(&f, 1, out)) {
		fclose(out);
		goto out;
	}
	if (fclose(out)) {
		error_errno("cannot write '%s'", scratch_path);
		goto out;
	}
	ret = folded_profile_read(p, scratch_path);
out:
	free(pf.chosen_event);
	free(pf.other_event);
	folder_free(f);
	return ret;
}

void flame_run_release(struct flame_run *run)
{
	folded_profile_release(&run->folded);
}

int flame_capture_check(const struct flame_capture_opts *o)
{
	char *data = xstrfmt("%s/check.data", o->scratch);
	const char *perf[] = { "perf", "record", "-q", "--no-bpf-event", "-N", "-F", "99", "-g",
			       "-o", data, "--", "true", NULL };
	const char *trail[] = { o->trail_exe, "record", "-F", "99", "-o", data, "--", "true", NULL };
	int is_trail = o->profiler && !strcmp(o->profiler, "trail");
	struct child c = CHILD_INIT;
	int code;

	c.argv = is_trail ? trail : perf;
	c.in = CHILD_DEVNULL;
	c.out = CHILD_DEVNULL;
	c.err = CHILD_DEVNULL;
	code = child_run(&c);
	unlink(data);
	free(data);
	/* Recordings are read in-process: only perf record needs perf. */
	if (code == 127 && !is_trail)
		return error("'perf' is not installed (Debian: apt-get install linux-perf)");
	if (code)
		return error("'%s record' cannot sample here (%s): check "
			     "/proc/sys/kernel/perf_event_paranoid or run as root",
			     is_trail ? "trail" : "perf", child_describe_status(code));
	return 0;
}
