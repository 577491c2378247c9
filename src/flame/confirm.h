/*
 * confirm.h - the CONFIRM step of trail flame: the metric's statistics at
 * both ends and whether the bad end is significantly worse; writes
 * ans.ends' statistics.
 */
#ifndef TRAIL_FLAME_CONFIRM_H
#define TRAIL_FLAME_CONFIRM_H

#include "flame/investigation.h"

/* Fill the metric's statistics; 1 when the bad end is significantly worse. */
int flame_step_confirm(struct flame_session *s);
/* CPU unchanged but wall time rose: 1 and the message says so. */
int flame_step_wall_regressed(struct flame_session *s);

#endif
