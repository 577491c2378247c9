/*
 * culprits.h - the CULPRITS step of trail flame: every commit of the range
 * that explains a real part of the change; its result is ans.culprits
 * (results.h).
 */
#ifndef TRAIL_FLAME_CULPRITS_H
#define TRAIL_FLAME_CULPRITS_H

#include "flame/investigation.h"

/*
 * Every culprit: segment the measure on both sides of the
 * confirmed suspect and each other function whose time rose along the
 * range (segment.h); fills ans.culprits.list (the suspect first) and
 * ans.culprits.split.  0, -1 on error.
 */
int flame_step_culprits(struct flame_session *s);
/* Append the culprits besides the suspect to ans.message. */
void flame_culprits_message(struct flame_session *s);
void flame_culprits_release(struct flame_culprits_result *r);

#endif
