/*
 * time_order.c - the natural merge sort of time_order.h: find the runs
 * already in (time, seq) order, then merge neighbouring runs pairwise until
 * one is left.  Already sorted input costs one comparison per record.
 */
#include "perf/time_order.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

static inline int before(const struct pending *a, const struct pending *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Merge the sorted a[0..na) and b[0..nb) into out. */
static void merge(const struct pending *a, size_t na, const struct pending *b, size_t nb,
		  struct pending *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = before(&b[j], &a[i]) ? b[j++] : a[i++];
	memcpy(out + k, a + i, (na - i) * sizeof(*a));
	k += na - i;
	memcpy(out + k, b + j, (nb - j) * sizeof(*b));
}

void time_order_sort(struct pending *q, size_t n, struct pending **tmp, size_t *tmp_alloc)
{
	size_t *ends = NULL, nr_ends = 0, ends_alloc = 0, i;
	struct pending *src = q, *dst;

	/* ends[r] is one past the last record of run r */
	for (i = 1; i <= n; i++)
		if (i == n || before(&q[i], &q[i - 1])) {
			ALLOC_GROW(ends, nr_ends + 1, ends_alloc);
			ends[nr_ends++] = i;
		}
	if (nr_ends <= 1) {
		free(ends);
		return;
	}
	ALLOC_GROW(*tmp, n, *tmp_alloc);
	dst = *tmp;
	while (nr_ends > 1) {
		size_t r, w = 0, start = 0;

		for (r = 0; r < nr_ends; r += 2) {
			size_t mid = ends[r], end = r + 1 < nr_ends ? ends[r + 1] : mid;

			merge(src + start, mid - start, src + mid, end - mid, dst + start);
			ends[w++] = end;
			start = end;
		}
		nr_ends = w;
		src = dst;
		dst = src == q ? *tmp : q;
	}
	if (src != q)
		memcpy(q, src, n * sizeof(*q));
	free(ends);
}
