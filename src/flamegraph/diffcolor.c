/*
 * diffcolor.c - the noise decision for differential flame graphs (see
 * diffcolor.h): shares per function (or per frame), one z-test each,
 * Benjamini-Hochberg over the candidates above the floor, saturation scaled
 * to the strongest change, and the top changes for the legend.
 */
#include "flamegraph/diffcolor.h"
#include "core/alloc.h"
#include "core/intern.h"
#include "diff/compare.h"
#include "diff/significance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t fg_display_len(const char *name, size_t len)
{
	if (len >= 4 && name[len - 4] == '_' && name[len - 3] == '[' && name[len - 1] == ']' &&
	    strchr("kwij", name[len - 2]))
		return len - 4;
	return len;
}

/* What one unit (a function or a frame) weighed on each side. */
struct unit {
	double self[2], total[2];	/* counts */
	double rest[2];			/* by time: inclusive counts outside listed stacks */
	double delta, z, p;		/* change (fraction), test */
	double self_delta, self_p;	/* by time: the self change and its test */
	uint8_t listed;			/* by time: coloured for its self change */
	uint32_t open;			/* frames of this function on the current path */
	uint32_t frame;			/* a frame of the unit (for its name) */
	uint8_t state;
};

static int cmp_top(const void *a, const void *b)
{
	const struct fg_diff_top *x = a, *y = b;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	int c = (dx < dy) - (dx > dy);
	size_t n;

	if (c)
		return c;
	n = x->len < y->len ? x->len : y->len;
	c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* Keep the strongest change per function name, at most FG_DIFF_TOP_MAX. */
static void add_top(struct fg_diff *d, const struct fg_frame *f, double delta, uint8_t state)
{
	struct fg_diff_top t = { f->name, (uint32_t)fg_display_len(f->name, f->len), delta, state,
				 f->w[0] <= 0 && f->w[1] > 0, f->w[1] <= 0 && f->w[0] > 0 };
	uint32_t i;

	for (i = 0; i < d->nr_top; i++) {
		if (d->top[i].len == t.len && !memcmp(d->top[i].name, t.name, t.len)) {
			if (fabs(t.delta) <= fabs(d->top[i].delta))
				return;
			d->top[i] = t;
			goto sort;
		}
	}
	if (d->nr_top < FG_DIFF_TOP_MAX)
		d->top[d->nr_top++] = t;
	else if (cmp_top(&t, &d->top[FG_DIFF_TOP_MAX - 1]) < 0)
		d->top[FG_DIFF_TOP_MAX - 1] = t;
	else
		return;
sort:
	qsort(d->top, d->nr_top, sizeof(d->top[0]), cmp_top);
}

/*
 * Per function: self counts summed over its frames, inclusive counts over
 * its outermost frames only (a frame with the same function below it on
 * the path is already inside that one's width).  unit_of[i] gets frame i's
 * function.
 */
static uint32_t functions(const struct fg_layout *l, struct intern *names, uint32_t *unit_of,
			  struct unit **units)
{
	uint32_t *path = xmallocarray((size_t)l->max_depth + 1, sizeof(*path));
	size_t alloc = 0;
	uint32_t top = 0;

	*units = NULL;
	for (uint32_t i = 1; i < l->nr; i++) {
		const struct fg_frame *f = &l->frames[i];
		int is_new;
		uint32_t u = intern_add(names, f->name, fg_display_len(f->name, f->len), &is_new);
		struct unit *x;

		if (is_new) {
			ALLOC_GROW(*units, names->nr, alloc);
			memset(&(*units)[u], 0, sizeof(**units));
			(*units)[u].frame = i;
		}
		/* leave the frames that are not ancestors of this one */
		while (top >= f->depth)
			(*units)[unit_of[path[--top]]].open--;
		x = &(*units)[u];
		unit_of[i] = u;
		for (int c = 0; c < 2; c++) {
			x->self[c] += f->self[c];
			if (!x->open)
				x->total[c] += f->w[c];
		}
		x->open++;
		path[top++] = i;
	}
	free(path);
	return names->nr;
}

/* Poisson z of two counts of one period: (c1 - c0) / sqrt(c0 + c1). */
static void count_test(double c0, double c1, double *z, double *p)
{
	double v = (c0 > 0 ? c0 : 0) + (c1 > 0 ? c1 : 0);

	*z = v > 0 ? (c1 - c0) / sqrt(v) : 0;
	*p = v > 0 ? erfc(fabs(*z) / sqrt(2.0)) : 1;
}

static void test_counts(const double *c, const struct fg_layout *l, const struct fg_diff_options *o,
			double *delta, double *z, double *p)
{
	struct share_test t;

	*p = 1;
	*z = 0;
	*delta = 0;
	if (!(c[0] > 0) && !(c[1] > 0))
		return;
	if (o->untested) {
		/* weighted counts: the change alone, above the floor it is coloured */
		*delta = o->by_time ? (l->total[0] > 0 ? (c[1] - c[0]) / l->total[0] : 0)
				    : (l->total[1] > 0 ? c[1] / l->total[1] : 0) -
				      (l->total[0] > 0 ? c[0] / l->total[0] : 0);
		*p = 0;
		return;
	}
	if (o->by_time) {
		*delta = l->total[0] > 0 ? (c[1] - c[0]) / l->total[0] : 0;
		count_test(c[0], c[1], z, p);
		return;
	}
	share_test(&t, c[0], l->total[0], c[1], l->total[1]);
	*delta = t.delta;
	*z = t.z;
	*p = t.p_value;
}

/* The pre-filter: the unit's size on both sides, never its change. */
static int big_enough(const double *c, const struct fg_layout *l, const struct fg_diff_options *o)
{
	double b = l->total[0] > 0 ? c[0] / l->total[0] : 0;
	double a = o->by_time ? (l->total[0] > 0 ? c[1] / l->total[0] : 0)
			      : (l->total[1] > 0 ? c[1] / l->total[1] : 0);

	return diff_prefilter(b, a, o->min_delta);
}

/* BH over the units through the pre-filter: the cut (-1: none). */
static double fdr_cut(const struct unit *units, uint32_t from, uint32_t nr, int self,
		      const struct fg_layout *l, const struct fg_diff_options *o, uint32_t *m_out)
{
	double *ps = xmallocarray(nr ? nr : 1, sizeof(*ps)), cut;
	uint32_t i, m = 0;

	for (i = from; i < nr; i++) {
		const struct unit *x = &units[i];

		if (big_enough(self ? x->self : (o->self ? x->self : x->total), l, o))
			ps[m++] = self ? x->self_p : x->p;
	}
	cut = diff_bh_cut(ps, m, o->alpha);
	free(ps);
	if (m_out)
		*m_out = m;
	return cut;
}

/*
 * By time, inclusive: mark the units whose self change is a discovery
 * above the floor, then count each unit's inclusive weight in stacks
 * without a marked unit (no marked ancestor, minus marked descendants).
 */
static void fold_callers(struct unit *units, uint32_t nr_units, const uint32_t *unit_of,
			 const struct fg_layout *l, const struct fg_diff_options *o)
{
	uint32_t *path = xmallocarray((size_t)l->max_depth + 1, sizeof(*path));
	double (*rest)[2] = xcalloc(l->nr ? l->nr : 1, sizeof(*rest));
	uint8_t *under = xcalloc(l->nr ? l->nr : 1, 1);	/* a marked frame at or above */
	double cut = fdr_cut(units, 0, nr_units, 1, l, o, NULL);
	uint32_t i, k, top = 0;

	for (i = 0; i < nr_units; i++)
		units[i].listed = cut >= 0 && units[i].self_p <= cut &&
				  fabs(units[i].self_delta) >= o->min_delta && units[i].self_delta != 0;
	for (i = 1; i < l->nr; i++) {
		const struct fg_frame *f = &l->frames[i];

		while (top >= f->depth)
			top--;
		path[top++] = i;
		under[i] = units[unit_of[i]].listed || (top > 1 && under[path[top - 2]]);
		rest[i][0] = under[i] ? 0 : f->w[0];
		rest[i][1] = under[i] ? 0 : f->w[1];
		if (under[i] && !(top > 1 && under[path[top - 2]]))
			for (k = 0; k + 1 < top; k++) {	/* outermost marked: off its ancestors */
				rest[path[k]][0] -= f->w[0];
				rest[path[k]][1] -= f->w[1];
			}
	}
	/* per unit, over its outermost frames (as functions() sums inclusive counts) */
	for (i = 0; i < nr_units; i++)
		units[i].open = 0;
	top = 0;
	for (i = 1; i < l->nr; i++) {
		const struct fg_frame *f = &l->frames[i];
		struct unit *x = &units[unit_of[i]];

		while (top >= f->depth)
			units[unit_of[path[--top]]].open--;
		if (!x->open) {
			x->rest[0] += rest[i][0];
			x->rest[1] += rest[i][1];
		}
		x->open++;
		path[top++] = i;
	}
	free(path);
	free(rest);
	free(under);
}

/* Whether a unit that passed the FDR cut on its inclusive change stays coloured. */
static int keeps_colour(const struct unit *x, const struct fg_layout *l,
			const struct fg_diff_options *o)
{
	double z, p;

	if (x->listed)
		return 1;
	count_test(x->rest[0], x->rest[1], &z, &p);
	return p <= o->alpha && l->total[0] > 0 &&
	       fabs(x->rest[1] - x->rest[0]) / l->total[0] >= o->min_delta;
}

void fg_diff_classify(struct fg_diff *d, const struct fg_layout *l, const struct fg_diff_options *o)
{
	struct intern names;
	struct unit *units = NULL;
	uint32_t *unit_of, *path, nr_units, i, from;
	double z;
	int fold;

	memset(d, 0, sizeof(*d));
	d->frames = xcalloc(l->nr ? l->nr : 1, sizeof(*d->frames));
	unit_of = xcalloc(l->nr ? l->nr : 1, sizeof(*unit_of));
	intern_init(&names);
	if (o->by_frame) {
		nr_units = l->nr;
		units = xcalloc(nr_units ? nr_units : 1, sizeof(*units));
		for (i = 1; i < l->nr; i++) {
			memcpy(units[i].self, l->frames[i].self, sizeof(units[i].self));
			memcpy(units[i].total, l->frames[i].w, sizeof(units[i].total));
			units[i].frame = i;
			unit_of[i] = i;
		}
	} else {
		nr_units = functions(l, &names, unit_of, &units);
	}

	/* the root ("all") is not a unit: frame 0 maps to unit 0 only by_frame */
	from = o->by_frame ? 1 : 0;
	for (i = from; i < nr_units; i++) {
		struct unit *x = &units[i];

		test_counts(o->self ? x->self : x->total, l, o, &x->delta, &x->z, &x->p);
		test_counts(x->self, l, o, &x->self_delta, &z, &x->self_p);
		if (x->p < 1 || x->delta != 0)
			d->nr_tested++;
	}
	fold = o->by_time && !o->self && !o->by_frame;
	if (fold)
		fold_callers(units, nr_units, unit_of, l, o);
	d->p_cut = fdr_cut(units, from, nr_units, 0, l, o, &d->nr_candidates);

	for (i = from; i < nr_units; i++) {
		struct unit *x = &units[i];
		double up;

		if (fold && x->listed && !(d->p_cut >= 0 && x->p <= d->p_cut)) {
			/* coloured for its own change: show that one */
			x->delta = x->self_delta;
			x->p = x->self_p;
		} else if (!(d->p_cut >= 0) || x->p > d->p_cut || fabs(x->delta) < o->min_delta ||
			   x->delta == 0 || (fold && !keeps_colour(x, l, o))) {
			continue;
		}
		up = o->negate ? -x->delta : x->delta;
		x->state = up > 0 ? FG_DIFF_HOTTER : FG_DIFF_COOLER;
		if (fabs(x->delta) > d->max_delta)
			d->max_delta = fabs(x->delta);
		add_top(d, &l->frames[x->frame], x->delta, x->state);
	}

	/* per frame: its unit's verdict, saturation, "something in this subtree changed" */
	path = xmallocarray((size_t)l->max_depth + 1, sizeof(*path));
	for (i = 0; i < l->nr; i++) {
		struct fg_diff_frame *df = &d->frames[i];
		const struct fg_frame *f = &l->frames[i];
		const struct unit *x = i ? &units[unit_of[i]] : NULL;

		path[f->depth] = i;
		df->p = 1;
		if (!x)
			continue;
		df->delta = x->delta;
		df->z = x->z;
		df->p = x->p;
		df->state = x->state;
		if (df->state == FG_DIFF_NOISE)
			continue;
		df->saturation = d->max_delta > 0
			? (uint8_t)lround(255 * fmin(1, fabs(df->delta) / d->max_delta)) : 255;
		if (df->state == FG_DIFF_HOTTER)
			d->nr_hotter++;
		else
			d->nr_cooler++;
		d->nr_new += f->w[0] <= 0 && f->w[1] > 0;
		d->nr_gone += f->w[1] <= 0 && f->w[0] > 0;
		for (uint32_t k = f->depth + 1; k-- > 0;) {
			struct fg_diff_frame *a = &d->frames[path[k]];

			if (a->subtree_changed && k < f->depth)
				break;
			a->subtree_changed = 1;
		}
	}
	free(path);
	free(unit_of);
	free(units);
	intern_release(&names);
}

void fg_diff_release(struct fg_diff *d)
{
	free(d->frames);
	memset(d, 0, sizeof(*d));
}
