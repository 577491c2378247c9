/*
 * profile_diff.h - two sides of stored profiles compared: each side one
 * commit or a range (each commit's stored profile one run of its side, so
 * that the commit-to-commit spread is the error), read from
 * refs/notes/trail-profiles; the ranked function changes (trail diff's
 * table, src/diff/table.h), the differential flame graph (trail
 * flamegraph's renderer) and an HTML page of both.  Nothing is measured.
 */
#ifndef TRAIL_HISTORY_PROFILE_DIFF_H
#define TRAIL_HISTORY_PROFILE_DIFF_H

#include "core/strbuf.h"
#include "core/string_list.h"
#include "diff/table.h"
#include "history/series.h"
#include "profile/folded.h"

#include <stdio.h>

struct history_diff_sides {
	struct folded_profile *profiles;	/* side A's, then side B's */
	char **names;				/* per profile: its commit (full id) */
	size_t n, nside[2];
};

/*
 * The stored profiles of s's key and metric at the commits of a and b;
 * commits without one are left out.  0, or -1 when a side has none or a
 * note is corrupt (error printed).  Release d either way.
 */
int history_diff_load(const char *top, const struct history_series *s, const struct string_list *a,
		      const struct string_list *b, struct history_diff_sides *d);
void history_diff_sides_release(struct history_diff_sides *d);
/* trail diff's table of d (its default floor, confirmation and FDR); 0 or -1. */
int history_diff_table(const struct history_diff_sides *d, struct diff_table *t);
/* What the table compares: "share", "time", or the counts' unit ("bytes"). */
const char *history_diff_basis(const struct diff_table *t);
/* The unit the table's values are in: "%", "ms", "MiB", or the counts' unit. */
const char *history_diff_unit(const struct diff_table *t);
/* The table's values in that unit. */
double history_diff_shown(const struct diff_table *t, double v);
/*
 * The differential flame graph of d (each side's mean profile per commit:
 * red grew, blue shrank) as SVG into f.  0, or -1 when there is nothing
 * to draw or writing failed.
 */
int history_diff_svg(const struct history_diff_sides *d, const char *title, FILE *f);
/* The same graph as SVG text into out (for pages that inline it); 0 or -1. */
int history_diff_svg_text(const struct history_diff_sides *d, const char *title, struct strbuf *out);
/* The function changes of t as an HTML table (escaped) into out. */
void history_diff_html_table(const struct diff_table *t, struct strbuf *out);
/* A standalone HTML page: title, the graph inline, the table.  0 or -1. */
int history_diff_page(const struct history_diff_sides *d, const struct diff_table *t,
		      const char *title, struct strbuf *out);

#endif
