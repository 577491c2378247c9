/*
 * intern.c - strings to dense ids: the entries (arena-held copies) in id
 * order, found through core/hashmap's index (hash: hashmap_hash_bytes, a
 * multiply-xorshift over 8-byte words, fast on long stack strings).
 */
#include "core/intern.h"
#include "core/hashmap.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

uint32_t intern_hash(const char *s, size_t len)
{
	return hashmap_hash_bytes(s, len);
}

void intern_init(struct intern *t)
{
	memset(t, 0, sizeof(*t));
	hashmap_init(&t->index, 768);
}

void intern_release(struct intern *t)
{
	arena_release(&t->arena);
	free(t->entries);
	hashmap_release(&t->index);
	memset(t, 0, sizeof(*t));
}

/* The id of s under hash, or HASHMAP_NONE with *it on the free slot. */
static inline __attribute__((always_inline)) uint32_t find(const struct intern *t, const char *s, size_t len, uint32_t hash,
		     struct hashmap_iter *it)
{
	uint32_t id;

	for (id = hashmap_first(&t->index, hash, it); id != HASHMAP_NONE; id = hashmap_next(it)) {
		const struct intern_entry *e = &t->entries[id];

		if (e->len == len && !memcmp(e->str, s, len))
			return id;
	}
	return HASHMAP_NONE;
}

uint32_t intern_find(const struct intern *t, const char *s, size_t len)
{
	struct hashmap_iter it;

	return find(t, s, len, intern_hash(s, len), &it);
}

uint32_t intern_add(struct intern *t, const char *s, size_t len, int *is_new)
{
	uint32_t hash = intern_hash(s, len), id;
	struct hashmap_iter it;
	struct intern_entry *e;

	if (len > UINT32_MAX)
		die("string too long to intern (%zu bytes)", len);
	id = find(t, s, len, hash, &it);
	if (id != HASHMAP_NONE) {
		if (is_new)
			*is_new = 0;
		return id;
	}
	if (t->nr == UINT32_MAX - 1)
		die("too many distinct strings to intern");
	ALLOC_GROW(t->entries, (size_t)t->nr + 1, t->alloc);
	e = &t->entries[t->nr];
	e->str = arena_strndup(&t->arena, s, len);
	e->len = (uint32_t)len;
	hashmap_add_at(&t->index, &it, t->nr);
	if (is_new)
		*is_new = 1;
	return t->nr++;
}
