/*
 * diffsort.h - the order of 'trail diff's three-column output: the lines
 * "stack before after" as LC_ALL=C sort sorts them (byte order), computed
 * on the stacks of struct diffline without formatting every line.
 */
#ifndef TRAIL_DIFF_DIFFSORT_H
#define TRAIL_DIFF_DIFFSORT_H

#include <stddef.h>
#include <stdint.h>

#include "diff/diffline.h"

/*
 * The indexes of lines[0..n) in output order, in a buffer the caller
 * frees (its scratch space: 24 bytes per line).  lines[0..sorted) are
 * known to be in order already (0 or 1: nothing is known); a long run in
 * order at the start (BEFORE written by 'trail collapse', then the stacks
 * only AFTER has) is not sorted again.
 */
uint32_t *diffsort_order(const struct diffline *lines, size_t n, size_t sorted);

/*
 * The order of two lines decided by their stacks alone: < 0 or > 0, or 0
 * when it depends on their counts (the stacks are equal, or one is the
 * other followed by a ' ').  For checking order while the stacks are
 * still in the cache.
 */
int diffsort_stack_order(const char *a, size_t alen, const char *b, size_t blen);

#endif
