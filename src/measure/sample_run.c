/*
 * sample_run.c - a capture's run under trail's sampler, in-process (see
 * sample_run.h): the launch spec of a measured run, the recording that
 * trail record's line asks for (read by trail record's own parser,
 * perf/record_options.h), and the run's outcome read from the sampler
 * (exit status, timeout, signal, the workload tree's rusage).
 */
#include "measure/sample_run.h"
#include "perf/record_options.h"
#include "perf/recorder.h"
#include "core/child.h"
#include "core/error.h"
#include "core/progress.h"

#include <signal.h>
#include <string.h>

static double seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

/*
 * Record what trail record's line argv says (its sampler options, its
 * command, into its -o file; the whole line into the header), started as
 * l says: 0 or -1; *done is the finished run's sampler (released: only
 * its results are read), *sig the signal that stopped it or 0.
 */
static int record(const struct string_list *argv, const struct sampler_launch *l,
		  struct sampler *done, int *sig)
{
	struct record_words w;
	struct recorder r;
	int ret = -1;

	memset(done, 0, sizeof(*done));
	*sig = 0;
	if (record_words_read(&w, (int)argv->nr, (const char *const *)argv->items)) {
		record_words_release(&w);
		return -1;
	}
	recorder_init(&r, &w.so);
	if (!sampler_launch_command(&r.s, w.command, l) && !sampler_open(&r.s) &&
	    !recorder_write(&r, w.o.output, (int)argv->nr, (const char *const *)argv->items))
		ret = 0;
	*sig = r.s.stopped == SAMPLER_STOP_SIGNAL ? r.s.stop_signal : 0;
	recorder_release(&r);	/* reaps the workload: exit_code and rusage */
	*done = r.s;
	record_words_release(&w);
	return ret;
}

int flame_sample_run(const struct flame_capture_opts *o, const struct string_list *argv,
		     const char *dir, const char *log, struct flame_run *run)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct sampler s;
	double t0, wall;
	int ret, sig;

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
	ret = record(argv, &l, &s, &sig);
	wall = clock_monotonic() - t0;
	child_kill_orphans();
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

int flame_sample_check(const struct string_list *argv, const char *event)
{
	struct sampler_launch l = SAMPLER_LAUNCH_INIT;
	struct sampler s;
	int ret, sig;

	l.in = l.out = l.err = SAMPLER_FD_DEVNULL;
	l.pgid = child_group_id();
	l.signal_stops_caller = 1;
	ret = record(argv, &l, &s, &sig);
	if (sig)
		raise(sig);
	if (!ret && s.exit_code)
		ret = trail_error("'trail record%s%s' cannot sample here (%s): check "
				  "/proc/sys/kernel/perf_event_paranoid or run as root",
				  event ? " -e " : "", event ? event : "",
				  child_describe_status(s.exit_code));
	return ret;
}
