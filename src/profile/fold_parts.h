/*
 * fold_parts.h - the folder's state, shared by the three files of the
 * folding engine and no one else: fold.c (samples in, counted stacks),
 * fold_frames.c (frame text -> cleaned, interned frame groups) and
 * fold_write.c (sorted folded text out).  Calls go one way:
 * fold.c -> fold_frames.c; fold_write.c only reads the state.
 */
#ifndef TRAIL_PROFILE_FOLD_PARTS_H
#define TRAIL_PROFILE_FOLD_PARTS_H

#include "profile/fold.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/hashmap.h"
#include "core/intern.h"

#include <stdint.h>
#include <string.h>

#define NO_ID UINT32_MAX

struct namebuf {
	char *buf;
	size_t len, alloc;
};

struct fold_group {
	uint32_t func_len, mod_len, pc_len;	/* bytes */
	const char *func, *mod, *pc;	/* arena copies; pc only when it matters */
	uint32_t first;			/* index of the first frame id in group_ids */
	uint32_t nr;			/* frames in this group (0 is possible) */
	unsigned char java;		/* cleaned up for a java process */
	unsigned char skip_hit;		/* function is a --skip-after name */
};

/* A run of frame text ("func+0x1f (module)") -> group, or SPAN_SKIPPED. */
struct fold_span {
	uint32_t len;		/* bytes */
	const char *text;	/* arena copy */
	uint32_t group;		/* index into groups, or SPAN_SKIPPED */
	unsigned char java;
};

#define SPAN_SKIPPED UINT32_MAX

struct fold_stack {
	uint64_t count;		/* summed periods */
	uint64_t off;		/* index of the first id in stack_ids */
	uint32_t len;		/* number of ids */
};

struct folder {
	struct fold_options opts;
	struct intern names;	/* frame and process names -> ids */
	struct arena arena;	/* group keys */

	struct fold_group *groups;
	size_t nr_groups, alloc_groups;
	struct hashmap group_index;	/* (function, module, java[, pc]) -> index in groups */
	uint32_t *group_ids;
	size_t nr_group_ids, alloc_group_ids;

	struct fold_span *spans;
	size_t nr_spans, alloc_spans;
	struct hashmap span_index;	/* (frame text, java) -> index in spans */
	/* fold_frame.id -> 1 + its group (0: not seen), for non-java and java processes */
	uint32_t *id_groups[2];
	size_t alloc_id_groups[2];

	struct fold_stack *stacks;
	size_t nr_stacks, alloc_stacks;
	struct hashmap stack_index;	/* ids -> index in stacks */
	uint32_t *stack_ids;
	size_t nr_stack_ids, alloc_stack_ids;

	/* the sample being built */
	uint32_t pname;		/* id, or NO_ID when there is no current process */
	int java;		/* the process name starts with "java" */
	int skip_rest;		/* a --skip-after frame was seen */
	uint64_t period;
	uint32_t *cur;		/* group indexes, leaf first */
	size_t nr_cur, alloc_cur;
	uint32_t *key;		/* scratch for the stack key */
	size_t alloc_key;
	struct namebuf scratch;	/* reused for names being built */
};

static inline void nb_add(struct namebuf *b, const char *s, size_t n)
{
	ALLOC_GROW(b->buf, b->len + n + 1, b->alloc);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

/* fold_frames.c: the group (cleaned frames) for one frame of the current process. */
uint32_t fold_lookup_group(struct folder *f, const struct fold_frame *fr, const char *func,
			   size_t func_len);

#endif
