/*
 * hotspots.c - per-function self and inclusive counts from folded stacks,
 * and the ranking of functions by the change of their share of samples
 * (definitions in hotspots.h, statistics in significance.c).
 */
#include "diff/hotspots.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Length of frame without one trailing clone suffix, or len when none. */
static size_t strip_one_clone(const char *f, size_t len)
{
	static const char *const kinds[] = {
		"isra", "constprop", "part", "cold", "lto_priv", "llvm", "localalias", "clone",
	};
	size_t end = len, i, k;

	/* an optional ".<digits>" first */
	i = end;
	while (i > 0 && f[i - 1] >= '0' && f[i - 1] <= '9')
		i--;
	if (i < end && i > 0 && f[i - 1] == '.')
		end = i - 1;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t kl = strlen(kinds[k]);

		/* ".<kind>" with a non-empty name before it */
		if (end > kl + 1 && f[end - kl - 1] == '.' && !memcmp(f + end - kl, kinds[k], kl))
			return end - kl - 1;
	}
	return len;
}

size_t hotspot_frame_name(const char *frame, size_t len, unsigned flags, const char **start)
{
	if (flags & HOTSPOT_STRIP_MODULE) {
		const char *tick = memrchr(frame, '`', len);

		if (tick) {
			len -= (size_t)(tick + 1 - frame);
			frame = tick + 1;
		}
	}
	if ((flags & HOTSPOT_STRIP_ANNOTATIONS) && len >= 4 && frame[len - 1] == ']') {
		size_t i = len - 1;

		while (i > 0 && ((frame[i - 1] >= 'a' && frame[i - 1] <= 'z') ||
				 (frame[i - 1] >= 'A' && frame[i - 1] <= 'Z')))
			i--;
		/* at least one letter, preceded by "_[" and a non-empty name */
		if (i < len - 1 && i >= 3 && frame[i - 1] == '[' && frame[i - 2] == '_')
			len = i - 2;
	}
	if (flags & HOTSPOT_STRIP_CLONES) {
		size_t n;

		/* "f.constprop.0.isra.0", "f.part.0.cold": several in a row */
		while ((n = strip_one_clone(frame, len)) != len)
			len = n;
	}
	*start = frame;
	return len;
}

void hotspots_init(struct hotspots *h, const struct hotspot_options *opts)
{
	memset(h, 0, sizeof(*h));
	intern_init(&h->names);
	if (opts)
		h->opts = *opts;
	if (!(h->opts.period > 0))
		h->opts.period = 1;
}

void hotspots_release(struct hotspots *h)
{
	intern_release(&h->names);
	free(h->funcs);
	free(h->seen);
	memset(h, 0, sizeof(*h));
}

static uint32_t func_id(struct hotspots *h, const char *name, size_t len)
{
	uint32_t id = intern_add(&h->names, name, len, NULL);

	if (id >= h->alloc) {
		size_t old = h->alloc;

		ALLOC_GROW(h->funcs, (size_t)id + 1, h->alloc);
		h->seen = xreallocarray(h->seen, h->alloc, sizeof(*h->seen));
		memset(h->funcs + old, 0, (h->alloc - old) * sizeof(*h->funcs));
		memset(h->seen + old, 0, (h->alloc - old) * sizeof(*h->seen));
	}
	return id;
}

void hotspots_add_stack(struct hotspots *h, int side, const char *stack, size_t len,
			double c)
{
	const char *p = stack, *end = stack + len;
	uint32_t leaf = UINT32_MAX;

	h->counts[side] += c;
	if (c == 0)
		return;
	/* A new stamp per stack: a function counts once towards total however
	 * often it appears in the stack (recursion). */
	if (++h->generation == 0) {
		memset(h->seen, 0, h->alloc * sizeof(*h->seen));
		h->generation = 1;
	}
	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *fe = semi ? semi : end, *name;
		size_t nlen = hotspot_frame_name(p, (size_t)(fe - p), h->opts.flags, &name);

		if (nlen) {
			uint32_t id = func_id(h, name, nlen);

			if (h->seen[id] != h->generation) {
				h->seen[id] = h->generation;
				h->funcs[id].total[side] += c;
			}
			leaf = id;
		} else {
			leaf = UINT32_MAX;
		}
		p = fe + 1;
	}
	if (leaf != UINT32_MAX)
		h->funcs[leaf].self[side] += c;
}

void hotspots_add_profile(struct hotspots *h, int side, const struct folded_profile *p,
			  int column)
{
	size_t i, n = folded_profile_size(p);

	if (!p->counts[column]) {
		return;
	}
	for (i = 0; i < n; i++)
		hotspots_add_stack(h, side, intern_str(&p->stacks, (uint32_t)i),
				   intern_len(&p->stacks, (uint32_t)i), p->counts[column][i]);
}

uint32_t hotspots_find(const struct hotspots *h, const char *name)
{
	const char *start;
	size_t len = hotspot_frame_name(name, strlen(name), h->opts.flags, &start);

	return len ? intern_find(&h->names, start, len) : UINT32_MAX;
}

double hotspots_samples(const struct hotspots *h, int side)
{
	return h->counts[side] / h->opts.period;
}

const char *hotspot_measure_name(enum hotspot_measure m)
{
	return m == HOTSPOT_SELF ? "self" : "total";
}

void hotspots_test(const struct hotspots *h, uint32_t id, enum hotspot_measure m,
		   struct share_test *out)
{
	const struct hotspot_func *f = &h->funcs[id];
	const double *x = m == HOTSPOT_SELF ? f->self : f->total;
	double period = h->opts.period;

	share_test(out, x[0] / period, hotspots_samples(h, 0),
		   x[1] / period, hotspots_samples(h, 1));
}

static int cmp_row(const void *a, const void *b, void *ctx)
{
	const struct hotspot_row *x = a, *y = b;
	const struct hotspots *h = ctx;
	double dx = fabs(x->test.delta), dy = fabs(y->test.delta);
	int c;

	if (dx != dy)
		return (dx < dy) - (dx > dy);	/* larger change first */
	c = strcmp(hotspots_name(h, x->func), hotspots_name(h, y->func));
	if (c)
		return c;
	return ((int)x->measure > (int)y->measure) - ((int)x->measure < (int)y->measure);
}

/*
 * delta >= threshold, forgiving the rounding of a difference of two
 * quotients: 40/100 - 20/100 is 0.19999999999999998, and a user who asks
 * for 20 points means to include it.
 */
static int at_least(double delta, double threshold)
{
	return delta >= threshold - 1e-12;
}

void hotspots_rank(const struct hotspots *h, const struct hotspot_rank_options *o,
		   struct hotspot_ranking *out)
{
	size_t n = hotspots_size(h), i;
	int m;

	memset(out, 0, sizeof(*out));
	out->hotter = xmallocarray(n ? 2 * n : 1, sizeof(*out->hotter));
	out->cooler = xmallocarray(n ? 2 * n : 1, sizeof(*out->cooler));
	for (i = 0; i < n; i++) {
		for (m = HOTSPOT_SELF; m <= HOTSPOT_TOTAL; m++) {
			struct hotspot_row row;

			if (!(o->measures & HOTSPOT_MEASURE_BIT(m)))
				continue;
			row.func = (uint32_t)i;
			row.measure = (enum hotspot_measure)m;
			hotspots_test(h, (uint32_t)i, row.measure, &row.test);
			if (row.test.delta == 0 || !at_least(fabs(row.test.delta), o->min_delta))
				continue;
			row.significant = share_test_significant(&row.test, o->alpha);
			row.confirmed = row.significant && at_least(fabs(row.test.delta), o->confirm);
			if (row.test.delta > 0)
				out->hotter[out->nr_hotter++] = row;
			else
				out->cooler[out->nr_cooler++] = row;
		}
	}
	qsort_r(out->hotter, out->nr_hotter, sizeof(*out->hotter), cmp_row, (void *)h);
	qsort_r(out->cooler, out->nr_cooler, sizeof(*out->cooler), cmp_row, (void *)h);
	if (o->top && out->nr_hotter > o->top)
		out->nr_hotter = o->top;
	if (o->top && out->nr_cooler > o->top)
		out->nr_cooler = o->top;
}

void hotspot_ranking_release(struct hotspot_ranking *r)
{
	free(r->hotter);
	free(r->cooler);
	memset(r, 0, sizeof(*r));
}

/*
 * The probe: one pass over the stacks, comparing normalised frames with
 * func directly, without building a name table.
 */
void hotspot_function_share(const struct folded_profile *p, int column, const char *func,
			    const struct hotspot_options *opts, struct hotspot_share *out)
{
	unsigned flags = opts ? opts->flags : 0;
	double period = opts && opts->period > 0 ? opts->period : 1;
	double self = 0, total = 0, all = 0;
	const char *want;
	size_t wlen = hotspot_frame_name(func, strlen(func), flags, &want), i;
	size_t n = folded_profile_size(p);

	out->found = 0;
	for (i = 0; p->counts[column] && i < n; i++) {
		const char *s = intern_str(&p->stacks, (uint32_t)i);
		const char *end = s + intern_len(&p->stacks, (uint32_t)i);
		double c = p->counts[column][i];
		int in_stack = 0, is_leaf = 0;

		all += c;
		while (s < end) {
			const char *semi = memchr(s, ';', (size_t)(end - s));
			const char *fe = semi ? semi : end, *name;
			size_t nlen = hotspot_frame_name(s, (size_t)(fe - s), flags, &name);

			is_leaf = nlen == wlen && nlen && !memcmp(name, want, wlen);
			in_stack |= is_leaf;
			s = fe + 1;
		}
		if (in_stack) {
			out->found = 1;
			total += c;
		}
		if (is_leaf)
			self += c;
	}
	share_estimate(&out->self, self / period, all / period);
	share_estimate(&out->total, total / period, all / period);
}
