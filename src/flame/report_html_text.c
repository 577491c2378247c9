/*
 * report_html_text.c - the small writers every part of report.html uses
 * (see report_html_parts.h): escaped text, attributes and code, commit
 * ids, probed values and metrics in their units.
 */
#include "flame/report_html_parts.h"
#include "core/numfmt.h"
#include "core/escape.h"

#include <math.h>
#include <string.h>

void flame_html_text(struct strbuf *sb, const char *s)
{
	if (s)
		escape_html_text(sb, s, strlen(s));
}

void flame_html_attr(struct strbuf *sb, const char *s)
{
	if (s)
		escape_html_attr(sb, s, strlen(s));
}

void flame_html_code(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<code>");
	flame_html_text(sb, s);
	strbuf_addstr(sb, "</code>");
}

/* A commit id shown short, the full one in a tooltip. */
void flame_html_commit(struct strbuf *sb, const char *id)
{
	strbuf_addstr(sb, "<code class=\"id\" title=\"");
	flame_html_attr(sb, id);
	strbuf_addf(sb, "\">%.12s</code>", id);
}

int flame_html_value_is_share(const struct flame_session *s)
{
	return s->ans.target.function && s->ans.target.measure_share;
}

/*
 * A probed value (or an end's) in its unit (core/numfmt.h): a share in
 * percent, a time per run in ms or s, samples per run as a count, the
 * metric in its own unit.  report.md and report.html write it alike.
 */
void flame_html_value(struct strbuf *sb, const struct flame_session *s, double v)
{
	if (flame_html_value_is_share(s))
		numfmt_percent(sb, v, 0);
	else if (!s->ans.target.function)
		numfmt_value(sb, v, flame_metric_unit(s->req.metric), 0);
	else if (s->ans.target.measure_time)
		numfmt_value(sb, v, "ms", 0);
	else
		numfmt_value(sb, v, flame_metric_per_run(s->req.metric), 0);
}

/* A value of the metric with its unit, microseconds shown as ms or s. */
void flame_html_metric(struct strbuf *sb, const struct flame_session *s, double v)
{
	numfmt_value(sb, v, flame_metric_unit(s->req.metric), 0);
}

const char *flame_html_measure(const struct flame_session *s)
{
	if (!s->ans.target.function)
		return flame_metric_name(s->req.metric);
	if (s->ans.target.measure_time)
		return s->ans.target.measure_lib ? "CPU time with the library code under it against "
		       "the unchanged functions' "
		       "(ratio)" : "own CPU time against the unchanged functions' (ratio)";
	if (s->ans.target.measure_lib)
		return s->ans.target.measure_share ? "self share with the library code under it" :
		       "self samples per run with the library code under it";
	return s->ans.target.measure_share ? "self share" : "self samples per run";
}

/*
 * A flat profile: no function's rise was confirmed alone, but the time
 * still rose somewhere: the (at most three) hotspots whose inclusive
 * share rose (report_html_parts.h: report.md and the terminal use it too).
 */
int flame_report_rose_across(const struct flame_session *s, struct strbuf *sb, enum flame_text how)
{
	const struct flame_hotspots *h = &s->ans.target.hot;
	size_t i, k[3], n = 0;

	for (i = 0; i < h->nr && n < 3; i++)
		if (h->items[i].delta_total > 0)
			k[n++] = i;
	if (!n)
		return 0;
	strbuf_addstr(sb, "the time rose across ");
	for (i = 0; i < n; i++) {
		const char *name = h->items[k[i]].name;

		strbuf_addstr(sb, i ? ", " : "");
		if (how == FLAME_TEXT_MD)
			escape_md_code(sb, name, strlen(name), 0);
		else if (how == FLAME_TEXT_HTML)
			flame_html_code(sb, name);
		else
			escape_term(sb, name, strlen(name));
	}
	strbuf_addstr(sb, " (inclusive share ");
	for (i = 0; i < n; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		numfmt_pp(sb, h->items[k[i]].delta_total, NUMFMT_SIGN);
	}
	strbuf_addstr(sb, n > 1 ? "; none confirmed alone)" : "; not confirmed alone)");
	return 1;
}
