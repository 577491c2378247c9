/*
 * rank_sum.h - the exact null distribution of the Wilcoxon rank-sum
 * statistic (Mann-Whitney U), ties included: under "no difference" every
 * choice of which m of the n pooled values belong to the first sample is
 * equally likely, so the tails of its sum of (mid)ranks are counts of
 * subsets, found by dynamic programming (Mann & Whitney 1947's recursion,
 * done on the actual scores so that tied midranks are counted exactly).
 */
#ifndef TRAIL_STATS_RANK_SUM_H
#define TRAIL_STATS_RANK_SUM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Work (subset-sum steps) above which stats_rank_sum_tails declines and the
 * caller keeps the normal approximation: about 10 ms.  Exact covers, e.g.,
 * 5 runs against any sample up to 300, 20 against 60, 35 against 35.
 */
#define STATS_RANK_SUM_MAX_WORK 10000000.0

/* The work stats_rank_sum_tails needs to take m of n scores. */
double stats_rank_sum_work(size_t n, size_t m);

/*
 * score2[0..n-1]: each pooled value's rank times 2 (twice a midrank is an
 * integer), in any order.  Of every subset of m of them, the share whose sum
 * is >= observed2 (*p_ge) and <= observed2 (*p_le): the one-sided p-values of
 * a subset summing to observed2.  Returns 1, touching nothing, when the work
 * exceeds STATS_RANK_SUM_MAX_WORK (or m is 0 or more than n), else 0.
 */
int stats_rank_sum_tails(const uint32_t *score2, size_t n, size_t m, uint64_t observed2,
			 double *p_ge, double *p_le);

#endif
