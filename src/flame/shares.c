/*
 * shares.c - per-run function shares and the good/bad hotspot ranking
 * (see shares.h).  The standard error combines the run-to-run spread with
 * the binomial floor (a profile sample is a Bernoulli trial "in f or not").
 */
#include "flame/shares.h"
#include "core/alloc.h"
#include "core/intern.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Call fn for each distinct frame of stack (frames separated by ';'). */
static int frame_in_stack(const char *s, size_t len, const char *f, size_t flen)
{
	size_t i = 0;

	while (i <= len) {
		size_t j = i;

		while (j < len && s[j] != ';')
			j++;
		if (j - i == flen && !memcmp(s + i, f, flen))
			return 1;
		i = j + 1;
	}
	return 0;
}

static int leaf_is(const char *s, size_t len, const char *f, size_t flen)
{
	return len >= flen && !memcmp(s + len - flen, f, flen) &&
	       (len == flen || s[len - flen - 1] == ';');
}

void flame_function_share(const struct folded_profile *p, const char *func,
			  double *self, double *total)
{
	size_t flen = strlen(func);
	double s = 0, t = 0;
	uint32_t id;

	for (id = 0; id < p->stacks.nr; id++) {
		const char *st = intern_str(&p->stacks, id);
		size_t len = intern_len(&p->stacks, id);
		double c = p->counts[0][id];

		if (leaf_is(st, len, func, flen))
			s += c;
		if (frame_in_stack(st, len, func, flen))
			t += c;
	}
	*self = p->total[0] > 0 ? s / p->total[0] : 0;
	*total = p->total[0] > 0 ? t / p->total[0] : 0;
}

static void summarise(const double *x, const double *n, size_t nr, struct flame_share *out)
{
	double sum = 0, pooled_x = 0, pooled_n = 0, var = 0, se_runs, se_binom, p;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!nr)
		return;
	for (i = 0; i < nr; i++) {
		sum += x[i];
		pooled_n += n[i];
		pooled_x += x[i] * n[i];
	}
	out->mean = sum / (double)nr;
	out->samples = pooled_n;
	for (i = 0; i < nr; i++)
		var += (x[i] - out->mean) * (x[i] - out->mean);
	se_runs = nr > 1 ? sqrt(var / (double)(nr - 1) / (double)nr) : 0;
	p = pooled_n > 0 ? pooled_x / pooled_n : 0;
	se_binom = pooled_n > 0 ? sqrt(p * (1 - p) / pooled_n) : 0;
	/* With one run the spread is unknown: at least the binomial error. */
	out->se = se_runs > se_binom ? se_runs : se_binom;
}

void flame_share_over_runs(struct folded_profile *const *runs, size_t nr,
			   const char *func, int total, struct flame_share *out)
{
	double *x = xcalloc(nr ? nr : 1, sizeof(double));
	double *n = xcalloc(nr ? nr : 1, sizeof(double));
	size_t i;

	for (i = 0; i < nr; i++) {
		double s, t;

		flame_function_share(runs[i], func, &s, &t);
		x[i] = total ? t : s;
		n[i] = runs[i]->total[0];
	}
	summarise(x, n, nr, out);
	free(x);
	free(n);
}

/* Per-run self/total counts of every function, indexed [run][name id]. */
struct tally {
	struct intern names;
	double **self, **total;
	size_t runs;
};

static void tally_profile(struct tally *t, size_t run, const struct folded_profile *p,
			  size_t *alloc)
{
	uint32_t id, *seen = NULL;
	size_t seen_alloc = 0;

	for (id = 0; id < p->stacks.nr; id++) {
		const char *st = intern_str(&p->stacks, id);
		size_t len = intern_len(&p->stacks, id), i = 0, nseen = 0, k;
		double c = p->counts[0][id];

		while (i <= len) {
			size_t j = i;
			uint32_t f;
			int dup = 0;

			while (j < len && st[j] != ';')
				j++;
			f = intern_add(&t->names, st + i, j - i, NULL);
			if (t->names.nr > *alloc) {
				size_t r, old = *alloc;

				*alloc = t->names.nr * 2;
				for (r = 0; r < t->runs; r++) {
					t->self[r] = xreallocarray(t->self[r], *alloc, sizeof(double));
					t->total[r] = xreallocarray(t->total[r], *alloc, sizeof(double));
					memset(t->self[r] + old, 0, (*alloc - old) * sizeof(double));
					memset(t->total[r] + old, 0, (*alloc - old) * sizeof(double));
				}
			}
			for (k = 0; k < nseen; k++)
				dup |= seen[k] == f;
			if (!dup) {
				ALLOC_GROW(seen, nseen + 1, seen_alloc);
				seen[nseen++] = f;
				t->total[run][f] += c;
			}
			if (j == len)
				t->self[run][f] += c;
			i = j + 1;
		}
	}
	free(seen);
}

static int cmp_hotspot(const void *a, const void *b)
{
	const struct flame_hotspot *x = a, *y = b;

	if (x->delta_self != y->delta_self)
		return (x->delta_self < y->delta_self) - (x->delta_self > y->delta_self);
	if (x->delta_total != y->delta_total)
		return (x->delta_total < y->delta_total) - (x->delta_total > y->delta_total);
	return strcmp(x->name, y->name);
}

void flame_hotspots_rank(struct folded_profile *const *good, size_t ng,
			 struct folded_profile *const *bad, size_t nb,
			 double min_delta, double confirm, struct flame_hotspots *out)
{
	struct tally t;
	size_t alloc = 0, r, nitems = 0, items_alloc = 0;
	uint32_t f;
	double *xs, *ns;

	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	intern_init(&t.names);
	t.runs = ng + nb;
	t.self = xcalloc(t.runs ? t.runs : 1, sizeof(double *));
	t.total = xcalloc(t.runs ? t.runs : 1, sizeof(double *));
	for (r = 0; r < t.runs; r++)
		tally_profile(&t, r, r < ng ? good[r] : bad[r - ng], &alloc);
	xs = xcalloc(t.runs ? t.runs : 1, sizeof(double));
	ns = xcalloc(t.runs ? t.runs : 1, sizeof(double));
	for (f = 0; f < t.names.nr; f++) {
		struct flame_hotspot h;
		int side;

		memset(&h, 0, sizeof(h));
		for (side = 0; side < 2; side++) {
			size_t base = side ? ng : 0, n = side ? nb : ng, i;
			int m;

			for (m = 0; m < 2; m++) {
				for (i = 0; i < n; i++) {
					const struct folded_profile *p = side ? bad[i] : good[i];
					double tot = p->total[0];

					ns[i] = tot;
					xs[i] = tot > 0 ? (m ? t.total : t.self)[base + i][f] / tot : 0;
				}
				summarise(xs, ns, n, side ? (m ? &h.bad_total : &h.bad_self)
							  : (m ? &h.good_total : &h.good_self));
			}
		}
		h.delta_self = h.bad_self.mean - h.good_self.mean;
		h.delta_total = h.bad_total.mean - h.good_total.mean;
		h.se_self = sqrt(h.good_self.se * h.good_self.se + h.bad_self.se * h.bad_self.se);
		h.se_total = sqrt(h.good_total.se * h.good_total.se + h.bad_total.se * h.bad_total.se);
		if (h.delta_self < min_delta && h.delta_total < min_delta)
			continue;
		h.confirmed = h.delta_self >= confirm && h.delta_self > 2 * h.se_self;
		h.name = xstrdup(intern_str(&t.names, f));
		ALLOC_GROW(out->items, nitems + 1, items_alloc);
		out->items[nitems++] = h;
	}
	out->nr = nitems;
	if (nitems)
		qsort(out->items, nitems, sizeof(*out->items), cmp_hotspot);
	for (r = 0; r < t.runs; r++) {
		free(t.self[r]);
		free(t.total[r]);
	}
	free(t.self);
	free(t.total);
	free(xs);
	free(ns);
	intern_release(&t.names);
}

void flame_hotspots_release(struct flame_hotspots *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		free(h->items[i].name);
	free(h->items);
	memset(h, 0, sizeof(*h));
}
