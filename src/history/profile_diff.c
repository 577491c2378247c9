/*
 * profile_diff.c - two sides of stored profiles compared (profile_diff.h):
 * read from refs/notes/trail-profiles, ranked by trail diff's table,
 * drawn by trail flamegraph's renderer, and put on an HTML page with
 * every name escaped (frame names come from the profiled programs).
 */
#include "history/profile_diff.h"

#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/exit_codes.h"
#include "core/numfmt.h"
#include "flamegraph/render.h"
#include "history/profiles_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A stored profile sums its commit's runs: made one run's mean, so that
 * commits measured with different --repeat compare alike.  Sample counts
 * stay counts (the tests need them) and each stands for period / runs;
 * weighted counts are divided; samples of no known period are compared
 * by share, where the sum does as well as the mean.
 */
static void per_run(struct folded_profile *p, double runs)
{
	uint32_t id;

	if (!(runs > 1))
		return;
	if (p->weight.weight == FOLDED_WEIGHT_SAMPLES) {
		p->weight.period /= runs;
		return;
	}
	for (id = 0; id < p->stacks.nr; id++)
		p->counts[0][id] /= runs;
	p->total[0] /= runs;
}

int history_diff_load(const char *top, const struct history_series *s, const struct string_list *a,
		      const struct string_list *b, struct history_diff_sides *out)
{
	struct string_list all = STRING_LIST_INIT;
	struct folded_profile *p;
	double *runs;
	int *found;
	size_t i, k, side;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < a->nr; i++)
		string_list_append(&all, a->items[i]);
	for (i = 0; i < b->nr; i++)
		string_list_append(&all, b->items[i]);
	p = xcalloc(all.nr + 1, sizeof(*p));
	found = xcalloc(all.nr + 1, sizeof(*found));
	out->profiles = xcalloc(all.nr + 1, sizeof(*out->profiles));
	out->names = xcalloc(all.nr + 1, sizeof(*out->names));
	for (i = 0; i < all.nr; i++)
		folded_profile_init(&p[i]);
	runs = xcalloc(all.nr + 1, sizeof(*runs));
	if (history_profiles_get_many(top, &all, s->key, s->metric, p, found, runs))
		goto out;
	for (i = 0; i < all.nr; i++) {
		if (!found[i])
			continue;	/* not stored (or before trail kept profiles) */
		side = i >= a->nr;
		per_run(&p[i], runs[i]);
		out->profiles[out->n] = p[i];
		folded_profile_init(&p[i]);
		out->names[out->n++] = xstrdup(all.items[i]);
		out->nside[side]++;
	}
	for (k = 0; k < 2; k++) {
		const struct string_list *l = k ? b : a;

		if (!out->nside[k]) {
			trail_error("no stored profile of %s %s in environment %s (profiles are kept "
				    "from this version on: record or backfill again)", k ? "B" : "A",
				    l->nr == 1 ? l->items[0] : "range", s->key);
			goto out;
		}
	}
	ret = 0;
out:
	for (i = 0; i < all.nr; i++)
		folded_profile_release(&p[i]);
	free(p);
	free(found);
	free(runs);
	string_list_clear(&all);
	return ret;
}

void history_diff_sides_release(struct history_diff_sides *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		folded_profile_release(&d->profiles[i]);
		free(d->names[i]);
	}
	free(d->profiles);
	free(d->names);
	memset(d, 0, sizeof(*d));
}

int history_diff_table(const struct history_diff_sides *d, struct diff_table *t)
{
	struct folded_weight_info *w = xcalloc(d->n + 1, sizeof(*w));
	struct diff_table_opts to = { 0 };
	struct diff_source src;
	int ret;

	/* trail diff's defaults: 1 % floor, confirmed from 2 %, FDR 5 %, self and total */
	to.min_delta = 0.01;
	to.confirm = 0.02;
	to.alpha = 0.05;
	to.basis = -1;
	to.measures = HOTSPOT_MEASURE_BIT(HOTSPOT_SELF) | HOTSPOT_MEASURE_BIT(HOTSPOT_TOTAL);
	diff_source_profiles(&src, d->profiles, d->n, (const char *const *)d->names, w);
	ret = diff_table_build(t, &src, d->nside[0], d->nside[1], &to);
	free(w);
	return ret;
}

int history_diff_svg(const struct history_diff_sides *d, const char *title, FILE *f)
{
	struct fg_input_options io = { 0 };
	struct folded_profile all;
	struct fg_render r;
	struct fg_input in;
	size_t i, side;
	uint32_t id;
	int code;

	/* each side's mean profile per commit: ranges of different lengths compare alike */
	folded_profile_init(&all);
	for (i = 0; i < d->n; i++) {
		/* in the first profile's period: each count the same amount */
		double scale = d->profiles[i].weight.period > 0 && d->profiles[0].weight.period > 0 ?
			       d->profiles[i].weight.period / d->profiles[0].weight.period : 1;

		side = i >= d->nside[0];
		for (id = 0; id < d->profiles[i].stacks.nr; id++)
			folded_profile_add(&all, intern_str(&d->profiles[i].stacks, id),
					   intern_len(&d->profiles[i].stacks, id), (int)side,
					   d->profiles[i].counts[0][id] * scale / (double)d->nside[side]);
	}
	fg_render_init(&r);
	r.svg.title = title;
	r.quiet = 1;
	fg_input_init(&in, &io);
	for (id = 0; id < all.stacks.nr; id++) {
		double c[2] = { all.counts[0][id], all.columns == 2 ? all.counts[1][id] : 0 };

		fg_input_add(&in, intern_str(&all.stacks, id), intern_len(&all.stacks, id), c, 2);
	}
	in.weight = d->profiles[0].weight;
	code = in.total[0] > 0 || in.total[1] > 0 ? fg_render(&in, &r, f) : EXIT_USAGE;
	fg_input_release(&in);
	folded_profile_release(&all);
	return code == EXIT_OK ? 0 : -1;
}

double history_diff_shown(const struct diff_table *t, double v)
{
	if (t->basis == DIFF_BY_SHARE)
		return 100 * v;
	return !strcmp(t->unit, "ns") ? v / 1e6 : !strcmp(t->unit, "bytes") ? v / (1024.0 * 1024) : v;
}

const char *history_diff_basis(const struct diff_table *t)
{
	return t->basis == DIFF_BY_SHARE ? "share" : !strcmp(t->unit, "ns") ? "time" :
	       t->unit[0] ? t->unit : "time";
}

const char *history_diff_unit(const struct diff_table *t)
{
	return t->basis == DIFF_BY_SHARE ? "%" : !strcmp(t->unit, "ns") ? "ms" :
	       !strcmp(t->unit, "bytes") ? "MiB" : t->unit[0] ? t->unit : "samples";
}

int history_diff_svg_text(const struct history_diff_sides *d, const char *title, struct strbuf *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return error_errno("cannot open a memory stream");
	ret = history_diff_svg(d, title, mem);
	if (fclose(mem))
		ret = -1;
	if (!ret)
		strbuf_add(out, buf, len);
	free(buf);
	return ret;
}

static void html_rows(struct strbuf *out, const struct diff_table *t, const char *change,
		      const struct diff_table_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct diff_test *x = &rows[i].t;
		const char *name = diff_table_name(t, rows[i].func);

		strbuf_addf(out, "<tr class=\"%s\"><td>%s</td><td>%s</td><td>", change, change,
			    hotspot_measure_name(rows[i].measure));
		escape_html_text(out, name, strlen(name));
		strbuf_addstr(out, "</td><td>");
		numfmt_count(out, history_diff_shown(t, x->before), 0);
		strbuf_addstr(out, "</td><td>");
		numfmt_count(out, history_diff_shown(t, x->after), 0);
		strbuf_addstr(out, "</td><td>");
		numfmt_count(out, history_diff_shown(t, x->delta), NUMFMT_SIGN);
		strbuf_addf(out, "</td><td>%.2g</td></tr>\n", x->p);
	}
}

void history_diff_html_table(const struct diff_table *t, struct strbuf *out)
{
	strbuf_addf(out, "<table class=\"functions\"><thead><tr><th>change</th><th>kind</th>"
		    "<th>function</th><th>before (%s)</th><th>after</th><th>delta</th><th>p</th>"
		    "</tr></thead><tbody>\n", history_diff_unit(t));
	html_rows(out, t, "hotter", t->hotter, t->nr_hotter);
	html_rows(out, t, "cooler", t->cooler, t->nr_cooler);
	if (!t->nr_hotter && !t->nr_cooler)
		strbuf_addstr(out, "<tr><td colspan=\"7\">no function changed beyond the noise</td></tr>\n");
	strbuf_addstr(out, "</tbody></table>\n");
}

int history_diff_page(const struct history_diff_sides *d, const struct diff_table *t,
		      const char *title, struct strbuf *out)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
	escape_html_text(out, title, strlen(title));
	strbuf_addstr(out, "</title><style>body{font-family:sans-serif;margin:1em}"
		      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
		      "tr.hotter td:first-child{color:#b00}tr.cooler td:first-child{color:#00b}"
		      "</style></head><body>\n<h1>");
	escape_html_text(out, title, strlen(title));
	strbuf_addstr(out, "</h1>\n<div class=\"graph\">\n");
	if (history_diff_svg_text(d, title, out))
		return -1;
	strbuf_addstr(out, "</div>\n");
	history_diff_html_table(t, out);
	strbuf_addstr(out, "</body></html>\n");
	return 0;
}
