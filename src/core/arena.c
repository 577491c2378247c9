/*
 * arena.c - bump allocator in blocks of 1 MiB, doubling up to 32 MiB as the
 * arena grows (larger requests get their own).  Blocks of 2 MiB and more are
 * huge-page backed (xmalloc_huge): filling a big arena then takes one page
 * fault per 2 MiB instead of one per 4 KiB, which was a third of 'trail
 * diff's run time on large profiles.
 */
#include "core/arena.h"
#include "core/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK_SIZE (1u << 20)	/* bytes, first block */
#define ARENA_BLOCK_MAX (32u << 20)	/* bytes, largest regular block */
#define ARENA_ALIGN 16u

struct arena_block {
	struct arena_block *next;
	size_t size;	/* usable bytes in data */
	_Alignas(16) unsigned char data[];
};

/* Data bytes of the next regular block: the doubling, header included. */
static size_t next_size(const struct arena *a)
{
	const struct arena_block *b = a->head;
	size_t want = ARENA_BLOCK_SIZE;

	if (b)
		want = b->size + sizeof(*b) < ARENA_BLOCK_MAX / 2
			? (b->size + sizeof(*b)) * 2 : ARENA_BLOCK_MAX;
	return want - sizeof(*b);
}

static struct arena_block *new_block(size_t size)
{
	struct arena_block *b = xmalloc_huge(st_add(sizeof(*b), size));

	b->size = size;
	return b;
}

static void push_block(struct arena *a, struct arena_block *b)
{
	b->next = a->head;
	a->head = b;
	a->used = 0;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size_t aligned = st_add(size, ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	struct arena_block *b = a->head;

	/* after arena_alloc_bytes() the block may be filled to any byte */
	if (b)
		a->used = a->used + ARENA_ALIGN - 1 < b->size
			? (a->used + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1) : b->size;
	if (!b || a->used + aligned > b->size) {
		size_t regular = next_size(a);

		if (aligned > regular && a->head) {
			/* Oversized: keep filling the current block afterwards. */
			b = new_block(aligned);
			b->next = a->head->next;
			a->head->next = b;
			a->total += aligned;
			return b->data;
		}
		b = new_block(aligned > regular ? aligned : regular);
		push_block(a, b);
	}
	a->used += aligned;
	a->total += aligned;
	return b->data + a->used - aligned;
}

void *arena_alloc_bytes(struct arena *a, size_t size)
{
	struct arena_block *b = a->head;
	void *p;

	if (b && size <= b->size - a->used) {
		a->used += size;
		a->total += size;
		return b->data + a->used - size;
	}
	p = arena_alloc(a, size);
	b = a->head;
	/* from a fresh regular block: the next text goes right after this one */
	if ((uintptr_t)p >= (uintptr_t)b->data && (uintptr_t)p < (uintptr_t)(b->data + b->size))
		a->used = (size_t)((uintptr_t)p - (uintptr_t)b->data) + size;
	return p;
}

void arena_reserve(struct arena *a, size_t size)
{
	size_t regular = next_size(a), data;

	if (a->head && a->head->size - a->used >= size)
		return;
	/* the block, header included, is size bytes: a whole number of huge pages */
	data = size > sizeof(struct arena_block) ? size - sizeof(struct arena_block) : size;
	push_block(a, new_block(data > regular ? data : regular));
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, st_add(len, 1));

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->head = NULL;
	a->used = a->total = 0;
}
