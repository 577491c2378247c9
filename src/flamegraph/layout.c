/*
 * layout.c - depth-first layout of the stack tree (see layout.h).
 * Children sit side by side from their parent's left edge, ordered by name
 * as in flamegraph.pl (or in input order for a flame chart); a parent's
 * self count is the gap at its right end.
 */
#include "flamegraph/layout.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

int fg_name_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = n < alen ? (unsigned char)a[n] : ';';
	cb = n < blen ? (unsigned char)b[n] : ';';
	return (ca > cb) - (ca < cb);
}

struct pending {
	uint32_t node;
	uint32_t parent;	/* frame index */
	double x[2];
};

static const struct fg_tree *sort_tree;

static int cmp_child(const void *pa, const void *pb)
{
	const struct fg_node *a = &sort_tree->nodes[*(const uint32_t *)pa];
	const struct fg_node *b = &sort_tree->nodes[*(const uint32_t *)pb];
	const struct intern *names = &sort_tree->names;

	return fg_name_cmp(intern_str(names, a->name), intern_len(names, a->name),
			   intern_str(names, b->name), intern_len(names, b->name));
}

void fg_layout_build(struct fg_layout *l, const struct fg_tree *t,
		     const struct fg_layout_options *o)
{
	struct pending *stack = NULL;
	size_t nstack = 0, stack_alloc = 0;
	uint32_t *kids = NULL;
	size_t kids_alloc = 0;
	double *starts = NULL;
	size_t starts_alloc = 0;
	double min[2];
	const struct fg_node *root = &t->nodes[0];

	memset(l, 0, sizeof(*l));
	l->timemax[0] = root->total[0];
	l->timemax[1] = root->total[1];
	if (o->total > l->timemax[1])
		l->timemax[1] = o->total;
	if (o->total > l->timemax[0])
		l->timemax[0] = o->total;
	for (int c = 0; c < 2; c++) {
		if (o->minwidth_percent)
			min[c] = l->timemax[c] * o->minwidth / 100;
		else
			min[c] = o->width > 0 ? o->minwidth * l->timemax[c] / o->width : 0;
	}

	ALLOC_GROW(stack, 1, stack_alloc);
	stack[nstack++] = (struct pending){ 0, FG_NONE, { 0, 0 } };
	while (nstack) {
		struct pending p = stack[--nstack];
		const struct fg_node *n = &t->nodes[p.node];
		uint32_t idx = l->nr, k, nkids = 0, c;
		struct fg_frame *f;
		double x[2];

		ALLOC_GROW(l->frames, (size_t)l->nr + 1, l->alloc);
		f = &l->frames[l->nr++];
		f->node = p.node;
		f->parent = p.parent;
		f->depth = n->depth;
		for (c = 0; c < 2; c++) {
			f->x[c] = p.x[c];
			f->w[c] = n->total[c];
		}
		if (f->depth > l->max_depth)
			l->max_depth = f->depth;

		for (k = n->first_child; k != FG_NONE; k = t->nodes[k].next_sibling) {
			ALLOC_GROW(kids, (size_t)nkids + 1, kids_alloc);
			kids[nkids++] = k;
		}
		if (nkids > 1 && !o->keep_order) {
			sort_tree = t;
			qsort(kids, nkids, sizeof(*kids), cmp_child);
		}
		/* starts from the parent's left edge; push in reverse so the
		 * first child is laid out first */
		ALLOC_GROW(starts, (size_t)nkids * 2, starts_alloc);
		x[0] = p.x[0];
		x[1] = p.x[1];
		for (k = 0; k < nkids; k++) {
			starts[2 * k] = x[0];
			starts[2 * k + 1] = x[1];
			x[0] += t->nodes[kids[k]].total[0];
			x[1] += t->nodes[kids[k]].total[1];
		}
		for (k = nkids; k-- > 0;) {
			const struct fg_node *ch = &t->nodes[kids[k]];
			int keep = ch->total[1] > 0 && ch->total[1] >= min[1];

			if (o->both && !keep)
				keep = ch->total[0] > 0 && ch->total[0] >= min[0];
			if (!keep) {
				l->pruned++;
				continue;
			}
			ALLOC_GROW(stack, nstack + 1, stack_alloc);
			stack[nstack++] = (struct pending){ kids[k], idx,
				{ starts[2 * k], starts[2 * k + 1] } };
		}
	}
	free(starts);
	free(stack);
	free(kids);
}

void fg_layout_release(struct fg_layout *l)
{
	free(l->frames);
	memset(l, 0, sizeof(*l));
}
