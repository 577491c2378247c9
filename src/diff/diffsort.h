/*
 * diffsort.h - the order of 'trail diff's three-column output: the lines
 * "stack before after" as LC_ALL=C sort sorts them (byte order), computed
 * on the stacks of a struct diffmerge without formatting every line.
 */
#ifndef TRAIL_DIFF_DIFFSORT_H
#define TRAIL_DIFF_DIFFSORT_H

#include <stdint.h>

#include "diff/diffmerge.h"

/*
 * The ids of m's keys (m->nr of them) in output order, in a buffer the
 * caller frees (its scratch space: 24 bytes per key).
 */
uint32_t *diffmerge_sort(struct diffmerge *m);

#endif
