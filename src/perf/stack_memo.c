/*
 * stack_memo.c - the raw stack table (see stack_memo.h): entries whose
 * keys live back to back in one word array, found through core/hashmap.
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
	free(m->v);
	hashmap_release(&m->index);
	free(m->words);
	memset(m, 0, sizeof(*m));
}

struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created)
{
	uint32_t h = hashmap_hash_words(key, n), id;
	struct hashmap_iter it;
	struct stack_memo_entry *e;

	*created = 0;
	for (id = hashmap_first(&m->index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it)) {
		e = &m->v[id];
		if (e->len == n && !memcmp(m->words + e->off, key, n * sizeof(*key)))
			return e;
	}
	if (n > UINT32_MAX || m->nr >= UINT32_MAX - 1)
		return NULL;	/* full: the caller works without the memo */
	ALLOC_GROW(m->words, m->nr_words + n, m->alloc_words);
	memcpy(m->words + m->nr_words, key, n * sizeof(*key));
	ALLOC_GROW(m->v, m->nr + 1, m->alloc);
	e = &m->v[m->nr];
	memset(e, 0, sizeof(*e));
	e->off = m->nr_words;
	e->len = (uint32_t)n;
	m->nr_words += n;
	hashmap_add_at(&m->index, &it, (uint32_t)m->nr++);
	*created = 1;
	return e;
}
