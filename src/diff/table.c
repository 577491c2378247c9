/*
 * table.c - runs in, the ranked hotter/cooler rows of 'trail diff' out
 * (table.h): units per run, the basis, per-function tests
 * (diff/compare.c), Benjamini-Hochberg, the floor, the inclusive rows
 * folded into their callees' rows by time, and the ranking.
 */
#include "diff/table.h"
#include "core/alloc.h"
#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a run's counts are: samples per count and unit per sample. */
struct run_units {
	double cps;		/* counts per sample; 0 unknown */
	double k;		/* unit per count (time: ns); 0 unknown */
	char family[32];	/* "ns", "bytes" ...; "" when no unit */
};

static void units_of(const struct folded_weight_info *w, double period, struct run_units *u)
{
	double ns = folded_ns_per_count(w);

	memset(u, 0, sizeof(*u));
	if (w->weight == FOLDED_WEIGHT_SAMPLES) {
		u->cps = period > 0 ? period : 1;
		if (ns > 0) {
			u->k = ns;
			snprintf(u->family, sizeof(u->family), "ns");
		} else if (folded_bytes_per_sample(w) > 0) {
			/* page-fault or allocation samples: bytes add up as time does */
			u->k = folded_bytes_per_sample(w);
			snprintf(u->family, sizeof(u->family), "bytes");
		}
		return;
	}
	u->cps = period > 0 ? period : 0;
	if (ns > 0) {
		u->k = ns;
		snprintf(u->family, sizeof(u->family), "ns");
	} else if (w->unit[0]) {
		u->k = 1;
		snprintf(u->family, sizeof(u->family), "%s", w->unit);
	}
}

/* The stack without its first (process) frame under merge; 0 when nothing is left. */
static size_t strip_root(const char **s, size_t len, int merge)
{
	const char *semi;

	if (!merge)
		return len;
	semi = memchr(*s, ';', len);
	if (!semi)
		return 0;
	len -= (size_t)(semi + 1 - *s);
	*s = semi + 1;
	return len;
}

struct add_ctx {
	struct hotspots *h;
	int merge;
};

static void add_stack(void *arg, const char *s, size_t len, double c)
{
	struct add_ctx *a = arg;

	len = strip_root(&s, len, a->merge);
	if (len || !a->merge)
		hotspots_add_stack(a->h, 0, s, len, c);
	else
		a->h->counts[0] += c;	/* a process-only stack still counts */
}

struct profiles_ctx {
	const struct folded_profile *p;
};

static int each_profile_stack(void *ctx, size_t run, diff_stack_fn *add, void *arg)
{
	const struct folded_profile *p = &((struct profiles_ctx *)ctx)->p[run];
	uint32_t id;

	for (id = 0; id < folded_profile_size(p); id++)
		add(arg, intern_str(&p->stacks, id), intern_len(&p->stacks, id), p->counts[0][id]);
	return 0;
}

void diff_source_profiles(struct diff_source *src, const struct folded_profile *p, size_t nr,
			  const char *const *names, struct folded_weight_info *weights)
{
	static struct profiles_ctx ctx;	/* one source at a time: tests and simple callers */
	size_t r;

	ctx.p = p;
	for (r = 0; r < nr; r++)
		weights[r] = p[r].weight;
	src->runs = nr;
	src->names = names;
	src->weights = weights;
	src->each = each_profile_stack;
	src->ctx = &ctx;
}

/* Why the runs cannot be compared by time ("" when they can). */
static void time_comparable(const struct run_units *u, size_t nr, const char *const *names,
			    char *why, size_t n)
{
	size_t r;

	why[0] = 0;
	for (r = 0; r < nr; r++) {
		if (!u[r].family[0]) {
			snprintf(why, n, "'%s' does not say what one sample stands for (no sampling "
				 "period)", names[r]);
			return;
		}
		if (strcmp(u[r].family, u[0].family)) {
			snprintf(why, n, "'%s' counts %s and '%s' %s", names[0], u[0].family, names[r],
				 u[r].family);
			return;
		}
	}
}

struct work {
	const struct diff_table_opts *o;
	struct hotspots *h;		/* per run */
	struct run_units *u;
	size_t nr;			/* runs */
	double *x, *n, *k;		/* per run, scratch */
};

/* One function's values per run into w->x/n/k; ids per run looked up by name. */
static void fill(struct work *w, const struct diff_table *t, uint32_t id, enum hotspot_measure m)
{
	const char *name = hotspots_name(&t->all, id);
	size_t len = strlen(name), r;

	for (r = 0; r < w->nr; r++) {
		uint32_t rid = intern_find(&w->h[r].names, name, len);
		double cps = w->u[r].cps > 0 ? w->u[r].cps : 1, c = 0;

		if (rid != UINT32_MAX)
			c = m == HOTSPOT_SELF ? w->h[r].funcs[rid].self[0] : w->h[r].funcs[rid].total[0];
		w->x[r] = c / cps;
		w->n[r] = w->h[r].counts[0] / cps;
		w->k[r] = w->u[r].k * cps;
	}
}

static int at_least(double v, double threshold)
{
	return v >= threshold - 1e-12;
}

static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct diff_table_row *x = a, *y = b;
	const struct diff_table *t = ctx;
	double dx = fabs(x->t.delta), dy = fabs(y->t.delta);
	int c;

	if (dx != dy)
		return (dx < dy) - (dx > dy);
	c = strcmp(diff_table_name(t, x->func), diff_table_name(t, y->func));
	if (c)
		return c;
	return ((int)x->measure > (int)y->measure) - ((int)x->measure < (int)y->measure);
}

/* Test every unit through the pre-filter; rows above the floor, with BH. */
static void test_all(struct diff_table *t, struct work *w, struct diff_table_row **rows,
		     size_t *nr_rows)
{
	const struct diff_table_opts *o = w->o;
	size_t nf = hotspots_size(&t->all), i, m = 0, nb = t->runs[0];
	struct diff_table_row *all = xmallocarray(nf ? 2 * nf : 1, sizeof(*all));
	double *ps = xmallocarray(nf ? 2 * nf : 1, sizeof(*ps)), cut;
	double scale = t->basis == DIFF_BY_TIME ? t->total[0] : 1;
	int meas;

	for (i = 0; i < nf; i++) {
		for (meas = HOTSPOT_SELF; meas <= HOTSPOT_TOTAL; meas++) {
			struct diff_side before, after;
			struct diff_table_row *row = &all[m];

			if (!(o->measures & HOTSPOT_MEASURE_BIT(meas)))
				continue;
			fill(w, t, (uint32_t)i, (enum hotspot_measure)meas);
			before = (struct diff_side){ w->x, w->n, w->k, nb };
			after = (struct diff_side){ w->x + nb, w->n + nb, w->k + nb, t->runs[1] };
			memset(row, 0, sizeof(*row));
			row->func = (uint32_t)i;
			row->measure = (enum hotspot_measure)meas;
			diff_compare(&before, &after, t->basis, &row->t);
			if (!(scale > 0) ||
			    !diff_prefilter(row->t.before / scale, row->t.after / scale, o->min_delta))
				continue;
			ps[m++] = row->t.p;
		}
	}
	t->nr_tested = m;
	cut = diff_bh_cut(ps, m, o->alpha);
	*nr_rows = 0;
	for (i = 0; i < m; i++) {
		struct diff_table_row *row = &all[i];
		double d = fabs(row->t.delta) / scale;

		if (row->t.delta == 0 || !at_least(d, o->min_delta))
			continue;
		row->significant = row->t.p <= cut;
		if (!row->significant) {
			t->nr_unsure++;	/* above the floor, within the noise: not listed */
			continue;
		}
		row->confirmed = row->significant && at_least(d, o->confirm);
		all[(*nr_rows)++] = *row;
	}
	free(ps);
	*rows = all;
}

/* Whether the stack holds want, or (want == UINT32_MAX) any function marked in listed. */
static int stack_has(const struct diff_table *t, const char *s, size_t len, uint32_t want,
		     const unsigned char *listed)
{
	const char *end = s + len;

	while (s < end) {
		const char *semi = memchr(s, ';', (size_t)(end - s)), *fe = semi ? semi : end, *name;
		size_t nl = hotspot_frame_name(s, (size_t)(fe - s), t->all.opts.flags, &name);
		uint32_t id = nl ? intern_find(&t->all.names, name, nl) : UINT32_MAX;

		if (id != UINT32_MAX && (want == UINT32_MAX ? listed[id] : id == want))
			return 1;
		s = fe + 1;
	}
	return 0;
}

/*
 * By time: the part of f's inclusive change that lies in stacks holding no
 * function listed by its self change; f's inclusive row is folded when that
 * part is below the floor (a caller of a slower function, an interrupt
 * taken inside it, or f's own self row already listed).
 */
struct rest_ctx {
	const struct diff_table *t;
	const struct diff_table_row *f;
	const unsigned char *listed;
	int merge;
	double sum;
};

static void add_rest(void *arg, const char *s, size_t len, double c)
{
	struct rest_ctx *a = arg;

	len = strip_root(&s, len, a->merge);
	if (len && stack_has(a->t, s, len, a->f->func, a->listed) &&
	    !stack_has(a->t, s, len, UINT32_MAX, a->listed))
		a->sum += c;
}

/* 1 when folded, 0 when not, -1 when a run cannot be read again. */
static int explained(const struct diff_table *t, const struct work *w,
		     const struct diff_source *src, const struct diff_table_row *f,
		     const unsigned char *listed)
{
	size_t r, nb = t->runs[0];
	struct diff_side before, after;
	struct diff_test rest;

	if (listed[f->func])
		return 1;
	for (r = 0; r < w->nr; r++) {
		struct rest_ctx a = { t, f, listed, w->o->merge_processes, 0 };
		double cps = w->u[r].cps > 0 ? w->u[r].cps : 1;

		if (src->each(src->ctx, r, add_rest, &a))
			return -1;
		w->x[r] = a.sum / cps;
		w->n[r] = w->h[r].counts[0] / cps;
		w->k[r] = w->u[r].k * cps;
	}
	before = (struct diff_side){ w->x, w->n, w->k, nb };
	after = (struct diff_side){ w->x + nb, w->n + nb, w->k + nb, t->runs[1] };
	diff_compare(&before, &after, DIFF_BY_TIME, &rest);
	/* what is left is a change of its own only when it is both large and real */
	return !at_least(fabs(rest.delta) / t->total[0], w->o->min_delta) ||
	       rest.p > w->o->alpha;
}

static int split(struct diff_table *t, struct diff_table_row *rows, size_t nr,
		 const struct work *w, const struct diff_source *src)
{
	size_t i;

	unsigned char *listed = xcalloc(hotspots_size(&t->all) + 1, 1);

	for (i = 0; i < nr; i++)
		if (rows[i].measure == HOTSPOT_SELF)
			listed[rows[i].func] = 1;
	t->hotter = xmallocarray(nr ? nr : 1, sizeof(*t->hotter));
	t->cooler = xmallocarray(nr ? nr : 1, sizeof(*t->cooler));
	for (i = 0; i < nr; i++) {
		int folded = t->basis == DIFF_BY_TIME && rows[i].measure == HOTSPOT_TOTAL ?
			     explained(t, w, src, &rows[i], listed) : 0;

		if (folded < 0) {
			free(listed);
			return -1;
		}
		if (folded) {
			t->nr_folded++;
			continue;
		}
		if (rows[i].t.delta > 0)
			t->hotter[t->nr_hotter++] = rows[i];
		else
			t->cooler[t->nr_cooler++] = rows[i];
	}
	free(listed);
	qsort_r(t->hotter, t->nr_hotter, sizeof(*t->hotter), cmp_row, t);
	qsort_r(t->cooler, t->nr_cooler, sizeof(*t->cooler), cmp_row, t);
	if (w->o->top && t->nr_hotter > w->o->top)
		t->nr_hotter = w->o->top;
	if (w->o->top && t->nr_cooler > w->o->top)
		t->nr_cooler = w->o->top;
	return 0;
}

/* Units, refusals and the basis; 0 or -1 after trail_error(). */
static int choose_basis(struct diff_table *t, struct run_units *u,
			const struct folded_weight_info *weights, size_t nr, const char *const *names,
			const struct diff_table_opts *o)
{
	size_t r;

	for (r = 0; r < nr; r++) {
		char what[64];

		if (u[r].cps > 0 || (t->runs[0] >= 2 && t->runs[1] >= 2))
			continue;
		folded_weight_describe(what, sizeof(what), &weights[r]);
		return trail_error("'%s' is weighted by %s, not sample counts: the significance test "
				   "needs counts.  Fold with --weight samples ('trail record -o "
				   "F.folded' writes counts by default; 'trail collapse --weight "
				   "samples'), give --period N, the weight of one sample (e.g. 1001001 "
				   "ns at -F 999), or give two or more runs per side", names[r], what);
	}
	time_comparable(u, nr, names, t->why_share, sizeof(t->why_share));
	if (o->basis == DIFF_BY_TIME && t->why_share[0])
		return trail_error("--by time: %s; compare shares (--by share) or record both with "
				   "trail record, which writes the sampling period", t->why_share);
	t->basis = o->basis >= 0 ? (enum diff_basis)o->basis :
		   t->why_share[0] ? DIFF_BY_SHARE : DIFF_BY_TIME;
	if (t->basis == DIFF_BY_TIME)
		snprintf(t->unit, sizeof(t->unit), "%s", u[0].family);
	if (o->basis == DIFF_BY_SHARE)
		t->why_share[0] = 0;	/* asked for, not a fallback */
	return 0;
}

int diff_table_build(struct diff_table *t, const struct diff_source *src, size_t nb, size_t na,
		     const struct diff_table_opts *o)
{
	const char *const *names = src->names;
	struct hotspot_options ho = HOTSPOT_OPTIONS_INIT;
	struct work w = { o, NULL, NULL, nb + na, NULL, NULL, NULL };
	struct diff_table_row *rows = NULL;
	size_t r, nr_rows = 0;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	ho.flags = o->flags;
	hotspots_init(&t->all, &ho);
	t->runs[0] = nb;
	t->runs[1] = na;
	w.u = xcalloc(w.nr, sizeof(*w.u));
	w.h = xcalloc(w.nr, sizeof(*w.h));
	w.x = xcalloc(w.nr, sizeof(double));
	w.n = xcalloc(w.nr, sizeof(double));
	w.k = xcalloc(w.nr, sizeof(double));
	for (r = 0; r < w.nr; r++) {
		int side = r >= nb;

		struct add_ctx a = { &w.h[r], o->merge_processes };

		hotspots_init(&w.h[r], &ho);
		if (src->each(src->ctx, r, add_stack, &a)) {
			ret = DIFF_TABLE_READ_ERROR;
			goto out;
		}
		/* after the first pass: a streamed run's header is read by then */
		units_of(&src->weights[r], o->period, &w.u[r]);
		/* the table's names: the union of the runs' (no second pass over the stacks) */
		for (uint32_t id = 0; id < hotspots_size(&w.h[r]); id++)
			intern_add(&t->all.names, hotspots_name(&w.h[r], id),
				   intern_len(&w.h[r].names, id), NULL);
		t->all.counts[side] += w.h[r].counts[0];
		t->samples[side] += w.h[r].counts[0] / (w.u[r].cps > 0 ? w.u[r].cps : 1);
	}
	for (r = 0; r < w.nr; r++)
		if (!(w.h[r].counts[0] > 0)) {
			trail_error("'%s' has no samples: there is nothing to compare", names[r]);
			goto out;
		}
	if (choose_basis(t, w.u, src->weights, w.nr, names, o))
		goto out;
	t->error = nb >= 2 && na >= 2 ? DIFF_ERROR_RUNS : DIFF_ERROR_SAMPLING;
	for (r = 0; r < w.nr; r++) {
		int side = r >= nb;
		double cps = w.u[r].cps > 0 ? w.u[r].cps : 1;
		double v = t->basis == DIFF_BY_TIME ? w.h[r].counts[0] * w.u[r].k
						    : w.h[r].counts[0] / cps;

		t->total[side] += v / (double)t->runs[side];
	}
	test_all(t, &w, &rows, &nr_rows);
	if (split(t, rows, nr_rows, &w, src))
		goto out;
	ret = 0;
out:
	for (r = 0; r < w.nr; r++)
		hotspots_release(&w.h[r]);
	free(rows);
	free(w.h);
	free(w.u);
	free(w.x);
	free(w.n);
	free(w.k);
	if (ret)
		diff_table_release(t);	/* nothing for the caller to release */
	return ret;
}

void diff_table_release(struct diff_table *t)
{
	hotspots_release(&t->all);
	free(t->hotter);
	free(t->cooler);
	memset(t, 0, sizeof(*t));
}
