/*
 * diffmerge.h - 'trail diff' three-column output: two folded files (plain,
 * gzip or standard input) read in one pass each into a hash index of
 * stacks, written sorted like difffolded_write().  Each distinct stack's
 * text is held once: in place in a mapped input, else packed in an arena;
 * per stack the table adds a 32-byte line and 8 bytes of hash slot.
 * diffmerge_release() frees all.
 */
#ifndef TRAIL_DIFF_DIFFMERGE_H
#define TRAIL_DIFF_DIFFMERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "core/hashmap.h"
#include "core/line_map.h"
#include "diff/diffline.h"
#include "diff/difffolded.h"

#define DIFFMERGE_BATCH 16	/* stacks looked up together (see diffmerge.c) */

/* A stack read from a mapped input, its look-up still to come. */
struct diffmerge_batch {
	const char *s;
	size_t len;		/* bytes */
	double count;
	uint32_t hash;
	uint32_t cand;		/* the line its first slot names, or HASHMAP_NONE */
	int column;
};

struct diffmerge {
	struct diffline *lines;		/* by id, in order of first appearance (malloc'd) */
	size_t nr, alloc;		/* stacks */
	size_t sorted;			/* lines[0..sorted) are in output order */
	double total[2];		/* sums of the BEFORE, AFTER counts */
	struct hashmap index;		/* stack hash -> id (freed once reading is done) */
	struct arena arena;		/* stacks that are not in a mapped input */
	struct line_map in[2];		/* BEFORE, AFTER: stacks point into them when mapped */
	int stable;			/* while reading: stacks read outlive the call */
	struct diffmerge_batch batch[DIFFMERGE_BATCH];
	size_t batch_nr;
};

/*
 * Read BEFORE into column 0 and AFTER into column 1 as difffolded_read()
 * does (same warnings, same stats).  Returns 0, or -1 when a file cannot
 * be read (error printed); call diffmerge_release() either way.
 */
int diffmerge_read(struct diffmerge *m, const char *before, const char *after,
		   unsigned flags, struct difffolded_stats stats[2]);

/* difffolded_normalize() on m: 0, or -1 when BEFORE has no samples. */
int diffmerge_normalize(struct diffmerge *m);

/* difffolded_write() on m (sorting it): 0, or -1 on a write error (errno set). */
int diffmerge_write(struct diffmerge *m, FILE *f);

void diffmerge_release(struct diffmerge *m);

#endif
