/*
 * changepoint.c - E-Divisive means (Matteson and James, "A Nonparametric
 * Approach for Multiple Change Point Analysis of Multivariate Data", JASA
 * 2014), as in Apache Otava / Hunter (Fleming et al., ICPE 2023) and
 * MongoDB's CI, to place a split: the one that maximises the energy
 * statistic Q over every split point and right end of the segment.  Its
 * test is Student's t of the two sides with the minimum effect taken off
 * the difference and studentised by the points' dependence around the
 * split, calibrated by cp_null.c (the split was the best of many,
 * so the plain t p-value would be far too small) on series as
 * heavy-tailed as t3 and as autocorrelated as this one; past
 * CP_NULL_MAX_N points the rank CUSUM (stats/rank_cusum.c).  A significant split
 * is kept and both sides are searched again (binary segmentation).
 */
#include "history/changepoint.h"
#include "stats/describe.h"

#include "core/alloc.h"
#include "history/cp_null.h"
#include "stats/rank_cusum.h"
#include "history/cp_split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cp_params_init(struct cp_params *p)
{
	p->alpha = 0.01;
	p->alpha_next = 0;
	p->min_effect = 0.03;
	p->relative = 1;
	p->simulations = 4999;
	p->min_size = 2;
	p->seed = 0x9e3779b97f4a7c15ULL;
	p->cache = NULL;
	p->tails = 3;
	p->wv = NULL;
	p->runs = 0;
}


/*
 * The lag-1 autocorrelation of the points x[0..n) around the split's
 * levels (stats_ar1_rho_levels), as that of AR(1) points with the same
 * long-run variance.  With wv (each point's variance from its runs), the
 * points are a commit's own level, which may carry over to the next, plus
 * its runs' noise, which does not: the lag-1 autocorrelation r is then s
 * phi (s the share of the points' spread that is not the runs', phi the
 * commits' own autocorrelation), and the long-run variance over the
 * variance 1 + 2 r / (1 - phi) (ARMA(1,1)), more than AR(1) with r says.
 */
static double points_rho(const double *x, const double *wv, size_t n, size_t k, size_t end)
{
	double r = stats_ar1_rho_levels(x, n, k, end), w = 0, f;
	size_t i;

	if (!wv || !(r > 0) || n < 4)
		return r;
	for (i = 0; i < n; i++)
		w += wv[i] / (double)n;
	f = stats_lrv_ratio(r, stats_white_share(x, n, k, end, w));
	return fmin((f - 1) / (f + 1), STATS_AR1_MAX_RHO);
}

/*
 * The calibrated p-value of the split before k of x[0..n) (sides [0, k)
 * and [k, end)): Student's t of the two sides - and, for a bump (end < n),
 * of [k, end) against the points either side of it, the smaller p - with
 * the minimum effect taken off the difference (so a change is significant
 * only when it is beyond the minimum effect, not merely beyond zero: a
 * drift of the machine below it never is, however many commits show it),
 * looked up in the null distribution of that statistic at the best split
 * (cp_null.c), which accounts for the search over every split and end.
 * With runs (the points' wv, runs_test): the table of points with runs,
 * when the points differ no more than their runs say.  Otherwise the
 * points alone: their t studentised by their dependence (points_rho)
 * against AR(1) series as dependent, studentised by theirs.
 */
static double split_p(const double *x, const double *wv, int runs_test, size_t n, size_t k,
		      size_t end, size_t min_size, const struct cp_params *p,
		      struct cp_null_cache *cache)
{
	unsigned runs = wv && p->runs >= 2 && p->runs <= CP_NULL_MAX_RUNS ? p->runs : 0;
	int over = 0;
	double u, rho, floor = 0;
	size_t i;

	if (runs && runs_test) {
		u = cp_split_test_p_over(x, wv, runs, n, k, end, p->min_effect, p->relative, &over);
		if (!over)
			return cp_null_p(cache, n, min_size, p->tails, runs, 0, u);
	}
	rho = points_rho(x, runs ? wv : NULL, n, k, end);
	/* never surer than the points' runs allow (cp_split_test_p_lrv_floor) */
	for (i = 0; runs && i < n; i++)
		floor += wv[i] / (double)n;
	u = cp_split_test_p_lrv_floor(x, n, k, end, p->min_effect, p->relative,
				      stats_lrv_ratio(rho, 0), floor);
	return cp_null_p(cache, n, min_size, p->tails, 0, rho, u);
}

static int cmp_point(const void *a, const void *b)
{
	size_t x = ((const struct cp_point *)a)->index, y = ((const struct cp_point *)b)->index;

	return (x > y) - (x < y);
}

/*
 * The test of segment x[0..len), placed by E-Divisive (*k, *end: 0 when
 * nothing can be split).  Up to CP_NULL_MAX_N points, split_p on the
 * points alone, two a side at least: the t test at the best split against
 * simulated series as heavy-tailed as t3 and as dependent as the points
 * are (rho around the split: stats_ar1_rho_levels).  Longer, the rank CUSUM
 * (stats_rank_cusum), which holds its level whatever the tails and under
 * AR(1) dependence.  With runs (min_size 1), also the best split with a
 * side of one stored commit judged by its runs; two tests, the smaller
 * p doubled (Bonferroni).
 */
/*
 * The rank CUSUM's p-value of x[0..n) with the side after k moved back
 * toward the side before by the minimum effect: significant only when
 * the step is beyond it (as split_p's t is), so that a drift or a load
 * step below the minimum effect is not a change however long the series.
 */
static double beyond_min_effect(const double *x, size_t n, size_t k, double white_var,
				const struct cp_params *p)
{
	double *y = xmallocarray(n, sizeof(double)), before, after, d;
	struct stats_rank_cusum rt;
	size_t i;

	before = stats_median(x, k);
	after = stats_median(x + k, n - k);
	d = p->min_effect * (p->relative ? fabs(before) : 1) * (after > before ? 1 : -1);
	for (i = 0; i < n; i++)
		y[i] = i < k ? x[i] : x[i] - d;
	stats_rank_cusum_noise(y, n, white_var, &rt);
	free(y);
	return rt.p;
}

/* The points' autocorrelation past which their runs do not stand in for them. */
#define CP_RUNS_MAX_RHO 0.2
/* Fewer points say too little of their autocorrelation to overrule their runs. */
#define CP_RHO_MIN_N 20

static double segment_p(const double *x, const double *wv, size_t len, const struct cp_params *p,
			struct cp_null_cache *cache, size_t *k, size_t *end)
{
	size_t min_size = p->min_size ? p->min_size : 1, ms = min_size < 2 ? 2 : min_size, k2, end2;
	double pv = 1, p2;
	struct stats_rank_cusum rt;

	*k = 0;
	*end = len;
	if (len >= 2 * ms) {
		if (len > CP_NULL_MAX_N) {
			/* the step the CUSUM tested, sides large enough for their medians to say its size */
			double white_var = 0;
			size_t i;

			/* each point's runs' variance: noise that does not carry over */
			for (i = 0; wv && p->runs >= 2 && i < len; i++)
				white_var += wv[i] / (double)len;
			stats_rank_cusum_noise(x, len, white_var, &rt);
			pv = rt.p;
			*k = rt.at;
			*end = len;
			if (*k && p->min_effect > 0)
				pv = fmax(pv, beyond_min_effect(x, len, *k, white_var, p));
		} else if (cp_best_split(x, len, ms, k, end), *k) {
			pv = split_p(x, wv, 0, len, *k, *end, ms, p, cache);
		}
	}
	if (ms == min_size || !wv || len > CP_NULL_MAX_N || len < 2)
		return *k ? pv : 1;
	cp_best_split(x, len, min_size, &k2, &end2);
	/*
	 * points that carry their load over to the next (AR(1)) spread less
	 * around their segments' levels than their dependence makes them
	 * wander, so their runs would seem to agree: then the points alone
	 */
	if (!k2 || (len >= CP_RHO_MIN_N && points_rho(x, wv, len, k2, end2) > CP_RUNS_MAX_RHO))
		return *k ? fmin(1, 2 * pv) : 1;
	p2 = split_p(x, wv, 1, len, k2, end2, min_size, p, cache);
	if (p2 < pv || !*k) {
		*k = k2;
		*end = end2;
	}
	return fmin(1, 2 * fmin(pv, p2));
}

size_t cp_detect(const double *x, size_t n, const struct cp_params *p, struct cp_point *out,
		 size_t max)
{
	size_t *stack, top = 0, found = 0, k, min_size = p->min_size ? p->min_size : 1;
	struct cp_null_cache own, *cache = p->cache;
	double next_alpha = p->alpha_next > 0 ? p->alpha_next : p->alpha;

	if (n < 2 * min_size || n < 2 || !max)
		return 0;
	if (!cache) {
		cp_null_cache_init(&own, p->simulations, p->seed);
		cache = &own;
	}
	stack = xmallocarray(2 * n + 2, sizeof(*stack));
	stack[top++] = 0;
	stack[top++] = n;
	while (top && found < max) {
		size_t hi = stack[--top], lo = stack[--top], len = hi - lo, end;
		double pv, before, after;

		if (len < 2 * min_size || len < 2)
			continue;
		pv = segment_p(x + lo, p->wv ? p->wv + lo : NULL, len, p, cache, &k, &end);
		if (!k)
			continue;
		/* the step is between the split's two sides, [0, k) and [k, end) */
		before = stats_median(x + lo, k);
		after = stats_median(x + lo + k, end - k);
		if (fabs(after - before) < p->min_effect * (p->relative ? fabs(before) : 1))
			continue;
		if (pv > (lo == 0 && hi == n ? p->alpha : next_alpha))
			continue;
		out[found].index = lo + k;
		out[found].before = before;
		out[found].after = after;
		out[found].p = pv;
		found++;
		stack[top++] = lo;
		stack[top++] = lo + k;
		stack[top++] = lo + k;
		stack[top++] = hi;
	}
	qsort(out, found, sizeof(*out), cmp_point);
	/* the levels either side are those of the final segments */
	for (k = 0; k < found; k++) {
		size_t a = k ? out[k - 1].index : 0, b = out[k].index;
		size_t c = k + 1 < found ? out[k + 1].index : n;

		out[k].before = stats_median(x + a, b - a);
		out[k].after = stats_median(x + b, c - b);
	}
	free(stack);
	if (cache == &own)
		cp_null_cache_release(&own);
	return found;
}
