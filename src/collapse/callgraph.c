/*
 * callgraph.c - call graph -> folded stacks (callgraph.h).  Recursion
 * edges (found by a depth-first walk from the uncalled functions) are
 * dropped, which leaves a DAG; each path from a root is walked with the
 * share of its function's activity that arrives along it (gprof's
 * proportional assumption below the exact caller -> callee costs), and
 * each function's self cost is then apportioned over its paths by
 * cumulative rounding, so per-function self totals stay exact integers.
 */
#include "collapse/callgraph.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "profile/fold.h"
#include "profile/folded.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS (4u << 20)	/* path nodes expanded; beyond, paths are cut */
#define MAX_DEPTH 1024		/* frames of one path */
#define MIN_ARRIVING 0.5	/* cost units: lighter paths are not expanded */

void callgraph_init(struct callgraph *g)
{
	memset(g, 0, sizeof(*g));
	intern_init(&g->names);
	hashmap_init(&g->edge_index, 0);
}

void callgraph_release(struct callgraph *g)
{
	intern_release(&g->names);
	hashmap_release(&g->edge_index);
	free(g->self);
	free(g->name);
	free(g->by_name);
	free(g->edges);
}

uint32_t callgraph_new_node(struct callgraph *g, const char *name, size_t len)
{
	uint32_t id = intern_add(&g->names, name, len, NULL);

	ALLOC_GROW(g->self, g->nr_nodes + 1, g->alloc_nodes);
	g->name = xreallocarray(g->name, g->alloc_nodes, sizeof(*g->name));
	g->self[g->nr_nodes] = 0;
	g->name[g->nr_nodes] = id;
	return (uint32_t)g->nr_nodes++;
}

uint32_t callgraph_node(struct callgraph *g, const char *name, size_t len)
{
	uint32_t id = intern_add(&g->names, name, len, NULL);

	if (id >= g->by_name_alloc) {
		size_t old = g->by_name_alloc;

		ALLOC_GROW(g->by_name, (size_t)id + 1, g->by_name_alloc);
		memset(g->by_name + old, 0xff, (g->by_name_alloc - old) * sizeof(*g->by_name));
	}
	if (g->by_name[id] == CALLGRAPH_NONE)
		g->by_name[id] = callgraph_new_node(g, name, len);
	return g->by_name[id];
}

void callgraph_self(struct callgraph *g, uint32_t node, uint64_t cost)
{
	g->self[node] += cost;
}

void callgraph_call(struct callgraph *g, uint32_t from, uint32_t to, uint64_t cost)
{
	struct hashmap_iter it;
	uint32_t h = hashmap_hash_u64_pair(from, to), k;

	for (k = hashmap_first(&g->edge_index, h, &it); k != HASHMAP_NONE; k = hashmap_next(&it))
		if (g->edges[k].from == from && g->edges[k].to == to) {
			g->edges[k].cost += cost;
			return;
		}
	ALLOC_GROW(g->edges, g->nr_edges + 1, g->alloc_edges);
	g->edges[g->nr_edges].from = from;
	g->edges[g->nr_edges].to = to;
	g->edges[g->nr_edges].cost = cost;
	g->edges[g->nr_edges].back = 0;
	hashmap_add_at(&g->edge_index, &it, (uint32_t)g->nr_edges++);
}

/* The walk's state: the graph in adjacency form and the path items. */
struct item {
	uint32_t parent;	/* item; CALLGRAPH_NONE at a root */
	uint32_t node;
	double share;		/* of the node's self cost arriving along this path */
	uint64_t count;		/* after apportioning */
};

struct walk {
	struct callgraph *g;
	size_t n;		/* nodes */
	uint32_t *first;	/* n + 1 offsets into order: a node's outgoing edges */
	uint32_t *order;	/* edge numbers, by caller */
	double *arriving;	/* per node: non-recursive incoming cost */
	struct item *items;
	size_t nr_items, alloc_items;
};

static int cmp_edge(const void *a, const void *b, void *ctx)
{
	const struct callgraph_edge *e = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (e[x].from != e[y].from)
		return (e[x].from > e[y].from) - (e[x].from < e[y].from);
	return (e[x].to > e[y].to) - (e[x].to < e[y].to);
}

static void adjacency(struct walk *w)
{
	struct callgraph *g = w->g;
	size_t i;

	w->first = xcalloc(w->n + 1, sizeof(*w->first));
	w->order = xmallocarray(g->nr_edges ? g->nr_edges : 1, sizeof(*w->order));
	for (i = 0; i < g->nr_edges; i++) {
		w->order[i] = (uint32_t)i;
		w->first[g->edges[i].from + 1]++;
	}
	qsort_r(w->order, g->nr_edges, sizeof(*w->order), cmp_edge, g->edges);
	for (i = 0; i < w->n; i++)
		w->first[i + 1] += w->first[i];
}

/*
 * Mark the edges that close a cycle: a depth-first walk from the uncalled
 * functions, then from any function left (cycles with no way in), with an
 * explicit stack; an edge to a function on the walk's path is a back edge.
 */
static void mark_back_edges(struct walk *w)
{
	struct callgraph *g = w->g;
	unsigned char *color = xcalloc(w->n ? w->n : 1, 1);	/* 0 new, 1 on path, 2 done */
	uint32_t *stack = xmallocarray(w->n ? w->n : 1, sizeof(*stack));
	uint32_t *next = xcalloc(w->n ? w->n : 1, sizeof(*next));	/* next edge to try */
	int *called = xcalloc(w->n ? w->n : 1, sizeof(*called));
	size_t pass, i, sp;

	for (i = 0; i < g->nr_edges; i++)
		if (g->edges[i].from != g->edges[i].to)
			called[g->edges[i].to] = 1;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < w->n; i++) {
			if (color[i] || (!pass && called[i]))
				continue;
			sp = 0;
			stack[sp++] = (uint32_t)i;
			color[i] = 1;
			next[i] = w->first[i];
			while (sp) {
				uint32_t u = stack[sp - 1];

				if (next[u] == w->first[u + 1]) {
					color[u] = 2;
					sp--;
					continue;
				}
				{
					struct callgraph_edge *e = &g->edges[w->order[next[u]++]];

					if (color[e->to] == 1)
						e->back = 1;
					else if (!color[e->to]) {
						color[e->to] = 1;
						next[e->to] = w->first[e->to];
						stack[sp++] = e->to;
					}
				}
			}
		}
	free(color);
	free(stack);
	free(next);
	free(called);
}

/* Walk the paths below item (at node), frac of the node's activity arriving. */
static void expand(struct walk *w, uint32_t parent, uint32_t node, double frac, size_t depth)
{
	struct callgraph *g = w->g;
	uint32_t me, k;

	if (w->nr_items >= MAX_ITEMS || depth >= MAX_DEPTH) {
		g->cut++;
		return;
	}
	ALLOC_GROW(w->items, w->nr_items + 1, w->alloc_items);
	me = (uint32_t)w->nr_items++;
	w->items[me].parent = parent;
	w->items[me].node = node;
	w->items[me].share = frac * (double)g->self[node];
	w->items[me].count = 0;
	for (k = w->first[node]; k < w->first[node + 1]; k++) {
		const struct callgraph_edge *e = &g->edges[w->order[k]];
		double arrive = frac * (double)e->cost;

		if (e->back || !e->cost || arrive < MIN_ARRIVING)
			continue;
		expand(w, me, e->to, arrive / w->arriving[e->to], depth + 1);
	}
}

/*
 * Each node's self cost over its items in proportion to their shares by
 * cumulative rounding in walk order (items are numbered depth first, so
 * a subtree is a run of items): the counts of a node add up to its self
 * cost exactly, and those inside any one subtree to within one unit of
 * their exact share.
 */
static void apportion(struct walk *w, struct folder *f)
{
	struct callgraph *g = w->g;
	uint32_t *by_node = xcalloc(w->n + 1, sizeof(*by_node));
	uint32_t *items = xmallocarray(w->nr_items ? w->nr_items : 1, sizeof(*items));
	uint32_t *fill = xcalloc(w->n + 1, sizeof(*fill));
	size_t i, k;

	for (i = 0; i < w->nr_items; i++)
		by_node[w->items[i].node + 1]++;
	for (i = 0; i < w->n; i++)
		by_node[i + 1] += by_node[i];
	for (i = 0; i < w->nr_items; i++) {
		uint32_t nd = w->items[i].node;

		items[by_node[nd] + fill[nd]++] = (uint32_t)i;
	}
	for (i = 0; i < w->n; i++) {
		uint64_t self = g->self[i], given = 0;
		uint32_t *it = items + by_node[i], nr = by_node[i + 1] - by_node[i];
		double sum = 0, cum = 0;

		if (!self)
			continue;
		for (k = 0; k < nr; k++)
			sum += w->items[it[k]].share;
		if (!(sum > 0)) {
			/* no path reached it (cut): its own root frame */
			struct strbuf sb = STRBUF_INIT;
			const char *name = intern_str(&g->names, g->name[i]);
			const char *q = strchr(name, '\'');

			folded_stack_push(&sb, name, q ? (size_t)(q - name) : strlen(name));
			folder_add_stack_text(f, sb.buf, sb.len, self);
			strbuf_release(&sb);
			g->unplaced += self;
			continue;
		}
		for (k = 0; k < nr; k++) {
			struct item *t = &w->items[it[k]];
			double upto;
			uint64_t want;

			cum += t->share;
			upto = floor((double)self * (cum / sum) + 0.5);
			want = k + 1 == nr || upto >= (double)self ? self : (uint64_t)upto;
			t->count = want > given ? want - given : 0;
			given += t->count;
		}
	}
	free(by_node);
	free(items);
	free(fill);
}

/* Every item with a count as a stack: root first, names cut at the first '\''. */
static void emit(struct walk *w, struct folder *f)
{
	struct callgraph *g = w->g;
	struct strbuf sb = STRBUF_INIT;
	uint32_t *chain = xmallocarray(MAX_DEPTH + 1, sizeof(*chain));
	size_t i;

	for (i = 0; i < w->nr_items; i++) {
		uint32_t k = (uint32_t)i;
		size_t depth = 0;

		if (!w->items[i].count)
			continue;
		while (k != CALLGRAPH_NONE && depth <= MAX_DEPTH) {
			chain[depth++] = w->items[k].node;
			k = w->items[k].parent;
		}
		strbuf_reset(&sb);
		while (depth--) {
			const char *name = intern_str(&g->names, g->name[chain[depth]]);
			const char *q = strchr(name, '\'');

			folded_stack_push(&sb, name, q ? (size_t)(q - name) : strlen(name));
		}
		folder_add_stack_text(f, sb.buf, sb.len, w->items[i].count);
	}
	free(chain);
	strbuf_release(&sb);
}

int callgraph_fold(struct callgraph *g, struct folder *f, const char *name)
{
	struct walk w;
	size_t i;

	memset(&w, 0, sizeof(w));
	w.g = g;
	w.n = g->nr_nodes;
	g->cut = g->unplaced = 0;
	adjacency(&w);
	mark_back_edges(&w);
	w.arriving = xcalloc(w.n ? w.n : 1, sizeof(*w.arriving));
	for (i = 0; i < g->nr_edges; i++)
		if (!g->edges[i].back)
			w.arriving[g->edges[i].to] += (double)g->edges[i].cost;
	/* the roots: functions no (non-recursive) call reaches, their whole activity */
	for (i = 0; i < w.n; i++)
		if (!(w.arriving[i] > 0))
			expand(&w, CALLGRAPH_NONE, (uint32_t)i, 1.0, 0);
	apportion(&w, f);
	emit(&w, f);
	if (g->cut)
		warning("%s: %llu call paths were not followed (more than %u path frames or %u deep); "
			"their functions' costs are spread over the paths that were",
			name, (unsigned long long)g->cut, MAX_ITEMS, MAX_DEPTH);
	free(w.first);
	free(w.order);
	free(w.arriving);
	free(w.items);
	return 0;
}
