/*
 * backend_cpu.c - the on-CPU backend (see backend.h): trail's sampler
 * with DWARF call chains, in this process, or perf record -g, at a fixed
 * frequency; the recording read and folded in-process from the end of
 * the warm-up on (perf script --time N%-100%'s meaning).
 */
#include "measure/backend.h"
#include "measure/record_cmd.h"

#include <stdio.h>
#include <string.h>

/* perf record unless trail is asked for. */
static int uses_perf(const struct flame_capture_opts *o)
{
	return !o->profiler || strcmp(o->profiler, "trail") != 0;
}

static void cpu_counts(const struct flame_capture_opts *o, char *buf, size_t n)
{
	(void)o;
	snprintf(buf, n, "on-CPU samples");
}

static void cpu_profiler(const struct flame_capture_opts *o, char *buf, size_t n)
{
	if (uses_perf(o))
		snprintf(buf, n, "perf record -g at %u Hz", o->freq);
	else
		snprintf(buf, n, "trail record (DWARF call chains) at %u Hz", o->freq);
}

static void cpu_record_argv(const struct flame_capture_opts *o, const char *out, int check,
			    struct string_list *argv)
{
	char freq[32];

	snprintf(freq, sizeof(freq), "%u", check ? 99u : o->freq);
	if (uses_perf(o)) {
		/*
		 * perf: --no-bpf-event, or it spends about a second synthesising
		 * BPF program events at start-up; --timestamp-boundary lets the
		 * warm-up be cut by time.  trail record writes both already.
		 */
		const char *perf[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
				       "--timestamp-boundary", "-F", freq, "-g", "-o", out, "--",
				       NULL };
		const char *perf_check[] = { "perf", "record", "-q", "--no-bpf-event", "-N",
					     "-F", freq, "-g", "-o", out, "--", NULL };

		flame_record_add_words(argv, check ? perf_check : perf);
		flame_record_add_workload(o, check, 0, argv);
	} else {
		/*
		 * DWARF call chains for trail record: a libc or kernel leaf built
		 * without frame pointers (memcmp, malloc) hides its caller from a
		 * frame-pointer walk, and that caller is the function to name.
		 * A plain command runs without sh -c, as for off-CPU profiles:
		 * after a second exec under the recorder DWARF unwinding falls
		 * back to the frame-pointer chain (see record_cmd.c).
		 */
		const char *trail[] = { o->trail_exe, "record", "-F", freq, "-g", "dwarf", "-o", out,
					"--", NULL };
		const char *trail_check[] = { o->trail_exe, "record", "-F", freq, "-o", out, "--",
					      NULL };

		flame_record_add_words(argv, check ? trail_check : trail);
		flame_record_add_workload(o, check, 1, argv);
	}
}

/* trail record's line runs in this process, as its words say (record_cmd.h) */
static int cpu_check(const struct flame_capture_opts *o)
{
	return flame_record_check_sampler(o, cpu_record_argv, uses_perf(o), NULL);
}

static int cpu_capture(const struct flame_capture_opts *o, const char *dir, const char *log,
		       struct flame_run *run)
{
	return flame_record_and_fold(o, cpu_record_argv, o->discard, dir, log, run);
}

const struct flame_backend flame_backend_cpu = {
	.view = "cpu",
	.counts = cpu_counts,
	.profiler = cpu_profiler,
	.record_argv = cpu_record_argv,
	.check = cpu_check,
	.capture = cpu_capture,
};
