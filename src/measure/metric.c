/*
 * metric.c - the table of trail flame's metrics (see metric.h): name,
 * unit, profile, how the value is taken and the step it is read in, in
 * one row per metric.
 */
#include "measure/metric.h"
#include "measure/capture.h"
#include "core/error.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct flame_metric_def metrics[] = {
	{ FLAME_METRIC_CPU, "cpu", "us", FLAME_PROFILE_CPU, 0, 0, 0, 0, 1, 1,
	  "default: CPU time of the workload, user+sys", 0, 0 },
	{ FLAME_METRIC_WALL, "wall", "s", FLAME_PROFILE_CPU, 0, 0, 1, 0, 1e-9, 1, "run time", 0, 0 },
	/* wall (ns) less CPU time (us) */
	{ FLAME_METRIC_OFFCPU, "offcpu", "s", FLAME_PROFILE_CPU, 0, 0, 1, 0, 1e-6, 0,
	  "run time minus CPU time; off-CPU profiles", 0, 0 },
	/* ru_maxrss is KiB of whole pages: the page size, below */
	{ FLAME_METRIC_RSS, "rss", "KiB", FLAME_PROFILE_FAULTS, 1, 0, 1, 0, 4, 1,
	  "peak RSS; page-fault profiles", 0, 0 },
	{ FLAME_METRIC_ALLOC, "alloc", "bytes", FLAME_PROFILE_ALLOC, 0, 1, 0, 0, 1, 1, "bytes allocated",
	  0, 0 },
	{ FLAME_METRIC_PEAK_HEAP, "peak-heap", "bytes", FLAME_PROFILE_ALLOC, 0, 1, 0, 1, 1, 1,
	  "peak live heap; allocation-site profiles", 0, 0 },
	/* counted under callgrind (backend_valgrind.c): exact, so 0.5 % is a real change */
	{ FLAME_METRIC_INSTRUCTIONS, "instructions", "instructions", FLAME_PROFILE_INSTRUCTIONS,
	  0, 1, 0, 0, 1, 1, "user-space instructions counted under callgrind: exact, one run per probe",
	  1, 0.005 },
	{ FLAME_METRIC_EST_CYCLES, "est-cycles", "cycles", FLAME_PROFILE_INSTRUCTIONS,
	  0, 1, 0, 0, 1, 1, "instructions + 10 x L1 + 100 x LL misses, callgrind's cache model", 1,
	  0.005 },
};
#define NR_METRICS (sizeof(metrics) / sizeof(metrics[0]))

const struct flame_metric_def *flame_metric_def(enum flame_metric m)
{
	size_t i;

	for (i = 0; i < NR_METRICS; i++)
		if (metrics[i].metric == m)
			return &metrics[i];
	return &metrics[0];
}

const struct flame_metric_def *flame_metric_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NR_METRICS; i++)
		if (!strcmp(name, metrics[i].name))
			return &metrics[i];
	return NULL;
}

const char *flame_metric_share_of(const char *name)
{
	const struct flame_metric_def *d = name ? flame_metric_find(name) : NULL;

	return d && d->profile == FLAME_PROFILE_INSTRUCTIONS ? d->unit : "samples";
}

const char *flame_metric_per_run(enum flame_metric m)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s/run", flame_metric_share_of(flame_metric_name(m)));
	return buf;
}

const char *flame_metric_bytes_per_run(enum flame_metric m)
{
	return m == FLAME_METRIC_PEAK_HEAP ? "bytes live at the peak per run" : "bytes allocated per run";
}

double flame_metric_min_effect(const struct flame_metric_def *d)
{
	return d && d->min_effect > 0 ? d->min_effect : 0.03;
}

const char *flame_metric_names(const char *sep, int history_only)
{
	static char buf[512];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_METRICS && n < sizeof(buf); i++)
		if (!history_only || metrics[i].history)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? sep : "",
					      metrics[i].name);
	return buf;
}

const char *flame_metric_help(int history_only)
{
	static char buf[1024];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NR_METRICS && n < sizeof(buf); i++)
		if (!history_only || metrics[i].history)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s (%s)", n ? ", " : "",
					      metrics[i].name, metrics[i].help);
	return buf;
}

static int parse(const char *name, int history_only, enum flame_metric *m)
{
	size_t i;

	for (i = 0; i < NR_METRICS; i++)
		if (!strcmp(name, metrics[i].name) && (!history_only || metrics[i].history)) {
			*m = metrics[i].metric;
			return 0;
		}
	return trail_error("unknown metric '%s'%s (%s)", name, history_only ? " for trail history" : "",
			   flame_metric_names(", ", history_only));
}

int flame_metric_parse(const char *name, enum flame_metric *m)
{
	return parse(name, 0, m);
}

int flame_metric_parse_history(const char *name, enum flame_metric *m)
{
	*m = FLAME_METRIC_CPU;
	return parse(name, 1, m);
}

const char *flame_metric_name(enum flame_metric m)
{
	return flame_metric_def(m)->name;
}

const char *flame_metric_unit(enum flame_metric m)
{
	return flame_metric_def(m)->unit;
}

double flame_metric_resolution(enum flame_metric m)
{
	long page = sysconf(_SC_PAGESIZE);

	if (m == FLAME_METRIC_RSS && page >= 1024)
		return (double)page / 1024;
	return flame_metric_def(m)->resolution;
}

int flame_metric_deterministic(enum flame_metric m)
{
	return flame_metric_def(m)->deterministic;
}

enum flame_profile flame_metric_profile(enum flame_metric m, int offcpu, const char *profiler)
{
	const struct flame_metric_def *d = flame_metric_def(m);

	if (d->profile != FLAME_PROFILE_CPU &&
	    !(d->own_profiler_cpu && flame_profiler_is_command(profiler)))
		return d->profile;
	return offcpu ? FLAME_PROFILE_OFFCPU : FLAME_PROFILE_CPU;
}

int flame_metric_from_profile(enum flame_metric m)
{
	return flame_metric_def(m)->from_profile;
}

void flame_metric_capture(enum flame_metric m, int offcpu, const char *profiler,
			  struct flame_capture_opts *o)
{
	const struct flame_metric_def *d = flame_metric_def(m);

	o->timed = d->timed;
	o->profile = flame_metric_profile(m, offcpu, profiler);
	o->alloc_peak = d->peak;
	o->cache_sim = m == FLAME_METRIC_EST_CYCLES;
}
