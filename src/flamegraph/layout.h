/*
 * layout.h - from folded stacks to the rectangles of a flame graph, in one
 * pass over stacks in frame order (or input order for a flame chart): a
 * frame opens where a stack departs from the previous one and closes where
 * the next one departs from it, as flamegraph.pl's merge does.  A frame
 * narrower than --minwidth is dropped with its subtree the moment it
 * closes, so memory holds only what will be drawn.
 *
 * Frames come out in depth-first pre-order: a frame's subtree is the run of
 * frames after it with a greater depth.  Knows nothing about SVG.
 */
#ifndef TRAIL_FLAMEGRAPH_LAYOUT_H
#define TRAIL_FLAMEGRAPH_LAYOUT_H

#include <stdint.h>

#include "flamegraph/input.h"

struct fg_frame {
	const char *name;	/* into the input's text (or "all"); not NUL-terminated */
	uint32_t len;		/* bytes of name */
	uint32_t depth;		/* 0 for the root "all" */
	double x[2];		/* start in counts: [1] after (or the only column), [0] before */
	double w[2];		/* width = inclusive count, same columns */
	double self[2];		/* counts of stacks ending here, same columns */
};

struct fg_layout_options {
	double minwidth;	/* pixels, or percent of the total when minwidth_percent */
	int minwidth_percent;
	double width;		/* pixels of the frame area minwidth refers to */
	double total;		/* --total: a larger total to draw against, 0 for none */
	int both;		/* differential: keep frames wide enough in either column */
};

struct fg_layout {
	struct fg_frame *frames;	/* pre-order; frames[0] is the root */
	uint32_t nr, alloc;
	uint32_t max_depth;		/* of the frames kept */
	double total[2];		/* sums of the counts, per column */
	double timemax[2];		/* counts the full width stands for (>= total) */
	uint64_t pruned;		/* frames dropped with their subtrees */
};

/*
 * Lay out the stacks of in, which must be in fg_stack_cmp order (see
 * fg_input_sort) except for a flame chart; in->lcp, when the sort left
 * it, spares comparing the prefixes stacks share.  l is overwritten; its
 * names point into in, which must outlive it.
 */
void fg_layout_build(struct fg_layout *l, const struct fg_input *in,
		     const struct fg_layout_options *o);
void fg_layout_release(struct fg_layout *l);

#endif
