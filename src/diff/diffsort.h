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
 * frees (its scratch space: 24 bytes per line).  Fastest when a first
 * long run of the lines is already in order (BEFORE written by 'trail
 * collapse', then the stacks only AFTER has).
 */
uint32_t *diffsort_order(const struct diffline *lines, size_t n);

#endif
