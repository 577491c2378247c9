/*
 * callgraph.h - a weighted call graph (functions with self costs, caller
 * -> callee edges with the callee's inclusive cost over those calls, as
 * callgrind writes them) and its reconstruction into folded stacks, for
 * input formats that record a call graph instead of stacks.
 */
#ifndef TRAIL_COLLAPSE_CALLGRAPH_H
#define TRAIL_COLLAPSE_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "core/hashmap.h"
#include "core/intern.h"

struct folder;

#define CALLGRAPH_NONE UINT32_MAX

struct callgraph_edge {
	uint32_t from, to;	/* nodes */
	uint64_t cost;		/* the callee's inclusive cost over these calls */
	int back;		/* closes a cycle (recursion): not followed */
};

struct callgraph {
	struct intern names;		/* function names; a name may carry "'ctx" */
	uint32_t *by_name;		/* name id -> its node by name; CALLGRAPH_NONE */
	size_t by_name_alloc;
	uint32_t *name;			/* per node: its name id */
	uint64_t *self;			/* per node: cost of its own code */
	size_t nr_nodes, alloc_nodes;
	struct callgraph_edge *edges;
	size_t nr_edges, alloc_edges;
	struct hashmap edge_index;	/* (from, to) -> edge */
	uint64_t cut;			/* after fold: path items not expanded (budget) */
	uint64_t unplaced;		/* after fold: cost placed on a root frame */
};

void callgraph_init(struct callgraph *g);
void callgraph_release(struct callgraph *g);
/* The node of a function name (created on first use). */
uint32_t callgraph_node(struct callgraph *g, const char *name, size_t len);
/* A new node, for a function told apart by id rather than name (callgrind's "(id) name"). */
uint32_t callgraph_new_node(struct callgraph *g, const char *name, size_t len);
void callgraph_self(struct callgraph *g, uint32_t node, uint64_t cost);
/* Calls from -> to costing cost (inclusive), added to earlier ones. */
void callgraph_call(struct callgraph *g, uint32_t from, uint32_t to, uint64_t cost);
/*
 * Hand the graph to f as folded stacks: every function's self cost is
 * spread over the call paths that reach it in proportion to the cost
 * arriving along each (docs/collapse.md, "Call graphs to stacks").  Frame
 * names end before the first '\'' (callgrind's caller contexts and
 * recursion levels).  The sum of each function's self counts equals its
 * self cost exactly.  name is for messages.  Returns 0.
 */
int callgraph_fold(struct callgraph *g, struct folder *f, const char *name);

#endif
