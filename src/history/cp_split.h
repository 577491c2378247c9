/*
 * cp_split.h - one split of a series: E-Divisive's statistic and best
 * split, and the Student's t test of the split's sides beyond a minimum
 * effect (with each point's variance from its runs, when known).  changepoint.c segments with them; cp_null.c calibrates them.
 */
#ifndef TRAIL_HISTORY_CP_SPLIT_H
#define TRAIL_HISTORY_CP_SPLIT_H

#include <stddef.h>

/*
 * The E-Divisive statistic of splitting x[0..n-1] before k (m = k, r = n - k):
 * (m r / n) (2/(m r) sum|x_i - y_j| - 1/C(m,2) sum|x_i - x_i'| - 1/C(r,2) sum|y_j - y_j'|),
 * with exponent 1.  Exposed for the unit tests.
 */
double cp_statistic(const double *x, size_t n, size_t k);

/*
 * E-Divisive's best split of x[0..n-1] over every split point and right
 * end, min_size points a side: its statistic Q; the sides are [0, *at) and
 * [*at, *end).  *at is 0 when n is too short to split.
 */
double cp_best_split(const double *x, size_t n, size_t min_size, size_t *at, size_t *end);

/*
 * The test of the split before k of x[0..n) with sides [0, k) and [k, end):
 * the smaller two-sided p-value of Student's pooled t of [k, end) against
 * [0, k), and (a bump, end < n) against [0, k) and [end, n) together, with
 * min_effect (relative to the other side's mean when relative) taken off
 * the absolute difference of the means: 1 when it is within min_effect.
 */
double cp_split_test_p(const double *x, size_t n, size_t k, size_t end, double min_effect,
		       int relative);

/*
 * The same when each point is the mean of m runs and wv[i] is the
 * variance of point i's mean from its runs (their variance / m): the
 * noise is the points' spread pooled with their runs' (with both degrees
 * of freedom, and never below the runs' alone) when the two agree, else
 * the spread alone.  wv NULL or m < 2: as above.
 */
double cp_split_test_p_runs(const double *x, const double *wv, unsigned m, size_t n, size_t k,
			    size_t end, double min_effect, int relative);

/*
 * The same, and *over set when the test judged the points by their
 * spread alone because they differ more than their runs say (then its
 * p-value is calibrated as for points without runs).
 */
double cp_split_test_p_over(const double *x, const double *wv, unsigned m, size_t n, size_t k,
			    size_t end, double min_effect, int relative, int *over);

/*
 * cp_split_test_p on points whose lag-1 autocorrelation is rho, their
 * variance taken as the long-run one, lrv = (1 + rho) / (1 - rho) times
 * theirs (AR(1)): the t of the split studentised by the dependence the
 * points show around it, as cp_null.c's simulated series are by theirs,
 * so that a split that absorbed a wander of the load (and left the
 * residuals less dependent than the noise is) is no surer than the null
 * says of such splits.  lrv <= 1: cp_split_test_p.
 */
double cp_split_test_p_lrv(const double *x, size_t n, size_t k, size_t end, double min_effect,
			   int relative, double lrv);
/*
 * cp_split_test_p_lrv with the points' variance at least var_floor: what
 * their runs' sampling alone gives each point (the mean of its wv) - a
 * few points of a small count, alike by quantisation, have no spread, and
 * a split of them would be certain (a share of 72 of 74 samples a run
 * against 74 of 74).
 */
double cp_split_test_p_lrv_floor(const double *x, size_t n, size_t k, size_t end, double min_effect,
				 int relative, double lrv, double var_floor);

/*
 * That test of b[0..nb) against a[0..na) (wa, wb: their wv, or NULL), no
 * minimum effect: the two-sided p-value.
 */
double cp_runs_t_p(const double *a, const double *wa, size_t na, const double *b, const double *wb,
		   size_t nb, unsigned m);

#endif
