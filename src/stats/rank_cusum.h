/*
 * rank_cusum.h - the rank test of a series with no change: the largest
 * CUSUM of the points' ranks (Pettitt 1979's statistic), scaled by the
 * ranks' long-run standard deviation under AR(1) dependence, against the
 * Kolmogorov distribution of the Brownian bridge's largest excursion.
 * Ranks make it blind to the noise's tails; the long-run variance makes
 * it hold when a shared machine's load carries from one commit to the next.
 */
#ifndef TRAIL_STATS_RANK_CUSUM_H
#define TRAIL_STATS_RANK_CUSUM_H

#include <stddef.h>

/* The largest lag-1 autocorrelation stats_ar1_rho_levels gives (19x the variance). */
#define STATS_AR1_MAX_RHO 0.9

struct stats_rank_cusum {
	double stat;		/* max_k |S_k| / sqrt(n var(rank) lrv), lrv by stats_lrv_ratio */
	double rho;		/* the ranks' lag-1 autocorrelation around the step at
				 * at (stats_ar1_rho_levels), within [0, STATS_AR1_MAX_RHO] */
	double p;		/* P(sup |B(t)| >= stat): Kolmogorov's series */
	size_t at;		/* the split with the largest |CUSUM|: sides [0, at), [at, n) */
};

/* Midranks of x[0..n) into r (1..n, ties share their mean rank). */
void stats_midranks(const double *x, size_t n, double *r);

/*
 * The test of "x[0..n) has no change" (n >= 4): ranks, their CUSUM's
 * largest excursion over every split, and the autocorrelation of the
 * ranks around the step it found.  The p-value
 * is of the whole search: one test per series, whatever split it finds.
 */
void stats_rank_cusum(const double *x, size_t n, struct stats_rank_cusum *out);
/*
 * The same when each point carries independent noise of variance
 * white_var (its runs' spread of its mean): the ranks' long-run variance
 * by stats_lrv_ratio, with the share of the points' variance around the
 * step that white_var is.
 */
void stats_rank_cusum_noise(const double *x, size_t n, double white_var,
			    struct stats_rank_cusum *out);

/*
 * The lag-1 autocorrelation of x[0..n) around the levels of [0, k),
 * [k, end) and [end, n), bias-corrected (Kendall 1954), within
 * [0, STATS_AR1_MAX_RHO] (steps other than the split's pass for dependence:
 * conservative then).
 */
double stats_ar1_rho_levels(const double *x, size_t n, size_t k, size_t end);

/*
 * The long-run variance of points over their variance, from their lag-1
 * autocorrelation r when a share white of their variance is independent
 * noise (a run's, around a level that may carry over: ARMA(1,1)): the
 * levels' autocorrelation is phi = r / (1 - white) (at most
 * STATS_AR1_MAX_RHO) and the ratio 1 + 2 r / (1 - phi); white 0 gives
 * AR(1)'s (1 + r) / (1 - r).
 */
double stats_lrv_ratio(double r, double white);

/* The squared deviations of x[0..n) from the means of [0, k), [k, end) and [end, n). */
double stats_ss_levels(const double *x, size_t n, size_t k, size_t end);
/*
 * The share of x[0..n)'s variance around those levels that independent
 * noise of variance white_var per point is (0 without it, at most 1).
 */
double stats_white_share(const double *x, size_t n, size_t k, size_t end, double white_var);

/* P(sup over [0, 1] of |Brownian bridge| >= t) (Kolmogorov 1933). */
double stats_kolmogorov_q(double t);

#endif
