/*
 * stack_memo.c - the raw stack table (see stack_memo.h): entries, each
 * followed by its key, back to back in fixed blocks of words, found
 * through core/hashmap by their block and offset.
 */
#include "perf/stack_memo.h"
#include "core/alloc.h"
#include "core/hashmap.h"

#include <stdlib.h>
#include <string.h>

void stack_memo_init(struct stack_memo *m)
{
	memset(m, 0, sizeof(*m));
	hashmap_init(&m->index, 512);
}

void stack_memo_release(struct stack_memo *m)
{
	size_t i;

	hashmap_release(&m->index);
	for (i = 0; i < m->nr_blocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	memset(m, 0, sizeof(*m));
}

_Static_assert(sizeof(struct stack_memo_entry) % sizeof(uint64_t) == 0,
	       "an entry takes whole words");

static struct stack_memo_entry *entry_at(const struct stack_memo *m, uint32_t id)
{
	uint64_t *w = m->blocks[id >> STACK_MEMO_BLOCK_SHIFT] + (id & (STACK_MEMO_BLOCK_WORDS - 1));

	return (struct stack_memo_entry *)(void *)w;
}

struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created)
{
	return stack_memo_get_hashed(m, key, n, hashmap_hash_words(key, n), created);
}

void stack_memo_prefetch_entry(const struct stack_memo *m, uint32_t hash)
{
	uint32_t id = hashmap_hint(&m->index, hash);

	if (id != HASHMAP_NONE) {
		/* the entry and the first 30 key words: tens of words are compared */
		const char *e = (const char *)entry_at(m, id);

		__builtin_prefetch(e);
		__builtin_prefetch(e + 64);
		__builtin_prefetch(e + 128);
		__builtin_prefetch(e + 192);
	}
}

struct stack_memo_entry *stack_memo_get_hashed(struct stack_memo *m, const uint64_t *key, size_t n,
					       uint32_t h, int *created)
{
	uint32_t id;
	struct hashmap_iter it;
	struct stack_memo_entry *e;
	size_t need = STACK_MEMO_ENTRY_WORDS + n;

	*created = 0;
	for (id = hashmap_first(&m->index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it)) {
		e = entry_at(m, id);
		if (e->len == n && !memcmp((uint64_t *)(void *)e + STACK_MEMO_ENTRY_WORDS, key,
					   n * sizeof(*key)))
			return e;
	}
	if (need > STACK_MEMO_BLOCK_WORDS)
		return NULL;	/* the caller works without the memo */
	if (!m->nr_blocks || m->used + need > STACK_MEMO_BLOCK_WORDS) {
		/* ids are 32-bit, UINT32_MAX and the one below it the index's own */
		if (m->nr_blocks >= ((size_t)UINT32_MAX >> STACK_MEMO_BLOCK_SHIFT))
			return NULL;	/* full */
		ALLOC_GROW(m->blocks, m->nr_blocks + 1, m->alloc_blocks);
		m->blocks[m->nr_blocks++] = xmalloc_huge(STACK_MEMO_BLOCK_WORDS * sizeof(uint64_t));
		m->used = 0;
	}
	id = (uint32_t)((m->nr_blocks - 1) << STACK_MEMO_BLOCK_SHIFT | m->used);
	e = entry_at(m, id);
	memset(e, 0, sizeof(*e));
	e->len = (uint32_t)n;
	memcpy((uint64_t *)(void *)e + STACK_MEMO_ENTRY_WORDS, key, n * sizeof(*key));
	m->used += need;
	m->nr++;
	hashmap_add_at(&m->index, &it, id);
	*created = 1;
	return e;
}
