/*
 * capture.c - one profiled run of the workload (see capture.h): trail
 * record (or perf record -g) at a fixed frequency, the recording read and
 * folded in-process (collapse/perfdata_fold.h) from the end of the warm-up
 * on, with perf script --time N%-100%'s meaning; or trail record -e offcpu,
 * which folds its own recording (blocked microseconds, the whole run).
 */
#include "flame/capture.h"
#include "flame/record_cmd.h"
#include "profile/fold.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/string_list.h"
#include "collapse/perfdata_fold.h"
#include "collapse/profile_formats.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *flame_metric_name(enum flame_metric m)
{
	switch (m) {
	case FLAME_METRIC_WALL: return "wall";
	case FLAME_METRIC_RSS: return "rss";
	case FLAME_METRIC_OFFCPU: return "offcpu";
	case FLAME_METRIC_ALLOC: return "alloc";
	case FLAME_METRIC_PEAK_HEAP: return "peak-heap";
	default: return "cpu";
	}
}

const char *flame_metric_unit(enum flame_metric m)
{
	switch (m) {
	case FLAME_METRIC_WALL: return "s";
	case FLAME_METRIC_RSS: return "KiB";
	case FLAME_METRIC_OFFCPU: return "s";
	case FLAME_METRIC_ALLOC: return "bytes";
	case FLAME_METRIC_PEAK_HEAP: return "bytes";
	default: return "us";
	}
}

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

static int timed_run(const struct flame_capture_opts *o, const char *dir, struct flame_run *run)
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
	 * workload and the sampler's own few percent.
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

int flame_record_workload(const struct flame_capture_opts *o, const char *out, const char *dir,
			  const char *log, struct flame_run *run)
{
	struct string_list argv = STRING_LIST_INIT;
	int ret;

	flame_record_argv(o, out, 0, &argv);
	ret = flame_record_run(o, (const char *const *)argv.items, NULL, dir, log, run);
	string_list_clear(&argv);
	return ret;
}

int flame_profiler_is_command(const char *profiler)
{
	return profiler && strpbrk(profiler, " \t$") != NULL;
}

/*
 * The profiler is the user's command (--profiler 'CMD'): run it with
 * TRAIL_PROFILE (a file to write), TRAIL_PROFILE_DIR (an empty directory,
 * for profilers that name their own files) and TRAIL_RUN (the workload
 * command); then read whatever it left there, in any format trail
 * collapse reads, counting samples where the format says how many
 * (pprof: the sample type in unit "count").
 */
static int command_run(const struct flame_capture_opts *o, const char *dir, const char *log,
		       const char *folded, struct flame_run *run)
{
	char *file = xstrfmt("%s/profile", o->scratch);
	char *pdir = xstrfmt("%s/profile.d", o->scratch);
	char *env_file = xstrfmt("TRAIL_PROFILE=%s", file);
	char *env_dir = xstrfmt("TRAIL_PROFILE_DIR=%s", pdir);
	char *env_run = xstrfmt("TRAIL_RUN=%s", o->run_cmd);
	const char *const env[] = { env_file, env_dir, env_run, NULL };
	const char *const sh[] = { "sh", "-c", o->profiler, NULL };
	struct dirent *de;
	DIR *d;
	int ret, found = 0;

	unlink(file);
	remove_tree(pdir);
	if (mkdir(pdir, 0700) < 0) {
		ret = error_errno("cannot create '%s'", pdir);
		goto out;
	}
	ret = flame_record_run(o, sh, env, dir, log, run);
	if (ret)
		goto out;
	if (!access(file, F_OK)) {
		found = 1;
		if (collapse_profile_file(file, "unit=count", folded, &run->folded) < 0)
			ret = -1;
	}
	d = opendir(pdir);
	while (!ret && d && (de = readdir(d))) {
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", pdir, de->d_name);
		found = 1;
		if (collapse_profile_file(path, "unit=count", folded, &run->folded) < 0)
			ret = -1;
		free(path);
	}
	if (d)
		closedir(d);
	if (!ret && !found)
		ret = trail_error("the profiler command wrote no profile to $TRAIL_PROFILE or "
			    "$TRAIL_PROFILE_DIR (log: %s)", log);
out:
	unlink(file);
	remove_tree(pdir);
	free(file);
	free(pdir);
	free(env_file);
	free(env_dir);
	free(env_run);
	return ret;
}

int flame_capture_run(const struct flame_capture_opts *o, const char *dir,
		      struct flame_run *run)
{
	char *data = xstrfmt("%s/perf.data", o->scratch);
	char *log = xstrfmt("%s/run.log", o->scratch);
	char *folded = xstrfmt("%s/run.folded", o->scratch);
	int ret = -1;

	memset(run, 0, sizeof(*run));
	folded_profile_init(&run->folded);
	if ((o->timed || o->profile == FLAME_PROFILE_NONE) && timed_run(o, dir, run)) {
		ret = 1;
		goto out;
	}
	if (o->profile == FLAME_PROFILE_NONE) {
		ret = 0;
		goto out;
	}
	if (o->profile == FLAME_PROFILE_ALLOC || o->profile == FLAME_PROFILE_FAULTS) {
		ret = flame_alloc_capture_run(o, dir, run);
	} else if (o->profile == FLAME_PROFILE_OFFCPU) {
		ret = flame_record_workload(o, folded, dir, log, run);
		if (!ret && folded_profile_read(&run->folded, folded))
			ret = -1;
	} else if (flame_profiler_is_command(o->profiler)) {
		ret = command_run(o, dir, log, folded, run);
	} else {
		ret = flame_record_workload(o, data, dir, log, run);
		/* Read in-process: no perf script, so the trail profiler needs no perf. */
		if (!ret && flame_fold_recording(data, o->discard, folded, &run->folded))
			ret = -1;
	}
	/* On-CPU samples after the warm-up (or blocked us): shares come from these. */
	run->samples = run->folded.total[0];
out:
	unlink(data);
	unlink(folded);
	free(data);
	free(log);
	free(folded);
	return ret;
}

int flame_fold_perfdata(const char *data, struct perfdata_fold *pf, const char *scratch_path,
			struct folded_profile *p)
{
	struct fold_options fo;
	struct folder *f;
	int ret = -1;

	memset(&fo, 0, sizeof(fo));
	f = folder_new(&fo);
	if (!perfdata_fold_file(data, f, pf) && !folder_write_file(&f, 1, scratch_path))
		ret = folded_profile_read(p, scratch_path);
	free(pf->chosen_event);
	free(pf->other_event);
	pf->chosen_event = pf->other_event = NULL;
	folder_free(f);
	return ret;
}

int flame_fold_recording(const char *data, double discard, const char *scratch_path,
			 struct folded_profile *p)
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
	return flame_fold_perfdata(data, &pf, scratch_path, p);
}

void flame_run_release(struct flame_run *run)
{
	folded_profile_release(&run->folded);
}

int flame_capture_offcpu_check(const struct flame_capture_opts *o, char *why, size_t n)
{
	char *out = xstrfmt("%s/check.folded", o->scratch);
	char *err = xstrfmt("%s/check.err", o->scratch);
	struct flame_capture_opts offcpu = *o;	/* asked before the profile is chosen */
	struct string_list argv = STRING_LIST_INIT;
	struct child c = CHILD_INIT;
	struct strbuf msg = STRBUF_INIT;
	int code;

	offcpu.profile = FLAME_PROFILE_OFFCPU;
	flame_record_argv(&offcpu, out, 1, &argv);
	c.argv = (const char *const *)argv.items;
	c.in = CHILD_DEVNULL;
	c.out_path = err;
	c.err_to_out = 1;
	code = child_run(&c);
	if (code) {
		char *nl;

		strbuf_read_file(&msg, err);
		if (msg.len && (nl = strchr(msg.buf, '\n')))
			*nl = '\0';
		snprintf(why, n, "%s", msg.len ? msg.buf : child_describe_status(code));
	}
	strbuf_release(&msg);
	string_list_clear(&argv);
	unlink(out);
	unlink(err);
	free(out);
	free(err);
	return code ? -1 : 0;
}

int flame_capture_check(const struct flame_capture_opts *o)
{
	if (o->profile == FLAME_PROFILE_ALLOC || o->profile == FLAME_PROFILE_FAULTS)
		return flame_alloc_capture_check(o);
	if (flame_profiler_is_command(o->profiler))
		return 0;	/* the user's own profiler: its first run will tell */
	{
	char *data = xstrfmt("%s/check.data", o->scratch);
	struct flame_capture_opts cpu = *o;	/* the CPU recorder, also when off-CPU falls back */
	struct string_list argv = STRING_LIST_INIT;
	int is_trail;
	struct child c = CHILD_INIT;
	int code;

	cpu.profile = FLAME_PROFILE_CPU;
	is_trail = !flame_record_uses_perf(&cpu);
	flame_record_argv(&cpu, data, 1, &argv);
	c.argv = (const char *const *)argv.items;
	c.in = CHILD_DEVNULL;
	c.out = CHILD_DEVNULL;
	c.err = CHILD_DEVNULL;
	code = child_run(&c);
	string_list_clear(&argv);
	unlink(data);
	free(data);
	/* Recordings are read in-process: only perf record needs perf. */
	if (code == 127 && !is_trail)
		return trail_error("'perf' is not installed (Debian: apt-get install linux-perf)");
	if (code)
		return trail_error("'%s record' cannot sample here (%s): check "
			     "/proc/sys/kernel/perf_event_paranoid or run as root",
			     is_trail ? "trail" : "perf", child_describe_status(code));
	return 0;
	}
}
