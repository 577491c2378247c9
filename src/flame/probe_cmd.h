/*
 * probe_cmd.h - the one place that writes the 'trail flame probe' command
 * line of a session: git bisect run executes it, and the report's
 * "reproduce" lines print it (shell-quoted by core/shell_quote.h), so what
 * a reader reruns is what the bisection ran - same threshold, statistic,
 * discard, confidence, excluded functions and timeouts.
 */
#ifndef TRAIL_FLAME_PROBE_CMD_H
#define TRAIL_FLAME_PROBE_CMD_H

#include "core/strbuf.h"
#include "core/string_list.h"
#include "flame/session.h"

/*
 * Append the probe's argv to out: exe (argv[0]), "flame", "probe", the
 * options from the request and answer, and "--log LOG" unless log is NULL.
 * The probe runs in the private clone, on BISECT_HEAD.
 */
void flame_probe_argv(const struct flame_session *s, const char *exe, const char *log,
		      struct string_list *out);

/*
 * The bisection as shell commands: "git -C CLONE bisect start --term-old
 * fast --term-new slow --no-checkout BAD GOOD && git -C CLONE bisect run
 * PROBE...", every word quoted for sh; exe as in flame_probe_argv.
 */
void flame_bisect_commands(const struct flame_session *s, const char *exe, struct strbuf *sb);

#endif
