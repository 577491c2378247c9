/*
 * bootstrap.h - a ratio of two samples' medians or means with its
 * percentile bootstrap interval; deterministic for a given seed.
 */
#ifndef TRAIL_STATS_BOOTSTRAP_H
#define TRAIL_STATS_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>

/* A ratio with its confidence interval. */
struct stats_ratio {
	double estimate;	/* stat(b) / stat(a) on the full samples */
	double lo, hi;		/* confidence interval (bootstrap percentile) */
};

#define STATS_BOOTSTRAP_RESAMPLES 2000
#define STATS_BOOTSTRAP_SEED 0x7472616966ULL

/*
 * Percentile bootstrap (Efron & Tibshirani, "An Introduction to the
 * Bootstrap", 1993, ch. 13) of median(b)/median(a) (use_mean == 0) or
 * mean(b)/mean(a): each resample draws na values from a and nb from b with
 * replacement.  confidence is e.g. 0.95.  A stat of 0 in a resample (all
 * values 0) makes that ratio infinite; the caller sees it in lo/hi.
 */
int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			  int use_mean, double confidence, unsigned resamples,
			  uint64_t seed, struct stats_ratio *out);

#endif
