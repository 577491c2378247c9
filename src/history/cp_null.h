/*
 * cp_null.h - the null distribution of changepoint.c's split test, by
 * simulation: for n points with no change, heavy-tailed and AR(1) with
 * the series' own autocorrelation, how small
 * the t-test p-value of the split E-Divisive picks comes out.  That is the
 * calibrated p-value of an observed split, whatever the search looked at.
 * The split and its t are invariant to the series' level and scale, so one
 * table per (n, min_size) serves every series of that length; a cache
 * keeps the tables of one detection (the metric and every function).
 */
#ifndef TRAIL_HISTORY_CP_NULL_H
#define TRAIL_HISTORY_CP_NULL_H

#include <stddef.h>
#include <stdint.h>

/* Past this many points a table costs too much: changepoint.c takes the rank CUSUM. */
#define CP_NULL_MAX_N 160
/* Runs per point simulated at most; with more, points are judged by their spread alone. */
#define CP_NULL_MAX_RUNS 64

struct cp_null_table {
	size_t n, min_size;
	unsigned df;		/* of the Student's t the points are drawn from */
	unsigned runs;		/* each point the mean of this many runs (wv known), or 0 */
	int rho10;		/* the points AR(1) with lag-1 autocorrelation rho10 / 10 */
	double *u;		/* sorted: the simulated series' split p-values */
	size_t nu;
};

struct cp_null_cache {
	struct cp_null_table *t;
	size_t nr;
	unsigned sims;		/* series simulated per table */
	uint64_t seed;
};

void cp_null_cache_init(struct cp_null_cache *c, unsigned sims, uint64_t seed);
void cp_null_cache_release(struct cp_null_cache *c);

/*
 * P(u_null <= u): the probability that a series of n points without a
 * change, drawn from Student's t with df degrees of freedom (0: 3) - and,
 * plain points only, AR(1) with lag-1 autocorrelation rho (taken up to
 * the next tenth, at most STATS_AR1_MAX_RHO) - gives a split whose t-test
 * p-value is u or less, (1 + #{simulated <= u}) / (1 + sims).  runs >= 2:
 * each point is the mean of that many independent draws, tested with
 * their variance (cp_split_test_p_runs); 0 or 1: plain points.  Up to
 * CP_NULL_MAX_N points; 1 beyond (changepoint.c tests longer series by
 * ranks).
 */
double cp_null_p(struct cp_null_cache *c, size_t n, size_t min_size, unsigned df, unsigned runs,
		 double rho, double u);

#endif
