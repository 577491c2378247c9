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

#endif
