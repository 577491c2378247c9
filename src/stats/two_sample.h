/*
 * two_sample.h - is one sample larger than another?  The Mann-Whitney U
 * test (valid for skewed data such as timings: it compares ranks) and
 * Welch's t.  Pure computation; -1 with an error on an empty sample or a
 * non-finite value.
 */
#ifndef TRAIL_STATS_TWO_SAMPLE_H
#define TRAIL_STATS_TWO_SAMPLE_H

#include <stddef.h>

/* Mann-Whitney U test of a against b. */
struct stats_mwu {
	double u_a;		/* U statistic of a: pairs (a_i, b_j) with a_i > b_j, ties count 1/2 */
	double z;		/* normal approximation, tie-corrected, continuity-corrected
				 * (whether or not p is exact) */
	double p_greater;	/* one-sided p-value against "a tends to be larger": P(U >= u_a) */
	double p_less;		/* one-sided p-value against "a tends to be smaller": P(U <= u_a) */
	double p;		/* two-sided: twice the smaller one-sided p, at most 1;
				 * all three are 1 when the samples give no information */
	int exact;		/* 1: p-values from the exact null distribution; 0: normal */
};

/*
 * Mann & Whitney (1947).  Small samples (up to STATS_RANK_SUM_MAX_WORK
 * steps of counting: 5 runs against up to 300, 20 against 60, 35 against
 * 35; stats/rank_sum.h) get the exact permutation distribution of the
 * rank sum, ties at their midranks (the distribution given the ties, so the
 * test keeps its level with ties too).  Larger ones get the normal
 * approximation, the variance corrected for ties (Lehmann, "Nonparametrics",
 * 1975, eq. 1.45) and a continuity correction of 1/2 on each tail.  Valid
 * for skewed data such as timings, because it compares ranks, not means.
 */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_mwu *out);

/* Welch's unequal-variances t-test (Welch 1947, Welch-Satterthwaite df). */
struct stats_welch {
	double t;		/* (mean_a - mean_b) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
};
int stats_welch_t(const double *a, size_t na, const double *b, size_t nb,
		  struct stats_welch *out);

#endif
