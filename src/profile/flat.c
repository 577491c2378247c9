/*
 * flat.c - per-function self and total counts of a folded profile (see
 * flat.h).  Recursion is counted once per stack: a per-function "last
 * stack seen" mark avoids a set per stack.
 */
#include "profile/flat.h"
#include "core/alloc.h"
#include "core/json_writer.h"

#include <stdlib.h>
#include <string.h>

static void add_frame(struct flat_profile *f, size_t *alloc, uint32_t id)
{
	ALLOC_GROW(f->frames, f->nr_frames + 1, *alloc);
	f->frames[f->nr_frames++] = id;
}

void flat_profile_build(struct flat_profile *f, const struct folded_profile *p, int column)
{
	size_t frames_alloc = 0, funcs_alloc = 0, i;
	uint32_t *seen = NULL;	/* per function: 1 + index of the last stack counting it */
	size_t nr = folded_profile_size(p);
	const double *counts = p->counts[column == 1 && p->columns == 2 ? 1 : 0];

	memset(f, 0, sizeof(*f));
	f->weight = p->weight;
	intern_init(&f->names);
	f->stacks = xcalloc(nr ? nr : 1, sizeof(*f->stacks));
	for (i = 0; i < nr; i++) {
		const char *s = intern_str(&p->stacks, (uint32_t)i);
		size_t len = intern_len(&p->stacks, (uint32_t)i), at = 0;
		struct flat_stack *st = &f->stacks[f->nr_stacks];
		double c = counts[i];
		uint32_t k;

		if (!(c > 0))
			continue;
		st->first = f->nr_frames;
		while (at < len) {
			const char *semi = memchr(s + at, ';', len - at);
			size_t end = semi ? (size_t)(semi - s) : len;

			if (end > at)
				add_frame(f, &frames_alloc, intern_add(&f->names, s + at, end - at, NULL));
			at = end + 1;
		}
		st->depth = (uint32_t)(f->nr_frames - st->first);
		if (!st->depth)
			continue;
		st->count = c;
		f->total += c;
		if (f->names.nr > funcs_alloc) {
			size_t old = funcs_alloc;

			ALLOC_GROW(f->funcs, f->names.nr, funcs_alloc);
			seen = xreallocarray(seen, funcs_alloc, sizeof(*seen));
			memset(f->funcs + old, 0, (funcs_alloc - old) * sizeof(*f->funcs));
			memset(seen + old, 0, (funcs_alloc - old) * sizeof(*seen));
		}
		for (k = 0; k < st->depth; k++) {
			uint32_t id = f->frames[st->first + k];

			if (seen[id] == f->nr_stacks + 1)
				continue;
			seen[id] = (uint32_t)f->nr_stacks + 1;
			f->funcs[id].total += c;
		}
		f->funcs[f->frames[st->first + st->depth - 1]].self += c;
		f->nr_stacks++;
	}
	free(seen);
}

void flat_profile_release(struct flat_profile *f)
{
	intern_release(&f->names);
	free(f->funcs);
	free(f->stacks);
	free(f->frames);
	memset(f, 0, sizeof(*f));
}

/* qsort has no context argument: the comparator reads these. */
static const struct flat_profile *sort_profile;
static enum flat_sort sort_key;

static int cmp_name(uint32_t a, uint32_t b)
{
	const struct intern *t = &sort_profile->names;
	size_t la = intern_len(t, a), lb = intern_len(t, b);
	int c = memcmp(intern_str(t, a), intern_str(t, b), la < lb ? la : lb);

	if (c)
		return c;
	return (la > lb) - (la < lb);
}

static int cmp_func(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct flat_func *fa = &sort_profile->funcs[a], *fb = &sort_profile->funcs[b];
	double ka, kb, sa = fa->self, sb = fb->self;

	if (sort_key == FLAT_SORT_NAME)
		return cmp_name(a, b);
	ka = sort_key == FLAT_SORT_SELF ? fa->self : fa->total;
	kb = sort_key == FLAT_SORT_SELF ? fb->self : fb->total;
	if (ka != kb)
		return (ka < kb) - (ka > kb);
	/* ties: the other measure, then the name */
	if (sort_key == FLAT_SORT_SELF) {
		sa = fa->total;
		sb = fb->total;
	}
	if (sa != sb)
		return (sa < sb) - (sa > sb);
	return cmp_name(a, b);
}

uint32_t *flat_profile_sorted(const struct flat_profile *f, enum flat_sort key, size_t *n)
{
	uint32_t *ids = xcalloc(f->names.nr ? f->names.nr : 1, sizeof(*ids));
	uint32_t i;

	for (i = 0; i < f->names.nr; i++)
		ids[i] = i;
	sort_profile = f;
	sort_key = key;
	qsort(ids, f->names.nr, sizeof(*ids), cmp_func);
	*n = f->names.nr;
	return ids;
}

void flat_json_totals(struct json_writer *w, const struct flat_profile *f)
{
	json_writer_key_number(w, "samples", f->total);
	json_writer_key_string(w, "unit", folded_unit_word(&f->weight));
	if (f->weight.type[0])
		json_writer_key_string(w, "type", f->weight.type);
	if (f->weight.period > 0) {
		json_writer_key_number(w, "period", f->weight.period);
		json_writer_key_string(w, "period_unit", f->weight.period_unit);
	}
	json_writer_key_int(w, "stacks", (int64_t)f->nr_stacks);
	json_writer_key_int(w, "functions", (int64_t)f->names.nr);
}

void flat_json_name(struct json_writer *w, const char *key, const struct flat_profile *f,
		    uint32_t id)
{
	json_writer_key(w, key);
	json_writer_string_len(w, intern_str(&f->names, id), intern_len(&f->names, id));
}
