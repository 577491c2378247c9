/*
 * sample_run.c - a capture's run under trail's sampler, in-process (see
 * sample_run.h): the launch spec of a measured run, the recording into a
 * perf.data in the scratch directory, and the run's outcome read from
 * the sampler (exit status, timeout, signal, the workload tree's rusage).
 */
#include "flame/sample_run.h"
#include "perf/recorder.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/string_list.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The words after "--" in a recorder's command line, or NULL. */
static const char *const *workload_of(const struct string_list *argv)
{
	size_t i;

	for (i = 0; i < argv->nr; i++)
		if (!strcmp(argv->items[i], "--") && i + 1 < argv->nr)
			return (const char *const *)argv->items + i + 1;
	return NULL;
}

static double seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/*
 * Record argv's workload with so, started as l says, into out: 0 or -1;
 * *done is the finished run's sampler (released: only its results are
 * read), *sig the signal that stopped it or 0.
 */
static int record(const struct string_list *argv, const struct sampler_opts *so,
		  const struct sampler_launch *l, const char *out, struct sampler *done, int *sig)
{
	const char *const *workload = workload_of(argv);
	struct recorder r;
	int ret = -1;

	if (!workload)
		return trail_error("internal: a recorder command line without a workload");
	recorder_init(&r, so);
	if (!sampler_launch_command(&r.s, workload, l) && !sampler_open(&r.s) &&
	    !recorder_write(&r, out, (int)argv->nr, (const char *const *)argv->items))
		ret = 0;
	*sig = r.s.stopped == SAMPLER_STOP_SIGNAL ? r.s.stop_signal : 0;
	recorder_release(&r);	/* reaps the workload: exit_code and rusage */
	*done = r.s;
	return ret;
}

int flame_sample_run(const struct flame_capture_opts *o, flame_record_argv_fn *build,
		     const struct sampler_opts *so, const char *out, const char *dir,
		     const char *log, struct flame_run *run)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct string_list argv = STRING_LIST_INIT;
	struct sampler s;
	double t0, wall;
	int ret, sig;

	build(o, out, 0, &argv);
	l.dir = dir;
	l.in = SAMPLER_FD_DEVNULL;
	l.out_path = log;
	l.err_to_out = 1;
	l.pgid = child_group_id();
	l.timeout = o->timeout;
	l.signal_stops_caller = 1;
	/* what the run leaves behind ("server &") must not run into the next one */
	child_adopt_orphans();
	t0 = clock_monotonic();
	ret = record(&argv, so, &l, out, &s, &sig);
	wall = clock_monotonic() - t0;
	child_kill_orphans();
	string_list_clear(&argv);
	if (sig)
		raise(sig);	/* trail's handlers: clean up and stop (core/cleanup.h) */
	run->timed_out = s.stopped == SAMPLER_STOP_TIMEOUT;
	/* the cpu metric: the workload's tree, as the profile's runs measured it */
	if (!o->timed) {
		run->wall = wall;
		run->cpu_us = (seconds(&s.rusage.ru_utime) + seconds(&s.rusage.ru_stime)) * 1e6;
	}
	if (run->timed_out) {
		trail_error("the workload did not finish in %g s and was killed (--timeout; log: %s)",
			    o->timeout, log);
		return 1;
	}
	if (ret)
		return -1;
	if (!s.exit_code)
		return 0;
	trail_error("the profiled workload %s (log: %s)", child_describe_status(s.exit_code), log);
	return s.exit_code == 127 ? -1 : 1;
}

int flame_sample_check(const struct flame_capture_opts *o, flame_record_argv_fn *build,
		       const struct sampler_opts *so, const char *event)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct string_list argv = STRING_LIST_INIT;
	char *data = xstrfmt("%s/check.data", o->scratch);
	struct sampler s;
	int ret, sig;

	build(o, data, 1, &argv);
	l.in = l.out = l.err = SAMPLER_FD_DEVNULL;
	l.pgid = child_group_id();
	l.signal_stops_caller = 1;
	ret = record(&argv, so, &l, data, &s, &sig);
	string_list_clear(&argv);
	unlink(data);
	free(data);
	if (sig)
		raise(sig);
	if (!ret && s.exit_code)
		ret = trail_error("'trail record%s%s' cannot sample here (%s): check "
				  "/proc/sys/kernel/perf_event_paranoid or run as root",
				  event ? " -e " : "", event ? event : "",
				  child_describe_status(s.exit_code));
	return ret;
}
