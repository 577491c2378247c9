/*
 * diffcolor.h - which frames of a differential flame graph changed more
 * than sampling noise, and how strongly to colour them.  Every frame, new
 * and vanished ones included, goes through the same decision:
 *
 *   unit   = the function (default): a frame shows its function's change
 *            in the whole profile, the number 'trail diff --top' prints
 *            (inclusive share counts a recursive stack once), so the
 *            picture and the table agree; or the frame itself (by_frame):
 *            the change at that one position of the call tree
 *   basis  = time (by_time: both columns count samples of one period, so a
 *            count is time; a function whose time did not change is not
 *            coloured when another one grows) or share
 *   delta  = time: (after - before) / the before total; share: share after
 *            - share before                  (inclusive or self)
 *   test   = time: Poisson z on the two counts; share: two-proportion
 *            z-test (diff/significance.h); one p per unit
 *   FDR    = Benjamini-Hochberg at level alpha (diff/compare.h) over the
 *            units whose size (before + after) reaches the floor, a
 *            pre-filter independent of the test statistic
 *   floor  = |delta| >= min_delta, for colouring
 *   fold   = by time and inclusive: a function coloured for its own (self)
 *            change is coloured; any other only for the change that lies
 *            outside the stacks of those (its callers and the interrupts
 *            taken inside it grow by as much, and say nothing new)
 *
 * A unit passing both is hotter (red) or cooler (blue), its saturation
 * |delta| / the largest significant |delta|; anything else is drawn as
 * noise.  The strongest changes (one row per function name) go into the
 * graph's legend.  Knows nothing about SVG.
 *
 * Source for the procedure: Benjamini & Hochberg, "Controlling the false
 * discovery rate", J. R. Statist. Soc. B 57 (1995), 289-300.
 */
#ifndef TRAIL_FLAMEGRAPH_DIFFCOLOR_H
#define TRAIL_FLAMEGRAPH_DIFFCOLOR_H

#include <stdint.h>

#include "flamegraph/layout.h"

struct fg_diff_options {
	int self;		/* test self shares (flamegraph.pl's choice); 0: inclusive */
	int by_frame;		/* test each frame, not each function */
	double alpha;		/* false discovery rate, in (0, 1]; 1 colours every change */
	double min_delta;	/* noise floor, fraction of samples (0.01 = 1 pt) */
	int negate;		/* swap hotter and cooler */
	int by_time;		/* compare counts (one sampling period), not shares */
	int by_bytes;		/* ... and the period is bytes (memory samples), not time */
	int untested;		/* counts are weighted (time, bytes, periods), not samples:
				 * no test (a z on nanoseconds means nothing), no z shown;
				 * every change above the floor is coloured */
};

enum fg_diff_state {
	FG_DIFF_NOISE = 0,	/* not significant, or below the floor */
	FG_DIFF_HOTTER,		/* share rose (after --negate: fell) */
	FG_DIFF_COOLER,
};

struct fg_diff_frame {
	double delta;		/* share after - before, fraction (not negated) */
	double z;		/* pooled z statistic */
	double p;		/* two-sided p-value */
	uint8_t state;		/* enum fg_diff_state */
	uint8_t saturation;	/* 0..255: |delta| / max_delta when not noise */
	uint8_t subtree_changed;	/* this frame or one in its subtree is not noise */
};

/* One row of the strongest changes, a function name once. */
struct fg_diff_top {
	const char *name;	/* into the layout's names, not NUL-terminated */
	uint32_t len;
	double delta;		/* fraction */
	uint8_t state;
	uint8_t is_new;		/* 0 samples before */
	uint8_t is_gone;	/* 0 samples after */
};

#define FG_DIFF_TOP_MAX 10

struct fg_diff {
	struct fg_diff_frame *frames;	/* one per layout frame, same order */
	double max_delta;		/* largest significant |delta|, fraction */
	double p_cut;			/* largest p the FDR procedure accepted (-1: none) */
	uint32_t nr_tested;		/* units (functions or frames) tested */
	uint32_t nr_candidates;		/* of those, above the noise floor */
	uint32_t nr_hotter, nr_cooler, nr_new, nr_gone;	/* significant ones */
	struct fg_diff_top top[FG_DIFF_TOP_MAX];
	uint32_t nr_top;
};

/* Bytes of a frame name without a trailing perf annotation (_[k] _[w] _[i] _[j]). */
size_t fg_display_len(const char *name, size_t len);

/* Classify every frame of l (a differential layout).  Release with fg_diff_release(). */
void fg_diff_classify(struct fg_diff *d, const struct fg_layout *l, const struct fg_diff_options *o);
void fg_diff_release(struct fg_diff *d);

#endif
