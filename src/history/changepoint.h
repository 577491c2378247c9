/*
 * changepoint.h - change points of one per-commit series (a metric's
 * median, or a function's share, one value per stored commit, oldest
 * first): E-Divisive means, the method of Apache
 * Otava (formerly Hunter) and MongoDB's signal processing, to place each
 * split; Student's t beyond the minimum effect, calibrated by simulation
 * of heavy-tailed AR(1) series with the series' own autocorrelation
 * (cp_null.h), to test it - past 160 points the rank CUSUM with the
 * long-run variance (stats/rank_cusum.h).  Pure: no I/O, no clock; the simulations come
 * from a seeded generator, so one series always gives the same answer.
 */
#ifndef TRAIL_HISTORY_CHANGEPOINT_H
#define TRAIL_HISTORY_CHANGEPOINT_H

#include "history/cp_split.h"	/* the split and its test */

#include <stddef.h>
#include <stdint.h>

struct cp_null_cache;

struct cp_params {
	double alpha;		/* false-alarm rate of the series: P(a change point in a
				 * series without one), the whole series' split tested at it */
	double alpha_next;	/* each split's level once the whole series had one (0: alpha);
				 * P(a change point in a steady series) stays alpha: the
				 * first split is the gate of every later one */
	double min_effect;	/* smallest |after - before| that counts: a fraction of
				 * before when relative, else in the series' unit */
	int relative;		/* min_effect is relative to the level before */
	unsigned simulations;	/* null series per length (p >= 1 / (simulations + 1)) */
	size_t min_size;	/* fewest points on each side of a split (1 only with wv:
				 * a point's runs say where it is) */
	uint64_t seed;		/* of the simulations' generator */
	struct cp_null_cache *cache;	/* shared null tables, or NULL (one per call) */
	unsigned tails;		/* the null's points: Student's t with this many degrees
				 * of freedom (3; 5 when each point is a median of 3+ runs) */
	const double *wv;	/* each point's variance from its runs (the series'
				 * length), or NULL: see cp_split_test_p_runs */
	unsigned runs;		/* runs per point behind wv */
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

#endif
