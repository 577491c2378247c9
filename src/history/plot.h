/*
 * plot.h - a series drawn by trail: the metric's median per stored commit
 * with its 95 % interval, each requested function's share of samples
 * below it, change points as labelled dashed lines; hovering a point
 * shows its commit, subject and value (an embedded script, as in trail's
 * flame graphs).  As a standalone SVG or inside an HTML page with the
 * change-point table.
 */
#ifndef TRAIL_HISTORY_PLOT_H
#define TRAIL_HISTORY_PLOT_H

#include "core/strbuf.h"
#include "core/string_list.h"
#include "history/series.h"

struct history_plot {
	const struct history_series *s;
	const struct history_change *changes;
	size_t nchanges;
	const struct string_list *functions;	/* panels below the metric's */
	const char *const *subjects;		/* per point of s, may be NULL */
	const struct string_list *ids;		/* the range's commits (s's positions), may be
						 * NULL: then no marks for failed commits */
	const char *title;
};

/* The SVG document (html 0) or the HTML page (html 1) into out. */
void history_plot_write(const struct history_plot *p, int html, struct strbuf *out);

#endif
