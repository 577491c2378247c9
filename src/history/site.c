/*
 * site.c - the index of 'trail history site' and the frame of its bench
 * pages (site.h): plain HTML and inline SVG, no script and nothing
 * fetched from elsewhere, so a page reads the same from file://, from
 * GitHub or GitLab Pages, and without JavaScript.
 */
#include "history/site.h"

#include "core/escape.h"
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SPARK_W 160.0
#define SPARK_H 32.0

static const char site_style[] =
	"<style>body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse}"
	"td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:middle}"
	".bad{color:#b00;font-weight:bold}.ok{color:#070}img.diff{max-width:100%;border:1px solid #ccc}"
	"</style>\n";

static void html(struct strbuf *out, const char *s)
{
	escape_html_text(out, s, strlen(s));
}

void history_site_sparkline(const struct history_series *s, const struct history_change *c,
			    size_t nc, struct strbuf *out)
{
	double lo = INFINITY, hi = -INFINITY, span;
	size_t i;

	strbuf_addf(out, "<svg class=\"sparkline\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		    "xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">", SPARK_W, SPARK_H, SPARK_W, SPARK_H);
	for (i = 0; i < s->nr; i++) {
		lo = fmin(lo, s->pts[i].med);
		hi = fmax(hi, s->pts[i].med);
	}
	span = hi > lo ? hi - lo : 1;
#define SX(i) (2 + ((double)(i) + 0.5) * (SPARK_W - 4) / (double)(s->nr ? s->nr : 1))
#define SY(v) (SPARK_H - 3 - ((v) - lo) / span * (SPARK_H - 6))
	for (i = 0; i < nc; i++)
		strbuf_addf(out, "<line class=\"change\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.0f\" "
			    "stroke=\"%s\" stroke-dasharray=\"2,2\"/>", (SX(c[i].index - 1) + SX(c[i].index)) / 2,
			    (SX(c[i].index - 1) + SX(c[i].index)) / 2, SPARK_H, c[i].slower ? "#c00" : "#06c");
	strbuf_addstr(out, "<polyline fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\" points=\"");
	for (i = 0; i < s->nr; i++)
		strbuf_addf(out, "%s%.1f,%.1f", i ? " " : "", SX(i), SY(s->pts[i].med));
	strbuf_addstr(out, "\"/>");
	if (s->nr)
		strbuf_addf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#333\"/>", SX(s->nr - 1),
			    SY(s->pts[s->nr - 1].med));
#undef SX
#undef SY
	strbuf_addstr(out, "</svg>");
}

static void index_row(const struct history_site_bench *b, struct strbuf *out)
{
	const struct history_series *s = b->s;
	size_t i, shown = 0;

	strbuf_addstr(out, "<tr class=\"bench\"><td><a href=\"");
	escape_html_attr(out, b->page, strlen(b->page));
	strbuf_addstr(out, "\">");
	html(out, b->name);
	strbuf_addstr(out, "</a></td><td>");
	history_site_sparkline(s, b->changes, b->nchanges, out);
	strbuf_addstr(out, "</td><td>");
	if (s->nr) {
		const struct history_point *p = &s->pts[s->nr - 1];

		struct strbuf v = STRBUF_INIT;

		numfmt_interval(&v, p->med, p->lo, p->hi, s->unit, 0);
		html(out, v.buf);
		strbuf_release(&v);
		strbuf_addf(out, " at <code>%.12s</code>", p->commit);
	}
	strbuf_addstr(out, "</td><td>");
	for (i = b->nchanges; i-- > 0 && shown < 3; shown++) {
		const struct history_change *c = &b->changes[i];

		strbuf_addf(out, "%s<a href=\"", shown ? "<br>" : "");
		escape_html_attr(out, b->page, strlen(b->page));
		strbuf_addf(out, "#change-%zu\" class=\"%s\">%+.1f%% at <code>%.12s</code></a>", i + 1,
			    c->slower ? "bad" : "ok", 100 * c->change, c->culprit[0] ? c->culprit :
			    s->pts[c->index].commit);
	}
	if (!b->nchanges)
		strbuf_addstr(out, "none");
	strbuf_addf(out, "</td><td class=\"%s\">", b->regression ? "bad" : "ok");
	html(out, b->guard);
	strbuf_addstr(out, "</td><td");
	if (b->budget) {
		strbuf_addf(out, " class=\"%s\">", b->budget_broken ? "bad" : "ok");
		html(out, b->budget);
	} else {
		strbuf_addstr(out, ">-");
	}
	strbuf_addstr(out, "</td></tr>\n");
}

void history_site_index(const struct history_site_bench *b, size_t n, const char *title,
			struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
	html(out, title);
	strbuf_addstr(out, "</title>\n");
	strbuf_addstr(out, site_style);
	strbuf_addstr(out, "</head><body>\n<h1>");
	html(out, title);
	strbuf_addstr(out, "</h1>\n<table id=\"benches\"><thead><tr><th>bench</th><th>history</th>"
		      "<th>last value [95% interval]</th><th>latest change points</th><th>guard</th>"
		      "<th>budget</th></tr></thead><tbody>\n");
	for (i = 0; i < n; i++)
		index_row(&b[i], out);
	strbuf_addstr(out, "</tbody></table>\n<p>Made by trail history site from the notes under "
		      "refs/notes/trail and refs/notes/trail-profiles.</p>\n</body></html>\n");
}

void history_site_page_head(const char *bench, struct strbuf *out)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
	html(out, bench);
	strbuf_addstr(out, " - trail history</title>\n");
	strbuf_addstr(out, site_style);
	strbuf_addstr(out, "</head><body>\n<p><a href=\"index.html\">all benches</a></p>\n<h1>");
	html(out, bench);
	strbuf_addstr(out, "</h1>\n");
}
