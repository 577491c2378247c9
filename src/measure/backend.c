/*
 * backend.c - picks the profiler backend of a capture (see backend.h),
 * captures one run through it, and answers capture.h's questions about
 * profiles through it: which profile a metric records, what it counts,
 * which profiler takes it, whether it can sample here.
 */
#include "measure/backend.h"
#include "measure/record_cmd.h"
#include "core/alloc.h"
#include "core/child.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

const struct flame_backend *flame_backend_of(const struct flame_capture_opts *o)
{
	switch (o->profile) {
	case FLAME_PROFILE_NONE:
		return NULL;
	case FLAME_PROFILE_OFFCPU:
		return &flame_backend_offcpu;	/* trail record -e offcpu, whatever --profiler says */
	case FLAME_PROFILE_ALLOC:
		return &flame_backend_alloc;
	case FLAME_PROFILE_FAULTS:
		return &flame_backend_faults;
	case FLAME_PROFILE_INSTRUCTIONS:
		return &flame_backend_valgrind;
	default:
		return flame_profiler_is_command(o->profiler) ? &flame_backend_command
							      : &flame_backend_cpu;
	}
}

int flame_capture_run(const struct flame_capture_opts *o, const char *dir,
		      struct flame_run *run)
{
	const struct flame_backend *b = flame_backend_of(o);
	char *log = xstrfmt("%s/run.log", o->scratch);
	int ret = 0;

	memset(run, 0, sizeof(*run));
	folded_profile_init(&run->folded);
	if ((o->timed || !b) && flame_timed_run(o, dir, run))
		ret = 1;
	else if (b)
		ret = b->capture(o, dir, log, run);
	/* On-CPU samples after the warm-up (or blocked us): shares come from these. */
	run->samples = run->folded.total[0];
	free(log);
	return ret;
}

const char *flame_profile_describe(const struct flame_capture_opts *o, char *buf, size_t n)
{
	const struct flame_backend *b = flame_backend_of(o);

	if (b)
		b->counts(o, buf, n);
	else
		snprintf(buf, n, "no profile (the metric alone)");
	return buf;
}

const char *flame_profiler_describe(const struct flame_capture_opts *o, char *buf, size_t n)
{
	const struct flame_backend *b = flame_backend_of(o);

	if (b)
		b->profiler(o, buf, n);
	else
		snprintf(buf, n, "none (unprofiled runs)");
	return buf;
}

const char *flame_profile_view(const struct flame_capture_opts *o)
{
	const struct flame_backend *b = flame_backend_of(o);

	return b ? b->view : "none";
}

int flame_profile_counts_memory(const struct flame_capture_opts *o)
{
	const struct flame_backend *b = flame_backend_of(o);

	return b && b->memory;
}

int flame_metric_counts_memory(enum flame_metric m, const char *profiler)
{
	struct flame_capture_opts o;

	memset(&o, 0, sizeof(o));
	o.profile = flame_metric_profile(m, 0, profiler);
	o.profiler = profiler;
	return flame_profile_counts_memory(&o);
}

void flame_profile_weight(const struct flame_capture_opts *o, struct folded_weight_info *w)
{
	const struct flame_backend *b = flame_backend_of(o);
	long page = sysconf(_SC_PAGESIZE);

	memset(w, 0, sizeof(*w));
	w->weight = FOLDED_WEIGHT_SAMPLES;
	if (b == &flame_backend_cpu && o->freq) {
		snprintf(w->type, sizeof(w->type), "cpu");
		w->period = (double)llround(1e9 / o->freq);
		snprintf(w->period_unit, sizeof(w->period_unit), "ns");
	} else if (b == &flame_backend_alloc) {
		snprintf(w->type, sizeof(w->type), "%s", o->alloc_peak ? "inuse-peak" : "alloc-space");
		w->period = (double)(o->alloc_interval ? o->alloc_interval : FLAME_ALLOC_INTERVAL);
		snprintf(w->period_unit, sizeof(w->period_unit), "bytes");
	} else if (b == &flame_backend_faults) {
		/* each fault first touches a page: resident bytes, where they were first written */
		snprintf(w->type, sizeof(w->type), "page-faults");
		w->period = (double)flame_faults_per_sample() * (double)(page > 0 ? page : 4096);
		snprintf(w->period_unit, sizeof(w->period_unit), "bytes");
	}
}

int flame_capture_check(const struct flame_capture_opts *o)
{
	const struct flame_backend *b = flame_backend_of(o);

	return b ? b->check(o) : 0;
}

void flame_record_argv(const struct flame_capture_opts *o, const char *out, int check,
		       struct string_list *argv)
{
	const struct flame_backend *b = flame_backend_of(o);

	if (b)
		b->record_argv(o, out, check, argv);
	else
		flame_record_add_workload(o, check, 0, argv);
}
