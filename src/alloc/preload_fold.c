/*
 * preload_fold.c - exact mode (interval 1) folded while the program runs:
 * per stack id, the allocations, their bytes, the bytes still live and
 * those live at the image's peak, with a table of live blocks (pointer ->
 * size, stack) to credit each free.  Writing every allocation and free
 * for trail to fold after the run cost more wall time than the program
 * (hundreds of MB for a few seconds of allocating); SITE records (raw.h)
 * are a few words per call path.  Everything here runs under lock.
 * Frees wait in a short queue until the next allocation (or a write):
 * then their blocks are looked up together, with prefetches, so the
 * table's cache misses overlap instead of coming one by one.  Applying
 * them before any allocation keeps every event's order (an address
 * reused is freed first; the peak only moves on an allocation).
 */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc/preload.h"

/* Per stack id (ids count from 0 in each file). */
struct site {
	uint64_t objects, bytes;	/* allocated so far */
	uint64_t live;			/* bytes of them not freed */
	uint64_t snap;			/* live at the peak, kept when changed after it */
	uint64_t changed;		/* event of the last change; 0 = never */
};

struct block {
	uint64_t ptr;			/* 0 = empty slot */
	uint64_t size;			/* bytes */
	uint64_t stack;
};

static struct site *sites;
static size_t sites_cap, sites_nr;	/* entries; ids below sites_nr seen */
static struct block *blocks;
static size_t blocks_mask, blocks_nr;
static uint64_t now;			/* events (allocations and frees of live blocks) */
static uint64_t live_total, peak, peak_at;	/* bytes; bytes; the event of the peak */
static uint64_t last_checkpoint;	/* event of the last SITE records */

#define CHECKPOINT_EVENTS (1u << 20)
#define PENDING 32
static uint64_t pending[PENDING];	/* frees not yet applied */
static unsigned pending_nr;
static void drain(void);

void fold_reset_locked(void)
{
	raw_unmap(sites, sites_cap * sizeof(*sites));
	raw_unmap(blocks, blocks ? (blocks_mask + 1) * sizeof(*blocks) : 0);
	sites = NULL;
	blocks = NULL;
	sites_cap = sites_nr = blocks_mask = blocks_nr = 0;
	now = live_total = peak = peak_at = last_checkpoint = 0;
	pending_nr = 0;
}

/*
 * A block's home slot: its 4 KiB page's hash picks a run of 256 slots,
 * its place in the page the slot in the run.  Blocks allocated together
 * (and mostly freed together) then share the table's cache lines and
 * pages, where a hash of the whole pointer sent every lookup to a line of
 * its own; pages still scatter, so strided addresses do not pile up.
 */
static size_t block_home(uint64_t p, size_t mask)
{
	return (size_t)((hash_ptr(p >> 12) << 8) | ((p >> 4) & 0xff)) & mask;
}

static struct block *block_slot(struct block *tab, size_t mask, uint64_t p)
{
	size_t i = block_home(p, mask);

	while (tab[i].ptr && tab[i].ptr != p)
		i = (i + 1) & mask;
	return &tab[i];
}

/* Room for one more live block (at most half full); 0 when memory ran out. */
static int blocks_room(void)
{
	size_t n, i;
	struct block *t;

	if (blocks && (blocks_nr + 1) * 2 <= blocks_mask + 1)
		return 1;
	n = blocks ? (blocks_mask + 1) * 2 : 64 * 1024;
	t = raw_map(n * sizeof(*t));
	if (!t)
		return 0;
	/* fewer TLB misses for a table of many megabytes (where the kernel allows it) */
	syscall(SYS_madvise, t, n * sizeof(*t), MADV_HUGEPAGE);
	for (i = 0; blocks && i <= blocks_mask; i++)
		if (blocks[i].ptr)
			*block_slot(t, n - 1, blocks[i].ptr) = blocks[i];
	raw_unmap(blocks, blocks ? (blocks_mask + 1) * sizeof(*blocks) : 0);
	blocks = t;
	blocks_mask = n - 1;
	return 1;
}

static int sites_room(uint64_t id)
{
	size_t n;
	struct site *t;

	if (id < sites_cap)
		return 1;
	n = sites_cap ? sites_cap * 2 : 4096;
	while (n <= id)
		n *= 2;
	t = raw_map(n * sizeof(*t));
	if (!t)
		return 0;
	if (sites)
		memcpy(t, sites, sites_cap * sizeof(*t));
	raw_unmap(sites, sites_cap * sizeof(*sites));
	sites = t;
	sites_cap = n;
	return 1;
}

/*
 * Before a stack's live bytes change at event 'now': when its last change
 * came at or before the peak, its live bytes are still those of the peak
 * (this is the first change after it), so keep them.  Then any stack's
 * bytes at the peak are 'live' if it has not changed since, else 'snap'.
 */
static void touch(struct site *s)
{
	if (s->changed <= peak_at)
		s->snap = s->live;
	s->changed = now;
}

static uint64_t at_peak(const struct site *s)
{
	return s->changed <= peak_at ? s->live : s->snap;
}

static void checkpoint(void)
{
	size_t gap = sites_nr * 16 > CHECKPOINT_EVENTS ? sites_nr * 16 : CHECKPOINT_EVENTS;

	if (now - last_checkpoint < gap)
		return;
	/* a process killed later still leaves what it did until now */
	fold_write_locked();
	flush_locked();
}

void fold_alloc_locked(uintptr_t p, uint64_t size, uint64_t stack)
{
	struct block *b;
	struct site *s;

	if (pending_nr)
		drain();
	if (!sites_room(stack))
		return;
	s = &sites[stack];
	if (stack >= sites_nr)
		sites_nr = stack + 1;
	now++;
	touch(s);
	s->objects++;
	s->bytes += size;
	s->live += size;
	live_total += size;
	if (live_total > peak) {
		peak = live_total;
		peak_at = now;
	}
	/*
	 * A pointer already live was freed where the interposer could not see
	 * it: that block stays live, as a reader of ALLOC records counts it.
	 * Without room for the block, it stays live too.
	 */
	if (blocks_room()) {
		b = block_slot(blocks, blocks_mask, p);
		if (!b->ptr)
			blocks_nr++;
		b->ptr = p;
		b->size = size;
		b->stack = stack;
	}
	checkpoint();
}

/* Linear probing's backward-shift deletion of the block at i. */
static void block_delete(size_t i)
{
	size_t j = i, k;

	blocks[i].ptr = 0;
	for (;;) {
		j = (j + 1) & blocks_mask;
		if (!blocks[j].ptr)
			break;
		k = block_home(blocks[j].ptr, blocks_mask);
		/* move blocks[j] into the hole unless its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		blocks[i] = blocks[j];
		blocks[j].ptr = 0;
		i = j;
	}
	blocks_nr--;
}

static void apply_free(uint64_t p)
{
	struct block *b = block_slot(blocks, blocks_mask, p);
	struct site *s;

	if (!b->ptr)
		return;	/* not allocated in this image, or before recording began */
	s = &sites[b->stack];
	now++;
	touch(s);
	s->live -= b->size;
	live_total -= b->size;
	block_delete((size_t)(b - blocks));
}

/* Apply the queued frees in their order, their slots fetched together first. */
static void drain(void)
{
	unsigned i, n = pending_nr;

	pending_nr = 0;
	if (!blocks)
		return;
	for (i = 0; i < n; i++)
		__builtin_prefetch(&blocks[block_home(pending[i], blocks_mask)]);
	for (i = 0; i < n; i++)
		apply_free(pending[i]);
	checkpoint();
}

void fold_free_locked(uintptr_t p)
{
	if (!blocks || !p)
		return;
	pending[pending_nr++] = p;
	if (pending_nr == PENDING)
		drain();
}

void fold_write_locked(void)
{
	size_t id;

	if (pending_nr)
		drain();
	last_checkpoint = now;
	for (id = 0; id < sites_nr && enabled; id++) {
		const struct site *s = &sites[id];
		uint64_t *r;

		if (!s->objects)
			continue;
		r = reserve_locked(6);
		r[0] = ALLOC_RAW_SITE | ((uint64_t)6 << 32);
		r[1] = id;
		r[2] = s->objects;
		r[3] = s->bytes;
		r[4] = s->live;
		r[5] = at_peak(s);
	}
}
