/*
 * radix_sort.h - a stable sort of (64-bit key, 64-bit value) pairs by key:
 * LSD radix sort, eight bits a pass, skipping the bytes every key shares
 * (addresses in one file or in the kernel differ in their low bytes only).
 * Linear time where qsort's comparisons dominated symbol table loading.
 */
#ifndef TRAIL_CORE_RADIX_SORT_H
#define TRAIL_CORE_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>

struct radix_pair {
	uint64_t key;
	uint64_t val;
};

/* Sort v[0..n) by key; pairs with equal keys keep their order. */
void radix_sort_pairs(struct radix_pair *v, size_t n);

#endif
