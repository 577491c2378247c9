/*
 * test_hashmap.c - the one hash index: lookups against a model, collisions
 * on one hash, removal keeping every probe run reachable (algorithm R),
 * renumbering, growth from empty and from a sized start.
 */
#include "core/hashmap.h"
#include "harness.h"

#include <stdint.h>

/* Find key among entries keys[] through the map; HASHMAP_NONE if absent. */
static uint32_t lookup(const struct hashmap *m, const uint64_t *keys, uint64_t key, uint32_t hash)
{
	struct hashmap_iter it;
	uint32_t id;

	for (id = hashmap_first(m, hash, &it); id != HASHMAP_NONE; id = hashmap_next(&it))
		if (keys[id] == key)
			return id;
	return HASHMAP_NONE;
}

TEST(hashmap_finds_what_was_added)
{
	static uint64_t keys[20000];
	struct hashmap m = HASHMAP_INIT;
	uint32_t i;

	for (i = 0; i < 20000; i++) {
		struct hashmap_iter it;
		uint64_t key = (uint64_t)i * 7919 + 3;

		keys[i] = key;
		CHECK(hashmap_first(&m, hashmap_hash_u64(key), &it) == HASHMAP_NONE);
		hashmap_add_at(&m, &it, i);
	}
	CHECK_INT(m.nr, 20000);
	CHECK((uint64_t)m.nr * 4 < ((uint64_t)m.mask + 1) * 3);
	for (i = 0; i < 20000; i++)
		CHECK_INT(lookup(&m, keys, keys[i], hashmap_hash_u64(keys[i])), i);
	CHECK(lookup(&m, keys, 5, hashmap_hash_u64(5)) == HASHMAP_NONE);
	hashmap_clear(&m);
	CHECK_INT(m.nr, 0);
	CHECK(lookup(&m, keys, keys[7], hashmap_hash_u64(keys[7])) == HASHMAP_NONE);
	hashmap_release(&m);
}

TEST(hashmap_equal_hashes_are_told_apart_by_the_key)
{
	uint64_t keys[64];
	struct hashmap m;
	uint32_t i;

	hashmap_init(&m, 100);
	CHECK(m.slots != NULL);
	for (i = 0; i < 64; i++) {
		keys[i] = i;
		hashmap_add(&m, 42, i);	/* every key on one hash */
	}
	for (i = 0; i < 64; i++)
		CHECK_INT(lookup(&m, keys, i, 42), i);
	hashmap_release(&m);
}

/* Removal against a model: every remaining key is still found, every removed one is not. */
TEST(hashmap_remove_keeps_probe_runs)
{
	enum { N = 4000 };
	static uint64_t keys[N];
	static int present[N];
	struct hashmap m = HASHMAP_INIT;
	uint64_t state = 1;
	uint32_t i, round;

	for (i = 0; i < N; i++) {
		keys[i] = i;
		/* 97 homes at the end of the table: long runs that wrap to slot 0 */
		hashmap_add(&m, 0xffffffffu - (uint32_t)(hashmap_hash_u64(i) % 97u), i);
		present[i] = 1;
	}
	for (round = 0; round < 3 * N; round++) {
		uint32_t k, h;

		state = state * 6364136223846793005ull + 1442695040888963407ull;
		k = (uint32_t)(state >> 33) % N;
		h = 0xffffffffu - (uint32_t)(hashmap_hash_u64(k) % 97u);
		if (present[k]) {
			CHECK_INT(hashmap_remove(&m, h, k), 0);
			present[k] = 0;
		} else {
			CHECK_INT(hashmap_remove(&m, h, k), -1);
			hashmap_add(&m, h, k);
			present[k] = 1;
		}
	}
	for (i = 0; i < N; i++) {
		uint32_t h = 0xffffffffu - (uint32_t)(hashmap_hash_u64(i) % 97u);

		CHECK_INT(lookup(&m, keys, i, h) != HASHMAP_NONE, present[i]);
	}
	hashmap_release(&m);
}

TEST(hashmap_renumber_follows_a_moved_entry)
{
	uint64_t keys[3] = { 10, 20, 30 };
	struct hashmap m = HASHMAP_INIT;
	uint32_t i;

	for (i = 0; i < 3; i++)
		hashmap_add(&m, hashmap_hash_u64(keys[i]), i);
	/* swap-remove entry 0: entry 2 moves into its place */
	CHECK_INT(hashmap_remove(&m, hashmap_hash_u64(10), 0), 0);
	keys[0] = keys[2];
	CHECK_INT(hashmap_renumber(&m, hashmap_hash_u64(30), 2, 0), 0);
	CHECK_INT(lookup(&m, keys, 30, hashmap_hash_u64(30)), 0);
	CHECK_INT(lookup(&m, keys, 20, hashmap_hash_u64(20)), 1);
	CHECK(lookup(&m, keys, 10, hashmap_hash_u64(10)) == HASHMAP_NONE);
	CHECK_INT(hashmap_renumber(&m, hashmap_hash_u64(99), 7, 1), -1);
	hashmap_release(&m);
}

TEST(hashmap_hash_bytes_spreads_short_and_long_keys)
{
	CHECK(hashmap_hash_bytes("a", 1) != hashmap_hash_bytes("b", 1));
	CHECK(hashmap_hash_bytes("abcdefgh1", 9) != hashmap_hash_bytes("abcdefgh2", 9));
	CHECK(hashmap_hash_bytes("", 0) != hashmap_hash_bytes("\0", 1));
	CHECK(hashmap_hash_u64_pair(1, 2) != hashmap_hash_u64_pair(2, 1));
}

TEST_MAIN("hashmap", hashmap_finds_what_was_added, hashmap_equal_hashes_are_told_apart_by_the_key,
	  hashmap_remove_keeps_probe_runs, hashmap_renumber_follows_a_moved_entry,
	  hashmap_hash_bytes_spreads_short_and_long_keys)
