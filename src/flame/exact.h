/*
 * exact.h - trail flame's path for counted metrics (instructions,
 * est-cycles: measure/metric.h's deterministic rows): the ends counted
 * twice and compared as exact values when the counts repeat, else a fall
 * back to ends.c's statistics.  Pure pieces first, for the unit tests.
 */
#ifndef TRAIL_FLAME_EXACT_H
#define TRAIL_FLAME_EXACT_H

#include "stats/describe.h"

#include <stddef.h>

struct flame_session;
struct flame_capture_opts;
struct flame_interval;

/* Two counts of one build closer than this (a fraction of the larger) are the same. */
#define FLAME_EXACT_TOLERANCE STATS_EXACT_TOLERANCE
/* flame's probe runs when a counted metric's counts do not repeat (cmd/flame.c's defaults). */
#define FLAME_PROBE_RUNS 3
#define FLAME_PROBE_MAX_RUNS 9

/* (largest - smallest) / largest of v[0..n); 0 for n = 0. */
double flame_exact_spread(const double *v, size_t n);
/*
 * The change bad/good - 1 of two ends' counts as a point interval (lo =
 * hi = estimate) when each side's counts agree within the tolerance: 0;
 * 1 when they do not (iv untouched); -1 when the good end counts nothing.
 */
int flame_exact_interval(const double *good, const double *bad, size_t n, double alpha,
			 struct flame_interval *iv);
/*
 * Count each end twice (an ABBA pair of pairs), say the instrument's
 * slowdown, and decide the ends exactly: 0 with s->ans's change and
 * ends_outcome set, 1 when the counts do not repeat (said; the probes'
 * runs go back to the defaults; the caller carries on with statistics),
 * -1 on error.
 */
int flame_exact_ends(struct flame_session *s, const struct flame_capture_opts *o, char *dirs[2]);

#endif
