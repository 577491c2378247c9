/*
 * compare.c - per-function comparison by time or share, with the
 * run-to-run or the sampling error, and Benjamini-Hochberg (compare.h).
 */
#include "diff/compare.h"
#include "stats/describe.h"
#include "stats/two_sample.h"
#include "diff/significance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *diff_basis_name(enum diff_basis b)
{
	return b == DIFF_BY_TIME ? "time" : "share";
}

const char *diff_error_name(enum diff_error e)
{
	return e == DIFF_ERROR_RUNS ? "run-to-run" : "sampling-only lower bound";
}

static double value(const struct diff_side *s, size_t r, enum diff_basis basis)
{
	if (basis == DIFF_BY_TIME)
		return s->x[r] * (s->k ? s->k[r] : 1);
	return s->n[r] > 0 ? s->x[r] / s->n[r] : 0;
}

/* Mean per run and the sampling variance of that mean. */
static void sampling(const struct diff_side *s, enum diff_basis basis, double *mean, double *var)
{
	double sum = 0, v = 0, xs = 0, ns = 0;
	size_t r;

	for (r = 0; r < s->runs; r++) {
		double k = s->k ? s->k[r] : 1;

		sum += value(s, r, basis);
		v += k * k * (s->x[r] > 0 ? s->x[r] : 0);	/* Poisson: var x = x */
		xs += s->x[r];
		ns += s->n[r];
	}
	*mean = s->runs ? sum / (double)s->runs : 0;
	if (basis == DIFF_BY_TIME) {
		*var = s->runs ? v / ((double)s->runs * (double)s->runs) : 0;
	} else {
		double p = ns > 0 ? xs / ns : 0;

		*var = ns > 0 ? p * (1 - p) / ns : 0;	/* binomial, runs pooled */
	}
}

static void by_runs(const struct diff_side *b, const struct diff_side *a, enum diff_basis basis,
		    struct diff_test *out)
{
	double *vb = malloc(b->runs * sizeof(*vb)), *va = malloc(a->runs * sizeof(*va));
	struct stats_welch w;
	struct stats_summary sb, sa;
	size_t r;

	if (!vb || !va)
		abort();
	for (r = 0; r < b->runs; r++)
		vb[r] = value(b, r, basis);
	for (r = 0; r < a->runs; r++)
		va[r] = value(a, r, basis);
	out->error = DIFF_ERROR_RUNS;
	if (!stats_summarize(vb, b->runs, &sb) && !stats_summarize(va, a->runs, &sa) &&
	    !stats_welch_t(va, a->runs, vb, b->runs, &w)) {
		out->before = sb.mean;
		out->after = sa.mean;
		out->before_se = sb.stddev / sqrt((double)b->runs);
		out->after_se = sa.stddev / sqrt((double)a->runs);
		out->delta = sa.mean - sb.mean;
		out->se = sqrt(out->before_se * out->before_se + out->after_se * out->after_se);
		out->stat = w.t;
		out->df = w.df;
		out->p = w.p;
	}
	free(vb);
	free(va);
}

void diff_compare(const struct diff_side *before, const struct diff_side *after,
		  enum diff_basis basis, struct diff_test *out)
{
	double vb, va;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (!before->runs || !after->runs)
		return;
	if (before->runs >= 2 && after->runs >= 2) {
		by_runs(before, after, basis, out);
		return;
	}
	out->error = DIFF_ERROR_SAMPLING;
	if (basis == DIFF_BY_SHARE && before->runs == 1 && after->runs == 1) {
		struct share_test t;

		share_test(&t, before->x[0], before->n[0], after->x[0], after->n[0]);
		out->before = t.before.share;
		out->after = t.after.share;
		out->before_se = t.before.se;
		out->after_se = t.after.se;
		out->delta = t.delta;
		out->se = t.se;
		out->stat = t.z;
		out->p = t.p_value;
		return;
	}
	sampling(before, basis, &out->before, &vb);
	sampling(after, basis, &out->after, &va);
	out->before_se = sqrt(vb);
	out->after_se = sqrt(va);
	out->delta = out->after - out->before;
	out->se = sqrt(vb + va);
	if (out->se > 0) {
		out->stat = out->delta / out->se;
		out->p = erfc(fabs(out->stat) / sqrt(2.0));
	}
}

double diff_bh_cut(double *p, size_t m, double alpha)
{
	size_t k;

	if (!m)
		return -1;
	stats_sort(p, m);
	for (k = m; k > 0; k--)
		if (p[k - 1] <= (double)k / (double)m * alpha)
			return p[k - 1];
	return -1;
}
