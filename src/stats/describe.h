/*
 * describe.h - one sample described: quantiles, the median (by selection,
 * no full sort), its distribution-free confidence interval, outliers, and
 * the summary of a benchmark's timings.  Pure computation on arrays of
 * doubles; functions that can fail return trail_error(...) (-1).
 */
#ifndef TRAIL_STATS_DESCRIBE_H
#define TRAIL_STATS_DESCRIBE_H

#include <stddef.h>

/* Outlier threshold on the modified z-score (Iglewicz & Hoaglin, 1993). */
#define STATS_OUTLIER_Z 3.5

/* Descriptive statistics of one sample; values are in the sample's unit. */
struct stats_summary {
	size_t n;		/* sample size */
	double mean;
	double stddev;		/* sample standard deviation (n-1); 0 when n < 2 */
	double median;
	double min, max;
	double p95, p99;	/* percentiles, linear interpolation (Hyndman-Fan type 7) */
	double mad;		/* median absolute deviation from the median, unscaled */
	size_t outliers;	/* values with |modified z-score| > STATS_OUTLIER_Z */
	double median_lo, median_hi;	/* 95% distribution-free interval of the median */
};

/* Compute *out from x[0..n-1] (not modified).  -1 when n == 0 or a value is not finite. */
int stats_summarize(const double *x, size_t n, struct stats_summary *out);

/* The q-quantile (0 <= q <= 1) of an ascending array, Hyndman-Fan type 7. */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * Distribution-free confidence interval of the median from order statistics
 * (Conover, "Practical Nonparametric Statistics", 3rd ed., 1999, sec. 3.2):
 * [x_(j), x_(n-j+1)] with the largest j such that 2 P(Binomial(n, 1/2) <=
 * j-1) <= 1 - confidence.  With too few values (n < 6 at 95%) it is
 * [min, max], whose coverage is then below the requested confidence.
 */
int stats_median_ci(const double *x, size_t n, double confidence, double *lo, double *hi);

/*
 * Counts of one build (instructions, est-cycles) that agree within this,
 * relative, are the same count: the one tolerance of trail's exact path
 * (bench --metric, flame's ends and probes, history guard).
 */
#define STATS_EXACT_TOLERANCE 1e-4

/* (max - min) / max of x[0..n-1]: how far repeated counts disagree; 0 when identical, or n == 0. */
double stats_spread(const double *x, size_t n);

/* Median of x[0..n-1] (not modified); n must be > 0. */
double stats_median(const double *x, size_t n);

/*
 * Modified z-score of value v: 0.6745 (v - median) / MAD (Iglewicz &
 * Hoaglin); when MAD is 0, (v - median) / (1.253314 * mean absolute
 * deviation) as they suggest; 0 when both are 0 (all values identical).
 * Returns the number of outliers; flags[i] (may be NULL) is set to 1 for
 * each outlier and 0 otherwise.
 */
size_t stats_outliers(const double *x, size_t n, unsigned char *flags);

/* Sort x[0..n-1] ascending (NaNs are the caller's to keep out). */
void stats_sort(double *x, size_t n);

/* The q-quantile of x[0..n-1], which is sorted in place (type 7, as above). */
double stats_quantile_inplace(double *x, size_t n, double q);
/* The q-quantile of x[0..n-1] (not modified; sorts a copy). */
double stats_quantile(const double *x, size_t n, double q);

/* Median of x[0..n-1], which is reordered (no allocation); n must be > 0. */
double stats_median_inplace(double *x, size_t n);

/* 0, or -1 with an error when x[0..n-1] is empty or holds a non-finite value (what names it). */
int stats_check_sample(const double *x, size_t n, const char *what);

#endif
