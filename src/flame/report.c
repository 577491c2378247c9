/*
 * report.c - trail flame's report: report.json (the machine-readable
 * answer, schema in docs/flame.md), report.md and a self-contained
 * report.html with the differential flame graph embedded inline.
 */
#include "flame/session.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void json_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addch(sb, '"');
	strbuf_add_json_escaped(sb, s, strlen(s));
	strbuf_addch(sb, '"');
}

static void json_num(struct strbuf *sb, double v)
{
	if (v != v || v > 1e300 || v < -1e300)
		strbuf_addstr(sb, "null");
	else
		strbuf_addf(sb, "%.6g", v);
}

static const char *probe_commit_subject(struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->nsuspects; i++)
		if (!strcmp(s->suspects[i].commit.id, id))
			return s->suspects[i].commit.subject;
	return NULL;
}

static void reproduce_cmd(struct flame_session *s, struct strbuf *sb)
{
	strbuf_addstr(sb, s->command_line ? s->command_line : "trail flame");
}

static void probe_cmd(struct flame_session *s, struct strbuf *sb)
{
	strbuf_addf(sb, "trail flame probe --build '%s' --run '%s' --metric %s -F %u --threshold %.6g",
		    s->build_cmd, s->run_cmd, flame_metric_name(s->metric), s->freq, s->threshold);
	if (s->function)
		strbuf_addf(sb, " --function '%s'", s->function);
}

static void write_json(struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	strbuf_addstr(sb, "{\n  \"verdict\": ");
	json_str(sb, s->verdict);
	strbuf_addstr(sb, ",\n  \"message\": ");
	json_str(sb, s->message);
	strbuf_addstr(sb, ",\n  \"good\": ");
	json_str(sb, s->good);
	strbuf_addstr(sb, ",\n  \"bad\": ");
	json_str(sb, s->bad);
	strbuf_addf(sb, ",\n  \"commits_in_range\": %zu", s->range.nr);
	strbuf_addstr(sb, ",\n  \"profiler\": ");
	json_str(sb, s->profiler);
	strbuf_addstr(sb, ",\n  \"metric\": {\"name\": ");
	json_str(sb, flame_metric_name(s->metric));
	strbuf_addstr(sb, ", \"unit\": ");
	json_str(sb, flame_metric_unit(s->metric));
	strbuf_addstr(sb, ", \"statistic\": ");
	json_str(sb, s->metric == FLAME_METRIC_WALL && s->percentile != 50 ? "percentile" : "median");
	strbuf_addstr(sb, ", \"good\": {\"value\": ");
	json_num(sb, s->metric_med[0]);
	strbuf_addstr(sb, ", \"ci\": [");
	json_num(sb, s->metric_lo[0]);
	strbuf_addstr(sb, ", ");
	json_num(sb, s->metric_hi[0]);
	strbuf_addf(sb, "], \"runs\": %zu}, \"bad\": {\"value\": ", s->nruns[0]);
	json_num(sb, s->metric_med[1]);
	strbuf_addstr(sb, ", \"ci\": [");
	json_num(sb, s->metric_lo[1]);
	strbuf_addstr(sb, ", ");
	json_num(sb, s->metric_hi[1]);
	strbuf_addf(sb, "], \"runs\": %zu}, \"test\": \"mann-whitney\", \"p_value\": ", s->nruns[1]);
	json_num(sb, s->metric_p);
	strbuf_addstr(sb, "},\n  \"hotspots\": [");
	for (i = 0; i < s->hot.nr && i < 5; i++) {
		const struct flame_hotspot *h = &s->hot.items[i];

		strbuf_addstr(sb, i ? ",\n    " : "\n    ");
		strbuf_addstr(sb, "{\"function\": ");
		json_str(sb, h->name);
		strbuf_addstr(sb, ", \"good_share\": ");
		json_num(sb, h->good_self.mean);
		strbuf_addstr(sb, ", \"bad_share\": ");
		json_num(sb, h->bad_self.mean);
		strbuf_addstr(sb, ", \"delta\": ");
		json_num(sb, h->delta_self);
		strbuf_addstr(sb, ", \"stderr\": ");
		json_num(sb, h->se_self);
		strbuf_addstr(sb, ", \"good_total_share\": ");
		json_num(sb, h->good_total.mean);
		strbuf_addstr(sb, ", \"bad_total_share\": ");
		json_num(sb, h->bad_total.mean);
		strbuf_addstr(sb, ", \"total_delta\": ");
		json_num(sb, h->delta_total);
		strbuf_addstr(sb, ", \"total_stderr\": ");
		json_num(sb, h->se_total);
		strbuf_addf(sb, ", \"confirmed\": %s}", h->confirmed ? "true" : "false");
	}
	strbuf_addstr(sb, "\n  ],\n  \"target\": {\"function\": ");
	json_str(sb, s->function);
	strbuf_addstr(sb, ", \"measure\": ");
	json_str(sb, !s->function ? flame_metric_name(s->metric) :
		     s->measure_share ? "self_share" : "self_samples_per_run");
	strbuf_addstr(sb, ", \"defined_in\": ");
	json_str(sb, s->def_file);
	strbuf_addf(sb, ", \"line\": %u, \"good\": ", s->def_line);
	json_num(sb, s->share[0]);
	strbuf_addstr(sb, ", \"bad\": ");
	json_num(sb, s->share[1]);
	strbuf_addstr(sb, ", \"threshold\": ");
	json_num(sb, s->threshold);
	strbuf_addstr(sb, "},\n  \"suspect\": ");
	if (s->culprit_info.subject) {
		strbuf_addstr(sb, "{\"commit\": ");
		json_str(sb, s->culprit_info.id);
		strbuf_addstr(sb, ", \"subject\": ");
		json_str(sb, s->culprit_info.subject);
		strbuf_addstr(sb, ", \"author\": ");
		json_str(sb, s->culprit_info.author);
		strbuf_addstr(sb, ", \"date\": ");
		json_str(sb, s->culprit_info.date);
		strbuf_addstr(sb, ", \"function\": ");
		json_str(sb, s->function ? s->function : s->changed_function);
		strbuf_addstr(sb, ", \"function_source\": ");
		json_str(sb, s->function ? "profile" : s->changed_function ? "changed by the suspect commit" : NULL);
		strbuf_addstr(sb, ", \"confidence\": ");
		json_num(sb, s->suspect_confidence);
		strbuf_addstr(sb, ", \"confidence_method\": ");
		json_str(sb, s->confidence_how);
		strbuf_addstr(sb, ", \"ambiguous_with\": [");
		for (i = 0; i < s->ambiguous.nr; i++) {
			if (!strcmp(s->ambiguous.items[i], s->culprit))
				continue;
			if (sb->buf[sb->len - 1] != '[')
				strbuf_addstr(sb, ", ");
			json_str(sb, s->ambiguous.items[i]);
		}
		strbuf_addstr(sb, "]}");
	} else {
		strbuf_addstr(sb, "null");
	}
	strbuf_addstr(sb, ",\n  \"suspects\": [");
	for (i = 0; i < s->nsuspects; i++) {
		strbuf_addstr(sb, i ? ",\n    " : "\n    ");
		strbuf_addstr(sb, "{\"commit\": ");
		json_str(sb, s->suspects[i].commit.id);
		strbuf_addstr(sb, ", \"subject\": ");
		json_str(sb, s->suspects[i].commit.subject);
		strbuf_addf(sb, ", \"touches_function\": %s}",
			    s->suspects[i].touches_function ? "true" : "false");
	}
	strbuf_addstr(sb, s->nsuspects ? "\n  ],\n  \"strategy\": " : "],\n  \"strategy\": ");
	json_str(sb, s->strategy_used);
	strbuf_addstr(sb, ",\n  \"strategy_reason\": ");
	json_str(sb, s->strategy_used ? s->strategy_reason : NULL);
	strbuf_addstr(sb, ",\n  \"probes\": [");
	for (i = 0; i < s->nprobes; i++) {
		const struct flame_probe_result *p = &s->probes[i];

		strbuf_addstr(sb, i ? ",\n    " : "\n    ");
		strbuf_addstr(sb, "{\"commit\": ");
		json_str(sb, p->id);
		strbuf_addstr(sb, ", \"share\": ");
		json_num(sb, s->function ? p->share : 0);
		strbuf_addstr(sb, ", \"value\": ");
		json_num(sb, p->value);
		strbuf_addstr(sb, ", \"stderr\": ");
		json_num(sb, p->se);
		strbuf_addstr(sb, ", \"verdict\": ");
		json_str(sb, flame_verdict_name(p->verdict));
		strbuf_addf(sb, ", \"runs\": %u, \"cached_build\": %s, \"seconds\": ", p->runs,
			    p->build_cached ? "true" : "false");
		json_num(sb, p->seconds);
		strbuf_addstr(sb, "}");
	}
	strbuf_addstr(sb, s->nprobes ? "\n  ],\n  \"recommendation\": " : "],\n  \"recommendation\": ");
	if (s->recommendation) {
		strbuf_addstr(sb, "{\"action\": ");
		json_str(sb, s->recommendation);
		strbuf_addstr(sb, ", \"reason\": ");
		json_str(sb, s->recommendation_reason);
		strbuf_addstr(sb, "}");
	} else {
		strbuf_addstr(sb, "null");
	}
	strbuf_addstr(sb, ",\n  \"reproduce\": [");
	{
		struct strbuf c = STRBUF_INIT;

		reproduce_cmd(s, &c);
		json_str(sb, c.buf);
		if (s->strategy_used) {
			strbuf_reset(&c);
			strbuf_addf(&c, "git bisect start --term-old fast --term-new slow %s %s && "
				    "git bisect run ", s->bad, s->good);
			probe_cmd(s, &c);
			strbuf_addstr(sb, ", ");
			json_str(sb, c.buf);
		}
		strbuf_release(&c);
	}
	strbuf_addf(sb, "],\n  \"builds\": %d,\n  \"cached_builds\": %d,\n  \"seconds\": ",
		    s->builds, s->cached_builds);
	json_num(sb, s->seconds);
	strbuf_addstr(sb, "\n}\n");
}

static void write_md(struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	strbuf_addf(sb, "# trail flame report\n\n**Verdict: %s** — %s\n\n", s->verdict, s->message);
	strbuf_addf(sb, "- good: `%s`\n- bad: `%s` (%zu commits in between)\n", s->good, s->bad,
		    s->range.nr);
	strbuf_addf(sb, "- metric: %s, median %.4g → %.4g %s (Mann-Whitney p = %.3g, %zu + %zu runs)\n",
		    flame_metric_name(s->metric), s->metric_med[0], s->metric_med[1],
		    flame_metric_unit(s->metric), s->metric_p, s->nruns[0], s->nruns[1]);
	if (s->culprit_info.subject) {
		strbuf_addf(sb, "\n## Suspect\n\n- commit: `%s`\n- subject: %s\n- author: %s, %s\n",
			    s->culprit_info.id, s->culprit_info.subject, s->culprit_info.author,
			    s->culprit_info.date);
		strbuf_addf(sb, "- function: `%s`%s%s\n- confidence: %.2f — %s\n",
			    s->function ? s->function : s->changed_function ? s->changed_function
							 : flame_metric_name(s->metric),
			    s->def_file ? " in " : "", s->def_file ? s->def_file : "",
			    s->suspect_confidence, s->confidence_how);
		if (s->recommendation)
			strbuf_addf(sb, "- recommendation: **%s** — %s\n", s->recommendation,
				    s->recommendation_reason);
	}
	strbuf_addstr(sb, "\n## Hotter functions (self share, good → bad)\n\n"
			  "| function | good | bad | delta | stderr | confirmed |\n"
			  "| --- | ---: | ---: | ---: | ---: | --- |\n");
	for (i = 0; i < s->hot.nr && i < 10; i++) {
		const struct flame_hotspot *h = &s->hot.items[i];

		strbuf_addf(sb, "| `%s` | %.1f%% | %.1f%% | %+.1f pp | %.1f pp | %s |\n", h->name,
			    100 * h->good_self.mean, 100 * h->bad_self.mean, 100 * h->delta_self,
			    100 * h->se_self, h->confirmed ? "yes" : "no");
	}
	if (!s->hot.nr)
		strbuf_addf(sb, "| (none rose by %.1f pp or more) | | | | | |\n", 100 * s->min_delta);
	if (s->nsuspects) {
		strbuf_addstr(sb, "\n## Suspects (commits in the range touching the function or its callees)\n\n");
		for (i = 0; i < s->nsuspects; i++)
			strbuf_addf(sb, "- `%.12s` %s%s\n", s->suspects[i].commit.id,
				    s->suspects[i].commit.subject,
				    s->suspects[i].touches_function ? "" : " (a callee)");
	}
	if (s->nprobes) {
		strbuf_addf(sb, "\n## Probes (%s: %s)\n\nThreshold between fast and slow: %.4g "
			    "(the midpoint of good and bad).\n\n| commit | measured | stderr | share | verdict | runs |\n"
			    "| --- | ---: | ---: | ---: | --- | ---: |\n", s->strategy_used, s->strategy_reason,
			    s->threshold);
		for (i = 0; i < s->nprobes; i++) {
			const struct flame_probe_result *p = &s->probes[i];
			const char *subj = probe_commit_subject(s, p->id);

			strbuf_addf(sb, "| `%.12s`%s%s | %.4g | %.2g | %.1f%% | %s | %u |\n", p->id,
				    subj ? " " : "", subj ? subj : "", p->value, p->se,
				    100 * p->share, flame_verdict_name(p->verdict), p->runs);
		}
	}
	strbuf_addstr(sb, "\n## Files\n\n- `diff.svg` differential flame graph (when `trail flamegraph` is available), `good.svg`, `bad.svg`\n"
			  "- `good.folded`, `bad.folded`, `diff.folded` (stack good bad)\n\n## Reproduce\n\n```sh\n");
	reproduce_cmd(s, sb);
	strbuf_addstr(sb, "\n```\n");
}

static void write_html(struct flame_session *s, const struct strbuf *md, struct strbuf *sb)
{
	struct strbuf svg = STRBUF_INIT;
	char *path = xstrfmt("%s/diff.svg", s->out_dir);
	struct stat st;

	strbuf_addstr(sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
			  "<title>trail flame report</title><style>"
			  "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em}"
			  "pre{background:#f4f4f4;padding:1em;white-space:pre-wrap}"
			  ".verdict{font-size:1.3em;font-weight:bold}</style></head><body>\n");
	strbuf_addstr(sb, "<h1>trail flame report</h1>\n<p class=\"verdict\">");
	strbuf_add_xml_escaped(sb, s->verdict, strlen(s->verdict));
	strbuf_addstr(sb, ": ");
	strbuf_add_xml_escaped(sb, s->message, strlen(s->message));
	strbuf_addstr(sb, "</p>\n");
	if (!stat(path, &st) && !strbuf_read_file(&svg, path)) {
		const char *start = strstr(svg.buf, "<svg");

		strbuf_addstr(sb, "<h2>Differential flame graph (good &rarr; bad; red = hotter)</h2>\n<div>");
		if (start)
			strbuf_addstr(sb, start);
		strbuf_addstr(sb, "</div>\n");
	} else {
		strbuf_addstr(sb, "<p><em>No differential flame graph: 'trail flamegraph' "
				  "was not available; diff.folded holds the data.</em></p>\n");
	}
	strbuf_addstr(sb, "<h2>Details</h2>\n<pre>");
	strbuf_add_xml_escaped(sb, md->buf, md->len);
	strbuf_addstr(sb, "</pre>\n</body></html>\n");
	strbuf_release(&svg);
	free(path);
}

int flame_report_write(struct flame_session *s)
{
	struct strbuf json = STRBUF_INIT, md = STRBUF_INIT, html = STRBUF_INIT;
	char *p = NULL;
	int ret = -1;

	if (make_dirs(s->out_dir))
		return -1;
	write_json(s, &json);
	write_md(s, &md);
	write_html(s, &md, &html);
	p = xstrfmt("%s/report.json", s->out_dir);
	if (strbuf_write_file(&json, p))
		goto out;
	free(p);
	p = xstrfmt("%s/report.md", s->out_dir);
	if (strbuf_write_file(&md, p))
		goto out;
	free(p);
	p = xstrfmt("%s/report.html", s->out_dir);
	if (strbuf_write_file(&html, p))
		goto out;
	ret = 0;
out:
	free(p);
	strbuf_release(&json);
	strbuf_release(&md);
	strbuf_release(&html);
	return ret;
}
