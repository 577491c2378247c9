/*
 * report_html_parts.h - the pieces report.html is written from, shared by
 * report_html.c (the page), report_html_probes.c (probes and suspects)
 * and report_html_text.c (escaped text and values).  Every string from
 * outside goes through core/escape.h.
 */
#ifndef TRAIL_FLAME_REPORT_HTML_PARTS_H
#define TRAIL_FLAME_REPORT_HTML_PARTS_H

#include "core/strbuf.h"
#include "flame/investigation.h"

/* Escaped HTML text / attribute value / <code>; NULL writes nothing. */
void flame_html_text(struct strbuf *sb, const char *s);
void flame_html_attr(struct strbuf *sb, const char *s);
void flame_html_code(struct strbuf *sb, const char *s);
/* A commit id shown short, the full one in a tooltip. */
void flame_html_commit(struct strbuf *sb, const char *id);
/* Whether probed values are shares (shown in percent). */
int flame_html_value_is_share(const struct flame_session *s);
/* A probed value (or an end's) in its unit (core/numfmt.h); report.md's too. */
void flame_html_value(struct strbuf *sb, const struct flame_session *s, double v);
/* A value of the metric with its unit, microseconds shown as ms or s. */
void flame_html_metric(struct strbuf *sb, const struct flame_session *s, double v);
/*
 * A flat profile's "the time rose across a, b (inclusive share +2.9 pp,
 * +1.1 pp; none confirmed alone)", names written for the terminal
 * (FLAME_TEXT_TERM), report.md or report.html: the same sentence in all
 * three.  0 (nothing written) when no hotspot's inclusive share rose.
 */
enum flame_text { FLAME_TEXT_TERM, FLAME_TEXT_MD, FLAME_TEXT_HTML };
int flame_report_rose_across(const struct flame_session *s, struct strbuf *sb, enum flame_text how);
/* What the probes measured ("self share", "total samples per run", the metric). */
const char *flame_html_measure(const struct flame_session *s);

/* The sections of probes (chart and table) and of suspects. */
void flame_report_html_probes(const struct flame_session *s, struct strbuf *sb);
void flame_report_html_suspects(const struct flame_session *s, struct strbuf *sb);

#endif
