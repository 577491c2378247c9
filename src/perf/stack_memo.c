/*
 * stack_memo.c - the raw stack table (see stack_memo.h): entries, each
 * followed by its key, back to back in one word array, found through
 * core/hashmap by their offset.
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
	hashmap_release(&m->index);
	free(m->words);
	memset(m, 0, sizeof(*m));
}

_Static_assert(sizeof(struct stack_memo_entry) % sizeof(uint64_t) == 0,
	       "an entry takes whole words");

static struct stack_memo_entry *entry_at(struct stack_memo *m, size_t off)
{
	return (struct stack_memo_entry *)(void *)(m->words + off);
}

struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created)
{
	uint32_t h = hashmap_hash_words(key, n), off;
	struct hashmap_iter it;
	struct stack_memo_entry *e;
	size_t need = STACK_MEMO_ENTRY_WORDS + n;

	*created = 0;
	for (off = hashmap_first(&m->index, h, &it); off != HASHMAP_NONE; off = hashmap_next(&it)) {
		e = entry_at(m, off);
		if (e->len == n && !memcmp(m->words + off + STACK_MEMO_ENTRY_WORDS, key, n * sizeof(*key)))
			return e;
	}
	/* offsets are the index's 32-bit ids */
	if (n > UINT32_MAX || m->nr_words + need >= UINT32_MAX - 1)
		return NULL;	/* full: the caller works without the memo */
	ALLOC_GROW(m->words, m->nr_words + need, m->alloc_words);
	off = (uint32_t)m->nr_words;
	e = entry_at(m, off);
	memset(e, 0, sizeof(*e));
	e->len = (uint32_t)n;
	memcpy(m->words + off + STACK_MEMO_ENTRY_WORDS, key, n * sizeof(*key));
	m->nr_words += need;
	m->nr++;
	hashmap_add_at(&m->index, &it, off);
	*created = 1;
	return e;
}
