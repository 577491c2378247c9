/*
 * report_html.c - trail flame's report.html: one self-contained page (no
 * external resources) that puts the verdict and the answer first, then the
 * differential flame graph (embedded as a data: URL so its script runs as
 * in diff.svg), tables of hotspots, probes and suspects
 * (report_html_probes.c), the bad profile's reading aids (trail explain), the
 * suspect commit's diff with the hunks of the hot
 * function highlighted, and one section per handoff (Fix, Optimise, Guard in
 * CI, Check the environment; element ids builder, bolt, radar, scout).  Every string from outside goes through core/escape.h.
 */
#include "flame/report.h"
#include "core/numfmt.h"
#include "core/verdict.h"
#include "flame/report_facts.h"
#include "flame/fleet_report.h"
#include "flame/report_html_parts.h"
#include "flame/probe_cmd.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static const char STYLE[] =
	":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg2:#f6f8fa;--red:#c62828;"
	"--green:#2e7d32;--amber:#b26a00;--blue:#1565c0}"
	"*{box-sizing:border-box}"
	"body{font:15px/1.5 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:var(--fg);"
	"max-width:1240px;margin:0 auto;padding:1.5em 1.2em 4em}"
	"h1{font-size:1.5em;margin:0 0 .6em}h2{font-size:1.2em;margin:2em 0 .6em;padding-bottom:.25em;"
	"border-bottom:1px solid var(--line)}h3{font-size:1.05em;margin:1.2em 0 .4em}"
	"code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
	"code{background:var(--bg2);padding:.1em .35em;border-radius:4px}"
	"pre{background:var(--bg2);padding:.8em 1em;border-radius:6px;overflow-x:auto;margin:.4em 0}"
	"pre code{background:none;padding:0}pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}"
	".verdict{border-radius:8px;padding:1em 1.2em;margin:0 0 1.2em;border-left:8px solid}"
	".verdict .label{font-size:1.35em;font-weight:700}"
	".verdict p{margin:.3em 0 0}"
	".v-regression{background:#fdecea;border-color:var(--red)}"
	".v-no-regression{background:#e8f5e9;border-color:var(--green)}"
	".v-inconclusive{background:#fff4e0;border-color:var(--amber)}"
	"nav{font-size:.9em;margin:0 0 1em;color:var(--muted)}nav a{margin-right:.9em}"
	"a{color:var(--blue);text-decoration:none}a:hover{text-decoration:underline}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.93em}"
	"th,td{border:1px solid var(--line);padding:.3em .6em;text-align:left;vertical-align:top}"
	"thead th{background:var(--bg2)}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"table.kv th{background:var(--bg2);width:11em;font-weight:600}"
	".muted{color:var(--muted)}.up{color:var(--red)}.down{color:var(--green)}"
	".bar{display:inline-block;height:.7em;background:var(--red);border-radius:2px;vertical-align:middle;margin-right:.4em}"
	".fast{color:var(--green)}.slow{color:var(--red)}.skip{color:var(--muted)}"
	".links a{display:inline-block;margin:.2em .5em .2em 0;padding:.15em .6em;border:1px solid var(--line);border-radius:14px}"
	"iframe.graph{width:100%;border:1px solid var(--line);border-radius:6px;background:#fff}"
	".diff pre{margin:0;border-radius:0;padding:.2em 1em}"
	".diff{border:1px solid var(--line);border-radius:6px;overflow:hidden;margin:.5em 0}"
	".diff .meta{background:#eef1f4;color:#3d444d}.diff .add{background:#e6ffec;display:block}"
	".diff .del{background:#ffebe9;display:block}.diff .hh{color:var(--blue)}"
	".diff pre.hot{border-left:5px solid var(--amber);background:#fff8e6}"
	".diff .tag{float:right;font:600 11px sans-serif;color:#fff;background:var(--amber);"
	"padding:.1em .5em;border-radius:9px}"
	".handoff{border:1px solid var(--line);border-radius:8px;padding:.2em 1.1em .8em;margin:1em 0}"
	".handoff h3 .who{display:inline-block;min-width:4.5em;color:#fff;background:var(--blue);"
	"border-radius:4px;padding:0 .45em;margin-right:.5em;font-size:.9em;text-align:center}"
	"svg.chart text{font:11px sans-serif;fill:#59636e}";

static void write_head(struct strbuf *sb)
{
	strbuf_addstr(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			  "<title>trail flame report</title>\n<style>");
	strbuf_addstr(sb, STYLE);
	strbuf_addstr(sb, "</style></head>\n<body>\n");
}

static const char *verdict_label(enum trail_verdict o)
{
	switch (o) {
	case VERDICT_REGRESSION:
	case VERDICT_SMALL_REGRESSION:
		return "Regression found";
	case VERDICT_NO_REGRESSION:
		return "No regression";
	default:
		return "Inconclusive";
	}
}

/* The ends' medians' intervals and the test of timed metrics (counted ones print the change). */
static void html_metric_intervals(struct strbuf *sb, const struct flame_session *s, double change)
{
	const struct flame_answer *a = &s->ans;

	strbuf_addf(sb, " <strong class=\"%s\">", change > 0 ? "up" : "down");
	numfmt_percent(sb, change, NUMFMT_SIGN);
	strbuf_addstr(sb, "</strong> <span class=\"muted\">(the paired estimate; 95% intervals of the medians ");
	flame_html_metric(sb, s, a->ends.metric_lo[0]);
	strbuf_addstr(sb, "&ndash;");
	flame_html_metric(sb, s, a->ends.metric_hi[0]);
	strbuf_addstr(sb, " and ");
	flame_html_metric(sb, s, a->ends.metric_lo[1]);
	strbuf_addstr(sb, "&ndash;");
	flame_html_metric(sb, s, a->ends.metric_hi[1]);
	strbuf_addf(sb, "; Mann-Whitney p = %.3g; %zu + %zu runs)</span></td></tr>\n",
		    a->ends.metric_p, s->st.nruns[0], s->st.nruns[1]);
}

static void write_answer(const struct flame_session *s, struct strbuf *sb)
{
	const struct flame_answer *a = &s->ans;
	const char *fn = flame_session_named_function(s);
	double change = flame_report_change(s);

	strbuf_addstr(sb, "<section id=\"answer\"><h2>Answer</h2>\n<table class=\"kv\">\n");
	strbuf_addstr(sb, "<tr><th>Function</th><td>");
	if (fn) {
		flame_html_code(sb, fn);
		strbuf_addstr(sb, " <span class=\"muted\">(");
		flame_html_text(sb, a->target.function ? "hotter in the profile" : a->target.blocked_function ?
		  "blocks longer, off-CPU profile" : "changed by the suspect commit");
		strbuf_addstr(sb, ")</span>");
	} else {
		strbuf_addstr(sb, "<span class=\"muted\">none named: the search ran on the metric");
		if (!a->target.blocked_function) {
			/* what report.md and the terminal say: where the time rose */
			strbuf_addstr(sb, "; ");
			if (!flame_report_rose_across(s, sb, FLAME_TEXT_HTML))
				strbuf_addstr(sb, "no function's share rose");
		}
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</td></tr>\n");
	if (a->target.frame) {
		strbuf_addstr(sb, "<tr><th>Hot frame</th><td>");
		flame_html_code(sb, a->target.frame);
		strbuf_addstr(sb, " <span class=\"muted\">(library or kernel code; its time is counted to ");
		flame_html_code(sb, a->target.function);
		strbuf_addstr(sb, ", its innermost caller the repository defines)</span></td></tr>\n");
	}
	if (a->target.function && a->suspects.changed_function && strcmp(a->target.function, a->suspects.changed_function)) {
		strbuf_addstr(sb, "<tr><th>Changed function</th><td>");
		flame_html_code(sb, a->suspects.changed_function);
		strbuf_addstr(sb, " <span class=\"muted\">(the suspect changed it, not ");
		flame_html_code(sb, a->target.function);
		strbuf_addstr(sb, " itself; how the two connect is not checked)</span></td></tr>\n");
	}
	if (a->suspects.def_file) {
		strbuf_addstr(sb, "<tr><th>Defined in</th><td>");
		flame_html_text(sb, a->suspects.def_file);
		if (a->suspects.def_line)
			strbuf_addf(sb, ":%u", a->suspects.def_line);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	if (a->target.blocked_function)
	{
		strbuf_addstr(sb, "<tr><th>Blocked time</th><td>");
		numfmt_value(sb, a->target.blocked_ms[0], "ms", 0);
		strbuf_addstr(sb, " &rarr; ");
		numfmt_value(sb, a->target.blocked_ms[1], "ms", 0);
		strbuf_addstr(sb, " off-CPU per run</td></tr>\n");
	}
	strbuf_addstr(sb, "<tr><th>Suspect commit</th><td>");
	if (flame_session_has_suspect(s)) {
		flame_html_commit(sb, a->narrow.culprit_info.id);
		strbuf_addstr(sb, " ");
		flame_html_text(sb, a->narrow.culprit_info.subject);
		strbuf_addstr(sb, "<br><span class=\"muted\">");
		flame_html_text(sb, a->narrow.culprit_info.author);
		strbuf_addstr(sb, ", ");
		flame_html_text(sb, a->narrow.culprit_info.date);
		strbuf_addstr(sb, a->fix.is_merge ? " &middot; a merge commit" : "");
		strbuf_addstr(sb, "</span>");
	} else if (flame_session_candidate(s)) {
		strbuf_addstr(sb, "<span class=\"muted\">none confirmed; candidate</span> ");
		flame_html_commit(sb, a->narrow.culprit_info.id);
		strbuf_addstr(sb, " ");
		flame_html_text(sb, a->narrow.culprit_info.subject);
		char ex[FLAME_EXPLAINS_TEXT];

		flame_explains_format(&a->narrow.pair.step, ex, sizeof(ex));
		strbuf_addstr(sb, " <span class=\"muted\">(explains ");
		flame_html_text(sb, ex);
		strbuf_addstr(sb, " beside its parent: not enough to name it)</span>");
	} else {
		strbuf_addstr(sb, "<span class=\"muted\">none</span>");
	}
	strbuf_addstr(sb, "</td></tr>\n");
	if (flame_session_has_suspect(s)) {
		struct strbuf e = STRBUF_INIT;

		flame_report_evidence(s, &e);
		strbuf_addstr(sb, "<tr><th>Evidence</th><td><strong>");
		flame_html_text(sb, e.buf);
		strbuf_addstr(sb, "</strong> <span class=\"muted\">");
		strbuf_release(&e);
		flame_html_text(sb, a->narrow.confidence_how);
		strbuf_addstr(sb, "</span></td></tr>\n");
	}
	if (a->fix.recommendation) {
		strbuf_addstr(sb, "<tr><th>Recommendation</th><td><strong>");
		flame_html_text(sb, a->fix.recommendation);
		strbuf_addstr(sb, "</strong> &mdash; ");
		flame_html_text(sb, a->fix.recommendation_reason);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "<tr><th>Metric</th><td>");
	flame_html_text(sb, flame_metric_name(s->req.metric));
	strbuf_addstr(sb, ": median ");
	flame_html_metric(sb, s, a->ends.metric_med[0]);
	strbuf_addstr(sb, " &rarr; ");
	flame_html_metric(sb, s, a->ends.metric_med[1]);
	if (a->ends.exact_counts) {
		/* exact counts: the change itself; no interval, no test */
		strbuf_addf(sb, " <strong class=\"%s\">", change > 0 ? "up" : "down");
		numfmt_percent(sb, change, NUMFMT_SIGN);
		strbuf_addf(sb, "</strong> <span class=\"muted\">(exact counts, %+.0f; %zu + %zu runs "
			    "alike)</span></td></tr>\n", a->ends.metric_med[1] - a->ends.metric_med[0],
			    s->st.nruns[0], s->st.nruns[1]);
	} else {
		html_metric_intervals(sb, s, change);
	}
	strbuf_addstr(sb, "<tr><th>Change</th><td>");
	if (!flame_report_min_effect_text(s, sb))
		strbuf_addstr(sb, "<span class=\"muted\">no interval (the runs gave no ratio)</span>");
	strbuf_addstr(sb, "</td></tr>\n");
	strbuf_addstr(sb, "<tr><th>Range</th><td>good ");
	flame_html_commit(sb, a->ends.good);
	strbuf_addstr(sb, " &rarr; bad ");
	flame_html_commit(sb, a->ends.bad);
	strbuf_addf(sb, " <span class=\"muted\">(%zu commits; %d builds, %d from the cache; %.0f s)</span>"
		    "</td></tr>\n</table></section>\n", a->ends.commits_in_range, a->ends.builds, a->ends.cached_builds,
		    a->seconds);
}

static const char *const ARTIFACTS[] = { "diff.svg", "good.svg", "bad.svg", "diff.folded",
	"good.folded", "bad.folded", "report.json", "report.md", NULL };

static void add_base64(struct strbuf *sb, const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	strbuf_grow(sb, (n + 2) / 3 * 4);
	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];

		strbuf_addch(sb, tab[v >> 18 & 63]);
		strbuf_addch(sb, tab[v >> 12 & 63]);
		strbuf_addch(sb, tab[v >> 6 & 63]);
		strbuf_addch(sb, tab[v & 63]);
	}
	if (i < n) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);

		strbuf_addch(sb, tab[v >> 18 & 63]);
		strbuf_addch(sb, tab[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < n ? tab[v >> 6 & 63] : '=');
		strbuf_addch(sb, '=');
	}
}

/* The height="..." of the root <svg> element, in pixels, or 0. */
static double svg_height(const char *svg)
{
	const char *root = strstr(svg, "<svg"), *end, *p;

	if (!root)
		return 0;
	end = strchr(root, '>');
	p = strstr(root, " height=\"");
	if (!end || !p || p > end)
		return 0;
	return strtod(p + 9, NULL);
}

static void write_graph(const struct flame_session *s, const struct flame_report_facts *f,
			const char *diff_svg, struct strbuf *sb)
{
	const char *const *n;
	double height;

	strbuf_addf(sb, "<section id=\"graph\"><h2>Differential %sflame graph</h2>\n",
		    s->ans.ends.offcpu_profile ? "off-CPU " : "");
	strbuf_addstr(sb, "<p class=\"links\">");
	for (n = ARTIFACTS; *n; n++)
		if (flame_report_has_file(f, *n)) {
			strbuf_addstr(sb, "<a href=\"");
			flame_html_attr(sb, *n);
			strbuf_addstr(sb, "\">");
			flame_html_text(sb, *n);
			strbuf_addstr(sb, "</a>");
		}
	strbuf_addstr(sb, "</p>\n");
	if (!diff_svg || !strstr(diff_svg, "<svg")) {
		strbuf_addstr(sb, "<p class=\"muted\">No differential flame graph: 'trail flamegraph' "
				  "was not available; diff.folded holds the data.</p></section>\n");
		return;
	}
	strbuf_addf(sb, "<p class=\"muted\">Frames drawn from the bad profile, coloured by the change of "
		    "their %s from good to bad (the legend is under the title); click a frame "
		    "to zoom, Ctrl-F to search.</p>\n", s->ans.target.diff_by_time ?
		    (s->ans.ends.offcpu_profile ? "blocked time per run" : "CPU time per run") : "share");
	height = svg_height(diff_svg);
	if (!(height > 0) || height > 4000)
		height = 600;
	/* a data: URL keeps the page self-contained and the graph's own script working */
	strbuf_addf(sb, "<iframe class=\"graph\" title=\"differential flame graph\" height=\"%.0f\" "
		    "src=\"data:image/svg+xml;base64,", height + 4);
	add_base64(sb, (const unsigned char *)diff_svg, strlen(diff_svg));
	strbuf_addstr(sb, "\"></iframe></section>\n");
}

static void write_hotspots(const struct flame_session *s, struct strbuf *sb)
{
	double max = 0;
	size_t i, nr = s->ans.target.hot.nr < 15 ? s->ans.target.hot.nr : 15;

	strbuf_addf(sb, "<section id=\"hotspots\"><h2>%s</h2>\n", s->ans.ends.offcpu_profile ?
		    "Functions blocking longer (share of thread time, good &rarr; bad)" :
		    s->ans.target.measure_lib ? "Hotter functions (self share with the library and kernel "
		    "code under each, good &rarr; bad)" : "Hotter functions (self share, good &rarr; bad)");
	if (!nr) {
		strbuf_addstr(sb, "<p class=\"muted\">No function's share rose by ");
		numfmt_pp(sb, s->req.min_delta, 0);
		strbuf_addstr(sb, " or more.</p></section>\n");
		return;
	}
	for (i = 0; i < nr; i++)
		if (s->ans.target.hot.items[i].delta_self > max)
			max = s->ans.target.hot.items[i].delta_self;
	strbuf_addstr(sb, "<table class=\"hot\"><thead><tr><th>function</th><th>self good</th><th>self bad</th>"
			  "<th>&Delta; self</th><th>&plusmn; se</th><th>total good</th><th>total bad</th>"
			  "<th>&Delta; total</th><th>confirmed</th></tr></thead><tbody>\n");
	for (i = 0; i < nr; i++) {
		const struct flame_hotspot *hs = &s->ans.target.hot.items[i];
		double w = max > 0 && hs->delta_self > 0 ? 60 * hs->delta_self / max : 0;

		strbuf_addstr(sb, "<tr><td>");
		flame_html_code(sb, hs->name);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		numfmt_percent(sb, hs->good_self.mean, 0);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		numfmt_percent(sb, hs->bad_self.mean, 0);
		strbuf_addf(sb, "</td><td class=\"n\"><span class=\"bar\" style=\"width:%.0fpx\"></span>", w);
		numfmt_pp(sb, hs->delta_self, NUMFMT_SIGN);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		if (s->ans.ends.exact_counts)	/* no sampling error in a share of exact counts */
			strbuf_addstr(sb, "exact");
		else
			numfmt_pp(sb, hs->se_self, 0);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		numfmt_percent(sb, hs->good_total.mean, 0);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		numfmt_percent(sb, hs->bad_total.mean, 0);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		numfmt_pp(sb, hs->delta_total, NUMFMT_SIGN);
		strbuf_addf(sb, "</td><td>%s</td></tr>\n", hs->confirmed ? "<strong>yes</strong>" : "no");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
}

/* One segment of the diff (file header or hunk) as a <pre>, lines classed. */
static void diff_segment(struct strbuf *sb, const char *p, size_t len, const struct flame_session *s)
{
	int hunk = len > 2 && !strncmp(p, "@@", 2);
	const char *func = hunk ? flame_report_hunk_function(s, p, len) : NULL;
	int hot = func != NULL;
	const char *end = p + len;

	strbuf_addf(sb, "<pre class=\"%s\">", hot ? "hunk hot" : hunk ? "hunk" : "meta");
	if (hot) {
		strbuf_addstr(sb, "<span class=\"tag\">");
		flame_html_text(sb, func);
		strbuf_addstr(sb, "</span>");
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *cls = NULL;

		if (hunk && *p == '+')
			cls = "add";
		else if (hunk && *p == '-')
			cls = "del";
		else if (hunk && n > 1 && !strncmp(p, "@@", 2))
			cls = "hh";
		if (cls)
			strbuf_addf(sb, "<span class=\"%s\">", cls);
		escape_html_text(sb, p, n);
		if (cls)
			strbuf_addstr(sb, "</span>");
		if (!cls || !strcmp(cls, "hh"))
			strbuf_addch(sb, '\n');
		p += n + (nl != NULL);
	}
	strbuf_addstr(sb, "</pre>\n");
}

static void write_commit_diff(const struct flame_session *s, const struct flame_report_facts *f,
			      struct strbuf *sb)
{
	const char *func = flame_session_named_function(s);
	const char *p, *seg, *end;

	if (!f->culprit_diff.len)
		return;
	strbuf_addstr(sb, "<section id=\"commit\"><h2>The suspect commit</h2>\n<p>");
	strbuf_addstr(sb, "<code>git show</code> of ");
	flame_html_commit(sb, s->ans.narrow.culprit_info.id);
	if (func) {
		strbuf_addstr(sb, "; the hunks that name ");
		flame_html_code(sb, func);
		if (s->ans.suspects.changed_function && strcmp(func, s->ans.suspects.changed_function)) {
			strbuf_addstr(sb, " or ");
			flame_html_code(sb, s->ans.suspects.changed_function);
		}
		strbuf_addstr(sb, " are marked");
	}
	strbuf_addstr(sb, ".</p>\n<div class=\"diff\">\n");
	p = seg = f->culprit_diff.buf;
	end = p + f->culprit_diff.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if (p > seg && (!strncmp(p, "@@", 2) || !strncmp(p, "diff --git ", 11))) {
			diff_segment(sb, seg, (size_t)(p - seg), s);
			seg = p;
		}
		p = next;
	}
	if (end > seg)
		diff_segment(sb, seg, (size_t)(end - seg), s);
	strbuf_addstr(sb, "</div>\n");
	if (f->culprit_diff_cut)
		strbuf_addstr(sb, "<p class=\"muted\">(cut: the diff is longer; run <code>git show</code> for all of it)</p>\n");
	strbuf_addstr(sb, "</section>\n");
}

static void write_reading(const struct flame_report_facts *f, struct strbuf *sb)
{
	if (!f->reading.len)
		return;
	strbuf_addstr(sb, "<section id=\"reading\"><h2>Reading aids (the bad profile)</h2>\n"
			  "<p class=\"muted\">What <code>trail explain bad.folded</code> finds: wide plateaus "
			  "(self time), narrow towers (deep stacks), repeated motifs (one callee under many "
			  "callers), broken stacks.</p>\n<pre class=\"wrap\">");
	escape_html_text(sb, f->reading.buf, f->reading.len);
	strbuf_addstr(sb, "</pre></section>\n");
}

static void handoff_head(struct strbuf *sb, const char *id, const char *who, const char *what)
{
	strbuf_addf(sb, "<div class=\"handoff\" id=\"%s\"><h3><span class=\"who\">%s</span>%s</h3>\n",
		    id, who, what);
}

static void pre(struct strbuf *sb, const char *text, int wrap)
{
	strbuf_addstr(sb, wrap ? "<pre class=\"wrap\"><code>" : "<pre><code>");
	flame_html_text(sb, text);
	strbuf_addstr(sb, "</code></pre>\n");
}

static void write_handoffs(const struct flame_session *s, const struct flame_report_facts *f,
			   struct strbuf *sb)
{
	const char *fn = flame_session_named_function(s);
	int regression = s->ans.outcome == VERDICT_REGRESSION;
	struct strbuf c = STRBUF_INIT;
	size_t i;

	strbuf_addstr(sb, "<section id=\"handoffs\"><h2>Handoffs</h2>\n");
	if (s->ans.narrow.culprit_info.subject) {
		static const struct flame_report_esc esc = { flame_html_text, flame_html_code };

		handoff_head(sb, "builder", "Fix", "revert or patch the suspect");
		strbuf_addstr(sb, "<p>");
		flame_report_revert_text(s, &esc, sb);
		strbuf_addstr(sb, "</p>\n");
		if (flame_report_revert_offer(s, &c))
			pre(sb, c.buf, 0);
		if (f->later.nr) {
			strbuf_addf(sb, "<p>Later commits in the range that touched %s:</p>\n<ul>\n",
				    f->later_by_function ? "the function's lines (<code>git log -L</code>)" :
				    "the suspect's files");
			for (i = 0; i < f->later.nr; i++) {
				strbuf_addstr(sb, "<li>");
				flame_html_commit(sb, f->later.items[i]);
				strbuf_addstr(sb, " ");
				flame_html_text(sb, strlen(f->later.items[i]) > 41 ? f->later.items[i] + 41 : "");
				strbuf_addstr(sb, "</li>\n");
			}
			strbuf_addstr(sb, "</ul>\n");
		}
		strbuf_addstr(sb, "</div>\n");
	}
	if (regression || (s->ans.target.hot.nr && s->ans.target.hot.items[0].confirmed)) {
		handoff_head(sb, "bolt", "Optimise", "the hot code");
		strbuf_addstr(sb, "<table class=\"kv\">");
		strbuf_addstr(sb, "<tr><th>Hot function</th><td>");
		if (fn)
			flame_html_code(sb, fn);
		else if (s->ans.target.hot.nr)
			flame_html_code(sb, s->ans.target.hot.items[0].name);
		if (s->ans.suspects.def_file) {
			strbuf_addstr(sb, " in ");
			flame_html_text(sb, s->ans.suspects.def_file);
			strbuf_addf(sb, ":%u", s->ans.suspects.def_line);
		}
		strbuf_addstr(sb, "</td></tr><tr><th>Hottest frame</th><td>");
		if (s->ans.target.frame) {
			flame_html_code(sb, s->ans.target.frame);
			strbuf_addstr(sb, " <span class=\"muted\">(library or kernel code under the function)</span>");
		} else if (s->ans.target.hot.nr) {
			flame_html_code(sb, s->ans.target.hot.items[0].name);
			strbuf_addch(sb, ' ');
			numfmt_pp(sb, s->ans.target.hot.items[0].delta_self, NUMFMT_SIGN);
			strbuf_addstr(sb, " self share");
		} else {
			strbuf_addstr(sb, "<span class=\"muted\">none rose</span>");
		}
		strbuf_addstr(sb, "</td></tr>");
		if (s->ans.narrow.culprit_info.subject) {
			strbuf_addstr(sb, "<tr><th>Suspect</th><td>");
			flame_html_commit(sb, s->ans.narrow.culprit_info.id);
			strbuf_addstr(sb, " ");
			flame_html_text(sb, s->ans.narrow.culprit_info.subject);
			strbuf_addstr(sb, " <a href=\"#commit\">diff</a></td></tr>");
		}
		strbuf_addstr(sb, "<tr><th>Graphs</th><td>");
		if (flame_report_has_file(f, "diff.svg"))
			strbuf_addstr(sb, "<a href=\"diff.svg\">diff.svg</a> ");
		if (flame_report_has_file(f, "bad.svg"))
			strbuf_addstr(sb, "<a href=\"bad.svg\">bad.svg</a> ");
		if (flame_report_has_file(f, "bad.folded"))
			strbuf_addstr(sb, "<a href=\"bad.folded\">bad.folded</a>");
		strbuf_addstr(sb, "</td></tr></table></div>\n");
	}
	handoff_head(sb, "radar", "Guard in CI", "against its return");
	strbuf_addstr(sb, "<p>");
	flame_report_change_text(s, sb);
	strbuf_addf(sb, "; the guard fails a change %u%% or more slower than the baseline "
		    "(significantly, Mann-Whitney):</p>\n", flame_report_guard_percent(s));
	strbuf_reset(&c);
	flame_report_guard_cmds(s, &c);
	pre(sb, c.buf, 0);
	strbuf_addstr(sb, "</div>\n");
	if (!regression) {
		handoff_head(sb, "scout", "Check the environment", "the symptom persists?");
		strbuf_addstr(sb, "<p>The profiles of good and bad do not differ enough to name a commit. "
				  "If the slowdown is real where it was seen, compare these facts of this run "
				  "with that machine:</p>\n<table class=\"kv env\">\n");
		for (i = 0; i < f->env.nr; i++) {
			const char *tab = strchr(f->env.items[i], '\t');

			if (!tab)
				continue;
			strbuf_addstr(sb, "<tr><th>");
			escape_html_text(sb, f->env.items[i], (size_t)(tab - f->env.items[i]));
			strbuf_addstr(sb, "</th><td><code>");
			flame_html_text(sb, tab + 1);
			strbuf_addstr(sb, "</code></td></tr>\n");
		}
		strbuf_addstr(sb, "</table>\n<p class=\"muted\">Also: the input (size, contents), the "
				  "compiler and its flags, the libraries loaded (<code>ldd</code>), other load on "
				  "the machine, thermal throttling.</p></div>\n");
	}
	strbuf_addstr(sb, "</section>\n");
	strbuf_release(&c);
}

static void write_reproduce(const struct flame_session *s, struct strbuf *sb)
{
	struct strbuf c = STRBUF_INIT;

	strbuf_addstr(sb, "<section id=\"reproduce\"><h2>Reproduce</h2>\n");
	strbuf_addstr(&c, s->req.command_line ? s->req.command_line : "trail flame");
	if (s->ans.narrow.strategy_used) {
		strbuf_addstr(&c, "\n# the bisection alone, as trail ran it:\n");
		flame_bisect_commands(s, s->req.trail_exe ? s->req.trail_exe : "trail", &c);
	}
	pre(sb, c.buf, 1);
	strbuf_addstr(sb, "</section>\n");
	strbuf_release(&c);
}

void flame_report_html(const struct flame_session *s, const struct flame_report_facts *f,
		       const char *diff_svg, struct strbuf *sb)
{
	const char *v = trail_verdict_name(s->ans.outcome);

	write_head(sb);
	strbuf_addstr(sb, "<h1>trail flame report</h1>\n");
	/* the class is the verdict's name: v-regression, v-no-regression, v-inconclusive */
	strbuf_addf(sb, "<div class=\"verdict v-%s\" id=\"verdict\" data-verdict=\"",
		    v ? v : "inconclusive");
	flame_html_attr(sb, v);
	strbuf_addf(sb, "\"><div class=\"label\">%s</div><p>", verdict_label(s->ans.outcome));
	flame_html_text(sb, s->ans.message);
	strbuf_addstr(sb, "</p></div>\n<nav><a href=\"#answer\">Answer</a><a href=\"#graph\">Flame graph</a>"
			  "<a href=\"#hotspots\">Hotspots</a>");
	if (s->ans.suspects.count)
		strbuf_addstr(sb, "<a href=\"#suspects\">Suspects</a>");
	if (s->ans.narrow.nprobes)
		strbuf_addstr(sb, "<a href=\"#probes\">Probes</a>");
	if (s->ans.fleet.used)
		strbuf_addstr(sb, "<a href=\"#hosts\">Hosts</a>");
	if (f->reading.len)
		strbuf_addstr(sb, "<a href=\"#reading\">Reading aids</a>");
	if (f->culprit_diff.len)
		strbuf_addstr(sb, "<a href=\"#commit\">Commit</a>");
	strbuf_addstr(sb, "<a href=\"#handoffs\">Handoffs</a><a href=\"#reproduce\">Reproduce</a></nav>\n");
	write_answer(s, sb);
	flame_report_html_culprits(s, sb);
	write_graph(s, f, diff_svg, sb);
	write_hotspots(s, sb);
	flame_report_html_suspects(s, sb);
	flame_report_html_probes(s, sb);
	flame_fleet_report_html(&s->ans.fleet, sb);
	write_reading(f, sb);
	write_commit_diff(s, f, sb);
	write_handoffs(s, f, sb);
	write_reproduce(s, sb);
	strbuf_addstr(sb, "</body></html>\n");
}
