/*
 * guard.c - the metric's verdict of trail history guard (guard.h): a
 * one-sided Mann-Whitney test of REV's runs against the stored commits'
 * (exact for small samples, stats/rank_sum.h) and the bootstrap interval
 * of the ratio of medians, which must clear the bound as a whole.
 */
#include "history/guard.h"
#include "stats/describe.h"
#include "stats/two_sample.h"

#include <math.h>
#include <string.h>

int history_guard_metric(const double *base, size_t nb, const double *rev, size_t nr,
			 double alpha, double bound, struct history_guard_metric *out)
{
	struct stats_mwu mw;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (stats_mann_whitney(rev, nr, base, nb, &mw) ||
	    stats_bootstrap_ratio(base, nb, rev, nr, 0, 0.95, STATS_BOOTSTRAP_RESAMPLES,
				  STATS_BOOTSTRAP_SEED, &out->ratio))
		return -1;
	out->p = mw.p_greater;
	out->exact = mw.exact;
	out->slower = out->p < alpha && out->ratio.lo - 1 > bound;
	return 0;
}

int history_guard_counts(const double *base, size_t nb, const double *rev, size_t nr,
			 double alpha, double bound, double tolerance,
			 struct history_guard_metric *out)
{
	double rs = stats_spread(rev, nr), bs = stats_spread(base, nb), mb, r;
	size_t i;

	if (!nb || !nr)
		return -1;
	for (i = 0; i < nb; i++)
		if (!isfinite(base[i]))
			return -1;
	for (i = 0; i < nr; i++)
		if (!isfinite(rev[i]))
			return -1;
	if (rs > tolerance) {
		if (history_guard_metric(base, nb, rev, nr, alpha, bound, out))
			return -1;
		out->varied = 1;
	} else {
		memset(out, 0, sizeof(*out));
		mb = stats_median(base, nb);
		r = mb > 0 ? stats_median(rev, nr) / mb : NAN;
		out->counted = 1;
		out->p = NAN;
		out->ratio.estimate = out->ratio.lo = out->ratio.hi = r;
		out->slower = isfinite(r) && r - 1 > bound;
	}
	out->rev_spread = rs;
	out->base_spread = bs;
	return 0;
}
