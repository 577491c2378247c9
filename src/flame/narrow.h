/*
 * narrow.h - the NARROW step of trail flame: probe the suspects or bisect
 * the range and confirm the culprit against its parent; its result is
 * ans.narrow (results.h).
 */
#ifndef TRAIL_FLAME_NARROW_H
#define TRAIL_FLAME_NARROW_H

#include "flame/investigation.h"

/*
 * The suspects did not explain the change: forget their culprit
 * and bisect the whole range on the same measure and threshold.
 */
void flame_step_narrow_restart(struct flame_session *s);
/*
 * Was ans.narrow.culprit reverted later in the range?  git revert's own
 * words ("This reverts commit <id>.") or its subject (Revert "<subject>")
 * in a commit of culprit..bad: its level then does not persist to the bad
 * end (landed, reverted, relanded).  revert gets the newest such commit;
 * 1 found, 0 not, -1 error.
 */
int flame_find_revert(struct flame_session *s, char revert[41]);
/*
 * Find the culprit and the confidence of its split; 0, -1 on
 * error, 1 when the probes could not decide (the message gives the
 * narrowest range they established).
 */
int flame_step_narrow(struct flame_session *s);

#endif
