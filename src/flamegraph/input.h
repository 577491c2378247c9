/*
 * input.h - the folded stacks a flame graph is drawn from, held in memory
 * as one record per line (stack text, one or two counts), after the input
 * transformations of flamegraph.pl (--reverse, --factor) and trail's --base
 * re-rooting.  Records are then put in stack order (fg_input_sort) unless
 * a flame chart wants input order; layout.c merges them in one pass.
 */
#ifndef TRAIL_FLAMEGRAPH_INPUT_H
#define TRAIL_FLAMEGRAPH_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/line_map.h"
#include "profile/folded.h"

struct fg_stack {
	const char *s;		/* frames, root first, ';'-separated; not NUL-terminated */
	uint32_t len;		/* bytes */
	double count[2];	/* [0] before (or the only column), [1] after (= [0] for one column) */
};

struct fg_input_options {
	int reverse;		/* reverse the frames of every stack (--reverse) */
	double factor;		/* multiply every count (--factor); 0 means 1 */
	const char *base;	/* keep stacks through this frame, from it up (--base) */
	int chain;		/* --colors chain: frames after a "--" frame are wakers (_[w]) */
};

struct fg_input {
	struct fg_stack *stacks;
	size_t nr, alloc;
	struct arena text;	/* the stacks' bytes, unless in a mapping */
	struct line_map *maps;	/* mapped input files, unmapped by release */
	size_t nmaps, maps_alloc;
	int columns;		/* 1, or 2 once a line had two counts */
	int sorted;		/* stacks are already in fg_stack_cmp order */
	size_t descents;	/* places where a stack sorts before the one above it;
				 * SIZE_MAX once too many to merge runs (see fg_input_sort) */
	double total[2];	/* sums of the counts */
	uint64_t lines;		/* lines read, blank ones included */
	uint64_t malformed;	/* lines without a count, skipped */
	uint64_t dropped;	/* stacks without the --base frame */
	struct folded_weight_info weight;	/* a '# trail-folded' header's; samples without */
	struct fg_input_options opts;
	uint32_t *lcp;		/* after fg_input_sort sorted shuffled stacks: the bytes
				 * stacks[i] shares with stacks[i - 1] ([0] = 0); NULL otherwise */
};

void fg_input_init(struct fg_input *in, const struct fg_input_options *opts);
void fg_input_release(struct fg_input *in);
/* Add one line's stack with its counts (columns 1 or 2). */
void fg_input_add(struct fg_input *in, const char *stack, size_t len,
		  const double *count, int columns);
/*
 * Read folded stacks from path ("-" for stdin, gzip allowed).  Malformed
 * lines are counted and the first few reported with path:line.  Returns 0,
 * or -1 when the input cannot be read (error printed).
 */
int fg_input_read(struct fg_input *in, const char *path);
/* Parse a buffer of folded lines (for the fuzzer and unit tests); silent. */
void fg_input_read_buffer(struct fg_input *in, const char *buf, size_t len);
/* Put the stacks in fg_stack_cmp order (unless they already are); stack_sort.c. */
void fg_input_sort(struct fg_input *in);
/* Drop in->lcp (the stacks were changed after sorting). */
void fg_input_forget_lcp(struct fg_input *in);

/*
 * Frame-by-frame order: stacks sharing a prefix of frames are adjacent, a
 * stack before its extensions, sibling frames by the bytes of their names
 * (a name before its extensions: "f" < "f.isra" < "f_x").
 */
int fg_stack_cmp(const char *a, size_t alen, const char *b, size_t blen);

#endif
