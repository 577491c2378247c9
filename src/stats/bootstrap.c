/*
 * bootstrap.c - the percentile bootstrap interval of a ratio of medians or
 * means of two samples, from a seeded generator so that it is
 * reproducible (bootstrap.h).
 */
#include "stats/bootstrap.h"
#include "stats/describe.h"
#include "stats/rng.h"
#include "core/alloc.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double ratio_of(double num, double den)
{
	if (den == 0)
		return num == 0 ? 1 : INFINITY;
	return num / den;
}

static double sample_stat(double *buf, size_t n, int use_mean)
{
	double sum = 0;
	size_t i;

	if (!use_mean)
		return stats_median_inplace(buf, n);
	for (i = 0; i < n; i++)
		sum += buf[i];
	return sum / (double)n;
}

int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			  int use_mean, double confidence, unsigned resamples,
			  uint64_t seed, struct stats_ratio *out)
{
	double *buf, *ratios, sa, sb, alpha;
	uint64_t state = seed;
	unsigned r;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (stats_check_sample(a, na, "first") || stats_check_sample(b, nb, "second"))
		return -1;
	if (!(confidence > 0 && confidence < 1))
		return trail_error("confidence must be between 0 and 1, not %g", confidence);
	if (!resamples)
		resamples = STATS_BOOTSTRAP_RESAMPLES;
	buf = xmallocarray(na > nb ? na : nb, sizeof(*buf));
	memcpy(buf, a, na * sizeof(*buf));
	sa = sample_stat(buf, na, use_mean);
	memcpy(buf, b, nb * sizeof(*buf));
	sb = sample_stat(buf, nb, use_mean);
	out->estimate = ratio_of(sb, sa);
	ratios = xmallocarray(resamples, sizeof(*ratios));
	for (r = 0; r < resamples; r++) {
		for (i = 0; i < na; i++)
			buf[i] = a[stats_random_index(&state, na)];
		sa = sample_stat(buf, na, use_mean);
		for (i = 0; i < nb; i++)
			buf[i] = b[stats_random_index(&state, nb)];
		sb = sample_stat(buf, nb, use_mean);
		ratios[r] = ratio_of(sb, sa);
	}
	stats_sort(ratios, resamples);
	alpha = 1 - confidence;
	out->lo = stats_quantile_sorted(ratios, resamples, alpha / 2);
	out->hi = stats_quantile_sorted(ratios, resamples, 1 - alpha / 2);
	/* A percentile interval always contains the point estimate's neighbourhood;
	 * keep it ordered around the estimate for tiny or degenerate samples. */
	if (out->lo > out->estimate)
		out->lo = out->estimate;
	if (out->hi < out->estimate)
		out->hi = out->estimate;
	free(ratios);
	free(buf);
	return 0;
}

