/*
 * kary.c - the k-ary bisection's decisions (kary.h).  Generalises binary
 * search to K simultaneous probes per round (the parallel search of Kruskal
 * and of Chromium's Pinpoint, which probes several commits of a range at
 * once): K evenly spread points cut (lo, hi] into K + 1 parts.
 */
#include "flame/kary.h"
#include "core/verdict.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

void flame_kary_init(struct flame_kary *k, int n)
{
	memset(k, 0, sizeof(*k));
	k->n = n;
	k->lo = -1;
	k->hi = n;
	k->skipped = xcalloc(n > 0 ? (size_t)n : 1, 1);
}

void flame_kary_release(struct flame_kary *k)
{
	free(k->skipped);
	memset(k, 0, sizeof(*k));
}

size_t flame_kary_next(const struct flame_kary *k, unsigned slots, int *pts)
{
	size_t open = 0, m, j, rank = 0, got = 0;
	int i;

	for (i = k->lo + 1; i < k->hi; i++)
		open += !k->skipped[i];
	m = slots < open ? slots : open;
	if (!m)
		return 0;
	/*
	 * The j-th point (1..m) is the open candidate of rank
	 * floor(j * (open + 1) / (m + 1)) - 1: m points cut the open ones
	 * into m + 1 parts as equal as whole commits allow.  Ranks are
	 * strictly increasing because open >= m.
	 */
	for (i = k->lo + 1, j = 1; i < k->hi && j <= m; i++) {
		size_t want;

		if (k->skipped[i])
			continue;
		rank++;
		want = j * (open + 1) / (m + 1);
		if (rank == want) {
			pts[got++] = i;
			j++;
		}
	}
	return got;
}

void flame_kary_update(struct flame_kary *k, const int *pts, const enum trail_probe_verdict *v,
		       size_t m)
{
	size_t i;

	for (i = 0; i < m; i++)
		if (v[i] == PROBE_SLOW && pts[i] < k->hi && pts[i] > k->lo)
			k->hi = pts[i];
	for (i = 0; i < m; i++) {
		if (pts[i] < 0 || pts[i] >= k->n)
			continue;
		if (v[i] == PROBE_SKIP)
			k->skipped[pts[i]] = 1;
		else if (v[i] == PROBE_FAST && pts[i] > k->lo && pts[i] < k->hi)
			k->lo = pts[i];
	}
	k->rounds++;
}

int flame_kary_done(const struct flame_kary *k, int *culprit)
{
	int i, skips = 0;

	for (i = k->lo + 1; i < k->hi; i++) {
		if (!k->skipped[i])
			return -1;
		skips++;
	}
	*culprit = k->hi;
	return skips ? 0 : 1;
}

unsigned flame_kary_rounds(int n, unsigned slots)
{
	unsigned r = 0;
	size_t left = n > 0 ? (size_t)n : 0, k = slots ? slots : 1;

	/* a round probes min(k, left) and leaves the largest of k + 1 parts */
	while (left > 0) {
		left = left > k ? (left - k + k) / (k + 1) : 0;
		r++;
	}
	return r;
}
