/*
 * report_html_probes.c - report.html's tables of probes (with the small
 * SVG chart of the probed values in range order) and of suspects (see
 * report_html_parts.h).
 */
#include "flame/report_html_parts.h"
#include "core/verdict.h"
#include "core/alloc.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *suspect_subject(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->ans.suspects.count; i++)
		if (!strcmp(s->ans.suspects.list[i].commit.id, id))
			return s->ans.suspects.list[i].commit.subject;
	return !strcmp(s->ans.narrow.culprit_info.id, id) ? s->ans.narrow.culprit_info.subject : NULL;
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
	size_t *o = calloc(s->ans.narrow.nprobes ? s->ans.narrow.nprobes : 1, sizeof(*o)), i, j, n;

	if (!o)
		return NULL;
	for (i = 0; i < s->ans.narrow.nprobes; i++)
		o[i] = i;
	/* insertion sort: few probes, stable */
	for (i = 1; i < s->ans.narrow.nprobes; i++) {
		long ki = range_index(s, s->ans.narrow.probes[o[i]].id);

		n = o[i];
		for (j = i; j > 0; j--) {
			long kj = range_index(s, s->ans.narrow.probes[o[j - 1]].id);

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
	double lo = s->ans.target.threshold, hi = s->ans.target.threshold, x, y, span, last_label;
	size_t i, n = s->st.range.nr ? s->st.range.nr : s->ans.narrow.nprobes;
	double step;

	for (i = 0; i < 2; i++) {
		lo = fmin(lo, s->ans.target.share[i]);
		hi = fmax(hi, s->ans.target.share[i]);
	}
	for (i = 0; i < s->ans.narrow.nprobes; i++) {
		lo = fmin(lo, s->ans.narrow.probes[i].value);
		hi = fmax(hi, s->ans.narrow.probes[i].value);
	}
	span = hi - lo > 0 ? hi - lo : fabs(hi) > 0 ? fabs(hi) : 1;
	lo -= 0.12 * span;
	hi += 0.12 * span;
	if (lo < 0 && s->ans.target.threshold >= 0 && s->ans.target.share[0] >= 0)
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
		flame_html_value(sb, s, v);
		strbuf_addstr(sb, "</text>");
	}
	y = ch_y(s->ans.target.threshold, lo, hi);
	strbuf_addf(sb, "\n<line class=\"threshold\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		    "stroke=\"#b26a00\" stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
		    "threshold ", CH_L, y, CH_W - CH_R, y, CH_W - CH_R, y - 5);
	flame_html_value(sb, s, s->ans.target.threshold);
	strbuf_addstr(sb, "</text>\n");
	/* good at x = 0, the range's commits at 1..n (bad is the last) */
	x = CH_L + step * 0.5;
	chart_point(sb, x, ch_y(s->ans.target.share[0], lo, hi), "end", "square");
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">good</text>", x, CH_H - CH_B + 16);
	last_label = x;
	for (i = 0; i < s->ans.narrow.nprobes; i++) {
		const struct flame_probe_result *p = &s->ans.narrow.probes[order[i]];
		long k = range_index(s, p->id);
		const char *subj = suspect_subject(s, p->id);
		const char *cls = trail_probe_verdict_name(p->verdict);

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
		strbuf_addf(sb, "\n%s: ", trail_probe_verdict_name(p->verdict));
		flame_html_value(sb, s, p->value);
		strbuf_addf(sb, " (%u runs)</title>", p->runs);
		chart_point(sb, x, y, cls, "circle");
		if (!strcmp(p->id, s->ans.narrow.culprit))
			strbuf_addf(sb, "<circle class=\"culprit\" cx=\"%.1f\" cy=\"%.1f\" r=\"9\"/>", x, y);
		strbuf_addstr(sb, "</g>\n");
		/* ids 7 characters wide: a label only where it does not overlap the last */
		if (x - last_label >= 50) {
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.7s</text>\n",
				    x, CH_H - CH_B + 16, p->id);
			last_label = x;
		}
	}
	if (s->st.range.nr && range_index(s, s->ans.ends.bad) >= 0) {
		x = CH_L + step * ((double)range_index(s, s->ans.ends.bad) + 1.5);
		if (x > CH_W - CH_R)
			x = CH_W - CH_R - 4;
		chart_point(sb, x, ch_y(s->ans.target.share[1], lo, hi), "end", "square");
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">bad</text>", x, CH_H - CH_B + 30);
	}
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\">%s per probed commit, in range order (good &#8594; bad)</text>\n",
		    CH_L, CH_H - 4, flame_html_measure(s));
	strbuf_addstr(sb, "</svg>\n<p class=\"muted\"><span class=\"fast\">&#9679; fast</span> &nbsp; "
			  "<span class=\"slow\">&#9679; slow</span> &nbsp; <span class=\"skip\">&#9675; skip</span>"
			  " &nbsp; <span style=\"color:#1565c0\">&#9632; good / bad ends</span> &nbsp; "
			  "<span style=\"color:#b26a00\">&#9711; suspect &nbsp; - - threshold</span></p>\n");
}

void flame_report_html_probes(const struct flame_session *s, struct strbuf *sb)
{
	size_t *order, i;

	if (!s->ans.narrow.nprobes)
		return;
	order = probe_order(s);
	if (!order)
		return;
	strbuf_addstr(sb, "<section id=\"probes\"><h2>Probes</h2>\n<p>Strategy <strong>");
	flame_html_text(sb, s->ans.narrow.strategy_used);
	strbuf_addstr(sb, "</strong>: ");
	flame_html_text(sb, s->ans.narrow.strategy_reason);
	strbuf_addf(sb, ". Measured: %s; threshold between fast and slow ", flame_html_measure(s));
	flame_html_value(sb, s, s->ans.target.threshold);
	strbuf_addstr(sb, " (the midpoint of good and bad).</p>\n");
	write_chart(s, order, sb);
	strbuf_addstr(sb, "<table class=\"probes\"><thead><tr><th>commit</th><th>subject</th><th>measured</th>"
			  "<th>&plusmn; se</th><th>share</th><th>verdict</th><th>runs</th><th>build</th>");
	strbuf_addstr(sb, s->ans.fleet.used ? "<th>host</th></tr></thead><tbody>\n" :
					      "</tr></thead><tbody>\n");
	for (i = 0; i < s->ans.narrow.nprobes; i++) {
		const struct flame_probe_result *p = &s->ans.narrow.probes[order[i]];
		const char *v = trail_probe_verdict_name(p->verdict);

		strbuf_addstr(sb, "<tr><td>");
		flame_html_commit(sb, p->id);
		strbuf_addstr(sb, "</td><td>");
		flame_html_text(sb, suspect_subject(s, p->id));
		strbuf_addstr(sb, "</td><td class=\"n\">");
		flame_html_value(sb, s, p->value);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		flame_html_value(sb, s, p->se);
		strbuf_addf(sb, "</td><td class=\"n\">%.1f%%</td><td class=\"%s\"><strong>", 100 * p->share,
			    trail_probe_verdict_name(p->verdict));
		flame_html_text(sb, v);
		strbuf_addstr(sb, "</strong>");
		if (p->verdict == PROBE_SKIP && p->why[0]) {
			strbuf_addstr(sb, " <span class=\"muted\">");
			flame_html_text(sb, p->why);
			strbuf_addstr(sb, "</span>");
		}
		strbuf_addf(sb, "</td><td class=\"n\">%u</td><td>%s</td>", p->runs,
			    p->build_cached ? "cached" : "built");
		if (s->ans.fleet.used) {
			strbuf_addstr(sb, "<td><code>");
			flame_html_text(sb, p->host[0] ? p->host : "local");
			strbuf_addstr(sb, "</code></td>");
		}
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
	free(order);
}

void flame_report_html_suspects(const struct flame_session *s, struct strbuf *sb)
{
	size_t i;

	if (!s->ans.suspects.count)
		return;
	strbuf_addstr(sb, "<section id=\"suspects\"><h2>Suspects</h2>\n<p class=\"muted\">Commits in the range "
			  "that touch the function or its callees.</p>\n<table><thead><tr><th>commit</th>"
			  "<th>subject</th><th>touches</th></tr></thead><tbody>\n");
	for (i = 0; i < s->ans.suspects.count; i++) {
		strbuf_addstr(sb, "<tr><td>");
		flame_html_commit(sb, s->ans.suspects.list[i].commit.id);
		strbuf_addstr(sb, "</td><td>");
		flame_html_text(sb, s->ans.suspects.list[i].commit.subject);
		strbuf_addf(sb, "</td><td>%s</td></tr>\n", s->ans.suspects.list[i].touches_function ?
			    "the function" : "a callee");
	}
	strbuf_addstr(sb, "</tbody></table></section>\n");
}

