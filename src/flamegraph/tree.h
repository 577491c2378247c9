/*
 * tree.h - the merged stack tree a flame graph is drawn from: folded stacks
 * (one or two count columns) merged frame by frame into nodes that live in
 * one array and refer to each other by id.  Frame names are interned.
 *
 * Reading applies the input transformations of flamegraph.pl (--reverse,
 * --factor, flame-chart order) and trail's --base re-rooting.
 */
#ifndef TRAIL_FLAMEGRAPH_TREE_H
#define TRAIL_FLAMEGRAPH_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "core/intern.h"

#define FG_NONE UINT32_MAX

struct fg_node {
	uint32_t name;		/* id in fg_tree.names */
	uint32_t parent;	/* node id; FG_NONE for the root */
	uint32_t first_child;	/* node id or FG_NONE */
	uint32_t last_child;	/* node id or FG_NONE (children are appended) */
	uint32_t next_sibling;	/* node id or FG_NONE */
	uint32_t depth;		/* 0 for the root ("all") */
	double total[2];	/* inclusive counts: [0] before (or the only column), [1] after */
	double self[2];		/* counts of stacks that end here, same columns */
};

struct fg_tree_options {
	int reverse;		/* reverse the frames of every stack (--reverse) */
	int flamechart;		/* keep input order, merge only consecutive stacks */
	double factor;		/* multiply every count (--factor), 1 by default */
	const char *base;	/* re-root every stack at its first frame of this name */
};

struct fg_tree {
	struct intern names;	/* frame names; id 0 is "all" */
	struct fg_node *nodes;	/* node 0 is the root */
	uint32_t nr, alloc;
	uint32_t *slots;	/* (parent, name) -> node id + 1, open addressing */
	uint32_t mask;		/* slots - 1 */
	int columns;		/* 1, or 2 once a line had two counts */
	uint32_t max_depth;	/* deepest node */
	uint64_t lines;		/* lines read */
	uint64_t malformed;	/* lines without a count, skipped */
	uint64_t dropped;	/* stacks without the --base frame */
	struct fg_tree_options opts;
	/* the previous stack, so sorted input skips the lookups of a shared prefix */
	char *prev;
	size_t prev_len, prev_alloc;
	uint32_t *path;		/* node ids along the previous stack, path[0] = root */
	size_t path_alloc;
	uint32_t path_len;	/* frames in path, root included */
	char *scratch;		/* for --reverse */
	size_t scratch_alloc;
};

void fg_tree_init(struct fg_tree *t, const struct fg_tree_options *opts);
void fg_tree_release(struct fg_tree *t);
/*
 * Add one stack (frames separated by ';', root first) with its counts:
 * column 0 only when columns == 1, both when 2.  The root's totals are the
 * profile's totals.
 */
void fg_tree_add(struct fg_tree *t, const char *stack, size_t len,
		 const double *count, int columns);
/*
 * Read folded stacks from path ("-" for stdin, gzip allowed).  Malformed
 * lines are counted and the first few reported with path:line.  Returns 0,
 * or -1 when the input cannot be read (error printed).
 */
int fg_tree_read(struct fg_tree *t, const char *path);
/* Parse a whole buffer of folded lines (for the fuzzer and unit tests). */
void fg_tree_read_buffer(struct fg_tree *t, const char *buf, size_t len);

static inline const char *fg_node_name(const struct fg_tree *t, uint32_t id)
{
	return intern_str(&t->names, t->nodes[id].name);
}

#endif
