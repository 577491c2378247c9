/*
 * report.c - trail flame's report: report.json (the machine-readable
 * answer, schema in docs/flame.md), report.md and a self-contained
 * report.html with the differential flame graph embedded inline.
 */
#include "flame/session.h"
#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/json_writer.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static void metric_side(struct json_writer *w, const char *k, double value, double lo, double hi,
			size_t runs)
{
	json_writer_key(w, k);
	json_writer_begin_object(w);
	json_writer_key_number(w, "value", value);
	json_writer_key(w, "ci");
	json_writer_begin_array(w);
	json_writer_number(w, lo);
	json_writer_number(w, hi);
	json_writer_end(w);
	json_writer_key_uint(w, "runs", runs);
	json_writer_end(w);
}

static void json_metric(struct flame_session *s, struct json_writer *w)
{
	json_writer_key(w, "metric");
	json_writer_begin_object(w);
	json_writer_key_string(w, "name", flame_metric_name(s->metric));
	json_writer_key_string(w, "unit", flame_metric_unit(s->metric));
	json_writer_key_string(w, "statistic", s->metric == FLAME_METRIC_WALL && s->percentile != 50 ?
				"percentile" : "median");
	metric_side(w, "good", s->metric_med[0], s->metric_lo[0], s->metric_hi[0], s->nruns[0]);
	metric_side(w, "bad", s->metric_med[1], s->metric_lo[1], s->metric_hi[1], s->nruns[1]);
	json_writer_key_string(w, "test", "mann-whitney");
	json_writer_key_number(w, "p_value", s->metric_p);
	json_writer_end(w);
}

/* key: [ {item 0}, {item 1}, ... ]; item() writes the members of one. */
static void json_object_array(struct json_writer *w, const char *key, size_t nr,
			      const struct flame_session *s,
			      void (*item)(struct json_writer *, const struct flame_session *, size_t))
{
	size_t i;

	json_writer_key(w, key);
	json_writer_begin_array(w);
	for (i = 0; i < nr; i++) {
		json_writer_begin_object(w);
		item(w, s, i);
		json_writer_end(w);
	}
	json_writer_end(w);
}

static void json_hotspot(struct json_writer *w, const struct flame_session *s, size_t i)
{
	const struct flame_hotspot *h = &s->hot.items[i];

	json_writer_key_string(w, "function", h->name);
	json_writer_key_number(w, "good_share", h->good_self.mean);
	json_writer_key_number(w, "bad_share", h->bad_self.mean);
	json_writer_key_number(w, "delta", h->delta_self);
	json_writer_key_number(w, "stderr", h->se_self);
	json_writer_key_number(w, "good_total_share", h->good_total.mean);
	json_writer_key_number(w, "bad_total_share", h->bad_total.mean);
	json_writer_key_number(w, "total_delta", h->delta_total);
	json_writer_key_number(w, "total_stderr", h->se_total);
	json_writer_key_bool(w, "confirmed", h->confirmed);
}

static void json_target(struct flame_session *s, struct json_writer *w)
{
	json_writer_key(w, "target");
	json_writer_begin_object(w);
	json_writer_key_string(w, "function", s->function);
	json_writer_key_string(w, "measure", !s->function ? flame_metric_name(s->metric) :
				s->measure_share ? "self_share" : "self_samples_per_run");
	/* Bisecting on the metric, the definition found is the blocked function's. */
	json_writer_key_string(w, "defined_in", s->function ? s->def_file : NULL);
	json_writer_key_uint(w, "line", s->function ? s->def_line : 0);
	json_writer_key_number(w, "good", s->share[0]);
	json_writer_key_number(w, "bad", s->share[1]);
	json_writer_key_number(w, "threshold", s->threshold);
	json_writer_end(w);
}

static void json_suspect(struct flame_session *s, struct json_writer *w)
{
	size_t i;

	json_writer_key(w, "suspect");
	if (!s->culprit_info.subject) {
		json_writer_null(w);
		return;
	}
	json_writer_begin_object(w);
	json_writer_key_string(w, "commit", s->culprit_info.id);
	json_writer_key_string(w, "subject", s->culprit_info.subject);
	json_writer_key_string(w, "author", s->culprit_info.author);
	json_writer_key_string(w, "date", s->culprit_info.date);
	json_writer_key_string(w, "function", flame_session_named_function(s));
	json_writer_key_string(w, "function_source", s->function ? "profile" :
				s->blocked_function ? "off-CPU profile" :
				s->changed_function ? "changed by the suspect commit" : NULL);
	json_writer_key_number(w, "confidence", s->suspect_confidence);
	json_writer_key_string(w, "confidence_method", s->confidence_how);
	json_writer_key(w, "ambiguous_with");
	json_writer_begin_array(w);
	for (i = 0; i < s->ambiguous.nr; i++)
		if (strcmp(s->ambiguous.items[i], s->culprit))
			json_writer_string(w, s->ambiguous.items[i]);
	json_writer_end(w);
	json_writer_end(w);
}

static void json_suspect_item(struct json_writer *w, const struct flame_session *s, size_t i)
{
	json_writer_key_string(w, "commit", s->suspects[i].commit.id);
	json_writer_key_string(w, "subject", s->suspects[i].commit.subject);
	json_writer_key_bool(w, "touches_function", s->suspects[i].touches_function);
}

static void json_probe(struct json_writer *w, const struct flame_session *s, size_t i)
{
	const struct flame_probe_result *p = &s->probes[i];

	json_writer_key_string(w, "commit", p->id);
	json_writer_key_number(w, "share", s->function ? p->share : 0);
	json_writer_key_number(w, "value", p->value);
	json_writer_key_number(w, "stderr", p->se);
	json_writer_key_string(w, "verdict", flame_verdict_name(p->verdict));
	json_writer_key_uint(w, "runs", p->runs);
	json_writer_key_bool(w, "cached_build", p->build_cached);
	json_writer_key_number(w, "seconds", p->seconds);
}

static void json_reproduce(struct flame_session *s, struct json_writer *w)
{
	struct strbuf c = STRBUF_INIT;

	json_writer_key(w, "reproduce");
	json_writer_begin_array(w);
	reproduce_cmd(s, &c);
	json_writer_string(w, c.buf);
	if (s->strategy_used) {
		strbuf_reset(&c);
		strbuf_addf(&c, "git bisect start --term-old fast --term-new slow %s %s && "
			    "git bisect run ", s->bad, s->good);
		probe_cmd(s, &c);
		json_writer_string(w, c.buf);
	}
	json_writer_end(w);
	strbuf_release(&c);
}

/* report.json; the schema is in docs/flame.md. */
static void write_json(struct flame_session *s, struct strbuf *sb)
{
	struct json_writer w;

	json_writer_init(&w, sb, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "verdict", s->verdict);
	json_writer_key_string(&w, "message", s->message);
	json_writer_key_string(&w, "good", s->good);
	json_writer_key_string(&w, "bad", s->bad);
	json_writer_key_uint(&w, "commits_in_range", s->range.nr);
	json_writer_key_string(&w, "profiler", s->offcpu_profile ? "trail" : s->profiler);
	json_writer_key_string(&w, "profile", s->offcpu_profile ? "offcpu" : "cpu");
	json_writer_key(&w, "blocked");
	if (s->blocked_function) {
		json_writer_begin_object(&w);
		json_writer_key_string(&w, "function", s->blocked_function);
		json_writer_key_string(&w, "defined_in", s->def_file);
		json_writer_key_uint(&w, "line", s->def_line);
		json_writer_key_number(&w, "good_ms", s->blocked_ms[0]);
		json_writer_key_number(&w, "bad_ms", s->blocked_ms[1]);
		json_writer_end(&w);
	} else {
		json_writer_null(&w);
	}
	json_metric(s, &w);
	json_object_array(&w, "hotspots", s->hot.nr < 5 ? s->hot.nr : 5, s, json_hotspot);
	json_target(s, &w);
	json_suspect(s, &w);
	json_object_array(&w, "suspects", s->nsuspects, s, json_suspect_item);
	json_writer_key_string(&w, "strategy", s->strategy_used);
	json_writer_key_string(&w, "strategy_reason", s->strategy_used ? s->strategy_reason : NULL);
	json_object_array(&w, "probes", s->nprobes, s, json_probe);
	json_writer_key(&w, "recommendation");
	if (s->recommendation) {
		json_writer_begin_object(&w);
		json_writer_key_string(&w, "action", s->recommendation);
		json_writer_key_string(&w, "reason", s->recommendation_reason);
		json_writer_end(&w);
	} else {
		json_writer_null(&w);
	}
	json_reproduce(s, &w);
	json_writer_key_int(&w, "builds", s->builds);
	json_writer_key_int(&w, "cached_builds", s->cached_builds);
	json_writer_key_number(&w, "seconds", s->seconds);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(sb, '\n');
}

/* Markdown escaping (core/escape.h) for strings that came from outside. */
static void md_text(struct strbuf *sb, const char *s)
{
	if (s)
		escape_md_text(sb, s, strlen(s));
}

static void md_code(struct strbuf *sb, const char *s, size_t max, int in_table)
{
	size_t len = s ? strlen(s) : 0;

	escape_md_code(sb, s ? s : "", len < max ? len : max, in_table);
}

#define WHOLE ((size_t)-1)

static void write_md(struct flame_session *s, struct strbuf *sb)
{
	struct strbuf cmd = STRBUF_INIT;
	size_t i;

	strbuf_addf(sb, "# trail flame report\n\n**Verdict: %s** — ", s->verdict);
	md_text(sb, s->message);
	strbuf_addstr(sb, "\n\n- good: ");
	md_code(sb, s->good, WHOLE, 0);
	strbuf_addstr(sb, "\n- bad: ");
	md_code(sb, s->bad, WHOLE, 0);
	strbuf_addf(sb, " (%zu commits in between)\n", s->range.nr);
	strbuf_addf(sb, "- metric: %s, median %.4g → %.4g %s (Mann-Whitney p = %.3g, %zu + %zu runs)\n",
		    flame_metric_name(s->metric), s->metric_med[0], s->metric_med[1],
		    flame_metric_unit(s->metric), s->metric_p, s->nruns[0], s->nruns[1]);
	if (s->culprit_info.subject) {
		strbuf_addstr(sb, "\n## Suspect\n\n- commit: ");
		md_code(sb, s->culprit_info.id, WHOLE, 0);
		strbuf_addstr(sb, "\n- subject: ");
		md_text(sb, s->culprit_info.subject);
		strbuf_addstr(sb, "\n- author: ");
		md_text(sb, s->culprit_info.author);
		strbuf_addstr(sb, ", ");
		md_text(sb, s->culprit_info.date);
		strbuf_addstr(sb, "\n- function: ");
		md_code(sb, flame_session_named_function(s) ? flame_session_named_function(s)
							    : flame_metric_name(s->metric), WHOLE, 0);
		if (s->def_file) {
			strbuf_addstr(sb, " in ");
			md_text(sb, s->def_file);
		}
		strbuf_addf(sb, "\n- confidence: %.2f — ", s->suspect_confidence);
		md_text(sb, s->confidence_how);
		strbuf_addch(sb, '\n');
		if (s->recommendation) {
			strbuf_addf(sb, "- recommendation: **%s** — ", s->recommendation);
			md_text(sb, s->recommendation_reason);
			strbuf_addch(sb, '\n');
		}
	}
	if (s->blocked_function) {
		strbuf_addstr(sb, "- blocks longer: ");
		md_code(sb, s->blocked_function, WHOLE, 0);
		strbuf_addf(sb, ", %.1f ms → %.1f ms off-CPU per run\n", s->blocked_ms[0],
			    s->blocked_ms[1]);
	}
	if (s->offcpu_profile)
		strbuf_addstr(sb, "\n## Functions blocking longer (off-CPU profile: share of the "
				  "workload's thread time, running or blocked, that each function "
				  "spent blocked, library and kernel frames counted to their caller; "
				  "good → bad)\n\n");
	else
		strbuf_addstr(sb, "\n## Hotter functions (self share, good → bad)\n\n");
	strbuf_addstr(sb, "| function | good | bad | delta | stderr | confirmed |\n"
			  "| --- | ---: | ---: | ---: | ---: | --- |\n");
	for (i = 0; i < s->hot.nr && i < 10; i++) {
		const struct flame_hotspot *h = &s->hot.items[i];

		strbuf_addstr(sb, "| ");
		md_code(sb, h->name, WHOLE, 1);
		strbuf_addf(sb, " | %.1f%% | %.1f%% | %+.1f pp | %.1f pp | %s |\n",
			    100 * h->good_self.mean, 100 * h->bad_self.mean, 100 * h->delta_self,
			    100 * h->se_self, h->confirmed ? "yes" : "no");
	}
	if (!s->hot.nr)
		strbuf_addf(sb, "| (none rose by %.1f pp or more) | | | | | |\n", 100 * s->min_delta);
	if (s->nsuspects) {
		strbuf_addstr(sb, "\n## Suspects (commits in the range touching the function or its callees)\n\n");
		for (i = 0; i < s->nsuspects; i++) {
			strbuf_addstr(sb, "- ");
			md_code(sb, s->suspects[i].commit.id, 12, 0);
			strbuf_addch(sb, ' ');
			md_text(sb, s->suspects[i].commit.subject);
			strbuf_addstr(sb, s->suspects[i].touches_function ? "\n" : " (a callee)\n");
		}
	}
	if (s->nprobes) {
		strbuf_addstr(sb, "\n## Probes (");
		md_text(sb, s->strategy_used);
		strbuf_addstr(sb, ": ");
		md_text(sb, s->strategy_reason);
		strbuf_addf(sb, ")\n\nThreshold between fast and slow: %.4g "
			    "(the midpoint of good and bad).\n\n| commit | measured | stderr | share | verdict | runs |\n"
			    "| --- | ---: | ---: | ---: | --- | ---: |\n", s->threshold);
		for (i = 0; i < s->nprobes; i++) {
			const struct flame_probe_result *p = &s->probes[i];
			const char *subj = probe_commit_subject(s, p->id);

			strbuf_addstr(sb, "| ");
			md_code(sb, p->id, 12, 1);
			if (subj) {
				strbuf_addch(sb, ' ');
				md_text(sb, subj);
			}
			strbuf_addf(sb, " | %.4g | %.2g | %.1f%% | %s | %u |\n", p->value, p->se,
				    100 * p->share, flame_verdict_name(p->verdict), p->runs);
		}
	}
	strbuf_addf(sb, "\n## Files\n\n- `diff.svg` differential %sflame graph (when `trail flamegraph` is available), `good.svg`, `bad.svg`\n"
		    "- `good.folded`, `bad.folded`, `diff.folded` (stack good bad)%s\n\n## Reproduce\n\n",
		    s->offcpu_profile ? "off-CPU " : "",
		    s->offcpu_profile ? ": off-CPU stacks, counts in microseconds blocked" : "");
	reproduce_cmd(s, &cmd);
	escape_md_code_block(sb, cmd.buf, cmd.len, "sh");
	strbuf_release(&cmd);
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
	escape_html_text(sb, s->verdict, strlen(s->verdict));
	strbuf_addstr(sb, ": ");
	escape_html_text(sb, s->message, strlen(s->message));
	strbuf_addstr(sb, "</p>\n");
	if (!stat(path, &st) && !strbuf_read_file(&svg, path)) {
		const char *start = strstr(svg.buf, "<svg");

		strbuf_addstr(sb, s->offcpu_profile ?
				  "<h2>Differential off-CPU flame graph (good &rarr; bad; red = "
				  "blocked longer)</h2>\n<div>" :
				  "<h2>Differential flame graph (good &rarr; bad; red = hotter)</h2>\n<div>");
		if (start)
			strbuf_addstr(sb, start);
		strbuf_addstr(sb, "</div>\n");
	} else {
		strbuf_addstr(sb, "<p><em>No differential flame graph: 'trail flamegraph' "
				  "was not available; diff.folded holds the data.</em></p>\n");
	}
	strbuf_addstr(sb, "<h2>Details</h2>\n<pre>");
	escape_html_text(sb, md->buf, md->len);
	strbuf_addstr(sb, "</pre>\n</body></html>\n");
	strbuf_release(&svg);
	free(path);
}

/* escape_term() of s, "?" for NULL */
static void term(struct strbuf *sb, const char *s)
{
	if (!s)
		s = "?";
	escape_term(sb, s, strlen(s));
}

void flame_report_summary(const struct flame_session *s, struct strbuf *out)
{
	if (s->culprit_info.subject) {
		strbuf_addstr(out, "hot function:   ");
		if (s->function && s->hot.nr) {
			term(out, s->function);
			strbuf_addf(out, " (self share %.1f%% -> %.1f%%)",
				    100 * s->hot.items[0].good_self.mean,
				    100 * s->hot.items[0].bad_self.mean);
		} else if (s->blocked_function) {
			term(out, s->blocked_function);
			strbuf_addf(out, " (off-CPU %.1f ms -> %.1f ms per run; bisected on "
				    "%s: %.4g -> %.4g %s)", s->blocked_ms[0], s->blocked_ms[1],
				    flame_metric_name(s->metric), s->share[0], s->share[1],
				    flame_metric_unit(s->metric));
		} else {
			term(out, s->changed_function);
			strbuf_addf(out, " (CPU profile flat; bisected on %s: %.4g -> %.4g %s; "
				    "the function the suspect changed)", flame_metric_name(s->metric),
				    s->share[0], s->share[1], flame_metric_unit(s->metric));
		}
		strbuf_addstr(out, "\nsuspect commit: ");
		escape_term(out, s->culprit_info.id, strnlen(s->culprit_info.id, 12));
		strbuf_addch(out, ' ');
		term(out, s->culprit_info.subject);
		strbuf_addstr(out, " (");
		term(out, s->culprit_info.author);
		strbuf_addf(out, ")\nconfidence:     %.2f (", s->suspect_confidence);
		term(out, s->verdict);
		strbuf_addstr(out, ")\n");
	} else {
		term(out, s->verdict);
		strbuf_addstr(out, ": ");
		term(out, s->message);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "report:         ");
	term(out, s->out_dir);
	strbuf_addstr(out, "/report.html\n");
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
