/*
 * compare.h - trail bench's comparison of a command (b) with the reference
 * (a): the verdict (from the Mann-Whitney test) and how much (the ratios of
 * medians and means with bootstrap intervals).
 */
#ifndef TRAIL_BENCH_COMPARE_H
#define TRAIL_BENCH_COMPARE_H

#include <stddef.h>

#include "stats/bootstrap.h"
#include "core/verdict.h"
#include "stats/two_sample.h"

/* b (the candidate) compared with a (the reference). */
struct bench_comparison {
	double confidence;		/* e.g. 0.95; significance level is 1 - confidence */
	struct stats_ratio median_ratio;	/* median(b) / median(a) with CI */
	struct stats_ratio mean_ratio;		/* mean(b) / mean(a) with CI */
	struct stats_mwu mwu;		/* Mann-Whitney U of b against a (u_a is U of b) */
	struct stats_welch welch;	/* Welch's t of b against a */
	double p_family;		/* mwu.p adjusted over the comparisons made together
					 * (Holm); mwu.p when alone */
	size_t family;			/* how many were made together (1: alone) */
	size_t na, nb;			/* the runs compared */
	enum trail_direction verdict;	/* from p_family and the direction */
	int exact;			/* exact counts: the ratios are points, no test was made */
};

/*
 * Compare b with a.  The verdict is decided by the Mann-Whitney test: b is
 * slower (faster) when p < 1 - confidence and b's values tend to be larger
 * (smaller), i.e. U_b > na*nb/2 (U_b < na*nb/2).  The ratios and their
 * intervals describe how much.
 */
int bench_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, struct bench_comparison *out);
/*
 * Several commands compared with one reference (or a baseline) at once:
 * each verdict is decided again on its Holm-adjusted p-value
 * (stats_holm_adjust()), so the chance that any of the m verdicts is a
 * false "slower" or "faster" stays at most 1 - confidence, not up to m
 * times it.  The ratios' intervals stay at the confidence level each.
 */
void bench_compare_family(struct bench_comparison *const *cmp, size_t m);

/*
 * Exact counts (each side's values agree within tolerance, relative): the
 * ratio of the medians is the change, a point (lo = hi); b is slower or
 * faster when the ratio is beyond 1 +- tolerance.  No test and no p-value:
 * a rank test over 2+2 identical values says nothing a count does not
 * (mwu.p and welch.p are NAN).  Returns 1 when the counts were exact and
 * *out is filled, 0 when they vary (then use bench_compare()).
 */
int bench_compare_exact(const double *a, size_t na, const double *b, size_t nb,
			double tolerance, struct bench_comparison *out);

#endif
