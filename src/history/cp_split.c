/*
 * cp_split.c - E-Divisive's best split of a segment and the t test of a
 * split (see cp_split.h): what changepoint.c's segmentation and
 * cp_null.c's simulated null both run.
 */
#include "history/cp_split.h"

#include "stats/distributions.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double pairs(size_t m)
{
	return m < 2 ? 0 : (double)m * (double)(m - 1) / 2;
}

static double q_value(double cross, double wl, double wr, size_t m, size_t r)
{
	double n = (double)(m + r), q = 2 * cross / ((double)m * (double)r);

	if (pairs(m) > 0)
		q -= wl / pairs(m);
	if (pairs(r) > 0)
		q -= wr / pairs(r);
	return (double)m * (double)r / n * q;
}

/*
 * The best split of x[0..n-1] with at least min_size points a side:
 * O(n^2), moving one point at a time from the right segment to the left.
 */
static double best_split(const double *x, size_t n, size_t min_size, size_t *at)
{
	double cross = 0, wl = 0, wr = 0, best = -INFINITY;
	size_t i, j, k;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			wr += fabs(x[i] - x[j]);
	*at = 0;
	for (k = 1; k < n; k++) {
		double to_left = 0, to_right = 0;

		/* x[k-1] moves from the right segment to the left one */
		for (i = 0; i + 1 < k; i++)
			to_left += fabs(x[i] - x[k - 1]);
		for (j = k; j < n; j++)
			to_right += fabs(x[k - 1] - x[j]);
		wl += to_left;
		wr -= to_right;
		cross += to_right - to_left;
		if (k >= min_size && n - k >= min_size) {
			double q = q_value(cross, wl, wr, k, n - k);

			if (q > best) {
				best = q;
				*at = k;
			}
		}
	}
	return best;
}

/*
 * E-Divisive's search: the best split of x[0..kappa) over every right end
 * kappa, not only n, so that a short bump (a slowdown reverted a few
 * commits later) is found although no single split of the whole series
 * separates it (Matteson and James 2014, section 2.2).  With P[a][b] the
 * sum of |x_i - x_j| over i < a, j < b, each (k, kappa) is O(1): O(n^2) in
 * all.  Past CP_PREFIX_MAX points (the table would be large), ends are
 * tried one at a time, about 50 of them spread evenly.
 */
#define CP_PREFIX_MAX 1024

static double best_split_prefix(const double *x, size_t n, size_t m, size_t *at, size_t *end)
{
	size_t w = n + 1, a, b, k, kappa;
	double *P = xcalloc(w * w, sizeof(*P)), best = -INFINITY;

	for (a = 1; a <= n; a++)
		for (b = 1; b <= n; b++)
			P[a * w + b] = P[(a - 1) * w + b] + P[a * w + b - 1] - P[(a - 1) * w + b - 1] +
				       fabs(x[a - 1] - x[b - 1]);
	for (kappa = n; kappa >= 2 * m; kappa--)
		for (k = m; k + m <= kappa; k++) {
			double cross = P[k * w + kappa] - P[k * w + k], wl = P[k * w + k] / 2;
			double wr = (P[kappa * w + kappa] - 2 * P[k * w + kappa] + P[k * w + k]) / 2;
			double q = q_value(cross, wl, wr, k, kappa - k);

			if (q > best) {
				best = q;
				*at = k;
				*end = kappa;
			}
		}
	free(P);
	return best;
}

double cp_best_split(const double *x, size_t n, size_t min_size, size_t *at, size_t *end)
{
	size_t kappa, step = n / 50, t, m = min_size ? min_size : 1;
	double best = -INFINITY;

	*at = 0;
	*end = n;
	if (n < 2 * m || n < 2)
		return best;
	if (n <= CP_PREFIX_MAX)
		return best_split_prefix(x, n, m, at, end);
	for (kappa = n; kappa >= 2 * m; kappa = kappa > step ? kappa - step : 0) {
		double q = best_split(x, kappa, m, &t);

		if (t && q > best) {
			best = q;
			*at = t;
			*end = kappa;
		}
	}
	return best;
}

double cp_statistic(const double *x, size_t n, size_t k)
{
	double cross = 0, wl = 0, wr = 0;
	size_t i, j;

	if (k == 0 || k >= n)
		return 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			if (j < k)
				wl += d;
			else if (i >= k)
				wr += d;
			else
				cross += d;
		}
	return q_value(cross, wl, wr, k, n - k);
}

/* Sum of x over [a0, a1) and [a2, a3), and the squared deviations from m when sq. */
static double sum_over(const double *x, size_t a0, size_t a1, size_t a2, size_t a3, double m, int sq)
{
	double t = 0;
	size_t i;

	for (i = a0; i < a1; i++)
		t += sq ? (x[i] - m) * (x[i] - m) : x[i];
	for (i = a2; i < a3; i++)
		t += sq ? (x[i] - m) * (x[i] - m) : x[i];
	return t;
}

/*
 * The variance of one point's mean from its runs: wv[i], the mean over
 * [a0, a1) and [a2, a3) (0 without wv).
 */
static double mean_wv(const double *wv, size_t a0, size_t a1, size_t a2, size_t a3)
{
	return wv ? sum_over(wv, a0, a1, a2, a3, 0, 0) / (double)(a1 - a0 + a3 - a2) : 0;
}

/*
 * Pooled t of group B = [b0, b1) against group A = [a0, a1) u [a2, a3),
 * min_effect (of A's mean when relative) taken off |mean B - mean A|:
 * its two-sided p-value, 1 when the difference is within the effect.
 * With wv (each point a mean of m runs, wv[i] its variance from them;
 * NULL: points alone), the points' spread and their runs' estimate one
 * noise (runs_agree said so): it is the two pooled, with both degrees of
 * freedom - 2 stored commits of 5 runs against 7 are 10 runs against 35,
 * not 2 points against 7 - and never below the runs' alone (a few points
 * that agree by chance cannot look surer than their runs allow).
 */
static double group_t_p(const double *x, const double *wv, unsigned m, size_t a0, size_t a1,
			size_t a2, size_t a3, size_t b0, size_t b1, double min_effect, int relative,
			double lrv, double var_floor)
{
	double na = (double)(a1 - a0 + a3 - a2), nb = (double)(b1 - b0), ma, mb, ss, v, w, df, se, d;

	if (na < 1 || nb < 1 || na + nb < 3)
		return 1;
	ma = sum_over(x, a0, a1, a2, a3, 0, 0) / na;
	mb = sum_over(x, b0, b1, 0, 0, 0, 0) / nb;
	ss = sum_over(x, a0, a1, a2, a3, ma, 1) + sum_over(x, b0, b1, 0, 0, mb, 1);
	v = fmax(ss / (na + nb - 2) * lrv, var_floor);
	df = na + nb - 2;
	if (wv && m >= 2) {
		double dw = (na + nb) * (double)(m - 1);

		w = (mean_wv(wv, a0, a1, a2, a3) * na + mean_wv(wv, b0, b1, 0, 0) * nb) / (na + nb);
		v = fmax(w, (v * df + w * dw) / (df + dw));
		df += dw;
	}
	se = sqrt(v * (1 / na + 1 / nb));
	d = fabs(mb - ma) - min_effect * (relative ? fabs(ma) : 1);
	if (!(d > 0))
		return 1;
	if (!(se > 0))
		return 0;
	return stats_student_t_p(d / se, df);
}

/*
 * Whether x[0..n)'s points differ no more than their runs say, around
 * the levels of [0, k), [k, end) and [end, n): Fisher's F of the points'
 * spread within those (n - sides degrees of freedom) over their runs'
 * (n (m - 1)) not beyond CP_RUNS_AGREE.  Decided once for the split, on
 * every point: a build's own speed shows as points further apart than
 * their runs, and then they are judged by their spread alone.
 */
#define CP_RUNS_AGREE 0.25

static int runs_agree(const double *x, const double *wv, unsigned m, size_t n, size_t k, size_t end)
{
	size_t cut[4] = { 0, k, end, n }, g, sides = 0;
	double ss = 0, w;

	if (!wv || m < 2 || !n)
		return 0;
	for (g = 0; g < 3; g++) {
		size_t len = cut[g + 1] > cut[g] ? cut[g + 1] - cut[g] : 0;
		double mean;

		if (!len)
			continue;
		sides++;
		mean = sum_over(x, cut[g], cut[g + 1], 0, 0, 0, 0) / (double)len;
		ss += sum_over(x, cut[g], cut[g + 1], 0, 0, mean, 1);
	}
	w = mean_wv(wv, 0, n, 0, 0);
	if (n <= sides)
		return w > 0;
	if (!(w > 0))
		return 0;
	return stats_f_upper_p(ss / (double)(n - sides) / w, (double)(n - sides),
			       (double)n * (double)(m - 1)) > CP_RUNS_AGREE;
}

/* The step's and the bump's test, the smaller p (lrv: see cp_split_test_p_lrv). */
static double step_or_bump(const double *x, const double *wv, unsigned m, size_t n, size_t k,
			   size_t end, double min_effect, int relative, double lrv, double var_floor)
{
	double step, bump;

	step = group_t_p(x, wv, m, 0, k, 0, 0, k, end, min_effect, relative, lrv, var_floor);
	if (end >= n || k < 1)
		return step;
	/* a bump: [k, end) against both sides, when they agree */
	bump = group_t_p(x, wv, m, 0, k, end, n, k, end, min_effect, relative, lrv, var_floor);
	return fmin(step, bump);
}

double cp_split_test_p_over(const double *x, const double *wv, unsigned m, size_t n, size_t k,
			    size_t end, double min_effect, int relative, int *over)
{
	*over = wv && m >= 2 && !runs_agree(x, wv, m, n, k, end < n ? end : n);
	if (*over || m < 2)
		wv = NULL;
	return step_or_bump(x, wv, m, n, k, end, min_effect, relative, 1, 0);
}

double cp_split_test_p_lrv(const double *x, size_t n, size_t k, size_t end, double min_effect,
			   int relative, double lrv)
{
	return cp_split_test_p_lrv_floor(x, n, k, end, min_effect, relative, lrv, 0);
}

double cp_split_test_p_lrv_floor(const double *x, size_t n, size_t k, size_t end, double min_effect,
				 int relative, double lrv, double var_floor)
{
	return step_or_bump(x, NULL, 0, n, k, end, min_effect, relative, lrv > 1 ? lrv : 1, var_floor);
}

double cp_split_test_p_runs(const double *x, const double *wv, unsigned m, size_t n, size_t k,
			    size_t end, double min_effect, int relative)
{
	int over;

	return cp_split_test_p_over(x, wv, m, n, k, end, min_effect, relative, &over);
}

double cp_split_test_p(const double *x, size_t n, size_t k, size_t end, double min_effect,
		       int relative)
{
	return cp_split_test_p_runs(x, NULL, 0, n, k, end, min_effect, relative);
}

double cp_runs_t_p(const double *a, const double *wa, size_t na, const double *b, const double *wb,
		   size_t nb, unsigned m)
{
	double *x = xmallocarray(na + nb + 1, sizeof(double)), *w = NULL, p;
	int over;

	memcpy(x, a, na * sizeof(double));
	memcpy(x + na, b, nb * sizeof(double));
	if (wa && wb) {
		w = xmallocarray(na + nb + 1, sizeof(double));
		memcpy(w, wa, na * sizeof(double));
		memcpy(w + na, wb, nb * sizeof(double));
	}
	p = cp_split_test_p_over(x, w, m, na + nb, na, na + nb, 0, 0, &over);
	free(x);
	free(w);
	return p;
}
