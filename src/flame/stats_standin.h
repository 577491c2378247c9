/*
 * stats_standin.h - STAND-IN until src/bench/stats.h lands on main: the
 * two-sided Mann-Whitney U test (normal approximation, tie-corrected) and
 * the standard normal CDF.  Replaced by bench_compare() once available.
 */
#ifndef TRAIL_FLAME_STATS_STANDIN_H
#define TRAIL_FLAME_STATS_STANDIN_H

#include <stddef.h>

/* Two-sided p-value of H0 "a and b come from one distribution"; *b_larger
 * is set when b's values tend to be larger (U_b > na nb / 2). */
double flame_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
			    int *b_larger);
/* P(Z <= z) for a standard normal Z. */
double flame_normal_cdf(double z);
/* Median of x[0..n-1] (copied, not modified); 0 when n == 0. */
double flame_median(const double *x, size_t n);

#endif
