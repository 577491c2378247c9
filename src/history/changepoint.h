/*
 * changepoint.h - change points of one per-commit series (a metric's
 * median, or a function's share, one value per stored commit, oldest
 * first): E-Divisive means, the method of Apache
 * Otava (formerly Hunter) and MongoDB's signal processing, to place each
 * split; Student's t beyond the minimum effect, calibrated by simulation
 * (cp_null.h), to test it.  Pure: no I/O, no clock; the simulations come
 * from a seeded generator, so one series always gives the same answer.
 */
#ifndef TRAIL_HISTORY_CHANGEPOINT_H
#define TRAIL_HISTORY_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct cp_null_cache;

struct cp_params {
	double alpha;		/* false-alarm rate of the series: P(a change point in a
				 * series without one), each split tested at it */
	double min_effect;	/* smallest |after - before| that counts: a fraction of
				 * before when relative, else in the series' unit */
	int relative;		/* min_effect is relative to the level before */
	unsigned simulations;	/* null series per length (p >= 1 / (simulations + 1)) */
	size_t min_size;	/* fewest points on each side of a split */
	uint64_t seed;		/* of the simulations' generator */
	struct cp_null_cache *cache;	/* shared null tables, or NULL (one per call) */
	unsigned tails;		/* the null's points: Student's t with this many degrees
				 * of freedom (3; 5 when each point is a median of 3+ runs) */
};

/* alpha 0.01, 3 % relative effect, 4999 simulations, 2 points a side, a fixed seed. */
void cp_params_init(struct cp_params *p);

struct cp_point {
	size_t index;		/* first point after the change (1 .. n-1) */
	double before, after;	/* medians of the segments on either side */
	double p;		/* calibrated p-value of the split */
};

/*
 * Change points of x[0..n-1], sorted by index: at most max of them into
 * out.  Returns how many were found.
 */
size_t cp_detect(const double *x, size_t n, const struct cp_params *p, struct cp_point *out,
		 size_t max);

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
 * Student's two-sample t-test with pooled variance (one benchmark's noise
 * on both sides): the two-sided p-value of mean(a) = mean(b); na + nb >= 3.
 */
double cp_student_p(const double *a, size_t na, const double *b, size_t nb);

#endif
