/*
 * stack_memo.c - the raw stack table (see stack_memo.h): open addressing
 * over entries whose keys live back to back in one word array.
 */
#include "perf/stack_memo.h"
#include "core/alloc.h"

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

/*
 * Keys are tens to hundreds of words (deep JIT stacks) and every sample
 * hashes one: four independent multiply-xorshift lanes keep the
 * multiplier busy instead of waiting on one chain.
 */
static uint32_t hash_words(const uint64_t *w, size_t n)
{
	const uint64_t m = 0xff51afd7ed558ccdull;
	uint64_t a = 0x9e3779b97f4a7c15ull ^ n, b = 0xc4ceb9fe1a85ec53ull, c = 0x2545f4914f6cdd1dull,
		 d = 0x94d049bb133111ebull;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		a = (a ^ w[i]) * m;
		b = (b ^ w[i + 1]) * m;
		c = (c ^ w[i + 2]) * m;
		d = (d ^ w[i + 3]) * m;
		a ^= a >> 32;
		b ^= b >> 32;
		c ^= c >> 32;
		d ^= d >> 32;
	}
	for (; i < n; i++) {
		a = (a ^ w[i]) * m;
		a ^= a >> 32;
	}
	a ^= (b << 21 | b >> 43) ^ (c << 42 | c >> 22) ^ (d << 11 | d >> 53);
	a *= m;
	a ^= a >> 33;
	a *= 0xc4ceb9fe1a85ec53ull;
	a ^= a >> 29;
	return (uint32_t)a;
}

struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created)
{
	uint32_t h = hash_words(key, n);
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
