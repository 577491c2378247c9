/*
 * intern.h - string interning: each distinct byte string gets a dense
 * 32-bit id (0, 1, 2, ... in order of first appearance).  The strings live
 * in the table's arena and stay valid until intern_release().
 *
 * The core data (frames, stacks) holds these ids, never pointers.
 */
#ifndef TRAIL_CORE_INTERN_H
#define TRAIL_CORE_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/hashmap.h"

struct intern_entry {
	const char *str;
	uint32_t len;
};

struct intern {
	struct arena arena;
	struct intern_entry *entries;	/* indexed by id */
	uint32_t nr, alloc;
	struct hashmap index;		/* hash of the string -> id */
};

void intern_init(struct intern *t);
void intern_release(struct intern *t);
/* Return the id of s, adding it when new; *is_new (if given) says which. */
uint32_t intern_add(struct intern *t, const char *s, size_t len, int *is_new);
/* Return the id of s, or UINT32_MAX when absent. */
uint32_t intern_find(const struct intern *t, const char *s, size_t len);
static inline const char *intern_str(const struct intern *t, uint32_t id)
{
	return t->entries[id].str;
}
static inline uint32_t intern_len(const struct intern *t, uint32_t id)
{
	return t->entries[id].len;
}
/* The table's hash of a string (hashmap_hash_bytes), for callers keying their own maps by it. */
uint32_t intern_hash(const char *s, size_t len);

#endif
