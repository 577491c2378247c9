/*
 * segment.c - every culprit in a range by binary segmentation of one
 * measure's levels (see segment.h).  Pure: the measuring is the
 * callbacks' job; here only which position to measure next and what the
 * levels say.
 */
#include "flame/segment.h"
#include "flame/decide.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void flame_segmentation_init(struct flame_segmentation *g, size_t n)
{
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->level = xcalloc(n + 1, sizeof(*g->level));
	g->alpha = 0.05;
	g->pair_alpha = 0.05;
	g->min_explains = 0.2;
	g->max_culprits = 4;
	g->max_probes = 4 * (n + 1);
}

void flame_segmentation_release(struct flame_segmentation *g)
{
	free(g->level);
	free(g->culprits);
	memset(g, 0, sizeof(*g));
}

/* level[n] - level[0]: the change being explained. */
static double flame_segmentation_effect(const struct flame_segmentation *g)
{
	return g->level[g->n].value - g->level[0].value;
}

int flame_segment_has_step(const struct flame_level *lo, const struct flame_level *hi,
			   double effect, double effect_se, double effect_df, double alpha,
			   double min_explains, struct flame_step_assessment *a)
{
	double se = hypot(lo->se, hi->se);
	double df = flame_welch_df(lo->se, lo->df, hi->se, hi->df);

	flame_step_assess(hi->value - lo->value, se, df, effect, effect_se, effect_df, alpha, a);
	return flame_culprit_accepted(a, min_explains);
}

int flame_culprit_accepted(const struct flame_step_assessment *a, double min_explains)
{
	return a->real && a->explains >= min_explains;
}

/* The middle of levels l and h: geometric for a measure the load scales (decide.h). */
static double level_mid(const struct flame_segmentation *g, size_t l, size_t h)
{
	return flame_threshold_scaled(g->level[l].value, g->level[h].value, g->log_scale);
}

/* flame_segment_has_step() on the segmentation's scale (log_scale: estimate.h). */
static int segment_has_step(const struct flame_segmentation *g, size_t lo, size_t hi,
			    struct flame_step_assessment *a)
{
	const struct flame_level *l = &g->level[lo], *h = &g->level[hi];

	if (!g->log_scale)
		return flame_segment_has_step(l, h, flame_segmentation_effect(g), g->effect_se,
					      g->effect_df, g->alpha, g->min_explains, a);
	flame_step_assess_log(h->value - l->value, hypot(l->se, h->se),
			      flame_welch_df(l->se, l->df, h->se, h->df), l->value,
			      flame_segmentation_effect(g), g->effect_se, g->effect_df,
			      g->level[0].value, g->alpha, a);
	return flame_culprit_accepted(a, g->min_explains);
}

/*
 * A position strictly between l and h to look at: a known level nearest
 * the middle (free), else a new probe at the middle or the nearest
 * testable position to it.  0 (*m set), 1 nothing testable or the probe
 * budget is spent, -1 error.
 */
static int pick(struct flame_segmentation *g, const struct flame_segment_ops *ops, size_t l,
		size_t h, size_t *m)
{
	size_t mid = l + (h - l) / 2, d, best = 0;
	double threshold = level_mid(g, l, h);

	/* mid - d > l, written so that it cannot wrap: d < mid - l */
	for (d = 0; mid + d < h || d < mid - l; d++) {
		if (mid + d < h && g->level[mid + d].state == FLAME_LEVEL_KNOWN) {
			best = mid + d;
			break;
		}
		if (d && d < mid - l && g->level[mid - d].state == FLAME_LEVEL_KNOWN) {
			best = mid - d;
			break;
		}
	}
	if (best) {
		*m = best;
		return 0;
	}
	for (d = 0; mid + d < h || d < mid - l; d++) {
		size_t cand[2] = { mid + d, d < mid - l ? mid - d : h };
		int k;

		for (k = 0; k < (d ? 2 : 1); k++) {
			size_t p = cand[k];
			int rc;

			if (p <= l || p >= h || g->level[p].state != FLAME_LEVEL_UNKNOWN)
				continue;
			if (g->probes >= g->max_probes) {
				g->truncated = 1;
				return 1;
			}
			g->probes++;
			rc = ops->probe(ops->ctx, p, threshold, &g->level[p]);
			if (rc < 0)
				return -1;
			g->level[p].state = rc ? FLAME_LEVEL_UNTESTABLE : FLAME_LEVEL_KNOWN;
			if (!rc) {
				*m = p;
				return 0;
			}
		}
	}
	return 1;
}

/*
 * Walk down the segment (lo, hi] toward the larger jump: at each level
 * looked at, the half whose ends differ more holds the step (with one
 * step, the bisection on the middle threshold; with two, either, and the
 * other is found from the sides).  *at gets the commit reached.
 */
static int locate(struct flame_segmentation *g, const struct flame_segment_ops *ops, size_t lo,
		  size_t hi, size_t *at)
{
	size_t l = lo, h = hi, m;
	int rc;

	while (h - l > 1) {
		rc = pick(g, ops, l, h, &m);
		if (rc < 0)
			return -1;
		if (rc)
			break;	/* untestable commits between: h is the nearest testable */
		/* the larger jump: m at or above the middle of l and h (on their scale) */
		if (g->level[m].value >= level_mid(g, l, h))
			h = m;
		else
			l = m;
	}
	*at = h;
	return 0;
}

static void add_culprit(struct flame_segmentation *g, size_t pos,
			const struct flame_step_assessment *a)
{
	ALLOC_GROW(g->culprits, g->nculprits + 1, g->culprits_alloc);
	g->culprits[g->nculprits].pos = pos;
	g->culprits[g->nculprits].step = *a;
	g->nculprits++;
}

/*
 * Confirm the commit at c beside its parent (ops->pair): its pair's
 * levels replace the older ones (the ends stay), and it is a culprit when
 * accepted.  0 (*a filled), 1 untestable, -1 error.
 */
static int confirm_at(struct flame_segmentation *g, const struct flame_segment_ops *ops, size_t c,
		      struct flame_step_assessment *a)
{
	struct flame_level slow, fast;
	int rc;

	memset(&slow, 0, sizeof(slow));
	memset(&fast, 0, sizeof(fast));
	g->pairs++;
	rc = ops->pair(ops->ctx, c, flame_segmentation_effect(g), g->pair_alpha, a, &slow, &fast);
	if (rc)
		return rc;
	/* The pair's levels are fresher than any probe's; the ends stay. */
	slow.state = fast.state = FLAME_LEVEL_KNOWN;
	if (c < g->n)
		g->level[c] = slow;
	if (c - 1 > 0)
		g->level[c - 1] = fast;
	if (flame_culprit_accepted(a, g->min_explains))
		add_culprit(g, c, a);
	return 0;
}

int flame_segment_search(struct flame_segmentation *g, const struct flame_segment_ops *ops,
			 size_t lo, size_t hi)
{
	struct flame_step_assessment a;
	size_t c;

	if (hi <= lo || hi > g->n || g->level[lo].state != FLAME_LEVEL_KNOWN ||
	    g->level[hi].state != FLAME_LEVEL_KNOWN)
		return 0;
	if (!segment_has_step(g, lo, hi, &a))
		return 0;
	if (g->nculprits >= g->max_culprits) {
		g->truncated = 1;
		return 0;
	}
	if (locate(g, ops, lo, hi, &c) || confirm_at(g, ops, c, &a) < 0)
		return -1;
	/* Either way, each side may hold a step of its own. */
	if (c - 1 > lo && flame_segment_search(g, ops, lo, c - 1))
		return -1;
	return flame_segment_search(g, ops, c, hi);
}

/*
 * The pair at pos confirmed first, then each side searched only when the
 * commit does not explain all of the change (levels measured apart differ
 * by the load alone: an explained side costs no probes).
 */
int flame_segment_search_from(struct flame_segmentation *g, const struct flame_segment_ops *ops,
			      size_t pos)
{
	struct flame_step_assessment a;
	int rc;

	if (!pos || pos > g->n || g->level[0].state != FLAME_LEVEL_KNOWN ||
	    g->level[g->n].state != FLAME_LEVEL_KNOWN)
		return flame_segment_search(g, ops, 0, g->n);
	if (!segment_has_step(g, 0, g->n, &a))
		return 0;
	if (g->nculprits >= g->max_culprits) {
		g->truncated = 1;
		return 0;
	}
	rc = confirm_at(g, ops, pos, &a);
	if (rc < 0)
		return -1;
	if (rc)
		return flame_segment_search(g, ops, 0, g->n);	/* untestable: no seed */
	/* all of it but less than a culprit's part: a smaller second step may
	 * hide in an interval that reaches 100% (culprits.c) */
	if (flame_culprit_accepted(&a, g->min_explains) && a.explains_lo >= 1 - g->min_explains)
		return 0;
	if (pos - 1 > 0 && flame_segment_search(g, ops, 0, pos - 1))
		return -1;
	return flame_segment_search(g, ops, pos, g->n);
}

static int cmp_explains(const void *pa, const void *pb)
{
	const struct flame_segment_culprit *a = pa, *b = pb;

	/* larger first; position breaks ties (older first) */
	if (a->step.explains != b->step.explains)
		return (a->step.explains < b->step.explains) - (a->step.explains > b->step.explains);
	return (a->pos > b->pos) - (a->pos < b->pos);
}

void flame_segment_sort(struct flame_segmentation *g)
{
	if (g->nculprits > 1)
		qsort(g->culprits, g->nculprits, sizeof(*g->culprits), cmp_explains);
}
