/*
 * segment.h - every culprit in a range: binary segmentation of the levels
 * of one measure along the commits (Scott & Knott 1974; Vostrikova 1981),
 * with the measuring left to callbacks so the same code runs on real
 * probes (culprits.c) and on simulated ones (bench/calibrate).  A segment
 * is searched only when its ends differ by a real step; the probes
 * already measured are reused, new ones go where a segment is undecided,
 * and each commit found is confirmed beside its parent in ABBA pairs.
 */
#ifndef TRAIL_FLAME_SEGMENT_H
#define TRAIL_FLAME_SEGMENT_H

#include <stddef.h>

#include "flame/estimate.h"

/* The measured level of one position of the range (0 = the good end). */
struct flame_level {
	double value;		/* the measure: a share (fraction), samples or metric */
	double se, df;		/* its standard error and degrees of freedom */
	int state;		/* FLAME_LEVEL_* */
};
enum { FLAME_LEVEL_UNKNOWN = 0, FLAME_LEVEL_KNOWN, FLAME_LEVEL_UNTESTABLE };

struct flame_segment_ops {
	void *ctx;
	/*
	 * Measure position pos (0 < pos < n); threshold is the middle of the
	 * segment's ends (a probe may stop once it is clearly on one side).
	 * 0 (out filled), 1 the commit cannot be built or run, -1 error.
	 */
	int (*probe)(void *ctx, size_t pos, double threshold, struct flame_level *out);
	/*
	 * Re-probe pos beside pos - 1, their runs interleaved (ABBA), and
	 * assess the step with flame_step_assess() against effect at alpha;
	 * slow and fast get both levels.  0, 1 untestable, -1 error.
	 */
	int (*pair)(void *ctx, size_t pos, double effect, double alpha,
		    struct flame_step_assessment *a, struct flame_level *slow,
		    struct flame_level *fast);
};

/* One culprit found: its position and its step beside its parent. */
struct flame_segment_culprit {
	size_t pos;
	struct flame_step_assessment step;
};

struct flame_segmentation {
	size_t n;			/* positions 0 (good end) .. n (bad end) */
	struct flame_level *level;	/* n + 1 levels; the ends must be known */
	double effect_se, effect_df;	/* error of level[n] - level[0] */
	double alpha;			/* two-sided, each segment's test */
	double pair_alpha;		/* two-sided, each culprit's confirmation */
	double min_explains;		/* part of the change a culprit must explain */
	int log_scale;			/* a measure the load scales (a time): the middle
					 * of two levels and the part a step explains are
					 * taken on the log scale (estimate.h, decide.h) */
	size_t max_culprits, max_probes;
	/* filled by the search */
	struct flame_segment_culprit *culprits;
	size_t nculprits, culprits_alloc;
	size_t probes, pairs;		/* measured by the search */
	int truncated;			/* max_culprits or max_probes stopped it */
};

/* n positions after the good end; every level unknown but the ends'. */
void flame_segmentation_init(struct flame_segmentation *g, size_t n);
void flame_segmentation_release(struct flame_segmentation *g);

/*
 * Does the segment from level lo to level hi hold a culprit worth
 * searching for?  Its step (Welch t on the two levels, at alpha) is real
 * and explains at least min_explains of effect; a is filled either way.
 */
int flame_segment_has_step(const struct flame_level *lo, const struct flame_level *hi,
			   double effect, double effect_se, double effect_df, double alpha,
			   double min_explains, struct flame_step_assessment *a);
/* A commit's confirmed step counts as a culprit: real, and explains enough. */
int flame_culprit_accepted(const struct flame_step_assessment *a, double min_explains);

/*
 * Find every culprit in positions lo+1 .. hi (levels lo and hi known):
 * when the segment has a step, walk down it toward the larger of the two
 * jumps at each probed level (a known level in the way is used instead of
 * a new probe), confirm the commit reached beside its parent, then search
 * both sides of it.  Culprits go to g->culprits in the order found.
 * 0, -1 when a callback failed.
 */
int flame_segment_search(struct flame_segmentation *g, const struct flame_segment_ops *ops,
			 size_t lo, size_t hi);

/*
 * The same search over the whole range, starting from a commit already
 * suspected (pos): it is confirmed beside its parent first, and when it
 * explains the whole change (all but less than min_explains of it, by its
 * interval) no other commit is probed; otherwise both
 * sides of it are searched with its pair's levels known.  An untestable
 * pos falls back to flame_segment_search(g, ops, 0, g->n).
 */
int flame_segment_search_from(struct flame_segmentation *g, const struct flame_segment_ops *ops,
			      size_t pos);

/* Sort g->culprits by the part of the change they explain, largest first. */
void flame_segment_sort(struct flame_segmentation *g);

#endif
