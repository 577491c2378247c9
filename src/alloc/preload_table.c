/*
 * preload_table.c - the interposer's two tables, under lock, in memory
 * from raw mmap: the set of sampled live pointers (so that only their
 * frees are written when sampling), with a lock-free filter the free path
 * reads first; and the distinct stacks written to the current file, each
 * written once as a STACK record and named by id afterwards.
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc/preload.h"

uint32_t filter[1u << FILTER_BITS];
static uintptr_t *set;
static size_t set_mask, set_nr;

static int set_insert_slot(uintptr_t *tab, size_t mask, uintptr_t p)
{
	size_t i = hash_ptr(p) & mask;

	while (tab[i]) {
		if (tab[i] == p)
			return 0;
		i = (i + 1) & mask;
	}
	tab[i] = p;
	return 1;
}

int set_add(uintptr_t p)
{
	if ((set_nr + 1) * 2 > set_mask + 1 || !set) {
		size_t n = set ? (set_mask + 1) * 2 : 4096, i;
		uintptr_t *t = raw_map(n * sizeof(*t));

		if (!t)
			return 0;
		for (i = 0; set && i <= set_mask; i++)
			if (set[i])
				set_insert_slot(t, n - 1, set[i]);
		if (set)
			raw_unmap(set, (set_mask + 1) * sizeof(*set));
		set = t;
		set_mask = n - 1;
	}
	if (!set_insert_slot(set, set_mask, p))
		return 1;
	set_nr++;
	__atomic_add_fetch(&filter[filter_slot(p)], 1, __ATOMIC_RELAXED);
	return 1;
}

/* Remove p; 1 when it was there.  Linear probing's backward-shift deletion. */
int set_remove(uintptr_t p)
{
	size_t i, j, k;

	if (!set)
		return 0;
	i = hash_ptr(p) & set_mask;
	while (set[i] != p) {
		if (!set[i])
			return 0;
		i = (i + 1) & set_mask;
	}
	set[i] = 0;
	j = i;
	for (;;) {
		j = (j + 1) & set_mask;
		if (!set[j])
			break;
		k = hash_ptr(set[j]) & set_mask;
		/* move set[j] into the hole unless its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		set[i] = set[j];
		set[j] = 0;
		i = j;
	}
	set_nr--;
	__atomic_sub_fetch(&filter[filter_slot(p)], 1, __ATOMIC_RELAXED);
	return 1;
}

/* Forget every pointer: a fork child's blocks are not its own samples. */
void set_clear(void)
{
	raw_unmap(set, (set_mask + 1) * sizeof(*set));
	set = NULL;
	set_nr = set_mask = 0;
	memset(filter, 0, sizeof(filter));
}

/*
 * The distinct stacks written to this file (under lock): each is written
 * once as a STACK record, and allocations name it by id, so a run that
 * allocates millions of times from a few hundred places writes a few
 * words per allocation.  stk_words holds, per stack, n | id << 32 then its
 * n frames; stk_tab maps a hash of the frames to where they are (+1).
 */
static uint64_t *stk_words;
static size_t stk_words_nr, stk_words_cap;	/* words */
static struct stk_slot {
	uint64_t hash;
	size_t at;		/* index in stk_words + 1; 0 = empty */
} *stk_tab;
static size_t stk_mask;
static uint32_t stk_nr;

void stacks_reset_locked(void)
{
	if (stk_words)
		syscall(SYS_munmap, stk_words, stk_words_cap * 8);
	if (stk_tab)
		syscall(SYS_munmap, stk_tab, (stk_mask + 1) * sizeof(*stk_tab));
	stk_words = NULL;
	stk_tab = NULL;
	stk_words_nr = stk_words_cap = stk_mask = 0;
	stk_nr = 0;
}

static uint64_t hash_frames(const uint64_t *f, int n)
{
	uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15ull;
	int i;

	for (i = 0; i < n; i++)
		h = (h ^ f[i]) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

/* Grow the table or the word store; 0 when memory ran out. */
static int stacks_room_locked(int n)
{
	if (!stk_tab || (size_t)(stk_nr + 1) * 2 > stk_mask + 1) {
		size_t size = stk_tab ? (stk_mask + 1) * 2 : 1024, i;
		struct stk_slot *t = raw_map(size * sizeof(*t));

		if (!t)
			return 0;
		for (i = 0; stk_tab && i <= stk_mask; i++) {
			size_t j;

			if (!stk_tab[i].at)
				continue;
			for (j = stk_tab[i].hash & (size - 1); t[j].at; j = (j + 1) & (size - 1))
				;
			t[j] = stk_tab[i];
		}
		if (stk_tab)
			syscall(SYS_munmap, stk_tab, (stk_mask + 1) * sizeof(*stk_tab));
		stk_tab = t;
		stk_mask = size - 1;
	}
	if (stk_words_nr + 1 + (size_t)n > stk_words_cap) {
		size_t cap = stk_words_cap ? stk_words_cap * 2 : 64 * 1024;
		uint64_t *w = raw_map(cap * 8);

		if (!w)
			return 0;
		if (stk_words) {
			memcpy(w, stk_words, stk_words_nr * 8);
			syscall(SYS_munmap, stk_words, stk_words_cap * 8);
		}
		stk_words = w;
		stk_words_cap = cap;
	}
	return 1;
}

/* The id of frames[0..n), writing a STACK record for a new one; -1 when out of memory. */
int64_t stack_id_locked(const uint64_t *frames, int n)
{
	uint64_t h = hash_frames(frames, n), *r;
	size_t i;

	if (!stacks_room_locked(n))
		return -1;
	for (i = h & stk_mask; stk_tab[i].at; i = (i + 1) & stk_mask) {
		const uint64_t *w = stk_words + stk_tab[i].at - 1;

		if (stk_tab[i].hash == h && (w[0] & 0xffffffffu) == (uint64_t)n &&
		    !memcmp(w + 1, frames, (size_t)n * 8))
			return (int64_t)(w[0] >> 32);
	}
	stk_tab[i].hash = h;
	stk_tab[i].at = stk_words_nr + 1;
	stk_words[stk_words_nr] = (uint64_t)n | (uint64_t)stk_nr << 32;
	memcpy(stk_words + stk_words_nr + 1, frames, (size_t)n * 8);
	stk_words_nr += 1 + (size_t)n;
	r = reserve_locked(3 + (size_t)n);
	r[0] = ALLOC_RAW_STACK | ((uint64_t)(3 + n) << 32);
	r[1] = stk_nr;
	r[2] = (uint64_t)n;
	memcpy(r + 3, frames, (size_t)n * 8);
	return stk_nr++;
}

