/*
 * site.h - the pieces of 'trail history site': a static site (no server,
 * no CDN, no script needed to read it; works from file://) with an index
 * of the benches - a row each: an inline SVG sparkline with its change
 * points, the last value with its interval, the latest change points, the
 * guard's status - and a page per bench.  Pure text generation; every
 * string from the repository is escaped here.
 */
#ifndef TRAIL_HISTORY_SITE_H
#define TRAIL_HISTORY_SITE_H

#include "core/strbuf.h"
#include "history/series.h"

struct history_site_bench {
	const char *name;		/* the bench (file-safe: suite.h's rule) */
	const char *page;		/* its page, relative to the index */
	const struct history_series *s;
	const struct history_change *changes;
	size_t nchanges;
	const char *guard;		/* the last commit against the ones before it */
	int regression;			/* the guard would fail */
	const char *budget;		/* "rss < 16 MiB: kept (rss = 5 MiB)", or NULL */
	int budget_broken;
};

/* An inline SVG sparkline of s's medians, change points marked, into out. */
void history_site_sparkline(const struct history_series *s, const struct history_change *c,
			    size_t nc, struct strbuf *out);
/* The index page of the benches into out. */
void history_site_index(const struct history_site_bench *b, size_t n, const char *title,
			struct strbuf *out);
/* The head of a bench page (title, a link back to the index, the style) into out. */
void history_site_page_head(const char *bench, struct strbuf *out);

#endif
