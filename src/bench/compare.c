/*
 * compare.c - trail bench's verdict on one command against the reference:
 * the Mann-Whitney decision with the ratios of medians and means and their
 * bootstrap intervals (compare.h).
 */
#include "bench/compare.h"
#include "core/verdict.h"
#include "stats/describe.h"

#include <math.h>
#include <string.h>

int bench_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, struct bench_comparison *out)
{
	memset(out, 0, sizeof(*out));
	out->confidence = confidence;
	if (stats_mann_whitney(b, nb, a, na, &out->mwu) ||
	    stats_welch_t(b, nb, a, na, &out->welch) ||
	    stats_bootstrap_ratio(a, na, b, nb, 0, confidence, STATS_BOOTSTRAP_RESAMPLES,
				  STATS_BOOTSTRAP_SEED, &out->median_ratio) ||
	    stats_bootstrap_ratio(a, na, b, nb, 1, confidence, STATS_BOOTSTRAP_RESAMPLES,
				  STATS_BOOTSTRAP_SEED, &out->mean_ratio))
		return -1;
	out->verdict = DIRECTION_SAME;
	if (out->mwu.p < 1 - confidence) {
		double half = (double)na * (double)nb / 2;

		if (out->mwu.u_a > half)
			out->verdict = DIRECTION_SLOWER;
		else if (out->mwu.u_a < half)
			out->verdict = DIRECTION_FASTER;
	}
	return 0;
}

int bench_compare_exact(const double *a, size_t na, const double *b, size_t nb,
			double tolerance, struct bench_comparison *out)
{
	double ma, mb, r;

	if (!na || !nb || stats_spread(a, na) > tolerance || stats_spread(b, nb) > tolerance)
		return 0;
	ma = stats_median(a, na);
	mb = stats_median(b, nb);
	memset(out, 0, sizeof(*out));
	out->confidence = 1;
	out->exact = 1;
	r = ma > 0 ? mb / ma : NAN;
	out->median_ratio.estimate = out->median_ratio.lo = out->median_ratio.hi = r;
	out->mean_ratio = out->median_ratio;
	out->mwu.p = out->welch.p = NAN;
	out->mwu.z = out->mwu.u_a = out->welch.t = out->welch.df = NAN;
	out->verdict = r > 1 + tolerance ? DIRECTION_SLOWER :
		       r < 1 - tolerance ? DIRECTION_FASTER : DIRECTION_SAME;
	return 1;
}
