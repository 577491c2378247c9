/*
 * stats.h - the statistics of trail bench, and the API trail flame uses to
 * decide whether a slowdown is real: descriptive statistics of one sample,
 * outlier detection, the Mann-Whitney U test (and Welch's t), and a
 * bootstrap confidence interval for the ratio of medians (and of means).
 *
 * Everything here is pure computation on arrays of doubles: no I/O, no
 * allocation that outlives a call, deterministic (the bootstrap uses a
 * seeded generator), so results are reproducible and unit-testable.
 * Functions that can fail return trail_error(...) (-1), e.g. on an empty sample.
 */
#ifndef TRAIL_BENCH_STATS_H
#define TRAIL_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Outlier threshold on the modified z-score (Iglewicz & Hoaglin, 1993). */
#define BENCH_OUTLIER_Z 3.5

/* Descriptive statistics of one sample; values are in the sample's unit. */
struct bench_stats {
	size_t n;		/* sample size */
	double mean;
	double stddev;		/* sample standard deviation (n-1); 0 when n < 2 */
	double median;
	double min, max;
	double p95, p99;	/* percentiles, linear interpolation (Hyndman-Fan type 7) */
	double mad;		/* median absolute deviation from the median, unscaled */
	size_t outliers;	/* values with |modified z-score| > BENCH_OUTLIER_Z */
	double median_lo, median_hi;	/* 95% distribution-free interval of the median */
};

/* Compute *out from x[0..n-1] (not modified).  -1 when n == 0 or a value is not finite. */
int bench_stats_compute(const double *x, size_t n, struct bench_stats *out);

/* The q-quantile (0 <= q <= 1) of an ascending array, Hyndman-Fan type 7. */
double bench_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * Distribution-free confidence interval of the median from order statistics
 * (Conover, "Practical Nonparametric Statistics", 3rd ed., 1999, sec. 3.2):
 * [x_(j), x_(n-j+1)] with the largest j such that 2 P(Binomial(n, 1/2) <=
 * j-1) <= 1 - confidence.  With too few values (n < 6 at 95%) it is
 * [min, max], whose coverage is then below the requested confidence.
 */
int bench_median_ci(const double *x, size_t n, double confidence, double *lo, double *hi);

/* Median of x[0..n-1] (not modified); n must be > 0. */
double bench_median(const double *x, size_t n);

/*
 * Modified z-score of value v: 0.6745 (v - median) / MAD (Iglewicz &
 * Hoaglin); when MAD is 0, (v - median) / (1.253314 * mean absolute
 * deviation) as they suggest; 0 when both are 0 (all values identical).
 * Returns the number of outliers; flags[i] (may be NULL) is set to 1 for
 * each outlier and 0 otherwise.
 */
size_t bench_outliers(const double *x, size_t n, unsigned char *flags);

/* Mann-Whitney U test of a against b. */
struct bench_mwu {
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
 * Mann & Whitney (1947).  Small samples (up to BENCH_RANK_SUM_MAX_WORK
 * steps of counting: 5 runs against up to 300, 20 against 60, 35 against
 * 35; bench/rank_sum.h) get the exact permutation distribution of the
 * rank sum, ties at their midranks (the distribution given the ties, so the
 * test keeps its level with ties too).  Larger ones get the normal
 * approximation, the variance corrected for ties (Lehmann, "Nonparametrics",
 * 1975, eq. 1.45) and a continuity correction of 1/2 on each tail.  Valid
 * for skewed data such as timings, because it compares ranks, not means.
 */
int bench_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct bench_mwu *out);

/* Welch's unequal-variances t-test (Welch 1947, Welch-Satterthwaite df). */
struct bench_welch {
	double t;		/* (mean_a - mean_b) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided p-value */
};
int bench_welch_t(const double *a, size_t na, const double *b, size_t nb,
		  struct bench_welch *out);

/* Two-sided p-value of Student's t with df degrees of freedom. */
double bench_student_t_p(double t, double df);
/* Upper tail of Fisher's F with (d1, d2) degrees of freedom: P(F > f). */
double bench_f_upper_p(double f, double d1, double d2);
/* Standard normal upper-tail quantile z such that P(Z > z) = p, 0 < p < 1. */
double bench_normal_quantile(double p);

/* A ratio with its confidence interval. */
struct bench_ratio {
	double estimate;	/* stat(b) / stat(a) on the full samples */
	double lo, hi;		/* confidence interval (bootstrap percentile) */
};

#define BENCH_BOOTSTRAP_RESAMPLES 2000
#define BENCH_BOOTSTRAP_SEED 0x7472616966ULL

/*
 * Percentile bootstrap (Efron & Tibshirani, "An Introduction to the
 * Bootstrap", 1993, ch. 13) of median(b)/median(a) (use_mean == 0) or
 * mean(b)/mean(a): each resample draws na values from a and nb from b with
 * replacement.  confidence is e.g. 0.95.  A stat of 0 in a resample (all
 * values 0) makes that ratio infinite; the caller sees it in lo/hi.
 */
int bench_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			  int use_mean, double confidence, unsigned resamples,
			  uint64_t seed, struct bench_ratio *out);

enum bench_verdict {
	BENCH_SAME,		/* no significant difference */
	BENCH_FASTER,		/* b is faster than a */
	BENCH_SLOWER,		/* b is slower than a */
};

/* b (the candidate) compared with a (the reference). */
struct bench_comparison {
	double confidence;		/* e.g. 0.95; significance level is 1 - confidence */
	struct bench_ratio median_ratio;	/* median(b) / median(a) with CI */
	struct bench_ratio mean_ratio;		/* mean(b) / mean(a) with CI */
	struct bench_mwu mwu;		/* Mann-Whitney U of b against a (u_a is U of b) */
	struct bench_welch welch;	/* Welch's t of b against a */
	enum bench_verdict verdict;	/* from the Mann-Whitney p-value and direction */
};

/*
 * Compare b with a.  The verdict is decided by the Mann-Whitney test: b is
 * slower (faster) when p < 1 - confidence and b's values tend to be larger
 * (smaller), i.e. U_b > na*nb/2 (U_b < na*nb/2).  The ratios and their
 * intervals describe how much.
 */
int bench_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, struct bench_comparison *out);

const char *bench_verdict_name(enum bench_verdict v);

#endif
