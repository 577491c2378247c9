/*
 * probe_cmd.h - the bisection of a session as the report's "reproduce"
 * lines print it: git bisect start and git bisect run with the session's
 * probe request (session_query.h) written by probe_request.h, so what a reader
 * reruns is what the bisection ran - same threshold, statistic, discard,
 * confidence, excluded functions and timeouts.
 */
#ifndef TRAIL_FLAME_PROBE_CMD_H
#define TRAIL_FLAME_PROBE_CMD_H

#include "core/strbuf.h"
#include "flame/investigation.h"

/*
 * The bisection as shell commands: "git -C CLONE bisect start --term-old
 * fast --term-new slow --no-checkout BAD GOOD && git -C CLONE bisect run
 * PROBE...", every word quoted for sh; exe is the probe's argv[0].
 */
void flame_bisect_commands(const struct flame_session *s, const char *exe, struct strbuf *sb);

#endif
