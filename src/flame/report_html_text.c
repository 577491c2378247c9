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
		numfmt_value(sb, v, "samples/run", 0);
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
