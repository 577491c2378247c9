/*
 * plausible.c - the sanity bounds a result must meet before it is stored
 * or read (see plausible.h).  Counts are samples and runs: never negative,
 * never beyond HISTORY_VALUE_MAX; a run of a metric is a duration, a size
 * or a count of a run that happened, so a series of zeros is no run at all.
 */
#include "history/plausible.h"

#include <math.h>
#include <stdio.h>

static int bad_count(double x)
{
	return !isfinite(x) || x < 0 || x > HISTORY_VALUE_MAX;
}

/* The first bad one of x[0..nx), as "what N is X"; 1 when there is one. */
static int bad_counts(const double *x, size_t nx, const char *what, char *why, size_t n)
{
	size_t i;

	for (i = 0; x && i < nx; i++)
		if (bad_count(x[i])) {
			snprintf(why, n, "%s %zu is %g (a count or measurement is 0 to %g)", what,
				 i + 1, x[i], HISTORY_VALUE_MAX);
			return 1;
		}
	return 0;
}

static int bad_funcs(const struct history_result *r, char *why, size_t n)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++) {
		const struct history_func *f = &r->funcs[i];

		if (bad_count(f->self) || bad_count(f->total)) {
			snprintf(why, n, "function %zu has counts %g and %g (0 to %g)", i + 1,
				 f->self, f->total, HISTORY_VALUE_MAX);
			return 1;
		}
		if (f->run_self && bad_counts(f->run_self, r->nrun_samples, "a per-run count of a "
					      "function, run", why, n))
			return 1;
	}
	return 0;
}

int history_result_implausible(const struct history_result *r, char *why, size_t n)
{
	size_t i, zeros = 0;

	if (!r->metric || !*r->metric) {
		snprintf(why, n, "no metric name");
		return 1;
	}
	if (r->status == HISTORY_OK && !r->nruns) {
		snprintf(why, n, "stored as ok without a single run");
		return 1;
	}
	if (bad_counts(r->runs, r->nruns, "run", why, n))
		return 1;
	for (i = 0; i < r->nruns; i++)
		zeros += r->runs[i] == 0;
	if (r->nruns && zeros == r->nruns) {
		snprintf(why, n, "every run is 0 %s (no run lasts or uses nothing)", r->unit ? r->unit : "");
		return 1;
	}
	if (bad_count(r->samples) || bad_count(r->profiles) || !isfinite(r->time) || r->time < 0 ||
	    r->time > HISTORY_VALUE_MAX) {
		snprintf(why, n, "samples %g, profiles %g, time %g: not counts", r->samples,
			 r->profiles, r->time);
		return 1;
	}
	if (bad_counts(r->run_samples, r->nrun_samples, "the sample count of run", why, n) ||
	    bad_funcs(r, why, n))
		return 1;
	if (!isfinite(r->env.discard) || r->env.discard < 0 || r->env.discard >= 1 ||
	    bad_count(r->env.freq)) {
		snprintf(why, n, "discard fraction %g or frequency %g out of range", r->env.discard,
			 r->env.freq);
		return 1;
	}
	return 0;
}
