/*
 * capture.c - one profiled run of the workload (see capture.h): perf
 * record -g at a fixed frequency, perf script limited to the part of the
 * run after the warm-up (--time N%-100%), folded.
 */
#include "flame/capture.h"
#include "flame/fold_standin.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/error.h"
#include "core/progress.h"

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

static int timed_run(const struct flame_capture_opts *o, const char *dir, struct flame_run *run)
{
	const char *sh[] = { "sh", "-c", o->run_cmd, NULL };
	char *log = xstrfmt("%s/run-timed.log", o->scratch);
	struct child c = CHILD_INIT;
	double t0;
	int code;

	c.argv = sh;
	c.dir = dir;
	c.in = CHILD_DEVNULL;
	c.out_path = log;
	c.err_to_out = 1;
	t0 = clock_monotonic();
	code = child_run(&c);
	run->wall = clock_monotonic() - t0;
	run->rss = (double)c.rusage.ru_maxrss;
	run->cpu = (double)c.rusage.ru_utime.tv_sec + (double)c.rusage.ru_utime.tv_usec * 1e-6 +
		   (double)c.rusage.ru_stime.tv_sec + (double)c.rusage.ru_stime.tv_usec * 1e-6;
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
	char *text = xstrfmt("%s/perf.txt", o->scratch);
	char *log = xstrfmt("%s/run.log", o->scratch);
	char freq[32], range[32];
	struct child c = CHILD_INIT;
	double t0;
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
		 * --no-bpf-event: perf otherwise spends about a second
		 * synthesising BPF program events at start-up;
		 * --timestamp-boundary lets perf script select by percent.
		 */
		const char *rec[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
				      "--timestamp-boundary", "-F", freq, "-g", "-o", data, "--",
				      "sh", "-c", o->run_cmd, NULL };

		c.argv = rec;
		c.dir = dir;
		c.in = CHILD_DEVNULL;
		c.out_path = log;
		c.err_to_out = 1;
		t0 = clock_monotonic();
		code = child_run(&c);
		if (!o->timed)
			run->wall = clock_monotonic() - t0;
		if (code) {
			if (code > 0)
				error("the profiled workload %s (log: %s)",
				      child_describe_status(code), log);
			ret = code == 127 || code < 0 ? -1 : 1;
			goto out;
		}
	}
	{
		const char *script[] = { "perf", "script", "-i", data,
					 "-F", "comm,tid,time,ip,sym,dso", NULL, NULL, NULL };
		struct child s = CHILD_INIT;

		if (o->discard > 0) {
			snprintf(range, sizeof(range), "%g%%-100%%", o->discard * 100);
			script[6] = "--time";
			script[7] = range;
		}
		s.argv = script;
		s.in = CHILD_DEVNULL;
		s.out_path = text;
		s.err = CHILD_DEVNULL;
		if (child_run(&s) != 0) {
			error("'perf script -i %s' failed", data);
			goto out;
		}
		if (flame_fold_perf_script(text, &run->folded))
			goto out;
		/* The cpu metric: on-CPU samples after the warm-up. */
		run->samples = run->folded.total[0];
	}
	ret = 0;
out:
	unlink(data);
	unlink(text);
	free(data);
	free(text);
	free(log);
	return ret;
}

void flame_run_release(struct flame_run *run)
{
	folded_profile_release(&run->folded);
}

int flame_capture_check(const char *scratch)
{
	char *data = xstrfmt("%s/check.data", scratch);
	const char *rec[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
			      "-F", "99", "-g", "-o", data, "--", "true", NULL };
	struct child c = CHILD_INIT;
	int code;

	c.argv = rec;
	c.in = CHILD_DEVNULL;
	c.out = CHILD_DEVNULL;
	c.err = CHILD_DEVNULL;
	code = child_run(&c);
	unlink(data);
	free(data);
	if (code == 127)
		return error("'perf' is not installed (Debian: apt-get install linux-perf)");
	if (code)
		return error("'perf record' cannot sample here (%s): check "
			     "/proc/sys/kernel/perf_event_paranoid or run as root",
			     child_describe_status(code));
	return 0;
}
