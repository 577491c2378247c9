/*
 * intern.c - open-addressing hash table from strings to dense ids.
 * Hash: a 64-bit multiply-xorshift over 8-byte words (fast on long
 * stack strings), folded to 32 bits.
 */
#include "core/intern.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

uint32_t intern_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (i < len) {
		uint64_t w = 0;

		memcpy(&w, s + i, len - i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
		h ^= h >> 29;
	}
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h;
}

void intern_init(struct intern *t)
{
	memset(t, 0, sizeof(*t));
	t->mask = 1023;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
}

void intern_release(struct intern *t)
{
	arena_release(&t->arena);
	free(t->entries);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static void rehash(struct intern *t)
{
	uint32_t nslots = (t->mask + 1) * 2, i;

	if (!nslots)
		die("intern table too large");
	free(t->slots);
	t->slots = xcalloc(nslots, sizeof(*t->slots));
	t->mask = nslots - 1;
	for (i = 0; i < t->nr; i++) {
		uint32_t pos = t->entries[i].hash & t->mask;

		while (t->slots[pos])
			pos = (pos + 1) & t->mask;
		t->slots[pos] = i + 1;
	}
}

uint32_t intern_find(const struct intern *t, const char *s, size_t len)
{
	uint32_t hash = intern_hash(s, len);
	uint32_t pos = hash & t->mask;

	for (;;) {
		uint32_t slot = t->slots[pos];
		const struct intern_entry *e;

		if (!slot)
			return UINT32_MAX;
		e = &t->entries[slot - 1];
		if (e->hash == hash && e->len == len && !memcmp(e->str, s, len))
			return slot - 1;
		pos = (pos + 1) & t->mask;
	}
}

uint32_t intern_add(struct intern *t, const char *s, size_t len, int *is_new)
{
	uint32_t hash = intern_hash(s, len);
	uint32_t pos = hash & t->mask;
	struct intern_entry *e;

	if (len > UINT32_MAX)
		die("string too long to intern (%zu bytes)", len);
	for (;;) {
		uint32_t slot = t->slots[pos];

		if (!slot)
			break;
		e = &t->entries[slot - 1];
		if (e->hash == hash && e->len == len && !memcmp(e->str, s, len)) {
			if (is_new)
				*is_new = 0;
			return slot - 1;
		}
		pos = (pos + 1) & t->mask;
	}
	if (t->nr == UINT32_MAX - 1)
		die("too many distinct strings to intern");
	ALLOC_GROW(t->entries, (size_t)t->nr + 1, t->alloc);
	e = &t->entries[t->nr];
	e->str = arena_strndup(&t->arena, s, len);
	e->len = (uint32_t)len;
	e->hash = hash;
	t->slots[pos] = ++t->nr;
	if (is_new)
		*is_new = 1;
	if ((uint64_t)t->nr * 4 >= (uint64_t)(t->mask + 1) * 3)
		rehash(t);
	return t->nr - 1;
}
