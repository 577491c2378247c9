/*
 * guard.c - the metric's verdict of trail history guard (guard.h): a
 * one-sided Mann-Whitney test of REV's runs against the stored commits'
 * (exact for small samples, stats/rank_sum.h) and the bootstrap interval
 * of the ratio of medians, which must clear the bound as a whole.
 */
#include "history/guard.h"
#include "stats/two_sample.h"

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
