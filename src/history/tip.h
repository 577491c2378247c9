/*
 * tip.h - the change at a series' last stored commit: E-Divisive needs
 * points on both sides of a split, but the tip stored with its runs (as
 * guard stores it) says alone where it stands - guard's verdict
 * (guard.h) of its runs against the runs of the commits before it, both
 * ways, is the test.
 */
#ifndef TRAIL_HISTORY_TIP_H
#define TRAIL_HISTORY_TIP_H

#include "history/series.h"

/* The runs of points [a, b) of s, pooled (malloc'd, never NULL), *n of them:
 * the base and the tip guard and the tip test compare. */
double *history_pool_runs(const struct history_series *s, size_t a, size_t b, size_t *n);

/* Most stored commits before the tip whose runs it is compared with (guard's --window). */
#define HISTORY_TIP_WINDOW 10

/*
 * Whether the last point of s moved from the points [from, s->nr - 1)
 * (at most HISTORY_TIP_WINDOW of the last ones): at least 3 runs at the
 * tip and 2 stored commits before it; slower or faster at level alpha
 * (alpha / 2 each way), its whole 95 % interval beyond min_effect
 * (relative), and its median beyond every one of theirs.  Returns 1 and sets *slower and *p (the smaller one-sided
 * p doubled), else 0.
 */
int history_tip_moved(const struct history_series *s, size_t from, double alpha, double min_effect,
		      int *slower, double *p);

#endif
