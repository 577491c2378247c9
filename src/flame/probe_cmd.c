/*
 * probe_cmd.c - the probe's command line from a session (see probe_cmd.h).
 * Numbers are written in the shortest %g form that parses back to the very
 * double the session decided with (0.95, not 0.94999999999999996: the line
 * is also the report's reproduce line, read by people).
 */
#include "flame/probe_cmd.h"
#include "core/alloc.h"
#include "core/shell_quote.h"

#include <stdio.h>
#include <stdlib.h>

static void add_opt(struct string_list *out, const char *name, const char *value)
{
	string_list_append(out, name);
	string_list_append(out, value);
}

static void add_num(struct string_list *out, const char *name, double v)
{
	char buf[64];
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	add_opt(out, name, buf);
}

void flame_probe_argv(const struct flame_session *s, const char *exe, const char *log,
		      struct string_list *out)
{
	size_t i;

	string_list_append(out, exe);
	string_list_append(out, "flame");
	string_list_append(out, "probe");
	add_opt(out, "--rev", "BISECT_HEAD");
	if (log)
		add_opt(out, "--log", log);
	add_opt(out, "--build", s->req.build_cmd);
	add_opt(out, "--run", s->req.run_cmd);
	add_num(out, "--threshold", s->ans.threshold);
	add_num(out, "--runs", s->req.probe_runs);
	add_num(out, "--max-runs", s->req.probe_max_runs);
	add_num(out, "-F", s->req.freq);
	if (s->req.alloc_interval)
		add_num(out, "--alloc-interval", (double)s->req.alloc_interval);
	add_num(out, "--discard", 100 * s->req.discard);
	add_num(out, "--confidence", s->req.confidence);
	add_opt(out, "--metric", flame_metric_name(s->req.metric));
	add_num(out, "--percentile", s->req.percentile);
	add_opt(out, "--measure", s->ans.measure_total ?
		(s->ans.measure_share ? "total-share" : "total-samples") :
		(s->ans.measure_share ? "share" : "samples"));
	add_opt(out, "--profiler", s->req.profiler);
	add_num(out, "--timeout", s->req.run_timeout);
	add_num(out, "--build-timeout", s->req.build_timeout);
	if (s->ans.function)
		add_opt(out, "--function", s->ans.function);
	for (i = 0; i < s->st.exclude.nr; i++)
		add_opt(out, "--exclude", s->st.exclude.items[i]);
}

void flame_bisect_commands(const struct flame_session *s, const char *exe, struct strbuf *sb)
{
	const char *clone = s->st.repo.clone ? s->st.repo.clone : ".";
	const char *start[] = { "git", "-C", clone, "bisect", "start", "--term-old", "fast",
				"--term-new", "slow", "--no-checkout", s->ans.bad, s->ans.good, NULL };
	const char *run[] = { "git", "-C", clone, "bisect", "run", NULL };
	struct string_list probe = STRING_LIST_INIT;

	flame_probe_argv(s, exe, NULL, &probe);
	strbuf_add_shell_argv(sb, start);
	strbuf_addstr(sb, " && ");
	strbuf_add_shell_argv(sb, run);
	strbuf_addch(sb, ' ');
	strbuf_add_shell_argv(sb, (const char *const *)probe.items);
	string_list_clear(&probe);
}
