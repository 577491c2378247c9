/*
 * backend_memory.c - trail flame's memory backends (see backend.h): one
 * run of the workload under the allocation interposer, folded by
 * allocation site with one count per sampled allocation, its estimated
 * bytes and peak heap kept as the alloc and peak-heap metrics; or one run
 * under a page-fault sampler (trail record or perf record -e page-faults,
 * one fault in 16), the seed profile of the rss metric.
 */
#include "measure/backend.h"
#include "measure/record_cmd.h"
#include "alloc/alloc_record.h"
#include "collapse/perfdata_fold.h"
#include "profile/fold.h"
#include "core/keep_log.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/string_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void alloc_counts(const struct flame_capture_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, "allocation sites by %s (trail record -e alloc's %s view, "
		 "one sampled allocation per %llu bytes on average; counted in units of "
		 "that interval)", o->alloc_peak ? "bytes live at the peak of the heap" :
		 "bytes allocated", o->alloc_peak ? "inuse-peak" : "alloc-space",
		 o->alloc_interval ? o->alloc_interval : FLAME_ALLOC_INTERVAL);
}

static void alloc_profiler(const struct flame_capture_opts *o, char *buf, size_t n)
{
	unsigned long long iv = o->alloc_interval ? o->alloc_interval : FLAME_ALLOC_INTERVAL;

	if (iv == 1)
		snprintf(buf, n, "trail record -e alloc (the allocation interposer), every allocation");
	else
		snprintf(buf, n, "trail record -e alloc (the allocation interposer), one sampled "
			 "allocation per %llu bytes on average", iv);
}

/* The interposer comes through the environment: "sh -c RUN" alone (out is unused). */
static void alloc_record_argv(const struct flame_capture_opts *o, const char *out, int check,
			      struct string_list *argv)
{
	(void)out;
	(void)check;
	flame_record_add_workload(o, 0, 0, argv);
}

/* Fold an allocation recording by its periods (interval units per stack). */
static int fold_periods(const char *data, struct folded_profile *p)
{
	struct perfdata_fold pf;

	memset(&pf, 0, sizeof(pf));
	return flame_fold_perfdata(data, &pf, p);
}

static int alloc_run(const struct flame_capture_opts *o, const char *dir, const char *log,
		     struct flame_run *run)
{
	char *raw = xstrfmt("%s/alloc-raw", o->scratch);
	char *data = xstrfmt("%s/alloc.data", o->scratch);
	struct string_list argv = STRING_LIST_INIT;
	char *env[ALLOC_ENV_SLOTS] = { NULL };
	struct alloc_run r;
	struct alloc_totals t;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	r.preload = alloc_preload_find();
	if (!r.preload)
		goto out;
	remove_tree(raw);
	if (mkdir(raw, 0700) < 0) {
		error_errno("cannot create '%s'", raw);
		goto out;
	}
	r.dir = raw;
	r.interval = o->alloc_interval ? o->alloc_interval : FLAME_ALLOC_INTERVAL;
	alloc_env(&r, env);
	alloc_record_argv(o, NULL, 0, &argv);
	ret = flame_record_run(o, (const char *const *)argv.items, (const char *const *)env, dir,
			       log, run);
	if (ret)
		goto out;
	ret = -1;
	/*
	 * Bytes in units of the interval: alloc-space's shares, with counts
	 * of about one per sampled allocation, as the z-tests expect of
	 * sample counts.  One count per sampled allocation would not do: an
	 * allocation far above the interval is sampled once, whatever its size.
	 * peak-heap: the bytes live at each process's peak instead (inuse-peak).
	 */
	if (alloc_write_perfdata(raw, o->alloc_peak ? ALLOC_VIEW_PEAK_INTERVALS : ALLOC_VIEW_INTERVALS,
				 data, 3, (const char *const *)argv.items, &t))
		goto out;
	run->alloc_bytes = t.bytes;
	run->peak_heap = t.peak_bytes;
	if (!t.files) {
		char *kept = keep_log(log);

		trail_error("the workload wrote no allocation recording: is it statically linked, "
			    "or does it clear LD_PRELOAD? (log: %s)", kept);
		free(kept);
		goto out;
	}
	if (t.samples_written && fold_periods(data, &run->folded))
		goto out;
	ret = 0;
out:
	string_list_clear(&argv);
	alloc_env_release(env);
	remove_tree(raw);
	unlink(data);
	free((char *)r.preload);
	free(raw);
	free(data);
	return ret;
}

static int alloc_check(const struct flame_capture_opts *o)
{
	char *lib;

	if (flame_profiler_is_command(o->profiler) || flame_profiler_is_perf(o->profiler))
		return trail_error("--metric %s records allocations with trail's interposer; "
			     "--profiler %s does not apply", "alloc/peak-heap", o->profiler);
	lib = alloc_preload_find();
	free(lib);
	return lib ? 0 : -1;
}

const struct flame_backend flame_backend_alloc = {
	.view = "alloc-space",
	.memory = 1,
	.counts = alloc_counts,
	.profiler = alloc_profiler,
	.record_argv = alloc_record_argv,
	.check = alloc_check,
	.capture = alloc_run,
};

/*
 * One sample per FAULT_PERIOD page faults.  Every fault was too many: a
 * loop touching fresh pages faults a few hundred thousand times a second,
 * the rings overflowed and the kernel throttled the event, and what was
 * lost depended on the load and on how fast the reader drained (a
 * sanitized trail kept 50 of 18000 faults, mostly the first function's),
 * so one run's shares said little.  A fixed period counts each function's
 * faults to within one sample (64 KiB of 4 KiB pages).
 */
#define FAULT_PERIOD 16
#define WORD_(n) #n
#define WORD(n) WORD_(n)	/* FAULT_PERIOD in the recorders' command lines */

unsigned flame_faults_per_sample(void)
{
	return FAULT_PERIOD;
}

static void faults_counts(const struct flame_capture_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, "page faults (%s record -e page-faults, one sample per " WORD(FAULT_PERIOD)
		 " faults; shares are faults, where resident memory was first touched)",
		 flame_profiler_is_perf(o->profiler) ? "perf" : "trail");
}

static void faults_profiler(const struct flame_capture_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, "%s record -e page-faults, one sample per " WORD(FAULT_PERIOD) " faults",
		 flame_profiler_is_perf(o->profiler) ? "perf" : "trail");
}

static void faults_record_argv(const struct flame_capture_opts *o, const char *out, int check,
			       struct string_list *argv)
{
	/* where resident memory was first touched, one fault in FAULT_PERIOD */
	const char *perf[] = { "perf", "record", "-q", "--no-bpf-event", "-N", "-e",
			       "page-faults", "-c", WORD(FAULT_PERIOD), "-g", "-o", out, "--", NULL };
	const char *trail[] = { o->trail_exe, "record", "-e", "page-faults", "-c", WORD(FAULT_PERIOD),
				"-o", out, "--", NULL };

	flame_record_add_words(argv, flame_profiler_is_perf(o->profiler) ? perf : trail);
	flame_record_add_workload(o, check, 0, argv);
}

static int faults_run(const struct flame_capture_opts *o, const char *dir, const char *log,
		      struct flame_run *run)
{
	/* the whole run: memory is first touched early, a warm-up cut would lose it */
	return flame_record_and_fold(o, faults_record_argv, 0, dir, log, run);
}

static int faults_check(const struct flame_capture_opts *o)
{
	return flame_record_check_sampler(o, faults_record_argv,
					  flame_profiler_is_perf(o->profiler), "page-faults");
}

const struct flame_backend flame_backend_faults = {
	.view = "page-faults",
	.memory = 1,
	.counts = faults_counts,
	.profiler = faults_profiler,
	.record_argv = faults_record_argv,
	.check = faults_check,
	.capture = faults_run,
};
