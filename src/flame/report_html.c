/*
 * report_html.c - trail flame's report.html: one self-contained page (no
 * external resources) that puts the verdict and the answer first, then the
 * differential flame graph (embedded as a data: URL so its script runs as
 * in diff.svg), tables of hotspots, probes (with a small SVG chart in range
 * order) and suspects, the bad profile's reading aids (trail explain), the
 * suspect commit's diff with the hunks of the hot
 * function highlighted, and one section per handoff (Fix, Optimise, Guard in
 * CI, Check the environment; element ids builder, bolt, radar, scout).  Every string from outside goes through core/escape.h.
 */
#include "flame/report.h"
#include "flame/report_facts.h"
#include "flame/probe_cmd.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void h(struct strbuf *sb, const char *s)
{
	if (s)
		escape_html_text(sb, s, strlen(s));
}

static void ha(struct strbuf *sb, const char *s)
{
	if (s)
		escape_html_attr(sb, s, strlen(s));
}

static void code(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<code>");
	h(sb, s);
	strbuf_addstr(sb, "</code>");
}

/* A commit id shown short, the full one in a tooltip. */
static void commit_id(struct strbuf *sb, const char *id)
{
	strbuf_addstr(sb, "<code class=\"id\" title=\"");
	ha(sb, id);
	strbuf_addf(sb, "\">%.12s</code>", id);
}

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

static const char *verdict_label(const char *v)
{
	if (v && !strcmp(v, "regression"))
		return "Regression found";
	if (v && !strcmp(v, "no-regression"))
		return "No regression";
	return "Inconclusive";
}

static const char *verdict_class(const char *v)
{
	if (v && !strcmp(v, "regression"))
		return "v-regression";
	if (v && !strcmp(v, "no-regression"))
		return "v-no-regression";
	return "v-inconclusive";
}

static int value_is_share(const struct flame_session *s)
{
	return s->ans.function && s->ans.measure_share;
}

/* A probed value (or an end's) in its unit: a share in percent, else %.4g. */
static void add_value(struct strbuf *sb, const struct flame_session *s, double v)
{
	if (value_is_share(s))
		strbuf_addf(sb, "%.2f%%", 100 * v);
	else
		strbuf_addf(sb, "%.4g", v);
}

/* A value of the metric with its unit, microseconds shown as ms or s. */
static void add_metric(struct strbuf *sb, const struct flame_session *s, double v)
{
	const char *unit = flame_metric_unit(s->req.metric);

	if (!strcmp(unit, "us") && fabs(v) >= 1e6)
		strbuf_addf(sb, "%.3f s", v / 1e6);
	else if (!strcmp(unit, "us") && fabs(v) >= 1e3)
		strbuf_addf(sb, "%.1f ms", v / 1e3);
	else
		strbuf_addf(sb, "%.4g %s", v, unit);
}

static const char *measure_name(const struct flame_session *s)
{
	if (!s->ans.function)
		return flame_metric_name(s->req.metric);
	if (s->ans.measure_total)
		return s->ans.measure_share ? "total share" : "total samples per run";
	return s->ans.measure_share ? "self share" : "self samples per run";
}

static void write_answer(const struct flame_session *s, struct strbuf *sb)
{
	const struct flame_answer *a = &s->ans;
	const char *fn = flame_session_named_function(s);
	double change = flame_report_change(s);

	strbuf_addstr(sb, "<section id=\"answer\"><h2>Answer</h2>\n<table class=\"kv\">\n");
	strbuf_addstr(sb, "<tr><th>Function</th><td>");
	if (fn) {
		code(sb, fn);
		strbuf_addstr(sb, " <span class=\"muted\">(");
		h(sb, a->function ? "hotter in the profile" : a->blocked_function ?
		  "blocks longer, off-CPU profile" : "changed by the suspect commit");
		strbuf_addstr(sb, ")</span>");
	} else {
		strbuf_addstr(sb, "<span class=\"muted\">none named: the search ran on the metric</span>");
	}
	strbuf_addstr(sb, "</td></tr>\n");
	if (a->frame) {
		strbuf_addstr(sb, "<tr><th>Hot frame</th><td>");
		code(sb, a->frame);
		strbuf_addstr(sb, " <span class=\"muted\">(library or kernel code; its time is counted to ");
		code(sb, a->function);
		strbuf_addstr(sb, ", its innermost caller the repository defines)</span></td></tr>\n");
	}
	if (a->function && a->changed_function && strcmp(a->function, a->changed_function)) {
		strbuf_addstr(sb, "<tr><th>Changed function</th><td>");
		code(sb, a->changed_function);
		strbuf_addstr(sb, " <span class=\"muted\">(the suspect changed it, not ");
		code(sb, a->function);
		strbuf_addstr(sb, " itself: it calls it or uses what it produces)</span></td></tr>\n");
	}
	if (a->def_file) {
		strbuf_addstr(sb, "<tr><th>Defined in</th><td>");
		h(sb, a->def_file);
		if (a->def_line)
			strbuf_addf(sb, ":%u", a->def_line);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	if (a->blocked_function)
		strbuf_addf(sb, "<tr><th>Blocked time</th><td>%.1f ms &rarr; %.1f ms off-CPU per run</td></tr>\n",
			    a->blocked_ms[0], a->blocked_ms[1]);
	strbuf_addstr(sb, "<tr><th>Suspect commit</th><td>");
	if (a->culprit_info.subject) {
		commit_id(sb, a->culprit_info.id);
		strbuf_addstr(sb, " ");
		h(sb, a->culprit_info.subject);
		strbuf_addstr(sb, "<br><span class=\"muted\">");
		h(sb, a->culprit_info.author);
		strbuf_addstr(sb, ", ");
		h(sb, a->culprit_info.date);
		strbuf_addstr(sb, a->culprit_is_merge ? " &middot; a merge commit" : "");
		strbuf_addstr(sb, "</span>");
	} else {
		strbuf_addstr(sb, "<span class=\"muted\">none</span>");
	}
	strbuf_addstr(sb, "</td></tr>\n");
	if (a->culprit_info.subject) {
		strbuf_addf(sb, "<tr><th>Confidence</th><td><meter min=\"0\" max=\"1\" value=\"%.3f\"></meter> "
			    "<strong>%.2f</strong> <span class=\"muted\">", a->suspect_confidence, a->suspect_confidence);
		h(sb, a->confidence_how);
		strbuf_addstr(sb, "</span></td></tr>\n");
	}
	if (a->recommendation) {
		strbuf_addstr(sb, "<tr><th>Recommendation</th><td><strong>");
		h(sb, a->recommendation);
		strbuf_addstr(sb, "</strong> &mdash; ");
		h(sb, a->recommendation_reason);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "<tr><th>Metric</th><td>");
	h(sb, flame_metric_name(s->req.metric));
	strbuf_addstr(sb, ": median ");
	add_metric(sb, s, a->metric_med[0]);
	strbuf_addstr(sb, " &rarr; ");
	add_metric(sb, s, a->metric_med[1]);
	strbuf_addf(sb, " <strong class=\"%s\">%+.1f%%</strong> <span class=\"muted\">(95%% intervals ",
		    change > 0 ? "up" : "down", 100 * change);
	add_metric(sb, s, a->metric_lo[0]);
	strbuf_addstr(sb, "&ndash;");
	add_metric(sb, s, a->metric_hi[0]);
	strbuf_addstr(sb, " and ");
	add_metric(sb, s, a->metric_lo[1]);
	strbuf_addstr(sb, "&ndash;");
	add_metric(sb, s, a->metric_hi[1]);
	strbuf_addf(sb, "; Mann-Whitney p = %.3g; %zu + %zu runs)</span></td></tr>\n",
		    a->metric_p, s->st.nruns[0], s->st.nruns[1]);
	strbuf_addstr(sb, "<tr><th>Range</th><td>good ");
	commit_id(sb, a->good);
	strbuf_addstr(sb, " &rarr; bad ");
	commit_id(sb, a->bad);
	strbuf_addf(sb, " <span class=\"muted\">(%zu commits; %d builds, %d from the cache; %.0f s)</span>"
		    "</td></tr>\n</table></section>\n", a->commits_in_range, a->builds, a->cached_builds,
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
		    s->ans.offcpu_profile ? "off-CPU " : "");
	strbuf_addstr(sb, "<p class=\"links\">");
	for (n = ARTIFACTS; *n; n++)
		if (flame_report_has_file(f, *n)) {
			strbuf_addstr(sb, "<a href=\"");
			ha(sb, *n);
			strbuf_addstr(sb, "\">");
			h(sb, *n);
			strbuf_addstr(sb, "</a>");
		}
	strbuf_addstr(sb, "</p>\n");
	if (!diff_svg || !strstr(diff_svg, "<svg")) {
		strbuf_addstr(sb, "<p class=\"muted\">No differential flame graph: 'trail flamegraph' "
				  "was not available; diff.folded holds the data.</p></section>\n");
		return;
	}
	strbuf_addstr(sb, "<p class=\"muted\">Frames drawn from the bad profile, coloured by the change of "
			  "their share from good to bad (the legend is under the title); click a frame "
			  "to zoom, Ctrl-F to search.</p>\n");
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
	size_t i, nr = s->ans.hot.nr < 15 ? s->ans.hot.nr : 15;

	strbuf_addf(sb, "<section id=\"hotspots\"><h2>%s</h2>\n", s->ans.offcpu_profile ?
		    "Functions blocking longer (share of thread time, good &rarr; bad)" :
		    "Hotter functions (share of samples, good &rarr; bad)");
	if (!nr) {
		strbuf_addf(sb, "<p class=\"muted\">No function's share rose by %.1f pp or more.</p></section>\n",
			    100 * s->req.min_delta);
		return;
	}
	for (i = 0; i < nr; i++)
		if (s->ans.hot.items[i].delta_self > max)
			max = s->ans.hot.items[i].delta_self;
	strbuf_addstr(sb, "<table class=\"hot\"><thead><tr><th>function</th><th>self good</th><th>self bad</th>"
			  "<th>&Delta; self</th><th>&plusmn; se</th><th>total good</th><th>total bad</th>"
			  "<th>&Delta; total</th><th>confirmed</th></tr></thead><tbody>\n");
	for (i = 0; i < nr; i++) {
		const struct flame_hotspot *hs = &s->ans.hot.items[i];
		double w = max > 0 && hs->delta_self > 0 ? 60 * hs->delta_self / max : 0;

		strbuf_addstr(sb, "<tr><td>");
		code(sb, hs->name);
		strbuf_addf(sb, "</td><td class=\"n\">%.1f%%</td><td class=\"n\">%.1f%%</td>"
			    "<td class=\"n\"><span class=\"bar\" style=\"width:%.0fpx\"></span>%+.1f pp</td>"
			    "<td class=\"n\">%.1f pp</td><td class=\"n\">%.1f%%</td><td class=\"n\">%.1f%%</td>"
			    "<td class=\"n\">%+.1f pp</td><td>%s</td></tr>\n",
			    100 * hs->good_self.mean, 100 * hs->bad_self.mean, w, 100 * hs->delta_self,
			    100 * hs->se_self, 100 * hs->good_total.mean, 100 * hs->bad_total.mean,
			    100 * hs->delta_total, hs->confirmed ? "<strong>yes</strong>" : "no");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
}

static const char *suspect_subject(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->ans.nsuspects; i++)
		if (!strcmp(s->ans.suspects[i].commit.id, id))
			return s->ans.suspects[i].commit.subject;
	return !strcmp(s->ans.culprit_info.id, id) ? s->ans.culprit_info.subject : NULL;
}

/* Index of id in the range (oldest first), or -1. */
static long range_index(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->st.range.nr; i++)
		if (!strcmp(s->st.range.items[i], id))
			return (long)i;
	return -1;
}

/* Probes in range order (those not in the range last, in probe order). */
static size_t *probe_order(const struct flame_session *s)
{
	size_t *o = calloc(s->ans.nprobes ? s->ans.nprobes : 1, sizeof(*o)), i, j, n;

	if (!o)
		return NULL;
	for (i = 0; i < s->ans.nprobes; i++)
		o[i] = i;
	/* insertion sort: few probes, stable */
	for (i = 1; i < s->ans.nprobes; i++) {
		long ki = range_index(s, s->ans.probes[o[i]].id);

		n = o[i];
		for (j = i; j > 0; j--) {
			long kj = range_index(s, s->ans.probes[o[j - 1]].id);

			if ((unsigned long)ki >= (unsigned long)kj)
				break;
			o[j] = o[j - 1];
		}
		o[j] = n;
	}
	return o;
}

#define CH_W 720.0
#define CH_H 230.0
#define CH_L 64.0
#define CH_R 16.0
#define CH_T 14.0
#define CH_B 40.0

static double ch_y(double v, double lo, double hi)
{
	return CH_T + (CH_H - CH_T - CH_B) * (hi - v) / (hi - lo);
}

static void chart_point(struct strbuf *sb, double x, double y, const char *cls, const char *shape)
{
	if (!strcmp(shape, "square"))
		strbuf_addf(sb, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\"/>", cls, x - 4.5, y - 4.5);
	else
		strbuf_addf(sb, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/>", cls, x, y);
}

/*
 * The probes as a chart: x is the commit's place in good..bad (good at
 * 0), y the measured value; the threshold dashed; fast, slow and skip in
 * green, red and hollow grey; good and bad as squares.
 */
static void write_chart(const struct flame_session *s, const size_t *order, struct strbuf *sb)
{
	double lo = s->ans.threshold, hi = s->ans.threshold, x, y, span, last_label;
	size_t i, n = s->st.range.nr ? s->st.range.nr : s->ans.nprobes;
	double step;

	for (i = 0; i < 2; i++) {
		lo = fmin(lo, s->ans.share[i]);
		hi = fmax(hi, s->ans.share[i]);
	}
	for (i = 0; i < s->ans.nprobes; i++) {
		lo = fmin(lo, s->ans.probes[i].value);
		hi = fmax(hi, s->ans.probes[i].value);
	}
	span = hi - lo > 0 ? hi - lo : fabs(hi) > 0 ? fabs(hi) : 1;
	lo -= 0.12 * span;
	hi += 0.12 * span;
	if (lo < 0 && s->ans.threshold >= 0 && s->ans.share[0] >= 0)
		lo = 0;
	step = (CH_W - CH_L - CH_R) / (double)(n ? n : 1);
	strbuf_addf(sb, "<svg class=\"chart\" role=\"img\" aria-label=\"probe history\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		    "<style>.fast{fill:#2e7d32}.slow{fill:#c62828}.skip{fill:#fff;stroke:#8c959f;stroke-width:2}"
		    ".end{fill:#1565c0}.culprit{fill:none;stroke:#b26a00;stroke-width:2.5}</style>\n",
		    CH_W, CH_H, CH_W, CH_H);
	/* axes and y labels */
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d1d9e0\"/>",
		    CH_L, CH_H - CH_B, CH_W - CH_R, CH_H - CH_B);
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d1d9e0\"/>\n",
		    CH_L, CH_T, CH_L, CH_H - CH_B);
	for (i = 0; i <= 2; i++) {
		double v = lo + (hi - lo) * (double)i / 2;

		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", CH_L - 6, ch_y(v, lo, hi) + 4);
		add_value(sb, s, v);
		strbuf_addstr(sb, "</text>");
	}
	y = ch_y(s->ans.threshold, lo, hi);
	strbuf_addf(sb, "\n<line class=\"threshold\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#b26a00\" stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		    "threshold ", CH_L, y, CH_W - CH_R, y, CH_W - CH_R, y - 5);
	add_value(sb, s, s->ans.threshold);
	strbuf_addstr(sb, "</text>\n");
	/* good at x = 0, the range's commits at 1..n (bad is the last) */
	x = CH_L + step * 0.5;
	chart_point(sb, x, ch_y(s->ans.share[0], lo, hi), "end", "square");
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">good</text>", x, CH_H - CH_B + 16);
	last_label = x;
	for (i = 0; i < s->ans.nprobes; i++) {
		const struct flame_probe_result *p = &s->ans.probes[order[i]];
		long k = range_index(s, p->id);
		const char *subj = suspect_subject(s, p->id);
		const char *cls = p->verdict == FLAME_FAST ? "fast" : p->verdict == FLAME_SLOW ? "slow" : "skip";

		if (k < 0)
			k = (long)i;
		x = CH_L + step * ((double)k + 1.5);
		if (x > CH_W - CH_R)
			x = CH_W - CH_R - 4;
		y = ch_y(p->value, lo, hi);
		strbuf_addstr(sb, "<g class=\"probe\"><title>");
		escape_xml_text(sb, p->id, 12);
		strbuf_addstr(sb, " ");
		if (subj)
			escape_xml_text(sb, subj, strlen(subj));
		strbuf_addf(sb, "\n%s: ", flame_verdict_name(p->verdict));
		add_value(sb, s, p->value);
		strbuf_addf(sb, " (%u runs)</title>", p->runs);
		chart_point(sb, x, y, cls, "circle");
		if (!strcmp(p->id, s->ans.culprit))
			strbuf_addf(sb, "<circle class=\"culprit\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\"/>", x, y);
		strbuf_addstr(sb, "</g>\n");
		/* ids 7 characters wide: a label only where it does not overlap the last */
		if (x - last_label >= 50) {
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.7s</text>\n",
				    x, CH_H - CH_B + 16, p->id);
			last_label = x;
		}
	}
	if (s->st.range.nr && range_index(s, s->ans.bad) >= 0) {
		x = CH_L + step * ((double)range_index(s, s->ans.bad) + 1.5);
		if (x > CH_W - CH_R)
			x = CH_W - CH_R - 4;
		chart_point(sb, x, ch_y(s->ans.share[1], lo, hi), "end", "square");
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">bad</text>", x, CH_H - CH_B + 30);
	}
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\">%s per probed commit, in range order (good &#8594; bad)</text>\n",
		    CH_L, CH_H - 4, measure_name(s));
	strbuf_addstr(sb, "</svg>\n<p class=\"muted\"><span class=\"fast\">&#9679; fast</span> &nbsp; "
			  "<span class=\"slow\">&#9679; slow</span> &nbsp; <span class=\"skip\">&#9675; skip</span>"
			  " &nbsp; <span style=\"color:#1565c0\">&#9632; good / bad ends</span> &nbsp; "
			  "<span style=\"color:#b26a00\">&#9711; suspect &nbsp; - - threshold</span></p>\n");
}

static void write_probes(const struct flame_session *s, struct strbuf *sb)
{
	size_t *order, i;

	if (!s->ans.nprobes)
		return;
	order = probe_order(s);
	if (!order)
		return;
	strbuf_addstr(sb, "<section id=\"probes\"><h2>Probes</h2>\n<p>Strategy <strong>");
	h(sb, s->ans.strategy_used);
	strbuf_addstr(sb, "</strong>: ");
	h(sb, s->ans.strategy_reason);
	strbuf_addf(sb, ". Measured: %s; threshold between fast and slow ", measure_name(s));
	add_value(sb, s, s->ans.threshold);
	strbuf_addstr(sb, " (the midpoint of good and bad).</p>\n");
	write_chart(s, order, sb);
	strbuf_addstr(sb, "<table class=\"probes\"><thead><tr><th>commit</th><th>subject</th><th>measured</th>"
			  "<th>&plusmn; se</th><th>share</th><th>verdict</th><th>runs</th><th>build</th></tr>"
			  "</thead><tbody>\n");
	for (i = 0; i < s->ans.nprobes; i++) {
		const struct flame_probe_result *p = &s->ans.probes[order[i]];
		const char *v = flame_verdict_name(p->verdict);

		strbuf_addstr(sb, "<tr><td>");
		commit_id(sb, p->id);
		strbuf_addstr(sb, "</td><td>");
		h(sb, suspect_subject(s, p->id));
		strbuf_addstr(sb, "</td><td class=\"n\">");
		add_value(sb, s, p->value);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		add_value(sb, s, p->se);
		strbuf_addf(sb, "</td><td class=\"n\">%.1f%%</td><td class=\"%s\"><strong>", 100 * p->share,
			    p->verdict == FLAME_FAST ? "fast" : p->verdict == FLAME_SLOW ? "slow" : "skip");
		h(sb, v);
		strbuf_addstr(sb, "</strong>");
		if (p->verdict == FLAME_SKIP && p->why[0]) {
			strbuf_addstr(sb, " <span class=\"muted\">");
			h(sb, p->why);
			strbuf_addstr(sb, "</span>");
		}
		strbuf_addf(sb, "</td><td class=\"n\">%u</td><td>%s</td></tr>\n", p->runs,
			    p->build_cached ? "cached" : "built");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
	free(order);
}

static void write_suspects(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	if (!s->ans.nsuspects)
		return;
	strbuf_addstr(sb, "<section id=\"suspects\"><h2>Suspects</h2>\n<p class=\"muted\">Commits in the range "
			  "that touch the function or its callees.</p>\n<table><thead><tr><th>commit</th>"
			  "<th>subject</th><th>touches</th></tr></thead><tbody>\n");
	for (i = 0; i < s->ans.nsuspects; i++) {
		strbuf_addstr(sb, "<tr><td>");
		commit_id(sb, s->ans.suspects[i].commit.id);
		strbuf_addstr(sb, "</td><td>");
		h(sb, s->ans.suspects[i].commit.subject);
		strbuf_addf(sb, "</td><td>%s</td></tr>\n", s->ans.suspects[i].touches_function ?
			    "the function" : "a callee");
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
		h(sb, func);
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
	commit_id(sb, s->ans.culprit_info.id);
	if (func) {
		strbuf_addstr(sb, "; the hunks that name ");
		code(sb, func);
		if (s->ans.changed_function && strcmp(func, s->ans.changed_function)) {
			strbuf_addstr(sb, " or ");
			code(sb, s->ans.changed_function);
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
	h(sb, text);
	strbuf_addstr(sb, "</code></pre>\n");
}

static void write_handoffs(const struct flame_session *s, const struct flame_report_facts *f,
			   struct strbuf *sb)
{
	const char *fn = flame_session_named_function(s);
	int regression = s->ans.outcome == FLAME_OUTCOME_REGRESSION;
	struct strbuf c = STRBUF_INIT;
	size_t i;

	strbuf_addstr(sb, "<section id=\"handoffs\"><h2>Handoffs</h2>\n");
	if (s->ans.culprit_info.subject) {
		handoff_head(sb, "builder", "Fix", "revert or patch the suspect");
		flame_report_revert_cmd(s, &c);
		pre(sb, c.buf, 0);
		if (f->later.nr) {
			strbuf_addf(sb, "<p>Later commits in the range that touched %s (the revert may "
				    "conflict with them):</p>\n<ul>\n", f->later_by_function ?
				    "the same function (<code>git log -L</code>)" : "the same files");
			for (i = 0; i < f->later.nr; i++) {
				strbuf_addstr(sb, "<li>");
				commit_id(sb, f->later.items[i]);
				strbuf_addstr(sb, " ");
				h(sb, strlen(f->later.items[i]) > 41 ? f->later.items[i] + 41 : "");
				strbuf_addstr(sb, "</li>\n");
			}
			strbuf_addstr(sb, "</ul>\n");
		} else {
			strbuf_addf(sb, "<p class=\"muted\">No later commit in the range touched %s: "
				    "the revert should apply cleanly.</p>\n",
				    f->later_by_function ? "the function" : "the suspect's files");
		}
		strbuf_addstr(sb, "</div>\n");
	}
	if (regression || (s->ans.hot.nr && s->ans.hot.items[0].confirmed)) {
		handoff_head(sb, "bolt", "Optimise", "the hot code");
		strbuf_addstr(sb, "<table class=\"kv\">");
		strbuf_addstr(sb, "<tr><th>Hot function</th><td>");
		if (fn)
			code(sb, fn);
		else if (s->ans.hot.nr)
			code(sb, s->ans.hot.items[0].name);
		if (s->ans.def_file) {
			strbuf_addstr(sb, " in ");
			h(sb, s->ans.def_file);
			strbuf_addf(sb, ":%u", s->ans.def_line);
		}
		strbuf_addstr(sb, "</td></tr><tr><th>Hottest frame</th><td>");
		if (s->ans.frame) {
			code(sb, s->ans.frame);
			strbuf_addstr(sb, " <span class=\"muted\">(library or kernel code under the function)</span>");
		} else if (s->ans.hot.nr) {
			code(sb, s->ans.hot.items[0].name);
			strbuf_addf(sb, " %+.1f pp self share", 100 * s->ans.hot.items[0].delta_self);
		} else {
			strbuf_addstr(sb, "<span class=\"muted\">none rose</span>");
		}
		strbuf_addstr(sb, "</td></tr>");
		if (s->ans.culprit_info.subject) {
			strbuf_addstr(sb, "<tr><th>Suspect</th><td>");
			commit_id(sb, s->ans.culprit_info.id);
			strbuf_addstr(sb, " ");
			h(sb, s->ans.culprit_info.subject);
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
	strbuf_addf(sb, "<p>The %s median moved %+.1f%% from good to bad; the guard fails a change "
		    "%u%% or more slower than the baseline (significantly, Mann-Whitney):</p>\n",
		    flame_metric_name(s->req.metric),
		    100 * flame_report_change(s),
		    flame_report_guard_percent(s));
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
			h(sb, tab + 1);
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
	if (s->ans.strategy_used) {
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
	write_head(sb);
	strbuf_addstr(sb, "<h1>trail flame report</h1>\n");
	strbuf_addf(sb, "<div class=\"verdict %s\" id=\"verdict\" data-verdict=\"",
		    verdict_class(s->ans.verdict));
	ha(sb, s->ans.verdict);
	strbuf_addf(sb, "\"><div class=\"label\">%s</div><p>", verdict_label(s->ans.verdict));
	h(sb, s->ans.message);
	strbuf_addstr(sb, "</p></div>\n<nav><a href=\"#answer\">Answer</a><a href=\"#graph\">Flame graph</a>"
			  "<a href=\"#hotspots\">Hotspots</a>");
	if (s->ans.nsuspects)
		strbuf_addstr(sb, "<a href=\"#suspects\">Suspects</a>");
	if (s->ans.nprobes)
		strbuf_addstr(sb, "<a href=\"#probes\">Probes</a>");
	if (f->reading.len)
		strbuf_addstr(sb, "<a href=\"#reading\">Reading aids</a>");
	if (f->culprit_diff.len)
		strbuf_addstr(sb, "<a href=\"#commit\">Commit</a>");
	strbuf_addstr(sb, "<a href=\"#handoffs\">Handoffs</a><a href=\"#reproduce\">Reproduce</a></nav>\n");
	write_answer(s, sb);
	flame_report_html_culprits(s, sb);
	write_graph(s, f, diff_svg, sb);
	write_hotspots(s, sb);
	write_suspects(s, sb);
	write_probes(s, sb);
	write_reading(f, sb);
	write_commit_diff(s, f, sb);
	write_handoffs(s, f, sb);
	write_reproduce(s, sb);
	strbuf_addstr(sb, "</body></html>\n");
}
