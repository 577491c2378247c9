/*
 * symtree.h - perf's red-black tree of one module's symbols, rebuilt
 * where symbols overlap (symtree.c).  perf's lookup returns the first
 * symbol on its search path that holds the address, so when two symbols
 * hold it (a zero-sized label stretched over its function, a JIT map's
 * reused code) the answer depends on the tree's shape: the order the
 * symbols went in and the duplicates taken out after.
 */
#ifndef TRAIL_SYMBOLS_SYMTREE_H
#define TRAIL_SYMBOLS_SYMTREE_H

#include "symbols/symtab.h"

#include <stddef.h>
#include <stdint.h>

/*
 * How perf built the tree, over a table sorted by start (stable):
 * insert[k] is the table index of the k-th symbol perf inserted; after
 * the first nr_early insertions the symbols erase[0..nr_erase) were
 * taken out in that order, then the rest went in.  reach[i] is the
 * furthest end of the kept symbols before i (a zero-sized one reaching
 * one byte): below it, symbol i alone can hold an address.
 */
struct symtree {
	uint64_t *reach;
	uint32_t *insert;
	uint32_t *erase;
	size_t nr, nr_early, nr_erase;
	struct symtree_node *nodes;	/* the tree, built on the first lookup */
	uint32_t *parent;
	uint8_t *red;
	uint32_t root;
};

/* perf's test: addr in [start, end), or a zero-sized symbol at addr. */
static inline int symbol_holds(const struct symbol *s, uint64_t addr)
{
	return addr >= s->start && (addr < s->end || addr == s->start);
}

/* perf's symbols__find() on the tree over syms (built on first use). */
const struct symbol *symtree_find(struct symtree *t, const struct symbol *syms, uint64_t addr);
void symtree_free(struct symtree *t);

#endif
