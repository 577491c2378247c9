/*
 * stack_memo.h - remembers raw stacks (a key of 64-bit words: thread,
 * address-space state, event, callchain addresses) already seen, so a
 * sample whose raw stack repeats an earlier one's skips symbolization and
 * folding.  A frame-pointer profile has a few hundred to a few thousand
 * distinct raw stacks for 100,000 samples.
 */
#ifndef TRAIL_PERF_STACK_MEMO_H
#define TRAIL_PERF_STACK_MEMO_H

#include "core/hashmap.h"

#include <stddef.h>
#include <stdint.h>

/*
 * What is kept per distinct raw stack.  It sits in the word array right
 * before its key, so a lookup that found the slot reads the entry and
 * the key in one place (a table of entries apart from the keys cost a
 * third cache miss per sample).
 */
struct stack_memo_entry {
	uint32_t len;		/* key words after the entry */
	uint32_t frames;	/* frames the stack resolved to */
	uint32_t unknown;	/* of which unresolved */
	uint32_t memo;		/* what the consumer asked to get back; 0 = nothing */
};

/* Words an entry takes before its key. */
#define STACK_MEMO_ENTRY_WORDS (sizeof(struct stack_memo_entry) / sizeof(uint64_t))

/*
 * Entries live in blocks of STACK_MEMO_BLOCK_WORDS words that never move:
 * growing one array by realloc copied the whole table again and again
 * (on a JIT profile the copies and the fresh pages they touched were a
 * tenth of the run).  Blocks are 2 MiB from xmalloc_huge(): one page
 * fault and one TLB entry each where huge pages are allowed, not 512.
 */
#define STACK_MEMO_BLOCK_SHIFT 18
#define STACK_MEMO_BLOCK_WORDS ((size_t)1 << STACK_MEMO_BLOCK_SHIFT)

struct stack_memo {
	size_t nr;		/* entries */
	/* hash of the key words -> block << STACK_MEMO_BLOCK_SHIFT | offset of the entry in words */
	struct hashmap index;
	uint64_t **blocks;	/* each STACK_MEMO_BLOCK_WORDS words */
	size_t nr_blocks, alloc_blocks;
	size_t used;		/* words taken in the last block */
};

void stack_memo_init(struct stack_memo *m);
void stack_memo_release(struct stack_memo *m);

/*
 * The entry for key (n words): the existing one, or a new one with
 * frames, unknown and memo zero (*created set to 1); NULL when the table
 * is full or the key longer than a block.  Entries never move: the
 * pointer stays valid until stack_memo_release().
 */
struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created);

/*
 * stack_memo_get() with the key's hash given: any function of the key
 * words, the same for equal keys (the caller hashes what it can know
 * before the key is built, to prefetch).
 */
struct stack_memo_entry *stack_memo_get_hashed(struct stack_memo *m, const uint64_t *key, size_t n,
					       uint32_t hash, int *created);
/* Fetch the index slot of hash; later, stack_memo_prefetch_entry() the entry it names. */
static inline void stack_memo_prefetch_slot(const struct stack_memo *m, uint32_t hash)
{
	hashmap_prefetch(&m->index, hash);
}
void stack_memo_prefetch_entry(const struct stack_memo *m, uint32_t hash);

#endif
