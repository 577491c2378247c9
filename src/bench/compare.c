/*
 * compare.c - trail bench's verdict on one command against the reference:
 * the Mann-Whitney decision with the ratios of medians and means and their
 * bootstrap intervals (compare.h).
 */
#include "bench/compare.h"
#include "core/alloc.h"
#include "core/verdict.h"
#include "stats/sequential.h"

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
	size_t i;

	for (i = 0; i < m; i++)
		p[i] = cmp[i]->mwu.p;
	stats_holm_adjust(p, m, p);
	for (i = 0; i < m; i++) {
		cmp[i]->p_family = p[i];
		cmp[i]->family = m;
		decide(cmp[i]);
	}
	free(p);
}
