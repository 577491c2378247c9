/*
 * flat.h - the flat profile of a folded profile: each stack split into
 * interned frame ids, and per function the self count (samples where it is
 * the leaf) and the total count (samples whose stack contains it, counted
 * once per stack however often recursion repeats it), as perf report's
 * "Self" and "Children" columns.  Input of 'trail top' and 'trail explain'.
 */
#ifndef TRAIL_PROFILE_FLAT_H
#define TRAIL_PROFILE_FLAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/intern.h"
#include "profile/folded.h"

struct flat_stack {
	size_t first;		/* index of the root frame in flat_profile.frames */
	uint32_t depth;		/* number of frames (>= 1) */
	double count;		/* samples (or period units) of this stack */
};

struct flat_func {
	double self;		/* samples where the function is the leaf */
	double total;		/* samples whose stack contains the function (once) */
};

struct flat_profile {
	struct intern names;	/* function name -> id */
	struct flat_func *funcs;	/* indexed by name id */
	struct flat_stack *stacks;	/* one per distinct non-empty stack */
	size_t nr_stacks;
	uint32_t *frames;	/* name ids of all stacks, root first, back to back */
	size_t nr_frames;
	double total;		/* sum of all stack counts */
	struct folded_weight_info weight;	/* the profile's units (folded.h) */
};

/*
 * Build the flat profile of p.  column chooses the count column (0, or 1
 * for the "after" column of differential input).  Stacks with a zero
 * count and empty frames ("a;;b") are skipped.  Never fails (allocation
 * failures end the process, as everywhere in trail).
 */
void flat_profile_build(struct flat_profile *f, const struct folded_profile *p, int column);
void flat_profile_release(struct flat_profile *f);

static inline const uint32_t *flat_stack_frames(const struct flat_profile *f,
						const struct flat_stack *s)
{
	return f->frames + s->first;
}

enum flat_sort { FLAT_SORT_SELF, FLAT_SORT_TOTAL, FLAT_SORT_NAME };

/*
 * Function ids ordered by key (largest first for self and total, ties by
 * name; byte order for name).  Returns the count in *n; caller frees.
 */
uint32_t *flat_profile_sorted(const struct flat_profile *f, enum flat_sort key, size_t *n);

struct json_writer;

/*
 * The JSON both flat-profile commands (top, explain) start with: the keys
 * "samples" (the total count), "unit" (of every count: "samples",
 * "nanoseconds", "bytes" ...), "type" and "period" when known (folded.h),
 * "stacks" and "functions" (how many).
 */
void flat_json_totals(struct json_writer *w, const struct flat_profile *f);
/* key, then the name of function id as a JSON string. */
void flat_json_name(struct json_writer *w, const char *key, const struct flat_profile *f,
		    uint32_t id);

#endif
