/*
 * arena.h - bump allocation for many small objects that die together
 * (frame names, tree nodes).  Nothing is freed one by one; arena_release()
 * frees everything at once.  Pointers stay valid until then.
 */
#ifndef TRAIL_CORE_ARENA_H
#define TRAIL_CORE_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;	/* block being filled */
	size_t used;			/* bytes used in head */
	size_t total;			/* bytes handed out, for statistics */
};

#define ARENA_INIT { NULL, 0, 0 }

/* Return size bytes aligned for any type; never NULL (dies on OOM). */
void *arena_alloc(struct arena *a, size_t size);
/*
 * size bytes with no alignment, packed after the previous allocation: for
 * text (a million stacks would waste 8 MB on average to 16-byte alignment).
 */
void *arena_alloc_bytes(struct arena *a, size_t size);
/*
 * Start a block of at least about size bytes now, so that an arena about to
 * take that much begins huge-page backed (2 MiB: one page fault instead of
 * 512 small ones) rather than with a 1 MiB block of small pages.
 */
void arena_reserve(struct arena *a, size_t size);
/* Copy len bytes of s and add a NUL. */
char *arena_strndup(struct arena *a, const char *s, size_t len);
void arena_release(struct arena *a);

#endif
