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

struct stack_memo {
	size_t nr;		/* entries */
	struct hashmap index;	/* hash of the key words -> offset of the entry in words */
	uint64_t *words;	/* entries, each followed by its key */
	size_t nr_words, alloc_words;
};

void stack_memo_init(struct stack_memo *m);
void stack_memo_release(struct stack_memo *m);

/*
 * The entry for key (n words): the existing one, or a new one with
 * frames, unknown and memo zero (*created set to 1); NULL when the table
 * is full.  The pointer stays valid until the next call.
 */
struct stack_memo_entry *stack_memo_get(struct stack_memo *m, const uint64_t *key, size_t n,
					int *created);

#endif
