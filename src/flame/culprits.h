/*
 * culprits.h - the CULPRITS step of trail flame: every commit of the range
 * that explains a real part of the change; its result is ans.culprits
 * (results.h).
 */
#ifndef TRAIL_FLAME_CULPRITS_H
#define TRAIL_FLAME_CULPRITS_H

#include "flame/investigation.h"
#include "measure/probe_request.h"

/*
 * Every culprit: segment the measure on both sides of the
 * confirmed suspect and each other function whose time rose along the
 * range (segment.h); fills ans.culprits.list (the suspect first) and
 * ans.culprits.split.  0, -1 on error.
 */
int flame_step_culprits(struct flame_session *s);
/*
 * Another function whose time moved is segmented in the quantity the
 * target is bisected on, time that adds up: with the library and kernel
 * code under it (lib-) when the target is measured so or when func is a
 * library frame whose time is counted to its repository caller; its CPU
 * time per run when the target's is one.  A share (among the samples
 * outside the other changed functions) only when the target is a share
 * too.
 */
enum flame_measure flame_culprits_other_measure(const struct flame_target_result *t,
						int library_frame);
struct flame_level;
/*
 * The ends' level of func (the repository function named; a library
 * frame's caller) in measure m, each end's runs cut at its own commit's
 * definitions for a lib- measure, into ends[0..1]; *unit_ms 1 for a time (steps in ms),
 * else 0.  0, or -1 when the definitions could not be looked up.
 */
int flame_culprits_other_level(struct flame_session *s, const char *func,
			       const struct string_list *exclude, enum flame_measure m,
			       struct flame_level *ends, double *unit_ms);
/* Append the culprits besides the suspect to ans.message. */
void flame_culprits_message(struct flame_session *s);
void flame_culprits_release(struct flame_culprits_result *r);

#endif
