/*
 * radix_sort.c - the LSD radix sort of radix_sort.h (Knuth, TAOCP vol. 3,
 * 5.2.5): one counting pass for all eight bytes, then one stable
 * distribution pass per byte in which the keys differ.
 */
#include "core/radix_sort.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

void radix_sort_pairs(struct radix_pair *v, size_t n)
{
	size_t (*count)[256], i;
	struct radix_pair *tmp, *src = v, *dst;
	int b;

	if (n < 2)
		return;
	count = xcalloc(8, sizeof(*count));
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			count[b][(v[i].key >> (8 * b)) & 0xff]++;
	tmp = xmallocarray(n, sizeof(*tmp));
	dst = tmp;
	for (b = 0; b < 8; b++) {
		size_t pos = 0, c;

		if (count[b][(v[0].key >> (8 * b)) & 0xff] == n)
			continue;	/* every key has this byte: nothing to do */
		for (c = 0; c < 256; c++) {
			size_t k = count[b][c];

			count[b][c] = pos;
			pos += k;
		}
		for (i = 0; i < n; i++)
			dst[count[b][(src[i].key >> (8 * b)) & 0xff]++] = src[i];
		dst = src;
		src = src == v ? tmp : v;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
}
