/*
 * symtree.c - perf's symbol tree rebuilt for the lookups a sorted table
 * cannot answer (symtree.h): a red-black tree in the textbook form
 * (insertion and deletion with the usual recolourings and rotations,
 * the in-order successor standing in for a deleted node with two
 * children), keyed by start with ties going right, as perf inserts.
 */
#include "symbols/symtree.h"
#include "core/alloc.h"

#include <stdlib.h>

#define NIL UINT32_MAX

/*
 * A node is its symbol's index in the table, which is sorted by start
 * and, among equal starts, by insertion order: so comparing indices is
 * comparing starts with ties going right.  What a descent reads is
 * 8 bytes a node (child[0] left, child[1] right: a step is a load, not a
 * branch); the parent links and colours, which only rebalancing reads,
 * live apart.
 */
struct symtree_node {
	uint32_t child[2];
};

static int is_red(const struct symtree *t, uint32_t x)
{
	return x != NIL && t->red[x];
}

/* Which side of its parent x hangs on (1: right). */
static int side(const struct symtree *t, uint32_t x)
{
	return t->nodes[t->parent[x]].child[1] == x;
}

/* Put v where u hangs (u's parent's child, or the root). */
static void replace_child(struct symtree *t, uint32_t u, uint32_t v)
{
	uint32_t p = t->parent[u];

	if (p == NIL)
		t->root = v;
	else
		t->nodes[p].child[side(t, u)] = v;
	if (v != NIL)
		t->parent[v] = p;
}

/* Rotate x down to the side dir (1: right), its other child taking its place. */
static void rotate(struct symtree *t, uint32_t x, int dir)
{
	struct symtree_node *n = t->nodes;
	uint32_t y = n[x].child[!dir], inner = n[y].child[dir];

	n[x].child[!dir] = inner;
	if (inner != NIL)
		t->parent[inner] = x;
	replace_child(t, x, y);
	n[y].child[dir] = x;
	t->parent[x] = y;
}

/*
 * Hang z where a descent from the root would put it: between its
 * neighbours in the order, pred and succ (NIL where none), one of which
 * has that side free - pred's right or else succ's left.  Then rebalance.
 */
static void insert(struct symtree *t, uint32_t z, uint32_t pred, uint32_t succ)
{
	struct symtree_node *n = t->nodes;

	n[z].child[0] = n[z].child[1] = NIL;
	t->red[z] = 1;
	if (pred != NIL && n[pred].child[1] == NIL) {
		n[pred].child[1] = z;
		t->parent[z] = pred;
	} else if (succ != NIL) {
		n[succ].child[0] = z;
		t->parent[z] = succ;
	} else {
		t->root = z;
		t->parent[z] = NIL;
	}
	while (is_red(t, t->parent[z])) {
		uint32_t zp = t->parent[z], g = t->parent[zp];
		int d = n[g].child[1] == zp;	/* the side the parent is on */
		uint32_t uncle = n[g].child[!d];

		if (is_red(t, uncle)) {
			t->red[zp] = 0;
			t->red[uncle] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (z == n[zp].child[!d]) {
			z = zp;
			rotate(t, z, d);
			zp = t->parent[z];
		}
		t->red[zp] = 0;
		t->red[g] = 1;
		rotate(t, g, !d);
	}
	t->red[t->root] = 0;
}

/* Restore the colours after a black node left from below parent xp. */
static void erase_fixup(struct symtree *t, uint32_t x, uint32_t xp)
{
	struct symtree_node *n = t->nodes;

	while (x != t->root && !is_red(t, x)) {
		int d = n[xp].child[1] == x;	/* x's side; its sibling is on !d */
		uint32_t w = n[xp].child[!d];

		if (is_red(t, w)) {
			t->red[w] = 0;
			t->red[xp] = 1;
			rotate(t, xp, d);
			w = n[xp].child[!d];
		}
		if (!is_red(t, n[w].child[0]) && !is_red(t, n[w].child[1])) {
			t->red[w] = 1;
			x = xp;
			xp = t->parent[x];
			continue;
		}
		if (!is_red(t, n[w].child[!d])) {
			t->red[n[w].child[d]] = 0;
			t->red[w] = 1;
			rotate(t, w, !d);
			w = n[xp].child[!d];
		}
		t->red[w] = t->red[xp];
		t->red[xp] = 0;
		t->red[n[w].child[!d]] = 0;
		rotate(t, xp, d);
		x = t->root;
		xp = NIL;
	}
	if (x != NIL)
		t->red[x] = 0;
}

static void erase(struct symtree *t, uint32_t z)
{
	struct symtree_node *n = t->nodes;
	uint32_t x, xp, y;
	int removed_red = t->red[z];

	if (n[z].child[0] == NIL || n[z].child[1] == NIL) {
		x = n[z].child[n[z].child[0] == NIL];
		xp = t->parent[z];
		replace_child(t, z, x);
	} else {
		for (y = n[z].child[1]; n[y].child[0] != NIL; y = n[y].child[0])
			;
		removed_red = t->red[y];
		x = n[y].child[1];
		if (t->parent[y] == z) {
			xp = y;
		} else {
			xp = t->parent[y];
			replace_child(t, y, x);
			n[y].child[1] = n[z].child[1];
			t->parent[n[y].child[1]] = y;
		}
		replace_child(t, z, y);
		n[y].child[0] = n[z].child[0];
		t->parent[n[y].child[0]] = y;
		t->red[y] = t->red[z];
	}
	if (!removed_red)
		erase_fixup(t, x, xp);
}

/*
 * The early insertions' neighbours in the order, found backwards: link
 * every early node (in index order, which is the tree's order), then
 * take them out last inserted first, noting who was beside each.
 */
static void early_neighbours(const struct symtree *t, uint32_t *pred, uint32_t *succ)
{
	size_t nr = t->nr ? t->nr : 1, i, k;
	uint32_t *prev = xmallocarray(nr, sizeof(*prev)), *next = xmallocarray(nr, sizeof(*next));
	uint8_t *early = xcalloc(nr, 1);
	uint32_t last = NIL;

	for (k = 0; k < t->nr_early; k++)
		early[t->insert[k]] = 1;
	for (i = 0; i < t->nr; i++) {
		if (!early[i])
			continue;
		prev[i] = last;
		next[i] = NIL;
		if (last != NIL)
			next[last] = (uint32_t)i;
		last = (uint32_t)i;
	}
	for (k = t->nr_early; k-- > 0;) {
		uint32_t z = t->insert[k];

		pred[k] = prev[z];
		succ[k] = next[z];
		if (prev[z] != NIL)
			next[prev[z]] = next[z];
		if (next[z] != NIL)
			prev[next[z]] = prev[z];
	}
	free(prev);
	free(next);
	free(early);
}

/* z's neighbours in the tree as it is: the last turns of a descent. */
static void descend(const struct symtree *t, uint32_t z, uint32_t *pred, uint32_t *succ)
{
	uint32_t x = t->root;

	*pred = *succ = NIL;
	while (x != NIL) {
		if (z > x)
			*pred = x;
		else
			*succ = x;
		x = t->nodes[x].child[z > x];
	}
}

/*
 * Replay perf's tree: the early insertions, the erasures, the late ones
 * (a few PLT entries).  A descent per insertion costs a cache miss a
 * level on a table of 100,000 symbols; with each early insertion's
 * neighbours known beforehand, it touches a few nodes.
 */
static void build(struct symtree *t)
{
	size_t k, nr = t->nr ? t->nr : 1;
	uint32_t *pred = xmallocarray(nr, sizeof(*pred)), *succ = xmallocarray(nr, sizeof(*succ));

	t->nodes = xmallocarray(nr, sizeof(*t->nodes));
	t->parent = xmallocarray(nr, sizeof(*t->parent));
	t->red = xmallocarray(nr, sizeof(*t->red));
	t->root = NIL;
	early_neighbours(t, pred, succ);
	for (k = 0; k < t->nr_early; k++)
		insert(t, t->insert[k], pred[k], succ[k]);
	for (k = 0; k < t->nr_erase; k++)
		erase(t, t->erase[k]);
	for (k = t->nr_early; k < t->nr; k++) {
		descend(t, t->insert[k], &pred[k], &succ[k]);
		insert(t, t->insert[k], pred[k], succ[k]);
	}
	free(pred);
	free(succ);
}

const struct symbol *symtree_find(struct symtree *t, const struct symbol *syms, uint64_t addr)
{
	uint32_t x;

	if (!t->nodes)
		build(t);
	for (x = t->root; x != NIL;) {
		const struct symbol *s = &syms[x];

		if (addr < s->start)
			x = t->nodes[x].child[0];
		else if (!symbol_holds(s, addr))
			x = t->nodes[x].child[1];
		else
			return s;
	}
	return NULL;
}

void symtree_free(struct symtree *t)
{
	if (!t)
		return;
	free(t->reach);
	free(t->insert);
	free(t->erase);
	free(t->nodes);
	free(t->parent);
	free(t->red);
	free(t);
}
