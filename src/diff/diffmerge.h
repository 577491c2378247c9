/*
 * diffmerge.h - 'trail diff' three-column output: two folded files (plain,
 * gzip or standard input) read in one pass each into a hash table of
 * stacks, written sorted like difffolded_write().  Each distinct stack's
 * text is held once, packed in an arena; per stack the table adds a
 * 32-byte key and 8 bytes of hash slot.  diffmerge_release() frees all.
 */
#ifndef TRAIL_DIFF_DIFFMERGE_H
#define TRAIL_DIFF_DIFFMERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/arena.h"
#include "diff/difffolded.h"

#define DIFFMERGE_COUNTS_MAX 130	/* bytes of " before after", and room */

struct diffmerge_key {
	const char *text;		/* in the arena */
	uint32_t len;			/* bytes */
	uint32_t hash;			/* low bits of the 64-bit hash */
	double count[2];		/* BEFORE, AFTER */
};

struct diffmerge {
	struct diffmerge_key *keys;	/* by id, in order of first appearance (malloc'd) */
	size_t nr, keys_alloc;		/* stacks */
	double total[2];		/* sums of the BEFORE, AFTER counts */
	struct diffmerge_slot {
		uint32_t id;		/* UINT32_MAX: empty */
		uint32_t hash;		/* keys[id].hash */
	} *slots;			/* open addressing, linear probing (malloc'd;
					 * freed once reading is done) */
	size_t slots_cap;		/* slots, a power of two */
	struct arena arena;		/* the stacks' text, packed */
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

/*
 * "stack before after" for keys[id] into buf (at least its len +
 * DIFFMERGE_COUNTS_MAX bytes), without a newline; returns its length.
 */
size_t diffmerge_format_line(char *buf, const struct diffmerge *m, uint32_t id);

/* difffolded_write() on m (sorting it): 0, or -1 on a write error (errno set). */
int diffmerge_write(struct diffmerge *m, FILE *f);

void diffmerge_release(struct diffmerge *m);

#endif
