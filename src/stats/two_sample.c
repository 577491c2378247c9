/*
 * two_sample.c - tests of one sample against another: Mann-Whitney U
 * (exact for small samples through rank_sum.c, else normal with tie and
 * continuity corrections) and Welch's t (two_sample.h).
 */
#include "stats/two_sample.h"
#include "stats/describe.h"
#include "stats/distributions.h"
#include "stats/rank_sum.h"
#include "core/alloc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * The p-values from the exact distribution of a's rank sum (rank_sum.h),
 * taken over the smaller sample; 0 when done, 1 when too large to count.
 */
static int mann_whitney_exact(const struct ranked *r, size_t n, size_t na,
			      struct stats_mwu *out)
{
	uint32_t *score2 = xmallocarray(n, sizeof(*score2));
	uint64_t sum_a = 0, sum_b = 0;
	size_t i, j, k, m = na <= n - na ? na : n - na;
	double ge, le;
	int ret;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		for (k = i; k < j; k++) {
			score2[k] = (uint32_t)(i + 1 + j);	/* twice the midrank */
			if (r[k].from_a)
				sum_a += score2[k];
			else
				sum_b += score2[k];
		}
	}
	/* over the smaller sample; a's sum large = b's sum small */
	ret = stats_rank_sum_tails(score2, n, m, m == na ? sum_a : sum_b, &ge, &le);
	free(score2);
	if (ret)
		return ret;
	out->p_greater = m == na ? ge : le;
	out->p_less = m == na ? le : ge;
	out->exact = 1;
	return 0;
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct stats_mwu *out)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double rank_sum_a = 0, ties = 0, mean, var, diff, sd;

	memset(out, 0, sizeof(*out));
	out->p = out->p_greater = out->p_less = 1;
	if (stats_check_sample(a, na, "first") || stats_check_sample(b, nb, "second"))
		return -1;
	r = xmallocarray(n, sizeof(*r));
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* Average ranks over runs of ties; sum t^3 - t for the variance. */
	for (i = 0; i < n; i = j) {
		double avg, t;
		size_t k;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		avg = ((double)(i + 1) + (double)j) / 2;
		for (k = i; k < j; k++)
			if (r[k].from_a)
				rank_sum_a += avg;
		ties += t * t * t - t;
	}
	out->u_a = rank_sum_a - (double)na * (double)(na + 1) / 2;
	mean = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1) > 0 ? (double)n * (double)(n - 1) : 1));
	if (!(var > 0)) {
		free(r);
		return 0;	/* every value identical: no evidence either way */
	}
	sd = sqrt(var);
	diff = out->u_a - mean;
	/* Continuity correction: move |diff| half a step towards the mean. */
	out->z = fabs(diff) > 0.5 ? (diff > 0 ? diff - 0.5 : diff + 0.5) / sd : 0;
	if (mann_whitney_exact(r, n, na, out)) {
		/* each tail with its own correction; their double is the two-sided p */
		out->p_greater = erfc((diff - 0.5) / sd / sqrt(2.0)) / 2;
		out->p_less = erfc(-(diff + 0.5) / sd / sqrt(2.0)) / 2;
	}
	free(r);
	out->p = 2 * (out->p_greater < out->p_less ? out->p_greater : out->p_less);
	if (out->p > 1)
		out->p = 1;
	return 0;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double sum = 0, m2 = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / (double)n;
	for (i = 0; i < n; i++)
		m2 += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? m2 / (double)(n - 1) : 0;
}

int stats_welch_t(const double *a, size_t na, const double *b, size_t nb,
		  struct stats_welch *out)
{
	double ma, va, mb, vb, sa, sb, se2;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (stats_check_sample(a, na, "first") || stats_check_sample(b, nb, "second"))
		return -1;
	if (na < 2 || nb < 2)
		return 0;	/* no variance estimate: no test */
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (!(se2 > 0)) {
		/* Both samples constant: different means are certain, equal ones not. */
		out->p = ma == mb ? 1 : 0;
		out->t = ma == mb ? 0 : (ma > mb ? INFINITY : -INFINITY);
		out->df = (double)(na + nb - 2);
		return 0;
	}
	out->t = (ma - mb) / sqrt(se2);
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = stats_student_t_p(out->t, out->df);
	return 0;
}

