/*
 * rank_cusum.c - the rank CUSUM test of rank_cusum.h (moved from
 * src/history, whose change points use it: a statistic lives in stats/).  Under no change and
 * independent points the ranks' partial sums, over sqrt(n var), tend to
 * a Brownian bridge (Pettitt 1979); with dependence the variance is the
 * long-run one, (1 + rho) / (1 - rho) times it for AR(1) (Bartlett's
 * formula), rho the upper 95 % bound of the ranks' lag-1 autocorrelation
 * around the CUSUM's step; with independent noise of a known variance on
 * top (a commit's runs), ARMA(1,1)'s 1 + 2 rho / (1 - phi) (stats_lrv_ratio).
 * The limit is conservative for a short series (the
 * discrete maximum stays below the bridge's); bench/history-calibrate
 * measures it under heavy tails, AR(1), drift and load steps.
 */
#include "stats/rank_cusum.h"

#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

/* One-sided 95 % normal quantile: the lag-1 autocorrelation's upper bound. */
#define STATS_RHO_UPPER_Z 1.645

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

void stats_midranks(const double *x, size_t n, double *r)
{
	struct ranked *t = xmallocarray(n + 1, sizeof(*t));
	size_t i, j, k;

	for (i = 0; i < n; i++)
		t[i] = (struct ranked){ x[i], i };
	qsort(t, n, sizeof(*t), cmp_ranked);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && t[j].v == t[i].v; j++)
			;
		for (k = i; k < j; k++)
			r[t[k].i] = (double)(i + j + 1) / 2;	/* mean of ranks i+1 .. j */
	}
	free(t);
}

double stats_kolmogorov_q(double t)
{
	double q = 0;
	int j;

	if (!(t > 0.2))
		return 1;
	for (j = 1; j <= 100; j++) {
		double term = exp(-2.0 * j * j * t * t);

		q += (j % 2 ? 2 : -2) * term;
		if (term < 1e-18)
			break;
	}
	return q < 0 ? 0 : q > 1 ? 1 : q;
}

double stats_ar1_rho_levels(const double *x, size_t n, size_t k, size_t end)
{
	size_t cut[4] = { 0, k, end < n ? end : n, n }, g, i, segs = 0;
	double num = 0, den = 0, rho;

	for (g = 0; g < 3; g++) {
		size_t lo = cut[g], hi = cut[g + 1];
		double mean = 0;

		if (hi <= lo)
			continue;
		segs++;
		for (i = lo; i < hi; i++)
			mean += x[i] / (double)(hi - lo);
		for (i = lo; i < hi; i++) {
			den += (x[i] - mean) * (x[i] - mean);
			if (i + 1 < hi)
				num += (x[i] - mean) * (x[i + 1] - mean);
		}
	}
	if (!(den > 0) || n <= 3 * segs + 1)
		return 0;
	/* Kendall (1954): the estimate falls short by about (1 + 3 rho) / n per level */
	rho = ((double)n * num / den + (double)segs) / ((double)n - 3.0 * (double)segs);
	return rho < 0 ? 0 : rho > STATS_AR1_MAX_RHO ? STATS_AR1_MAX_RHO : rho;
}

double stats_lrv_ratio(double r, double white)
{
	double phi;

	r = r < 0 ? 0 : r > STATS_AR1_MAX_RHO ? STATS_AR1_MAX_RHO : r;
	white = white < 0 ? 0 : white;
	phi = 1 - white > r / STATS_AR1_MAX_RHO ? r / (1 - white) : STATS_AR1_MAX_RHO;
	return 1 + 2 * r / (1 - phi);
}

double stats_ss_levels(const double *x, size_t n, size_t k, size_t end)
{
	size_t cut[4] = { 0, k < n ? k : n, end < n ? end : n, n }, g, i;
	double ss = 0;

	for (g = 0; g < 3; g++) {
		double mean = 0;

		if (cut[g + 1] <= cut[g])
			continue;
		for (i = cut[g]; i < cut[g + 1]; i++)
			mean += x[i] / (double)(cut[g + 1] - cut[g]);
		for (i = cut[g]; i < cut[g + 1]; i++)
			ss += (x[i] - mean) * (x[i] - mean);
	}
	return ss;
}

double stats_white_share(const double *x, size_t n, size_t k, size_t end, double white_var)
{
	double ss;

	if (!(white_var > 0))
		return 0;
	ss = stats_ss_levels(x, n, k, end);
	return ss > 0 ? fmin(1, white_var * (double)n / ss) : 1;
}

void stats_rank_cusum(const double *x, size_t n, struct stats_rank_cusum *out)
{
	stats_rank_cusum_noise(x, n, 0, out);
}

void stats_rank_cusum_noise(const double *x, size_t n, double white_var,
			    struct stats_rank_cusum *out)
{
	double *r = xmallocarray(n + 1, sizeof(double)), mean = (double)(n + 1) / 2, v = 0, s = 0, top = 0;
	double rho;
	size_t i;

	out->stat = 0;
	out->rho = 0;
	out->p = 1;
	out->at = 0;
	if (n < 4)
		goto out;
	stats_midranks(x, n, r);
	for (i = 0; i < n; i++)
		v += (r[i] - mean) * (r[i] - mean) / (double)n;
	if (!(v > 0))
		goto out;
	for (i = 0; i + 1 < n; i++) {
		s += r[i] - mean;
		if (fabs(s) > top) {
			top = fabs(s);
			out->at = i + 1;
		}
	}
	/* around the step the CUSUM found: the ranks' own dependence, not the step's */
	out->rho = stats_ar1_rho_levels(r, n, out->at, n);
	/*
	 * its upper 95 % bound (Bartlett's standard error): the step
	 * absorbed part of a wander, so the ranks around it look less
	 * dependent than the noise is, and more so with independent noise
	 * on top (ARMA: the long-run variance amplifies an underestimate)
	 */
	rho = fmin(out->rho + STATS_RHO_UPPER_Z * sqrt((1 - out->rho * out->rho) / (double)n),
		   STATS_AR1_MAX_RHO);
	out->stat = top / sqrt((double)n * v * stats_lrv_ratio(rho, stats_white_share(x, n, out->at, n, white_var)));
	out->p = stats_kolmogorov_q(out->stat);
out:
	free(r);
}
