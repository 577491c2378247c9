/*
 * plot.c - the SVG of a series (plot.h).  Layout: one panel for the
 * metric, one per --function, sharing the x axis (one slot per stored
 * commit, oldest left).  Every string that came from the repository
 * (subjects, function names, commands) is escaped for XML or HTML here.
 */
#include "history/plot.h"
#include "core/verdict.h"

#include "core/alloc.h"
#include "core/escape.h"
#include "core/numfmt.h"
#include "measure/metric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_WIDTH 1100.0
#define PLOT_LEFT 90.0
#define PLOT_RIGHT 30.0
#define PLOT_TOP 84.0	/* the title (y 22) clears the change labels' two rows above it */
#define METRIC_HEIGHT 240.0
#define FUNC_HEIGHT 150.0
#define PANEL_GAP 50.0

struct panel {
	double top, height, lo, hi;
};

static double px(const struct history_plot *p, size_t i)
{
	double w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT;

	return PLOT_LEFT + ((double)i + 0.5) * w / (double)(p->s->nr ? p->s->nr : 1);
}

static double py(const struct panel *pn, double v)
{
	double span = pn->hi > pn->lo ? pn->hi - pn->lo : 1;

	return pn->top + pn->height - (v - pn->lo) / span * pn->height;
}

static void attr(struct strbuf *out, const char *name, const char *v)
{
	strbuf_addf(out, " %s=\"", name);
	escape_xml_text(out, v, strlen(v));
	strbuf_addch(out, '"');
}

static void text(struct strbuf *out, const char *s)
{
	escape_xml_text(out, s, strlen(s));
}

static void panel_range(struct panel *pn, const double *lo, const double *hi, size_t n)
{
	size_t i;

	pn->lo = INFINITY;
	pn->hi = -INFINITY;
	for (i = 0; i < n; i++) {
		pn->lo = fmin(pn->lo, lo[i]);
		pn->hi = fmax(pn->hi, hi[i]);
	}
	if (!n || !isfinite(pn->lo)) {
		pn->lo = 0;
		pn->hi = 1;
	}
	if (pn->hi - pn->lo < 1e-12 * fabs(pn->hi) + 1e-12) {
		pn->lo -= 0.5;
		pn->hi += 0.5;
	}
	pn->lo -= (pn->hi - pn->lo) * 0.08;
	pn->hi += (pn->hi - pn->lo) * 0.08;
}

static void axes(struct strbuf *out, const struct history_plot *p, const struct panel *pn,
		 const char *label, const char *unit)
{
	struct strbuf tick = STRBUF_INIT;
	int t;

	strbuf_addf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		    PLOT_LEFT, pn->top, PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT, pn->height);
	for (t = 0; t <= 4; t++) {
		double v = pn->lo + (pn->hi - pn->lo) * t / 4;

		strbuf_reset(&tick);
		numfmt_value(&tick, v, unit, 0);	/* "63.9 ms", "8045035 bytes", "12.5 %" */
		strbuf_addf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">",
			    PLOT_LEFT, PLOT_WIDTH - PLOT_RIGHT, py(pn, v), py(pn, v), PLOT_LEFT - 6,
			    py(pn, v) + 4);
		text(out, tick.buf);
		strbuf_addstr(out, "</text>\n");
	}
	strbuf_release(&tick);
	strbuf_addf(out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">", PLOT_LEFT, pn->top - 8);
	text(out, label);
	strbuf_addstr(out, "</text>\n");
	(void)p;
}

/* One point: its interval, its dot and what hovering shows. */
static void point(struct strbuf *out, const struct history_plot *p, const struct panel *pn,
		  size_t i, double v, double lo, double hi, const char *what, const char *unit)
{
	const char *subject = p->subjects && p->subjects[i] ? p->subjects[i] : "";
	struct strbuf val = STRBUF_INIT;

	strbuf_addf(&val, "%s ", what);
	numfmt_interval(&val, v, lo, hi, unit, 0);
	strbuf_addf(out, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
		    px(p, i), px(p, i), py(pn, lo), py(pn, hi));
	strbuf_addf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"", px(p, i), py(pn, v));
	attr(out, "data-commit", p->s->pts[i].commit);
	attr(out, "data-subject", subject);
	attr(out, "data-value", val.buf);
	strbuf_addstr(out, "><title>");
	strbuf_addf(out, "%.12s ", p->s->pts[i].commit);
	text(out, subject);
	strbuf_addstr(out, ": ");
	text(out, val.buf);
	strbuf_addstr(out, "</title></circle>\n");
	strbuf_release(&val);
}

static void line_through(struct strbuf *out, const struct history_plot *p, const struct panel *pn,
			 const double *v, const char *cls)
{
	size_t i;

	strbuf_addf(out, "<polyline class=\"%s\" points=\"", cls);
	for (i = 0; i < p->s->nr; i++)
		strbuf_addf(out, "%s%.1f,%.1f", i ? " " : "", px(p, i), py(pn, v[i]));
	strbuf_addstr(out, "\"/>\n");
}

static void change_marks(struct strbuf *out, const struct history_plot *p, double top, double bottom)
{
	size_t i, j;

	for (i = 0; i < p->nchanges; i++) {
		const struct history_change *c = &p->changes[i];
		double x = (px(p, c->index - 1) + px(p, c->index)) / 2;
		char label[300];
		int n = snprintf(label, sizeof(label), "%+.1f%%", c->change * 100);

		for (j = 0; j < c->nmoved && j < 2 && n > 0 && (size_t)n < sizeof(label); j++)
			n += snprintf(label + n, sizeof(label) - (size_t)n, " %s", c->moved[j].name);
		strbuf_addf(out, "<g class=\"change %s\" data-index=\"%zu\">"
			    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\">", trail_direction_name(c->slower ? DIRECTION_SLOWER : DIRECTION_FASTER), i + 1,
			    x, x, top - 22, bottom, x + 3, top - 26 - 14.0 * (double)(i % 2));
		strbuf_addf(out, "#%zu ", i + 1);
		text(out, label);
		strbuf_addstr(out, "</text></g>\n");
	}
}

/* Where commit pos of the range lies on the x axis: between the stored points around it. */
static double pos_x(const struct history_plot *p, size_t pos)
{
	size_t j;

	for (j = 0; j < p->s->nr && p->s->pts[j].pos < pos; j++)
		;
	if (!p->s->nr)
		return PLOT_LEFT + 8;
	if (j == 0)
		return px(p, 0) - 8;
	if (j == p->s->nr)
		return px(p, p->s->nr - 1) + 8;
	return px(p, j - 1) + (px(p, j) - px(p, j - 1)) * (double)(pos - p->s->pts[j - 1].pos) /
	       (double)(p->s->pts[j].pos - p->s->pts[j - 1].pos);
}

/*
 * The x axis: short commit ids under the panels (a dozen at most, evenly
 * spread), and a red cross at the metric panel's bottom for every commit
 * stored as failing to build or run, where it lies between the points.
 */
static void commit_axis(struct strbuf *out, const struct history_plot *p, double metric_bottom,
			double y)
{
	size_t i, step = p->s->nr > 12 ? (p->s->nr + 11) / 12 : 1;

	for (i = 0; i < p->s->nr; i += step)
		strbuf_addf(out, "<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\">%.7s</text>\n",
			    px(p, i), y, p->s->pts[i].commit);
	for (i = 0; p->ids && i < p->s->failed; i++) {
		size_t pos = p->s->failed_pos[i];
		double x = pos_x(p, pos);

		if (pos >= p->ids->nr)
			continue;
		strbuf_addf(out, "<text class=\"failed\" x=\"%.1f\" y=\"%.1f\"", x, metric_bottom - 4);
		attr(out, "data-commit", p->ids->items[pos]);
		strbuf_addf(out, ">&#215;<title>%.12s %s</title></text>\n", p->ids->items[pos],
			    p->s->failed_status[i] == HISTORY_BUILD_FAILED ? "did not build" : "did not run");
	}
}

static const char plot_style[] =
	"<style>\n"
	"text { font-family: Verdana, sans-serif; font-size: 11px; fill: #222; }\n"
	".frame { fill: #fbfbf8; stroke: #999; }\n.grid { stroke: #e4e4e4; }\n"
	".tick { text-anchor: end; fill: #666; }\n.label { font-weight: bold; }\n"
	".xtick { text-anchor: middle; fill: #666; font-family: monospace; }\n"
	".failed { text-anchor: middle; fill: #c0392b; font-size: 14px; font-weight: bold; }\n"
	".ci { stroke: #7a8fb8; stroke-width: 2; }\n.metric { fill: none; stroke: #3a5a9a; stroke-width: 1.5; }\n"
	".share { fill: none; stroke: #b0602a; stroke-width: 1.5; }\n"
	".pt { fill: #3a5a9a; cursor: pointer; }\n.pt:hover, .pt.hover { fill: #e0302a; }\n"
	".change line { stroke-dasharray: 5,4; stroke-width: 1.5; }\n"
	".change.slower line { stroke: #c0392b; } .change.faster line { stroke: #27874a; }\n"
	".change.slower text { fill: #c0392b; } .change.faster text { fill: #27874a; }\n"
	"#details { font-family: monospace; font-size: 12px; }\n"
	"</style>\n";

/* Hover: the details line shows the point's commit, subject and value. */
static const char plot_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"(function () {\n"
	"\tvar svg = document.getElementById('trail-history');\n"
	"\tvar details = document.getElementById('details');\n"
	"\tvar idle = details.textContent;\n"
	"\tfunction show(e) {\n"
	"\t\tvar t = e.target;\n"
	"\t\tif (!t.classList || !t.classList.contains('pt')) return;\n"
	"\t\tt.classList.add('hover');\n"
	"\t\tdetails.textContent = t.getAttribute('data-commit').substring(0, 12) + ' ' +\n"
	"\t\t\tt.getAttribute('data-subject') + ': ' + t.getAttribute('data-value');\n"
	"\t}\n"
	"\tfunction hide(e) {\n"
	"\t\tvar t = e.target;\n"
	"\t\tif (!t.classList || !t.classList.contains('pt')) return;\n"
	"\t\tt.classList.remove('hover');\n"
	"\t\tdetails.textContent = idle;\n"
	"\t}\n"
	"\tsvg.addEventListener('mouseover', show);\n"
	"\tsvg.addEventListener('mouseout', hide);\n"
	"\tsvg.setAttribute('data-ready', '1');\n"
	"})();\n"
	"]]></script>\n";

static void svg(const struct history_plot *p, struct strbuf *out, int inline_html)
{
	size_t nf = p->functions ? p->functions->nr : 0, i, k;
	double height = PLOT_TOP + METRIC_HEIGHT + (double)nf * (FUNC_HEIGHT + PANEL_GAP) + 60;
	double *v = xmallocarray(p->s->nr + 1, sizeof(double));
	double *lo = xmallocarray(p->s->nr + 1, sizeof(double));
	double *hi = xmallocarray(p->s->nr + 1, sizeof(double));
	struct panel pn;
	char label[200];
	const struct flame_metric_def *md = flame_metric_find(p->s->metric);
	int counted = md && md->deterministic;

	if (!inline_html)
		strbuf_addstr(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	strbuf_addf(out, "<svg id=\"trail-history\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		    PLOT_WIDTH, height, PLOT_WIDTH, height);
	strbuf_addstr(out, plot_style);
	strbuf_addf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n",
		    PLOT_WIDTH, height);
	strbuf_addf(out, "<text x=\"%.1f\" y=\"22\" style=\"font-size:16px\">", PLOT_WIDTH / 2 - 200);
	text(out, p->title ? p->title : "trail history");
	strbuf_addstr(out, "</text>\n");
	strbuf_addf(out, "<text id=\"details\" x=\"%.1f\" y=\"%.1f\">hover a point for its commit</text>\n",
		    PLOT_LEFT, height - 20);
	for (i = 0; i < p->s->nr; i++) {
		v[i] = p->s->pts[i].med;
		lo[i] = p->s->pts[i].lo;
		hi[i] = p->s->pts[i].hi;
	}
	pn.top = PLOT_TOP;
	pn.height = METRIC_HEIGHT;
	panel_range(&pn, lo, hi, p->s->nr);
	snprintf(label, sizeof(label), "%s (%s): median and 95%% interval per commit", p->s->metric,
		 p->s->unit);
	axes(out, p, &pn, label, p->s->unit);
	line_through(out, p, &pn, v, "metric");
	for (i = 0; i < p->s->nr; i++)
		point(out, p, &pn, i, v[i], lo[i], hi[i], p->s->metric, p->s->unit);
	for (k = 0; k < nf; k++) {
		const char *f = p->functions->items[k];

		for (i = 0; i < p->s->nr; i++) {
			const struct history_point *pt = &p->s->pts[i];
			double n = pt->r->samples, x = history_result_count(pt->r, f, 0);
			/* a share of counted instructions has no sampling error */
			double share = n > 0 ? x / n : 0, se = n > 0 && !counted ? sqrt(share * (1 - share) / n) : 0;

			v[i] = 100 * share;
			lo[i] = 100 * fmax(0, share - 1.96 * se);
			hi[i] = 100 * fmin(1, share + 1.96 * se);
		}
		pn.top = PLOT_TOP + METRIC_HEIGHT + PANEL_GAP + (double)k * (FUNC_HEIGHT + PANEL_GAP);
		pn.height = FUNC_HEIGHT;
		panel_range(&pn, lo, hi, p->s->nr);
		snprintf(label, sizeof(label), "%.150s: self share of %s (%%)", f,
			 flame_metric_share_of(p->s->metric));
		axes(out, p, &pn, label, "%");
		line_through(out, p, &pn, v, "share");
		for (i = 0; i < p->s->nr; i++)
			point(out, p, &pn, i, v[i], lo[i], hi[i], "share", "%");
	}
	change_marks(out, p, PLOT_TOP, height - 50);
	commit_axis(out, p, PLOT_TOP + METRIC_HEIGHT, height - 46);
	strbuf_addstr(out, plot_script);
	strbuf_addstr(out, "</svg>\n");
	free(v);
	free(lo);
	free(hi);
}

static void html_table(const struct history_plot *p, struct strbuf *out)
{
	size_t i, j;

	strbuf_addstr(out, "<h2>Change points</h2>\n<table id=\"changes\">\n<tr><th>#</th><th>last before</th>"
		      "<th>first after</th><th>change</th><th>95% interval</th><th>direction</th>"
		      "<th>functions that moved</th><th>commit (bisected)</th></tr>\n");
	for (i = 0; i < p->nchanges; i++) {
		const struct history_change *c = &p->changes[i];
		const struct history_point *a = &p->s->pts[c->index - 1], *b = &p->s->pts[c->index];

		strbuf_addf(out, "<tr><td>%zu</td><td><code>%.12s</code></td><td><code>%.12s</code></td>"
			    "<td>%+.1f%%</td><td>[%+.1f%%, %+.1f%%]</td><td>%s</td><td>", i + 1, a->commit,
			    b->commit, c->change * 100, c->lo * 100, c->hi * 100,
			    trail_direction_name(c->slower ? DIRECTION_SLOWER : DIRECTION_FASTER));
		for (j = 0; j < c->nmoved; j++) {
			strbuf_addstr(out, j ? ", " : "");
			escape_html_text(out, c->moved[j].name, strlen(c->moved[j].name));
			strbuf_addf(out, " (%.1f%% &#8594; %.1f%%)", 100 * c->moved[j].before,
				    100 * c->moved[j].after);
		}
		strbuf_addstr(out, "</td><td>");
		if (c->culprit[0])
			strbuf_addf(out, "<code>%.12s</code>", c->culprit);
		/* several commits could be it: those not built are marked */
		for (j = 0; !c->culprit[0] && j < c->candidates.nr; j++)
			strbuf_addf(out, "%s<code>%.12s</code>%s", j ? ", " : "one of ",
				    c->candidates.items[j],
				    string_list_has(&c->untested, c->candidates.items[j]) ?
				    " (not built)" : "");
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
}

void history_plot_write(const struct history_plot *p, int html, struct strbuf *out)
{
	if (!html) {
		svg(p, out, 0);
		return;
	}
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
	escape_html_text(out, p->title ? p->title : "trail history",
			 strlen(p->title ? p->title : "trail history"));
	strbuf_addstr(out, "</title>\n<style>body { font-family: sans-serif; margin: 1em 2em; }\n"
		      "table { border-collapse: collapse; } td, th { border: 1px solid #ccc; "
		      "padding: 3px 8px; text-align: left; }</style></head>\n<body>\n");
	svg(p, out, 1);
	html_table(p, out);
	strbuf_addstr(out, "</body></html>\n");
}
