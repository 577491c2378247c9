/*
 * hotdiff.h - the DIFF step of trail flame: folded profiles and flame graphs
 * of both ends, the hotter functions, and what the narrowing measures;
 * its result is ans.target (results.h).
 */
#ifndef TRAIL_FLAME_HOTDIFF_H
#define TRAIL_FLAME_HOTDIFF_H

#include "flame/investigation.h"

/* Folded profiles and flame graphs into the report directory. */
int flame_step_write_profiles(struct flame_session *s);
/* Rank the functions whose share rose (off-CPU: blocked longer). */
void flame_step_rank_hotspots(struct flame_session *s);
/*
 * Choose what to bisect on (the hot function's share, or the
 * metric) and the threshold; 0, or 1 when there is nothing to bisect on
 * (the verdict and message are then set).
 */
int flame_step_target(struct flame_session *s);

#endif
