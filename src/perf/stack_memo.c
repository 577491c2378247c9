/*
 * stack_memo.c - the raw stack table (see stack_memo.h): open addressing
 * over entries whose keys live back to back in one word array.
 */
#include "perf/stack_memo.h"
#include "core/alloc.h"
#include "core/intern.h"

#include <stdlib.h>
#include <string.h>

#define MEMO_MIN_SLOTS 1024

void stack_memo_init(struct stack_memo *m)
{
	memset(m, 0, sizeof(*m));
	m->mask = MEMO_MIN_SLOTS - 1;
	m->slots = xcalloc(MEMO_MIN_SLOTS, sizeof(*m->slots));
}

void stack_memo_release(struct stack_memo *m)
{
	free(m->v);
	free(m->slots);
	free(m->words);
	memset(m, 0, sizeof(*m));
}

static void grow_slots(struct stack_memo *m)
{
	size_t mask = m->mask * 2 + 1, i;

	free(m->slots);
	m->slots = xcalloc(mask + 1, sizeof(*m->slots));
	m->mask = mask;
	for (i = 0; i < m->nr; i++) {
		size_t pos = m->v[i].hash & mask;

		while (m->slots[pos])
			pos = (pos + 1) & mask;
		m->slots[pos] = (uint32_t)(i + 1);
	}
}

struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created)
{
	uint32_t h = intern_hash((const char *)key, n * sizeof(*key));
	size_t pos;
	struct stack_memo_entry *e;

	*created = 0;
	for (pos = h & m->mask; m->slots[pos]; pos = (pos + 1) & m->mask) {
		e = &m->v[m->slots[pos] - 1];
		if (e->hash == h && e->len == n && !memcmp(m->words + e->off, key, n * sizeof(*key)))
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
	e->hash = h;
	m->nr_words += n;
	m->slots[pos] = (uint32_t)++m->nr;
	*created = 1;
	if (m->nr * 2 > m->mask) {
		grow_slots(m);
		e = &m->v[m->nr - 1];
	}
	return e;
}
