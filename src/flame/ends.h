/*
 * ends.h - the CAPTURE step of trail flame: build both ends and run the
 * workload at each until the change between them is decided; its result
 * is ans.ends (results.h).
 */
#ifndef TRAIL_FLAME_ENDS_H
#define TRAIL_FLAME_ENDS_H

#include "flame/investigation.h"

/* Build both ends (dirs[0] good, dirs[1] bad; caller frees); 0 or -1. */
int flame_step_build(struct flame_session *s, char *dirs[2]);
/* Run the workload at both ends until decided or at --max-repeat. */
int flame_step_capture(struct flame_session *s, char *dirs[2]);
/* One ABBA pair of runs into s->st.runs (pr: progress, or NULL); 0 or -1. */
struct flame_capture_opts;
struct progress;
int flame_ends_run_pair(struct flame_session *s, const struct flame_capture_opts *o, char *dirs[2],
			struct progress *pr);
/*
 * The change between the ends from their first n pairs at alpha
 * (the paired log ratio, or the --percentile's bootstrap); 0 or -1.
 */
int flame_ends_interval(const struct flame_session *s, size_t n, double alpha,
			struct flame_interval *iv);
#define FLAME_BOOTSTRAP_RESAMPLES 2000
#define FLAME_BOOTSTRAP_SEED 0x666c616d65ULL

#endif
