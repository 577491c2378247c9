/*
 * suspects.h - what git says about the hot function: the commits that
 * touched it (ans.suspects), the function a flat profile's culprit
 * changed, a merge culprit's commits and the advice (ans.fix).
 */
#ifndef TRAIL_FLAME_SUSPECTS_H
#define TRAIL_FLAME_SUSPECTS_H

#include "flame/investigation.h"

/* The commits of the range that touched func or its callees. */
void flame_step_find_suspects(struct flame_session *s, const char *func);
/* The function the culprit commit changed (flat profiles). */
void flame_step_changed_function(struct flame_session *s);
/*
 * A culprit that is a merge: list the commits it brought in
 * that touched the named function (the change itself may not build alone).
 */
void flame_step_merge(struct flame_session *s);
/* Revert or patch the culprit. */
void flame_step_recommend(struct flame_session *s);

#endif
