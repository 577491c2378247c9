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
/* A probed value (or an end's) in its unit: a share in percent, else %.4g. */
void flame_html_value(struct strbuf *sb, const struct flame_session *s, double v);
/* A value of the metric with its unit, microseconds shown as ms or s. */
void flame_html_metric(struct strbuf *sb, const struct flame_session *s, double v);
/* What the probes measured ("self share", "total samples per run", the metric). */
const char *flame_html_measure(const struct flame_session *s);

/* The sections of probes (chart and table) and of suspects. */
void flame_report_html_probes(const struct flame_session *s, struct strbuf *sb);
void flame_report_html_suspects(const struct flame_session *s, struct strbuf *sb);

#endif
