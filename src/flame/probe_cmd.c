/*
 * probe_cmd.c - the session's bisection as the shell commands the report
 * prints (see probe_cmd.h); the probe's words are the session's probe
 * request written by probe_request.c.
 */
#include "flame/probe_cmd.h"
#include "flame/session_query.h"
#include "core/shell_quote.h"

void flame_bisect_commands(const struct flame_session *s, const char *exe, struct strbuf *sb)
{
	const char *clone = s->st.repo.clone ? s->st.repo.clone : ".";
	const char *start[] = { "git", "-C", clone, "bisect", "start", "--term-old", "fast",
				"--term-new", "slow", "--no-checkout", s->ans.ends.bad, s->ans.ends.good, NULL };
	const char *run[] = { "git", "-C", clone, "bisect", "run", NULL };
	struct flame_probe_request r = flame_session_probe_request(s);
	struct string_list probe = STRING_LIST_INIT;

	flame_probe_request_argv(&r, exe, &probe);
	strbuf_add_shell_argv(sb, start);
	strbuf_addstr(sb, " && ");
	strbuf_add_shell_argv(sb, run);
	strbuf_addch(sb, ' ');
	strbuf_add_shell_argv(sb, (const char *const *)probe.items);
	string_list_clear(&probe);
}
