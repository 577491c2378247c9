/*
 * report_html_text.c - the small writers every part of report.html uses
 * (see report_html_parts.h): escaped text, attributes and code, commit
 * ids, probed values and metrics in their units.
 */
#include "flame/report_html_parts.h"
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

/* A probed value (or an end's) in its unit: a share in percent, else %.4g. */
void flame_html_value(struct strbuf *sb, const struct flame_session *s, double v)
{
	if (flame_html_value_is_share(s))
		strbuf_addf(sb, "%.2f%%", 100 * v);
	else
		strbuf_addf(sb, "%.4g", v);
}

/* A value of the metric with its unit, microseconds shown as ms or s. */
void flame_html_metric(struct strbuf *sb, const struct flame_session *s, double v)
{
	const char *unit = flame_metric_unit(s->req.metric);

	if (!strcmp(unit, "us") && fabs(v) >= 1e6)
		strbuf_addf(sb, "%.3f s", v / 1e6);
	else if (!strcmp(unit, "us") && fabs(v) >= 1e3)
		strbuf_addf(sb, "%.1f ms", v / 1e3);
	else
		strbuf_addf(sb, "%.4g %s", v, unit);
}

const char *flame_html_measure(const struct flame_session *s)
{
	if (!s->ans.target.function)
		return flame_metric_name(s->req.metric);
	if (s->ans.target.measure_time)
		return s->ans.target.measure_total ? "inclusive CPU time against the unchanged functions' "
		       "(ratio)" : "own CPU time against the unchanged functions' (ratio)";
	if (s->ans.target.measure_total)
		return s->ans.target.measure_share ? "total share" : "total samples per run";
	return s->ans.target.measure_share ? "self share" : "self samples per run";
}
