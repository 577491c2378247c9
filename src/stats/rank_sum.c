/*
 * rank_sum.c - the exact tails of the rank-sum statistic (rank_sum.h):
 * count[k][s], the number of k-subsets of the scores seen so far summing to
 * s, one score at a time (a 0/1 knapsack count), then the tails of
 * count[m][.] over their total C(n, m).  Counts are doubles: C(300, 10) is
 * 1.4e18, and only their ratios are used.
 */
#include "stats/rank_sum.h"
#include "core/alloc.h"

#include <stdlib.h>

/* The largest sum m doubled ranks can reach: the top m ranks, each <= n. */
static size_t max_sum(size_t n, size_t m)
{
	return m * (2 * n - m + 1);
}

double stats_rank_sum_work(size_t n, size_t m)
{
	return (double)n * (double)m * (double)(max_sum(n, m) + 1);
}

int stats_rank_sum_tails(const uint32_t *score2, size_t n, size_t m, uint64_t observed2,
			 double *p_ge, double *p_le)
{
	size_t width, i, k, s, top = 0;
	double *count, total = 0, ge = 0, le = 0;

	if (!m || m > n || stats_rank_sum_work(n, m) > STATS_RANK_SUM_MAX_WORK)
		return 1;
	width = max_sum(n, m) + 1;
	count = xcalloc((m + 1) * width, sizeof(*count));
	count[0] = 1;
	for (i = 0; i < n; i++) {
		size_t sc = score2[i];

		top += sc;	/* no k-subset of the first i+1 scores sums past top */
		/* k descending: each score joins a subset at most once */
		for (k = (i + 1 < m ? i + 1 : m); k >= 1; k--) {
			double *to = count + k * width;
			const double *from = count + (k - 1) * width;
			size_t hi = top < width ? top : width - 1;

			for (s = hi; s >= sc; s--) {
				to[s] += from[s - sc];
				if (s == sc)
					break;
			}
		}
	}
	for (s = 0; s < width; s++) {
		double c = count[m * width + s];

		total += c;
		if (s >= observed2)
			ge += c;
		if (s <= observed2)
			le += c;
	}
	free(count);
	*p_ge = ge / total;
	*p_le = le / total;
	return 0;
}
