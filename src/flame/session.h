/*
 * session.h - one 'trail flame' investigation, from good/bad revisions to
 * a suspect commit: SCOPE (metric), CAPTURE (build + profile both ends),
 * CONFIRM and DIFF (significance, hotspots, flame graphs), NARROW
 * (suspects, then bisect or direct probing) and REPORT.  The command file
 * fills the request (investigation.h), calls flame_session_run() and
 * prints from the answer (results.h); the steps live in ends.c,
 * confirm.c, hotdiff.c, suspects.c, narrow.c and culprits.c, each with
 * its header, and their decisions in decide.c.
 */
#ifndef TRAIL_FLAME_SESSION_H
#define TRAIL_FLAME_SESSION_H

#include "core/exit_codes.h"
#include "core/verdict.h"
#include "flame/investigation.h"

/* Exit statuses of 'trail flame': the program's table (core/exit_codes.h). */
enum flame_exit {
	FLAME_EXIT_FOUND = EXIT_OK,
	FLAME_EXIT_FAILURE = EXIT_FAILURE_,
	FLAME_EXIT_USAGE = EXIT_USAGE,
	FLAME_EXIT_NO_REGRESSION = EXIT_NO_REGRESSION,
	FLAME_EXIT_INCONCLUSIVE = EXIT_INCONCLUSIVE,
	FLAME_EXIT_SMALL_REGRESSION = EXIT_SMALL_REGRESSION,
};

void flame_session_init(struct flame_session *s);
/* Set the session's verdict, ans.outcome. */
void flame_session_set_outcome(struct flame_session *s, enum trail_verdict o);
/* The exit status of a verdict (core/exit_codes.h). */
int flame_outcome_exit(enum trail_verdict o);
/* Run the investigation; returns an enum flame_exit value. */
int flame_session_run(struct flame_session *s);
void flame_session_release(struct flame_session *s);

#endif
