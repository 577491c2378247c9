/*
 * history_markdown.c - 'trail history guard --markdown FILE': what a
 * reviewer needs, one table row per bench (the change with its 95 %
 * interval, the verdict, the budget, the functions that moved), appended
 * to FILE as $GITHUB_STEP_SUMMARY expects (a CI step's summary or a pull
 * request comment).  Every name is escaped for Markdown (core/escape.h).
 */
#include "cmd/history.h"
#include "core/verdict.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

void history_md_compare(struct history_cmd *h, double change, double lo, double hi, double p,
			const struct history_moved *mv, size_t nmv, const char *verdict)
{
	struct history_md *m = &h->md;
	size_t i;

	m->compared = 1;
	m->change = change;
	m->lo = lo;
	m->hi = hi;
	m->p = p;
	snprintf(m->verdict, sizeof(m->verdict), "%s", verdict);
	strbuf_reset(&m->movers);
	for (i = 0; i < nmv && i < 5; i++) {
		if (i)
			strbuf_addstr(&m->movers, ", ");
		escape_md_code(&m->movers, mv[i].name, strlen(mv[i].name), 1);
		strbuf_addf(&m->movers, " %s %.1f%% → %.1f%%", trail_direction_name(mv[i].own > 0 ? DIRECTION_SLOWER : DIRECTION_FASTER),
			    100 * mv[i].before, 100 * mv[i].after);
	}
}

void history_md_budget(struct history_cmd *h, const char *text, int kept, const char *got)
{
	struct strbuf *b = &h->md.budget;

	strbuf_reset(b);
	strbuf_addf(b, "%s ", kept ? "✅" : "❌");
	escape_md_code(b, text, strlen(text), 1);
	strbuf_addf(b, " %s (%s)", kept ? "kept" : "**broken**", got);
}

void history_md_row(struct history_cmd *h, const char *id, int status)
{
	struct history_md *m = &h->md;
	const char *bench = h->bench ? h->bench : "(command line)";

	if (!h->markdown)
		return;
	strbuf_addstr(&m->rows, "| ");
	escape_md_text(&m->rows, bench, strlen(bench));
	strbuf_addf(&m->rows, " | `%.12s` | ", id);
	if (m->compared && isnan(m->p))	/* exact counts: the change itself, no test */
		strbuf_addf(&m->rows, "%+.3f%% (exact counts) | ", 100 * m->change);
	else if (m->compared)
		strbuf_addf(&m->rows, "%+.1f%% [%+.1f%%, %+.1f%%], p = %.2g | ", 100 * m->change,
			    100 * m->lo, 100 * m->hi, m->p);
	else
		strbuf_addstr(&m->rows, "no stored commits before it | ");
	strbuf_addf(&m->rows, "%s %s | %s | %s |\n",
		    status == EXIT_REGRESSION ? "❌" : status == EXIT_OK ? "✅" : "⚠️",
		    status == EXIT_OK || status == EXIT_REGRESSION ? m->verdict : "failed",
		    m->budget.len ? m->budget.buf : "-", m->movers.len ? m->movers.buf : "-");
	m->compared = 0;
	m->verdict[0] = '\0';
	strbuf_reset(&m->movers);
	strbuf_reset(&m->budget);
}

int history_md_write(struct history_cmd *h)
{
	struct history_md *m = &h->md;
	FILE *f;
	int ret = 0;

	if (!h->markdown || !m->rows.len)
		return 0;
	f = fopen(h->markdown, "a");
	if (!f)
		return error_errno("cannot write '%s'", h->markdown);
	fprintf(f, "### trail history guard\n\n"
		"| bench | commit | change [95%% interval] | verdict | budget | functions that moved |\n"
		"|---|---|---|---|---|---|\n%s\n", m->rows.buf);
	if (fclose(f))
		ret = error_errno("cannot write '%s'", h->markdown);
	return ret;
}

void history_md_release(struct history_md *m)
{
	strbuf_release(&m->rows);
	strbuf_release(&m->movers);
	strbuf_release(&m->budget);
}
