/*
 * changepoint.h - change points of one per-commit series (a metric's
 * median, or a function's share, one value per stored commit, oldest
 * first): E-Divisive means with a permutation test, the method of Apache
 * Otava (formerly Hunter) and MongoDB's signal processing.  Pure: no I/O,
 * no clock; the permutations come from a seeded generator, so one series
 * always gives the same answer.
 */
#ifndef TRAIL_HISTORY_CHANGEPOINT_H
#define TRAIL_HISTORY_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

struct cp_params {
	double alpha;		/* false-alarm rate of each split's permutation test */
	double min_effect;	/* smallest |after - before| that counts: a fraction of
				 * before when relative, else in the series' unit */
	int relative;		/* min_effect is relative to the level before */
	unsigned permutations;	/* permutations per test (p >= 1 / (permutations + 1)) */
	size_t min_size;	/* fewest points on each side of a split */
	uint64_t seed;		/* of the permutation generator */
};

/* alpha 0.01, 3 % relative effect, 499 permutations, 2 points a side, a fixed seed. */
void cp_params_init(struct cp_params *p);

struct cp_point {
	size_t index;		/* first point after the change (1 .. n-1) */
	double before, after;	/* medians of the segments on either side */
	double p;		/* permutation p-value of the split */
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
 * Student's two-sample t-test with pooled variance (one benchmark's noise
 * on both sides): the two-sided p-value of mean(a) = mean(b); na + nb >= 3.
 */
double cp_student_p(const double *a, size_t na, const double *b, size_t nb);

#endif
