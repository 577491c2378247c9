/*
 * history_site.c - 'trail history site -o DIR': the static site of every
 * bench (or of the command line's series without .trail) from the stored
 * notes, nothing measured: DIR/index.html (history/site.c) and a page per
 * bench - the plot with its change points (history/plot.c), the
 * change-point table, and for each change point the differential flame
 * graph between its two sides (history/profile_diff.c) as its own SVG
 * file, drawn once: a graph already in DIR is kept (ids name it), so a
 * site regenerated after one more commit costs little.
 */
#include "cmd/history.h"
#include "core/verdict.h"
#include "core/git_rev.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/numfmt.h"
#include "core/strbuf.h"
#include "history/guard.h"
#include "history/tip.h"
#include "history/plot.h"
#include "history/profile_diff.h"
#include "history/site.h"
#include "stats/describe.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct site_bench {
	struct history_site_bench row;
	struct history_series s;
	struct history_change *c;
	size_t nc;		/* the change points to act on, first in c */
	size_t nall;		/* and the possible ones after them */
	char *page, *guard, *budget;
	int have;
};

static void html(struct strbuf *out, const char *s)
{
	escape_html_text(out, s, strlen(s));
}

/* The guard's verdict on the last stored commit against those before it (after the last change). */
static void guard_status(struct history_cmd *h, struct site_bench *b)
{
	const struct history_series *s = &b->s;
	struct history_guard_metric g;
	size_t a = b->nc ? b->c[b->nc - 1].index : 0, nb, nr;
	double *base, *rev;

	if (s->nr < 2 || a >= s->nr - 1) {
		b->guard = xstrdup("no stored commits to compare with");
		return;
	}
	if (s->nr - 1 - a > h->window)
		a = s->nr - 1 - h->window;
	base = history_pool_runs(s, a, s->nr - 1, &nb);
	rev = history_pool_runs(s, s->nr - 1, s->nr, &nr);
	if (history_cmd_guard_runs(h, s->metric, base, nb, rev, nr, history_cmd_max_regression(h, s->metric),
				   &g))
		b->guard = xstrdup("cannot compare");
	else if (g.counted) {	/* exact counts: the change and the difference, no interval */
		struct strbuf d = STRBUF_INIT;

		numfmt_value(&d, stats_median(rev, nr) - stats_median(base, nb), s->unit, NUMFMT_SIGN);
		b->row.regression = g.slower;
		b->guard = xstrfmt("%s: %+.3f%% (%s, exact counts)", g.slower ? "regression" : "pass",
				   100 * (g.ratio.estimate - 1), d.buf);
		strbuf_release(&d);
	} else {
		b->row.regression = g.slower;
		b->guard = xstrfmt("%s: %+.1f%% [%+.1f%%, %+.1f%%]", g.slower ? "regression" : "pass",
				   100 * (g.ratio.estimate - 1), 100 * (g.ratio.lo - 1),
				   100 * (g.ratio.hi - 1));
	}
	free(base);
	free(rev);
}

static void budget_status(struct history_cmd *h, struct site_bench *b)
{
	const struct history_bench *d = h->bench_def;
	const struct history_result *r;
	double v;
	char got[64];
	int ok;

	if (!d || !d->has_budget || !b->s.nr)
		return;
	r = b->s.pts[b->s.nr - 1].r;
	ok = history_budget_check(&d->budget, r->runs, r->nruns, r->unit, &v);
	if (ok < 0)
		return;
	history_budget_format(&d->budget, v, got, sizeof(got));
	b->budget = xstrfmt("%s: %s (%s = %s)", d->budget.text, ok ? "kept" : "broken", d->budget.stat, got);
	b->row.budget_broken = !ok;
}

/*
 * The report of trail flame's bisection, a directory of the machine that
 * ran detect --bisect, copied into DIR/sub (its files: report.html links
 * only its neighbours) unless already there, so the published site links
 * it.  0 copied or there, -1 not on this machine.
 */
static int copy_report(const char *from, const char *out, const char *sub)
{
	char *dst = xstrfmt("%s/%s", out, sub), *probe = xstrfmt("%s/report.html", dst);
	struct stat st;
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (!stat(probe, &st))
		goto out;	/* copied by an earlier run: a report does not change */
	d = opendir(from);
	if (!d) {
		ret = -1;
		goto out;
	}
	if (mkdir(dst, 0777) && errno != EEXIST) {
		closedir(d);
		ret = -1;
		goto out;
	}
	while ((e = readdir(d))) {
		char *src = xstrfmt("%s/%s", from, e->d_name), *to = xstrfmt("%s/%s", dst, e->d_name);
		struct strbuf buf = STRBUF_INIT;

		/* regular files only, of a report's size: nothing else of that directory */
		if (e->d_name[0] != '.' && !stat(src, &st) && S_ISREG(st.st_mode) &&
		    st.st_size < 64 << 20 && (strbuf_read_file(&buf, src) < 0 || strbuf_write_file(&buf, to)))
			ret = -1;
		strbuf_release(&buf);
		free(src);
		free(to);
	}
	closedir(d);
out:
	free(probe);
	free(dst);
	return ret;
}

/* What detect --bisect named inside the gap of change c, linked to its report. */
static void bisect_section(struct history_cmd *h, struct site_bench *b, const char *before,
			   const char *after, struct strbuf *page)
{
	struct history_bisect_note n;
	char *sub;

	if (!history_bisect_note_get(h->top_dir, b->s.key, b->s.metric, before, after, &n)) {
		strbuf_addstr(page, "<p class=\"bisect\">not bisected (trail history detect --bisect "
			      "names the commit inside the gap)</p>\n");
		return;
	}
	sub = xstrfmt("%s-%.12s-%.12s-%s-bisect", b->row.name, before, after, b->s.key);
	strbuf_addstr(page, "<p class=\"bisect\">bisected: ");
	if (n.culprit[0])
		strbuf_addf(page, "culprit <code class=\"culprit\">%.12s</code>", n.culprit);
	else if (n.candidates.nr) {
		strbuf_addstr(page, "one of");
		for (size_t i = 0; i < n.candidates.nr; i++)
			strbuf_addf(page, "%s <code class=\"candidate\">%.12s</code>", i ? "," : "",
				    n.candidates.items[i]);
		strbuf_addf(page, " (%zu never built or run: no commit is named)", n.untested.nr);
	} else
		strbuf_addstr(page, "no culprit named");
	if (n.verdict[0]) {
		strbuf_addstr(page, " (");
		html(page, n.verdict);
		strbuf_addstr(page, ")");
	}
	if (n.function[0]) {
		strbuf_addstr(page, ", function <code>");
		html(page, n.function);
		strbuf_addstr(page, "</code>");
	}
	if (!n.report[0])
		strbuf_addstr(page, "; answered from the stored results (no trail flame report)");
	else if (!copy_report(n.report, h->out, sub)) {
		strbuf_addstr(page, "; <a class=\"report\" href=\"");
		escape_html_attr(page, sub, strlen(sub));
		strbuf_addstr(page, "/report.html\">trail flame's report</a>");
	} else {
		strbuf_addstr(page, "; its report is not on this machine (");
		html(page, n.report);
		strbuf_addstr(page, ")");
	}
	strbuf_addstr(page, "</p>\n");
	free(sub);
	history_bisect_note_release(&n);
}

/* The differential graph of change c into DIR/FILE unless there; its table into page. */
static void change_section(struct history_cmd *h, struct site_bench *b, size_t i, struct strbuf *page)
{
	const struct history_change *c = &b->c[i];
	const char *before = b->s.pts[c->index - 1].commit, *after = b->s.pts[c->index].commit;
	struct string_list sa = STRING_LIST_INIT, sb = STRING_LIST_INIT;
	struct history_diff_sides d = { 0 };
	struct diff_table t;
	char *file = xstrfmt("%s-%.12s-%.12s-%s.svg", b->row.name, before, after, b->s.key);
	char *path = xstrfmt("%s/%s", h->out, file);
	struct stat st;
	size_t k;

	strbuf_addf(page, "<h3 id=\"change-%zu\">change %zu: %s, %+.1f%% [%+.1f%%, %+.1f%%], "
		    "between <code>%.12s</code> and <code>%.12s</code></h3>\n", i + 1, i + 1,
		    trail_direction_name(c->slower ? DIRECTION_SLOWER : DIRECTION_FASTER), 100 * c->change, 100 * c->lo, 100 * c->hi, before, after);
	if (c->nmoved) {
		strbuf_addstr(page, "<p>functions that moved: ");
		for (k = 0; k < c->nmoved; k++) {
			strbuf_addstr(page, k ? ", <code>" : "<code>");
			html(page, c->moved[k].name);
			strbuf_addf(page, "</code> %.1f%% &rarr; %.1f%%", 100 * c->moved[k].before,
				    100 * c->moved[k].after);
		}
		strbuf_addstr(page, "</p>\n");
	}
	bisect_section(h, b, before, after, page);
	string_list_append(&sa, before);
	string_list_append(&sb, after);
	if (history_diff_load(h->top_dir, &b->s, &sa, &sb, &d) || history_diff_table(&d, &t)) {
		strbuf_addstr(page, "<p>no differential flame graph: the profiles of these commits are "
			      "not stored</p>\n");
		goto out;
	}
	if (stat(path, &st)) {
		FILE *f = fopen(path, "w");
		char title[160];

		snprintf(title, sizeof(title), "%s: %.12s -> %.12s", b->row.name, before, after);
		if (!f || history_diff_svg(&d, title, f))
			warning("cannot draw %s", path);
		if (f && fclose(f))
			warning("cannot write %s", path);
	}
	strbuf_addstr(page, "<p><a class=\"diff\" href=\"");
	escape_html_attr(page, file, strlen(file));
	strbuf_addstr(page, "\"><img class=\"diff\" alt=\"differential flame graph\" src=\"");
	escape_html_attr(page, file, strlen(file));
	strbuf_addstr(page, "\"></a><br>red: grew, blue: shrank (open it to zoom and search)</p>\n");
	history_diff_html_table(&t, page);
	diff_table_release(&t);
out:
	history_diff_sides_release(&d);
	string_list_clear(&sa);
	string_list_clear(&sb);
	free(file);
	free(path);
}

static int bench_page(struct history_cmd *h, struct site_bench *b, const struct string_list *ids,
		      const struct string_list *subjects)
{
	const char **subj = xmallocarray(b->s.nr + 1, sizeof(char *));
	struct history_plot p;
	struct strbuf page = STRBUF_INIT, svg = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", h->out, b->page);
	size_t i;
	int ret;

	for (i = 0; i < b->s.nr; i++)
		subj[i] = subjects->items[b->s.pts[i].pos];
	memset(&p, 0, sizeof(p));
	p.s = &b->s;
	p.changes = b->c;
	p.nchanges = b->nc;
	p.subjects = subj;
	p.ids = ids;	/* the failed commits' marks */
	p.title = b->row.name;
	history_plot_write(&p, 0, &svg);
	history_site_page_head(b->row.name, &page);
	strbuf_addf(&page, "<p>%zu stored commits, metric %s, environment <code>%s</code>; guard: ",
		    b->s.nr, b->s.metric, b->s.key);
	html(&page, b->guard);
	if (b->budget) {
		strbuf_addstr(&page, "; budget ");
		html(&page, b->budget);
	}
	strbuf_addstr(&page, "</p>\n<div class=\"plot\">\n");
	/* the plot inline, without its XML declaration */
	strbuf_addstr(&page, strstr(svg.buf, "<svg") ? strstr(svg.buf, "<svg") : "");
	strbuf_addf(&page, "</div>\n<h2>change points (%zu)</h2>\n", b->nc);
	if (!b->nc)
		strbuf_addstr(&page, "<p>none</p>\n");
	for (i = 0; i < b->nc; i++)
		change_section(h, b, i, &page);
	strbuf_addstr(&page, "</body></html>\n");
	ret = strbuf_write_file(&page, path);
	strbuf_release(&page);
	strbuf_release(&svg);
	free(subj);
	free(path);
	return ret;
}

/* One bench (h->bench set, or NULL for the command line's series) into b. */
static int one_bench(struct history_cmd *h, struct site_bench *b, const struct string_list *ids,
		     const struct string_list *subjects)
{
	struct history_detect_opts o;

	b->row.name = h->bench ? h->bench : "history";
	b->page = xstrfmt("%s.html", b->row.name);
	b->row.page = b->page;
	if (history_cmd_series(h, ids, &b->s))
		return -1;
	b->have = 1;
	b->row.s = &b->s;
	history_cmd_detect_opts(h, b->s.metric, &o);
	b->nall = history_detect(&b->s, &o, &b->c);
	b->nc = history_changes_actionable(b->c, b->nall);
	b->row.changes = b->c;
	b->row.nchanges = b->nc;
	guard_status(h, b);
	budget_status(h, b);
	b->row.guard = b->guard;
	b->row.budget = b->budget;
	return bench_page(h, b, ids, subjects);
}

int history_site_cmd(struct history_cmd *h)
{
	struct string_list ids = STRING_LIST_INIT, dates = STRING_LIST_INIT, subjects = STRING_LIST_INIT;
	struct git_range range;
	struct site_bench *b;
	struct history_site_bench *rows;
	struct strbuf index = STRBUF_INIT;
	const char *env_key = h->env_key;
	size_t n = h->suite.nr ? h->suite.nr : 1, i, nrows = 0;
	char *path;
	int ret = EXIT_FAILURE_;

	if (!h->out) {
		trail_error("site needs -o DIR");
		return EXIT_USAGE;
	}
	if (mkdir(h->out, 0777) && errno != EEXIST)
		return error_errno("cannot create '%s'", h->out) ? EXIT_FAILURE_ : EXIT_FAILURE_;
	if (history_cmd_range(h, &range) ||
	    history_first_parents(h->top_dir, &range, &ids, &dates, &subjects))
		return EXIT_FAILURE_;
	b = xcalloc(n + 1, sizeof(*b));
	rows = xcalloc(n + 1, sizeof(*rows));
	for (i = 0; i < n; i++) {
		const struct history_bench *d = h->suite.nr ? &h->suite.benches[i] : NULL;

		if (d && h->benches.nr && !string_list_has(&h->benches, d->name))
			continue;
		h->bench = d ? d->name : NULL;
		h->bench_def = d;
		h->metric_name = d ? (d->metric ? d->metric : "cpu") : h->metric_name;
		h->env_key = env_key;
		if (one_bench(h, &b[i], &ids, &subjects)) {
			if (b[i].have)
				goto out;
			note("site: bench %s has no results yet: left out", b[i].row.name);
			continue;
		}
		rows[nrows++] = b[i].row;
	}
	history_site_index(rows, nrows, "trail history", &index);
	path = xstrfmt("%s/index.html", h->out);
	if (!strbuf_write_file(&index, path)) {
		note("wrote %s (%zu bench(es))", path, nrows);
		ret = EXIT_OK;
	}
	free(path);
out:
	for (i = 0; i < n; i++) {
		if (b[i].have)
			history_series_release(&b[i].s);
		history_changes_free(b[i].c, b[i].nall);
		free(b[i].page);
		free(b[i].guard);
		free(b[i].budget);
	}
	free(b);
	free(rows);
	h->bench = NULL;
	h->bench_def = NULL;
	strbuf_release(&index);
	string_list_clear(&ids);
	string_list_clear(&dates);
	string_list_clear(&subjects);
	return ret;
}
