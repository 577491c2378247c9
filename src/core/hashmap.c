/*
 * hashmap.c - growing, removing and renumbering in trail's one hash index
 * (see hashmap.h; the walk itself is inline there), and the shared hash
 * functions.
 */
#include "core/hashmap.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 16u

static uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/*
 * Whole 32-byte blocks of a long key (folded stacks: hundreds of bytes)
 * in four independent lanes, so the multiplies overlap instead of waiting
 * on one chain (a third of the time per byte): a word is mixed into its
 * lane by a xor, a multiply by an odd constant and a rotation that brings
 * the well-mixed high bits down for the next multiply (as in FxHash).
 * Returns the lanes folded into one word; *done = bytes consumed.
 */
static uint64_t hash_blocks(const unsigned char *s, size_t len, uint64_t h, size_t *done)
{
	uint64_t a = h, b = 0xc2b2ae3d27d4eb4full, c = 0x165667b19e3779f9ull,
		 d = 0xd6e8feb86659fd93ull, w, x, y, z;
	size_t i = 0;

	for (; i + 32 <= len; i += 32) {
		memcpy(&w, s + i, 8);
		memcpy(&x, s + i + 8, 8);
		memcpy(&y, s + i + 16, 8);
		memcpy(&z, s + i + 24, 8);
		a = rotl((a ^ w) * 0x9e3779b97f4a7c15ull, 31);
		b = rotl((b ^ x) * 0xc2b2ae3d27d4eb4full, 29);
		c = rotl((c ^ y) * 0x165667b19e3779f9ull, 27);
		d = rotl((d ^ z) * 0xd6e8feb86659fd93ull, 33);
	}
	*done = i;
	return a ^ (b * 0x9e3779b97f4a7c15ull) ^ (c * 0xc2b2ae3d27d4eb4full) ^
	       (d * 0x165667b19e3779f9ull);
}

uint32_t hashmap_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	size_t i = 0;

	if (len >= 64)
		h = hash_blocks(s, len, h, &i);
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

uint32_t hashmap_hash_words(const uint64_t *w, size_t n)
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

static void alloc_slots(struct hashmap *m, uint32_t nslots)
{
	m->slots = xcalloc(nslots, sizeof(*m->slots));
	m->mask = nslots - 1;
}

void hashmap_init(struct hashmap *m, size_t expected)
{
	uint32_t n = MIN_SLOTS;

	memset(m, 0, sizeof(*m));
	if (!expected)
		return;
	/* room for expected entries below the three-quarter mark */
	while ((uint64_t)n * 3 / 4 <= expected) {
		if (n >= (1u << 31))
			die("hash index too large (%zu entries)", expected);
		n *= 2;
	}
	alloc_slots(m, n);
}

void hashmap_release(struct hashmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

void hashmap_clear(struct hashmap *m)
{
	if (m->slots)
		memset(m->slots, 0, ((size_t)m->mask + 1) * sizeof(*m->slots));
	m->nr = 0;
}

static void place(struct hashmap *m, uint32_t hash, uint32_t id1)
{
	uint32_t pos = hash & m->mask;

	while (m->slots[pos].id1)
		pos = (pos + 1) & m->mask;
	m->slots[pos].hash = hash;
	m->slots[pos].id1 = id1;
}

static void grow(struct hashmap *m)
{
	struct hashmap_slot *old = m->slots;
	uint32_t n = m->mask + 1, i;

	if (n >= (1u << 31))
		die("hash index too large (%u entries)", m->nr);
	alloc_slots(m, n * 2);
	for (i = 0; i < n; i++)
		if (old[i].id1)
			place(m, old[i].hash, old[i].id1);
	free(old);
}

static void added(struct hashmap *m)
{
	m->nr++;
	if ((uint64_t)m->nr * 4 >= ((uint64_t)m->mask + 1) * 3)
		grow(m);
}

void hashmap_add(struct hashmap *m, uint32_t hash, uint32_t id)
{
	if (id == HASHMAP_NONE)
		die("hash index: entry number %u out of range", id);
	if (!m->slots)
		alloc_slots(m, MIN_SLOTS);
	place(m, hash, id + 1);
	added(m);
}

void hashmap_add_at(struct hashmap *m, struct hashmap_iter *it, uint32_t id)
{
	if (!m->slots || id == HASHMAP_NONE || m->slots[it->pos].id1) {
		hashmap_add(m, it->hash, id);	/* no walk ended on a free slot */
		return;
	}
	m->slots[it->pos].hash = it->hash;
	m->slots[it->pos].id1 = id + 1;
	added(m);
}

static struct hashmap_slot *slot_of(struct hashmap *m, uint32_t hash, uint32_t id)
{
	uint32_t pos;

	if (!m->slots)
		return NULL;
	for (pos = hash & m->mask; m->slots[pos].id1; pos = (pos + 1) & m->mask)
		if (m->slots[pos].id1 == id + 1)
			return &m->slots[pos];
	return NULL;
}

int hashmap_remove(struct hashmap *m, uint32_t hash, uint32_t id)
{
	struct hashmap_slot *s = slot_of(m, hash, id);
	uint32_t hole, pos;

	if (!s)
		return -1;
	hole = (uint32_t)(s - m->slots);
	s->id1 = 0;
	m->nr--;
	/*
	 * Knuth's algorithm R: move back every later slot of the run whose
	 * home is not cyclically between the hole and itself.
	 */
	for (pos = (hole + 1) & m->mask; m->slots[pos].id1; pos = (pos + 1) & m->mask) {
		uint32_t home = m->slots[pos].hash & m->mask;
		int stays = hole <= pos ? (hole < home && home <= pos) : (hole < home || home <= pos);

		if (stays)
			continue;
		m->slots[hole] = m->slots[pos];
		m->slots[pos].id1 = 0;
		hole = pos;
	}
	return 0;
}

int hashmap_renumber(struct hashmap *m, uint32_t hash, uint32_t old_id, uint32_t new_id)
{
	struct hashmap_slot *s = slot_of(m, hash, old_id);

	if (!s || new_id == HASHMAP_NONE)
		return -1;
	s->id1 = new_id + 1;
	return 0;
}
