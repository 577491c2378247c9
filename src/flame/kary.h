/*
 * kary.h - k-ary bisection, the decisions only (pure: no git, no clock):
 * with K probe slots each round probes K commits spread evenly over the
 * commits still in question, and keeps those after the last fast one up
 * to the first slow one, so a range of N commits takes about
 * log_{K+1}(N + 1) rounds instead of log2(N + 1) sequential probes.
 * Positions are indices of an ordered candidate list: -1 is the good end
 * (fast), n the bad end (slow); the culprit is the first slow position.
 */
#ifndef TRAIL_FLAME_KARY_H
#define TRAIL_FLAME_KARY_H

#include <stddef.h>

#include "flame/probe.h"
#include "core/verdict.h"

struct flame_kary {
	int n;			/* candidates 0..n-1; n is the bad end */
	int lo, hi;		/* the culprit lies in (lo, hi]: lo fast (-1 = good), hi slow */
	unsigned char *skipped;	/* n flags: probed and undecided (never probed again) */
	unsigned rounds;	/* rounds decided so far */
};

void flame_kary_init(struct flame_kary *k, int n);
void flame_kary_release(struct flame_kary *k);

/*
 * The next round: up to slots positions in (lo, hi) that were not
 * skipped, evenly spread by rank, ascending, into pts; returns how many
 * (0: nothing left to probe, see flame_kary_done).
 */
size_t flame_kary_next(const struct flame_kary *k, unsigned slots, int *pts);

/*
 * Apply a round's verdicts (pts[i] measured v[i]): hi becomes the first
 * slow position, lo the last fast one below it (a fast one above a slow
 * one is noise the later rounds do not look at), a skip is remembered.
 */
void flame_kary_update(struct flame_kary *k, const int *pts, const enum trail_probe_verdict *v,
		       size_t m);

/*
 * Nothing left to probe: 1 and *culprit = hi when no skipped commit lies
 * in (lo, hi) (hi == n: the bad end itself, i.e. no candidate is slow);
 * 0 when skipped ones do (then each of them or hi could be it, as git
 * bisect's "could be any of"); -1 while there is more to probe.
 */
int flame_kary_done(const struct flame_kary *k, int *culprit);

/* Rounds a range of n candidates takes at most with slots probes a round. */
unsigned flame_kary_rounds(int n, unsigned slots);

#endif
