/*
 * compare.c - trail bench's verdict on one command against the reference:
 * the Mann-Whitney decision with the ratios of medians and means and their
 * bootstrap intervals (compare.h).
 */
#include "bench/compare.h"
#include "core/alloc.h"
#include "core/verdict.h"
#include "stats/describe.h"
#include "stats/sequential.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* slower or faster when p_family < 1 - confidence, by the direction of the ranks */
static void decide(struct bench_comparison *c)
{
	double half = (double)c->na * (double)c->nb / 2;

	c->verdict = DIRECTION_SAME;
	if (c->p_family < 1 - c->confidence) {
		if (c->mwu.u_a > half)
			c->verdict = DIRECTION_SLOWER;
		else if (c->mwu.u_a < half)
			c->verdict = DIRECTION_FASTER;
	}
}

int bench_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, struct bench_comparison *out)
{
	memset(out, 0, sizeof(*out));
	out->confidence = confidence;
	if (stats_mann_whitney(b, nb, a, na, &out->mwu) ||
	    stats_welch_t(b, nb, a, na, &out->welch) ||
	    stats_bootstrap_ratio(a, na, b, nb, 0, confidence, STATS_BOOTSTRAP_RESAMPLES,
				  STATS_BOOTSTRAP_SEED, &out->median_ratio) ||
	    stats_bootstrap_ratio(a, na, b, nb, 1, confidence, STATS_BOOTSTRAP_RESAMPLES,
				  STATS_BOOTSTRAP_SEED, &out->mean_ratio))
		return -1;
	out->p_family = out->mwu.p;
	out->family = 1;
	out->na = na;
	out->nb = nb;
	decide(out);
	return 0;
}

void bench_compare_family(struct bench_comparison *const *cmp, size_t m)
{
	double *p = xmallocarray(m ? m : 1, sizeof(*p));
	size_t i, k = 0;

	/* exact counts made no test: they are not in the family, their verdict stands */
	for (i = 0; i < m; i++)
		if (!cmp[i]->exact)
			p[k++] = cmp[i]->mwu.p;
	stats_holm_adjust(p, k, p);
	for (i = 0, k = 0; i < m; i++) {
		if (cmp[i]->exact)
			continue;
		cmp[i]->p_family = p[k++];
		cmp[i]->family = 0;
	}
	for (i = 0; i < m; i++)
		if (!cmp[i]->exact) {
			cmp[i]->family = k;
			decide(cmp[i]);
		}
	free(p);
}

int bench_compare_exact(const double *a, size_t na, const double *b, size_t nb,
			double tolerance, struct bench_comparison *out)
{
	double ma, mb, r;

	if (!na || !nb || stats_spread(a, na) > tolerance || stats_spread(b, nb) > tolerance)
		return 0;
	ma = stats_median(a, na);
	mb = stats_median(b, nb);
	memset(out, 0, sizeof(*out));
	out->confidence = 1;
	out->exact = 1;
	r = ma > 0 ? mb / ma : NAN;
	out->median_ratio.estimate = out->median_ratio.lo = out->median_ratio.hi = r;
	out->mean_ratio = out->median_ratio;
	out->mwu.p = out->welch.p = out->p_family = NAN;
	out->family = 1;
	out->na = na;
	out->nb = nb;
	out->mwu.z = out->mwu.u_a = out->welch.t = out->welch.df = NAN;
	out->verdict = r > 1 + tolerance ? DIRECTION_SLOWER :
		       r < 1 - tolerance ? DIRECTION_FASTER : DIRECTION_SAME;
	return 1;
}
