/*
 * cp_null.c - the null tables of the split test (cp_null.h): series of n
 * points (AR(1) when the series' points are), E-Divisive's best split of
 * each (cp_best_split) and
 * the t-test p-value of that split (points alone: studentised by the
 * series' own lag-1 autocorrelation around it, as changepoint.c does the
 * observed series'), sorted.  The points (or, when each
 * point is the mean of m runs, the runs) are drawn from Student's t (3
 * or 5 degrees of freedom): heavier tails than per-commit medians show;
 * bench/history-calibrate measures the false-alarm rate under load
 * bursts, unequal variance and drift.
 */
#include "history/cp_null.h"
#include "stats/describe.h"

#include "core/alloc.h"
#include "stats/rank_cusum.h"
#include "stats/rng.h"
#include "history/cp_split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cp_null_cache_init(struct cp_null_cache *c, unsigned sims, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->sims = sims ? sims : 1;
	c->seed = seed ? seed : 1;
}

void cp_null_cache_release(struct cp_null_cache *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->t[i].u);
	free(c->t);
	memset(c, 0, sizeof(*c));
}

/*
 * Student's t with df degrees of freedom: heavier tails than the series
 * show, so a machine's load bursts do not pass for steps.
 */
static double heavy(uint64_t *s, unsigned df)
{
	double chi = 0;
	unsigned i;

	for (i = 0; i < df; i++) {
		double z = stats_normal(s);

		chi += z * z;
	}
	return stats_normal(s) / sqrt(chi / df);
}

/* Point i of a simulated series: a draw, or the mean of m draws and its variance (wv). */
static void draw_point(uint64_t *rng, unsigned df, unsigned m, double *x, double *wv)
{
	double sum = 0, ss = 0, mean;
	double r[CP_NULL_MAX_RUNS];
	unsigned j;

	if (m < 2) {
		*x = heavy(rng, df);
		return;
	}
	for (j = 0; j < m; j++) {
		r[j] = heavy(rng, df);
		sum += r[j];
	}
	mean = sum / m;
	for (j = 0; j < m; j++)
		ss += (r[j] - mean) * (r[j] - mean);
	*x = mean;
	*wv = ss / (m - 1) / m;
}

static const struct cp_null_table *table(struct cp_null_cache *c, size_t n, size_t min_size,
					 unsigned df, unsigned m, int rho10)
{
	double rho = rho10 / 10.0;
	struct cp_null_table *t;
	double *x, *wv;
	uint64_t rng = c->seed ^ ((uint64_t)n * UINT64_C(0x2545f4914f6cdd1d)) ^ min_size ^
		       ((uint64_t)df << 32) ^ ((uint64_t)m << 40) ^ ((uint64_t)rho10 << 52);
	size_t i, b, k, end;

	for (i = 0; i < c->nr; i++)
		if (c->t[i].n == n && c->t[i].min_size == min_size && c->t[i].df == df &&
		    c->t[i].runs == m && c->t[i].rho10 == rho10)
			return &c->t[i];
	c->t = xreallocarray(c->t, c->nr + 1, sizeof(*c->t));
	t = &c->t[c->nr++];
	t->n = n;
	t->min_size = min_size;
	t->df = df;
	t->runs = m;
	t->rho10 = rho10;
	t->nu = c->sims;
	t->u = xmallocarray(t->nu, sizeof(double));
	x = xmallocarray(n, sizeof(double));
	wv = xcalloc(n, sizeof(double));
	for (b = 0; b < t->nu; b++) {
		for (i = 0; i < n; i++)
			draw_point(&rng, df, m, &x[i], &wv[i]);
		/* AR(1): x[i] = rho x[i-1] + e[i], stationary from the start */
		if (rho10 > 0 && m < 2) {
			x[0] /= sqrt(1 - rho * rho);
			for (i = 1; i < n; i++)
				x[i] += rho * x[i - 1];
		}
		cp_best_split(x, n, min_size, &k, &end);
		if (!k)
			t->u[b] = 1;
		else if (m >= 2)
			t->u[b] = cp_split_test_p_runs(x, wv, m, n, k, end, 0, 0);
		else	/* studentised by its own dependence, as changepoint.c's points are */
			t->u[b] = cp_split_test_p_lrv(x, n, k, end, 0, 0,
						      stats_lrv_ratio(stats_ar1_rho_levels(x, n, k, end), 0));
	}
	free(x);
	free(wv);
	stats_sort(t->u, t->nu);
	return t;
}

double cp_null_p(struct cp_null_cache *c, size_t n, size_t min_size, unsigned df, unsigned runs,
		 double rho, double u)
{
	const struct cp_null_table *t;
	size_t lo = 0, hi, m = min_size ? min_size : 1;
	int rho10 = (int)ceil(rho * 10 - 1e-9), top = (int)(STATS_AR1_MAX_RHO * 10 + 0.5);

	if (!(u < 1) || n > CP_NULL_MAX_N)
		return 1;
	runs = runs >= 2 && runs <= CP_NULL_MAX_RUNS ? runs : 0;
	rho10 = runs || rho10 < 0 ? 0 : rho10 > top ? top : rho10;
	t = table(c, n, m, df ? df : 3, runs, rho10);
	/* how many simulated p-values are <= u */
	hi = t->nu;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->u[mid] <= u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (1.0 + (double)lo) / (1.0 + (double)t->nu);
}
