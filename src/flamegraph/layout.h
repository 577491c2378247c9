/*
 * layout.h - from the stack tree to the rectangles of a flame graph: the
 * frames to draw in depth-first pre-order (a frame's subtree is the run of
 * frames after it with a greater depth), their positions in count units,
 * and frames narrower than --minwidth dropped with everything above them.
 * Knows nothing about SVG; the writer turns counts into coordinates.
 */
#ifndef TRAIL_FLAMEGRAPH_LAYOUT_H
#define TRAIL_FLAMEGRAPH_LAYOUT_H

#include <stdint.h>

#include "flamegraph/tree.h"

struct fg_frame {
	uint32_t node;		/* tree node id */
	uint32_t parent;	/* frame index of the parent; FG_NONE for the root */
	uint32_t depth;		/* 0 for the root */
	double x[2];		/* start in counts: [1] the drawn widths (after, or the only column), [0] before */
	double w[2];		/* width in counts, same columns */
};

struct fg_layout_options {
	double minwidth;	/* pixels, or percent of the total when minwidth_percent */
	int minwidth_percent;
	double width;		/* pixels of the frame area minwidth refers to */
	double total;		/* --total: a larger total to draw against, 0 for none */
	int keep_order;		/* flame chart: children in input order, not by name */
	int both;		/* differential: keep frames wide enough in either profile */
};

struct fg_layout {
	struct fg_frame *frames;	/* pre-order; frames[0] is the root */
	uint32_t nr, alloc;
	uint32_t max_depth;		/* of the frames kept */
	double timemax[2];		/* counts the full width stands for, per column */
	uint64_t pruned;		/* frames dropped (narrower than minwidth) */
};

/* Lay out t; l is overwritten.  Never fails (dies only on out-of-memory). */
void fg_layout_build(struct fg_layout *l, const struct fg_tree *t,
		     const struct fg_layout_options *o);
void fg_layout_release(struct fg_layout *l);

/*
 * Compare two frame names the way flamegraph.pl orders them: it sorts whole
 * "a;b;c count" lines, so a name sorts as if followed by ';'.
 */
int fg_name_cmp(const char *a, size_t alen, const char *b, size_t blen);

#endif
