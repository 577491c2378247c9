/*
 * changepoint.c - E-Divisive means (Matteson and James, "A Nonparametric
 * Approach for Multiple Change Point Analysis of Multivariate Data", JASA
 * 2014), the change-point method of Apache Otava / Hunter (Fleming et al.,
 * "Hunter: Using Change Point Detection to Hunt for Performance
 * Regressions", ICPE 2023) and of MongoDB's CI: the split that maximises
 * the energy-distance statistic Q is tested against random permutations
 * of its segment (p = (1 + #{Q_perm >= Q}) / (1 + B)), the best split
 * being sought over every right end of the segment too; a significant split
 * whose segments' medians differ by at least the minimum effect is kept
 * (the permutation test, or Student's t-test as Otava uses: split_p())
 * and both sides are searched again (binary segmentation).
 */
#include "history/changepoint.h"

#include "bench/stats.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cp_params_init(struct cp_params *p)
{
	p->alpha = 0.01;
	p->min_effect = 0.03;
	p->relative = 1;
	p->permutations = 499;
	p->min_size = 2;
	p->seed = 0x9e3779b97f4a7c15ULL;
}

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
 * separates it (Matteson and James 2014, section 2.2).  O(n^3): past 150
 * points, about 50 ends spread evenly are tried.
 */
static double best_split_any_end(const double *x, size_t n, size_t min_size, size_t *at,
				 size_t *end)
{
	size_t kappa, step = n > 150 ? n / 50 : 1, t;
	double best = -INFINITY;

	*at = 0;
	*end = n;
	for (kappa = n; kappa >= 2 * min_size && kappa >= 2; kappa = kappa > step ? kappa - step : 0) {
		double q = best_split(x, kappa, min_size, &t);

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

static uint64_t next_random(uint64_t *s)
{
	/* xorshift64* (Vigna 2016) */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof(*x));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Permutation p-value of the best split's statistic q over x[0..n-1]. */
static double permutation_p(const double *x, size_t n, double q, const struct cp_params *p,
			    uint64_t *rng, double *tmp)
{
	/* past this many exceedances the split cannot be significant: stop early */
	double limit = p->alpha * (p->permutations + 1);
	unsigned b, above = 0;
	size_t i, at, end;

	memcpy(tmp, x, n * sizeof(*x));
	for (b = 0; b < p->permutations; b++) {
		for (i = n - 1; i > 0; i--) {
			size_t j = (size_t)(next_random(rng) % (i + 1));
			double t = tmp[i];

			tmp[i] = tmp[j];
			tmp[j] = t;
		}
		if (best_split_any_end(tmp, n, p->min_size, &at, &end) >= q && ++above >= limit)
			return (above + 1.0) / (b + 2.0);
	}
	return (above + 1.0) / (p->permutations + 1.0);
}

/* C(n, k), saturated at 1e12 */
static double choose(size_t n, size_t k)
{
	double c = 1;
	size_t i;

	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k && c < 1e12; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

/*
 * The p-value of the split before k (its sides [0, k) and [k, end)): the
 * smaller of two tests, doubled (Bonferroni over the two, so the
 * false-alarm rate stays alpha).  The permutation test of E-Divisive is
 * distribution-free but blind to magnitude: a three-commit bump among 17
 * commits is only about 2 % unlikely by arrangement alone, however tall,
 * and a short segment has too few arrangements to reach alpha at all.
 * Student's t-test of the two sides (pooled variance: one benchmark's
 * noise either side), as Otava/Hunter uses for every split, sees the
 * magnitude; its p-value is multiplied by the split points searched
 * (Bonferroni), for choosing the best of them (the right ends searched
 * with each are nearly the same test, not counted again).
 */
double cp_student_p(const double *a, size_t na, const double *b, size_t nb)
{
	double ma = 0, mb = 0, ss = 0, se;
	size_t i;

	for (i = 0; i < na; i++)
		ma += a[i] / (double)na;
	for (i = 0; i < nb; i++)
		mb += b[i] / (double)nb;
	for (i = 0; i < na; i++)
		ss += (a[i] - ma) * (a[i] - ma);
	for (i = 0; i < nb; i++)
		ss += (b[i] - mb) * (b[i] - mb);
	se = sqrt(ss / (double)(na + nb - 2) * (1.0 / (double)na + 1.0 / (double)nb));
	if (!(se > 0))
		return ma == mb ? 1 : 0;
	return bench_student_t_p((ma - mb) / se, (double)(na + nb - 2));
}

static double split_p(const double *x, size_t n, size_t k, size_t end, double q,
		      const struct cp_params *p, uint64_t *rng, double *tmp)
{
	size_t min_size = p->min_size ? p->min_size : 1;
	double pp = 1, pw = 1, splits = (double)(n + 1 - 2 * min_size);

	if (end >= 4)
		pw = fmin(1, cp_student_p(x, k, x + k, end - k) * splits);
	if (pw * 2 > p->alpha && choose(n, k) * p->alpha >= 4)
		pp = permutation_p(x, n, q, p, rng, tmp);
	return fmin(1, 2 * fmin(pp, pw));
}

static int cmp_point(const void *a, const void *b)
{
	size_t x = ((const struct cp_point *)a)->index, y = ((const struct cp_point *)b)->index;

	return (x > y) - (x < y);
}

size_t cp_detect(const double *x, size_t n, const struct cp_params *p, struct cp_point *out,
		 size_t max)
{
	size_t *stack, top = 0, found = 0, k, min_size = p->min_size ? p->min_size : 1;
	double *tmp;
	uint64_t rng = p->seed ? p->seed : 1;

	if (n < 2 * min_size || !max)
		return 0;
	stack = xmallocarray(2 * n + 2, sizeof(*stack));
	tmp = xmallocarray(n, sizeof(*tmp));
	stack[top++] = 0;
	stack[top++] = n;
	while (top && found < max) {
		size_t hi = stack[--top], lo = stack[--top], len = hi - lo, end;
		double q, pv, before, after;

		if (len < 2 * min_size)
			continue;
		q = best_split_any_end(x + lo, len, min_size, &k, &end);
		if (!k || !(q > 0))
			continue;
		/* the step is between the split's two sides, [0, k) and [k, end) */
		before = median_of(x + lo, k, tmp);
		after = median_of(x + lo + k, end - k, tmp);
		if (fabs(after - before) < p->min_effect * (p->relative ? fabs(before) : 1))
			continue;
		pv = split_p(x + lo, len, k, end, q, p, &rng, tmp);
		if (pv > p->alpha)
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

		out[k].before = median_of(x + a, b - a, tmp);
		out[k].after = median_of(x + b, c - b, tmp);
	}
	free(stack);
	free(tmp);
	return found;
}
