/*
 * hashmap.h - trail's one open-addressing hash index (outside the
 * allocation interposer, which cannot call malloc).  It maps a 32-bit hash
 * to dense entry numbers of an array the caller owns, the way the core
 * data keeps ids rather than pointers (git's hashmap.c and redis' dict.c
 * play this part there).  Keys are the caller's: a lookup walks the
 * entries whose stored hash matches, and the caller compares its own key:
 *
 *	struct hashmap_iter it;
 *	uint32_t id;
 *
 *	for (id = hashmap_first(&m, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it))
 *		if (rows[id].pc == pc)
 *			return &rows[id];
 *	id = append a row;			(the caller's array grows)
 *	hashmap_add_at(&m, &it, id);		(into the slot the walk ended on)
 *
 * Linear probing, power-of-two slots, each slot the entry's hash beside
 * its number + 1 (0 = empty), so a probe reads only the index; grown at
 * three quarters full (rehashing needs no callback: hashes are stored).
 * Removal shifts the rest of the probe run back (Knuth's algorithm R), so
 * there are no tombstones.
 */
#ifndef TRAIL_CORE_HASHMAP_H
#define TRAIL_CORE_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

#define HASHMAP_NONE UINT32_MAX

struct hashmap_slot {
	uint32_t hash;
	uint32_t id1;		/* entry number + 1; 0: empty */
};

struct hashmap {
	struct hashmap_slot *slots;
	uint32_t mask;		/* number of slots - 1; slots == NULL: no slots yet */
	uint32_t nr;		/* entries held */
};

/* A walk over the entries whose hash matches; ends on the slot to add at. */
struct hashmap_iter {
	const struct hashmap *map;
	uint32_t pos;		/* current slot */
	uint32_t hash;
};

#define HASHMAP_INIT { NULL, 0, 0 }

/* An empty map sized for about `expected` entries (0: allocate on first add). */
void hashmap_init(struct hashmap *m, size_t expected);
void hashmap_release(struct hashmap *m);
/* Forget every entry, keeping the slots. */
void hashmap_clear(struct hashmap *m);

/*
 * Hashes for the usual keys: bytes (multiply-xorshift over 8-byte words;
 * from 64 bytes on, four lanes of 32-byte blocks first), one or two words.
 */
uint32_t hashmap_hash_bytes(const void *s, size_t len);
/*
 * An array of n words (raw stacks: tens to hundreds of addresses, one per
 * sample): four independent multiply-xorshift lanes keep the multiplier
 * busy instead of waiting on one chain.
 */
uint32_t hashmap_hash_words(const uint64_t *w, size_t n);
static inline uint32_t hashmap_hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return (uint32_t)x;
}
static inline uint32_t hashmap_hash_u64_pair(uint64_t a, uint64_t b)
{
	return hashmap_hash_u64(a ^ (b * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull));
}

/*
 * The next entry, from the iterator's slot on, whose hash matches, or
 * HASHMAP_NONE with it->pos on the empty slot where an entry of this hash
 * would go.
 */
static inline uint32_t hashmap_next(struct hashmap_iter *it)
{
	const struct hashmap_slot *slots = it->map->slots;
	uint32_t mask = it->map->mask, pos = it->pos, hash = it->hash;

	if (!slots)
		return HASHMAP_NONE;
	for (;;) {
		const struct hashmap_slot *s = &slots[pos];

		if (!s->id1) {
			it->pos = pos;
			return HASHMAP_NONE;
		}
		pos = (pos + 1) & mask;
		if (s->hash == hash) {
			it->pos = pos;
			return s->id1 - 1;
		}
	}
}

/* Start a walk over the entries of this hash; returns the first, as hashmap_next(). */
static inline uint32_t hashmap_first(const struct hashmap *m, uint32_t hash,
				     struct hashmap_iter *it)
{
	it->map = m;
	it->hash = hash;
	it->pos = m->slots ? hash & m->mask : 0;
	return hashmap_next(it);
}

/*
 * For prefetching ahead of a lookup: fetch the slot a walk for hash starts
 * on; hashmap_hint() then reads it (cheap once fetched) and gives the
 * entry stored there when its hash matches, else HASHMAP_NONE.  Hints
 * only: the walk decides.
 */
static inline void hashmap_prefetch(const struct hashmap *m, uint32_t hash)
{
	if (m->slots)
		__builtin_prefetch(&m->slots[hash & m->mask]);
}
static inline uint32_t hashmap_hint(const struct hashmap *m, uint32_t hash)
{
	const struct hashmap_slot *s;

	if (!m->slots)
		return HASHMAP_NONE;
	s = &m->slots[hash & m->mask];
	return s->id1 && s->hash == hash ? s->id1 - 1 : HASHMAP_NONE;
}

/*
 * Add entry id at the empty slot a walk that found no match ended on (no
 * second probe); grows the slots when three quarters are taken.  The
 * iterator is spent.
 */
void hashmap_add_at(struct hashmap *m, struct hashmap_iter *it, uint32_t id);
/* Add entry id under hash (the caller knows it is not there yet). */
void hashmap_add(struct hashmap *m, uint32_t hash, uint32_t id);
/* Remove entry id stored under hash; 0 done, -1 not there. */
int hashmap_remove(struct hashmap *m, uint32_t hash, uint32_t id);
/* Entry old_id, stored under hash, is now numbered new_id (the caller moved it). */
int hashmap_renumber(struct hashmap *m, uint32_t hash, uint32_t old_id, uint32_t new_id);

#endif
