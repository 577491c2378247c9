/*
 * history_view.c - the reading side of 'trail history': show (a row per
 * stored commit), plot (SVG or HTML, src/history/plot.c) and detect (the
 * change points, and with --bisect the commit inside each gap:
 * history_bisect.c).
 */
#include "cmd/commands.h"
#include "core/verdict.h"
#include "cmd/history.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/numfmt.h"
#include "core/json_writer.h"
#include "core/strbuf.h"
#include "core/term_printf.h"
#include "history/plot.h"
#include "measure/metric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct view {
	struct string_list ids, dates, subjects;	/* the range, oldest first */
	struct history_series s;
	const char **point_subjects;			/* per point of s */
};

static int view_open(struct history_cmd *h, struct view *v)
{
	struct git_range range;
	size_t i;

	memset(v, 0, sizeof(*v));
	if (history_cmd_range(h, &range) ||
	    history_first_parents(h->top_dir, &range, &v->ids, &v->dates, &v->subjects) ||
	    history_cmd_series(h, &v->ids, &v->s))
		return -1;
	v->point_subjects = xmallocarray(v->s.nr + 1, sizeof(char *));
	for (i = 0; i < v->s.nr; i++)
		v->point_subjects[i] = v->subjects.items[v->s.pts[i].pos];
	return 0;
}

static void view_close(struct view *v)
{
	history_series_release(&v->s);
	string_list_clear(&v->ids);
	string_list_clear(&v->dates);
	string_list_clear(&v->subjects);
	free(v->point_subjects);
}

static int finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		return trail_error("cannot write to standard output");
	return 0;
}

/* The functions a row shows: --function, else the point's top 3 by self. */
static void row_functions(const struct history_cmd *h, const struct history_point *p,
			  struct string_list *out)
{
	size_t i, k;

	if (h->functions.nr) {
		for (i = 0; i < h->functions.nr; i++)
			string_list_append(out, h->functions.items[i]);
		return;
	}
	for (k = 0; k < 3; k++) {
		const struct history_func *best = NULL;

		for (i = 0; i < p->r->nfuncs; i++)
			if (!string_list_has(out, p->r->funcs[i].name) &&
			    (!best || p->r->funcs[i].self > best->self))
				best = &p->r->funcs[i];
		if (best && best->self > 0)
			string_list_append(out, best->name);
	}
}

/* Open the JSON answer of show and detect: the series' metric, unit and environment. */
static void json_series_open(struct json_writer *w, struct strbuf *out, const struct view *v)
{
	json_writer_init(w, out, JSON_WRITER_PRETTY);
	json_writer_begin_object(w);
	json_writer_key_string(w, "metric", v->s.metric);
	json_writer_key_string(w, "unit", v->s.unit);
	json_writer_key_string(w, "env", v->s.key);
}

static double share_of(const struct history_point *p, const char *f)
{
	return p->r->samples > 0 ? history_result_count(p->r, f, 0) / p->r->samples : 0;
}

int history_show(struct history_cmd *h)
{
	struct view v;
	struct strbuf out = STRBUF_INIT;
	struct json_writer w;
	size_t i, k;

	if (view_open(h, &v)) {
		view_close(&v);
		return EXIT_FAILURE_;
	}
	if (h->json) {
		json_series_open(&w, &out, &v);
		json_writer_key(&w, "commits");
		json_writer_begin_array(&w);
	}
	for (i = 0; i < v.s.nr; i++) {
		const struct history_point *p = &v.s.pts[i];
		struct string_list fn = STRING_LIST_INIT;

		row_functions(h, p, &fn);
		if (h->json) {
			json_writer_begin_object(&w);
			json_writer_key_string(&w, "commit", p->commit);
			json_writer_key_string(&w, "date", v.dates.items[p->pos]);
			json_writer_key_string(&w, "subject", v.subjects.items[p->pos]);
			json_writer_key_number(&w, "median", p->med);
			json_writer_key(&w, "interval");
			json_writer_begin_array(&w);
			json_writer_number(&w, p->lo);
			json_writer_number(&w, p->hi);
			json_writer_end(&w);
			json_writer_key_uint(&w, "runs", p->r->nruns);
			json_writer_key(&w, "shares");
			json_writer_begin_object(&w);
			for (k = 0; k < fn.nr; k++)
				json_writer_key_number(&w, fn.items[k], share_of(p, fn.items[k]));
			json_writer_end(&w);
			json_writer_end(&w);
		} else {
			struct strbuf num = STRBUF_INIT;

			term_addf(&out, "%.12s  %s  ", p->commit, v.dates.items[p->pos]);
			escape_term(&out, v.subjects.items[p->pos], strlen(v.subjects.items[p->pos]));
			/* the unit comes from a note: through term_addf, which escapes it */
			numfmt_interval(&num, p->med, p->lo, p->hi, v.s.unit, 0);
			term_addf(&out, "\n    %s %s", v.s.metric, num.buf);
			strbuf_release(&num);
			for (k = 0; k < fn.nr; k++) {
				strbuf_addstr(&out, k ? ", " : "  ");
				escape_term(&out, fn.items[k], strlen(fn.items[k]));
				term_addf(&out, " %.1f%%", 100 * share_of(p, fn.items[k]));
			}
			strbuf_addch(&out, '\n');
		}
		string_list_clear(&fn);
	}
	if (h->json) {
		json_writer_end(&w);
		json_writer_key_uint(&w, "failed", v.s.failed);
		json_writer_key(&w, "failed_commits");
		json_writer_begin_array(&w);
		for (i = 0; i < v.s.failed; i++) {
			json_writer_begin_object(&w);
			json_writer_key_string(&w, "commit", v.ids.items[v.s.failed_pos[i]]);
			json_writer_key_string(&w, "status", history_status_name(v.s.failed_status[i]));
			json_writer_end(&w);
		}
		json_writer_end(&w);
		json_writer_end(&w);
		json_writer_release(&w);
		strbuf_addch(&out, '\n');
	} else if (v.s.failed) {
		/* named: the gaps they leave are where a bisection cannot name one commit */
		term_addf(&out, "%zu commit(s) stored as failing to build or run:\n", v.s.failed);
		for (i = 0; i < v.s.failed; i++) {
			size_t pos = v.s.failed_pos[i];

			term_addf(&out, "  %.12s  %s  %-15s ", v.ids.items[pos], v.dates.items[pos],
				  v.s.failed_status[i] == HISTORY_BUILD_FAILED ? "did not build" : "did not run");
			escape_term(&out, v.subjects.items[pos], strlen(v.subjects.items[pos]));
			strbuf_addch(&out, '\n');
		}
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	view_close(&v);
	return finish_stdout() ? EXIT_FAILURE_ : EXIT_OK;
}

static void json_change(struct json_writer *w, const struct view *v, const struct history_change *c)
{
	const struct history_point *a = &v->s.pts[c->index - 1], *b = &v->s.pts[c->index];
	size_t j;

	json_writer_begin_object(w);
	json_writer_key_string(w, "before", a->commit);
	json_writer_key_string(w, "after", b->commit);
	json_writer_key_uint(w, "commits_between", b->pos - a->pos - 1);
	json_writer_key_string(w, "commit", c->culprit[0] ? c->culprit : NULL);
	if (c->candidates.nr) {
		/* no one commit: any of these, the untested ones never built or run */
		json_writer_key(w, "candidates");
		json_writer_begin_array(w);
		for (j = 0; j < c->candidates.nr; j++) {
			json_writer_begin_object(w);
			json_writer_key_string(w, "commit", c->candidates.items[j]);
			json_writer_key_bool(w, "tested", !string_list_has(&c->untested, c->candidates.items[j]));
			json_writer_end(w);
		}
		json_writer_end(w);
	}
	json_writer_key_string(w, "report", c->report);
	json_writer_key_string(w, "direction", trail_direction_name(c->slower ? DIRECTION_SLOWER : DIRECTION_FASTER));
	json_writer_key_number(w, "before_value", c->before);
	json_writer_key_number(w, "after_value", c->after);
	json_writer_key_number(w, "change", c->change);
	json_writer_key_pair(w, "interval", c->lo, c->hi);
	json_writer_key_number(w, "profile_change", c->implied);
	json_writer_key_number(w, "p", c->p);
	json_writer_key_bool(w, "metric_changed", c->metric_changed);
	json_writer_key(w, "functions");
	json_writer_begin_array(w);
	for (j = 0; j < c->nmoved; j++) {
		json_writer_begin_object(w);
		json_writer_key_string(w, "name", c->moved[j].name);
		json_writer_key_string(w, "direction", trail_direction_name(c->moved[j].own > 0 ? DIRECTION_SLOWER : DIRECTION_FASTER));
		json_writer_key_number(w, "before", c->moved[j].before);
		json_writer_key_number(w, "after", c->moved[j].after);
		json_writer_end(w);
	}
	json_writer_end(w);
	json_writer_end(w);
}

/* The subject of commit id of the range, escaped ("" off the first-parent line). */
static void add_subject(struct strbuf *out, const struct view *v, const char *id)
{
	size_t j;

	for (j = 0; j < v->ids.nr; j++)
		if (!strcmp(v->ids.items[j], id)) {
			escape_term(out, v->subjects.items[j], strlen(v->subjects.items[j]));
			return;
		}
}

/* Why commit id of the range was not measured, as stored. */
static const char *failed_how(const struct view *v, const char *id)
{
	size_t j;

	for (j = 0; j < v->s.failed; j++)
		if (!strcmp(v->ids.items[v->s.failed_pos[j]], id))
			return v->s.failed_status[j] == HISTORY_BUILD_FAILED ? "(did not build)" : "(did not run)";
	return "(not built or run)";
}

static void text_change(struct strbuf *out, const struct view *v, const struct history_change *c,
			size_t i)
{
	const struct history_point *a = &v->s.pts[c->index - 1], *b = &v->s.pts[c->index];
	size_t j;

	term_addf(out, "change %zu: %s, metric %+.1f%% [%+.1f%%, %+.1f%%], profile %+.1f%% (p = %.2g) "
		    "between %.12s and %.12s", i + 1, trail_direction_name(c->slower ? DIRECTION_SLOWER : DIRECTION_FASTER), c->change * 100,
		    c->lo * 100, c->hi * 100, c->implied * 100, c->p, a->commit, b->commit);
	if (b->pos - a->pos > 1)
		term_addf(out, " (%zu commit(s) between)", b->pos - a->pos - 1);
	strbuf_addch(out, '\n');
	if (c->culprit[0]) {
		term_addf(out, "  commit:    %.12s ", c->culprit);
		add_subject(out, v, c->culprit);
		strbuf_addch(out, '\n');
	} else if (c->candidates.nr) {
		/* git bisect's "only skipped commits left to test": name them all */
		term_addf(out, "  commit:    one of %zu (%zu could not be built or run):\n",
			  c->candidates.nr, c->untested.nr);
		for (j = 0; j < c->candidates.nr; j++) {
			int untested = string_list_has(&c->untested, c->candidates.items[j]);

			term_addf(out, "             %.12s %-17s ", c->candidates.items[j],
				  untested ? failed_how(v, c->candidates.items[j]) : "(measured)");
			add_subject(out, v, c->candidates.items[j]);
			strbuf_addch(out, '\n');
		}
		term_addf(out, "  decide:    make %s build and run (e.g. a fix on a branch), then "
			  "trail history record --rev C for each; or read git log -p %.12s..%.12s\n",
			  c->untested.nr == 1 ? "that commit" : "those commits", a->commit, b->commit);
	}
	if (c->report) {
		strbuf_addstr(out, "  report:    ");
		escape_term(out, c->report, strlen(c->report));
		strbuf_addstr(out, "/report.html\n");
	}
	for (j = 0; j < c->nmoved; j++) {
		term_addf(out, "  function:  ");
		escape_term(out, c->moved[j].name, strlen(c->moved[j].name));
		term_addf(out, " %s: self share %.1f%% -> %.1f%% of %s\n",
			    trail_direction_name(c->moved[j].own > 0 ? DIRECTION_SLOWER : DIRECTION_FASTER), 100 * c->moved[j].before,
			    100 * c->moved[j].after, flame_metric_share_of(v->s.metric));
	}
}

/* The changes to act on first (the return), then the possible ones (*all in all). */
static size_t detect(struct history_cmd *h, struct view *v, struct history_change **c, size_t *all)
{
	struct history_detect_opts o;

	history_cmd_detect_opts(h, v->s.metric, &o);
	*all = history_detect(&v->s, &o, c);
	return history_changes_actionable(*c, *all);
}

/* A possible change: where, and why it is not one to act on. */
static void json_possible(struct json_writer *w, const struct view *v, const struct history_change *c)
{
	json_writer_begin_object(w);
	json_writer_key_string(w, "before", v->s.pts[c->index - 1].commit);
	json_writer_key_string(w, "after", v->s.pts[c->index].commit);
	json_writer_key_number(w, "change", c->change);
	json_writer_key_pair(w, "interval", c->lo, c->hi);
	json_writer_key_number(w, "profile_change", c->implied);
	json_writer_key_number(w, "p", c->p);
	json_writer_key_bool(w, "metric_changed", c->metric_changed);
	json_writer_key_string(w, "why_not", "below the minimum effect: no function moved and the metric "
			       "moved less than --min-effect");
	json_writer_end(w);
}

int history_detect_cmd(struct history_cmd *h)
{
	struct history_change *c = NULL;
	struct strbuf out = STRBUF_INIT;
	struct json_writer w;
	struct view v;
	size_t nc = 0, nall = 0, i;
	int ret = EXIT_FAILURE_;

	if (view_open(h, &v))
		goto out;
	nc = detect(h, &v, &c, &nall);
	for (i = 0; i < nc; i++) {
		if (h->bisect ? history_bisect(h, &v.s, &v.ids, &c[i]) < 0
			      : history_gap_answer(h, &v.s, &v.ids, &c[i]) < 0)
			goto out;
	}
	if (h->json) {
		json_series_open(&w, &out, &v);
		json_writer_key_uint(&w, "stored", v.s.nr);
		json_writer_key_string(&w, "method", "e-divisive means; t-test beyond the minimum effect against heavy-tailed AR(1) null series (up to 160 stored commits), rank CUSUM with long-run variance beyond");
		json_writer_key_number(&w, "alpha", h->alpha);
		json_writer_key_number(&w, "min_effect", history_cmd_min_effect(h, v.s.metric));
		json_writer_key(&w, "change_points");
		json_writer_begin_array(&w);
		for (i = 0; i < nc; i++)
			json_change(&w, &v, &c[i]);
		json_writer_end(&w);
		json_writer_key(&w, "possible");
		json_writer_begin_array(&w);
		for (i = nc; i < nall; i++)
			json_possible(&w, &v, &c[i]);
		json_writer_end(&w);
		json_writer_end(&w);
		json_writer_release(&w);
		strbuf_addch(&out, '\n');
	} else {
		term_addf(&out, "%zu change point(s) in %zu stored commit(s) (%s, environment %s)\n",
			    nc, v.s.nr, v.s.metric, v.s.key);
		for (i = 0; i < nc; i++)
			text_change(&out, &v, &c[i], i);
	}
	fwrite(out.buf, 1, out.len, stdout);
	ret = finish_stdout() ? EXIT_FAILURE_ : EXIT_OK;
out:
	strbuf_release(&out);
	history_changes_free(c, nall);
	view_close(&v);
	return ret;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int history_plot(struct history_cmd *h)
{
	struct history_change *c = NULL;
	struct history_plot p;
	struct strbuf out = STRBUF_INIT;
	struct view v;
	size_t nc = 0, nall = 0, i;
	int html, ret = EXIT_FAILURE_;

	if (!h->out) {
		trail_error("plot needs -o FILE.svg or -o FILE.html");
		return EXIT_USAGE;
	}
	html = ends_with(h->out, ".html") || ends_with(h->out, ".htm");
	if (view_open(h, &v))
		goto out;
	nc = detect(h, &v, &c, &nall);
	/* the commit column: what neighbours, stored bisections and failed builds say */
	for (i = 0; i < nc; i++)
		if (history_gap_answer(h, &v.s, &v.ids, &c[i]) < 0)
			goto out;
	memset(&p, 0, sizeof(p));
	p.s = &v.s;
	p.changes = c;
	p.nchanges = nc;
	p.functions = &h->functions;
	p.subjects = v.point_subjects;
	p.ids = &v.ids;
	p.title = "trail history";
	history_plot_write(&p, html, &out);
	if (strbuf_write_file(&out, h->out))
		goto out;
	note("wrote %s (%zu commits, %zu change points)", h->out, v.s.nr, nc);
	ret = EXIT_OK;
out:
	strbuf_release(&out);
	history_changes_free(c, nall);
	view_close(&v);
	return ret;
}

int history_check(struct history_cmd *h)
{
	const struct history_store *s = &h->store;
	struct strbuf out = STRBUF_INIT;
	size_t i, ok = 0;

	for (i = 0; i < s->nr; i++)
		ok += s->entries[i].nresults > 0;
	for (i = 0; i < s->nskipped; i++) {
		term_addf(&out, "%s skipped (%u line(s)): ", s->skipped[i].commit, s->skipped[i].lines);
		escape_term(&out, s->skipped[i].why, strlen(s->skipped[i].why));
		strbuf_addch(&out, '\n');
	}
	term_addf(&out, "check: %zu note(s) readable, %zu skipped\n", ok, s->nskipped);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	return s->nskipped ? EXIT_FAILURE_ : EXIT_OK;
}

void history_guard_json(const struct history_guard_view *v)
{
	struct strbuf out = STRBUF_INIT;
	struct json_writer w;
	size_t i;

	json_writer_init(&w, &out, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "commit", v->commit);
	json_writer_key_string(&w, "metric", v->metric);
	json_writer_key_string(&w, "unit", v->unit);
	json_writer_key_string(&w, "verdict", v->verdict);
	json_writer_key_uint(&w, "stored_commits_before", v->base_commits);
	json_writer_key_uint(&w, "notes_skipped", v->skipped);
	if (v->g) {
		json_writer_key_number(&w, "median", v->rev_median);
		json_writer_key_number(&w, "median_before", v->base_median);
		json_writer_key_number(&w, "change", v->g->ratio.estimate - 1);
		json_writer_key_pair(&w, "interval", v->g->ratio.lo - 1, v->g->ratio.hi - 1);
		/* counted metrics: an exact change has no test, p is null */
		json_writer_key_number(&w, "p", v->g->p);
		json_writer_key_bool(&w, "p_exact", v->g->exact);
		json_writer_key_bool(&w, "exact_counts", v->g->counted);
		if (v->g->counted || v->g->varied) {
			json_writer_key_number(&w, "delta", v->rev_median - v->base_median);
			json_writer_key_bool(&w, "counts_varied", v->g->varied);
			json_writer_key_number(&w, "spread", v->g->rev_spread);
			json_writer_key_number(&w, "spread_before", v->g->base_spread);
		}
		json_writer_key_number(&w, "profile_implies", v->implied);
		json_writer_key(&w, "functions");
		json_writer_begin_array(&w);
		for (i = 0; i < v->nmoved; i++) {
			json_writer_begin_object(&w);
			json_writer_key_string(&w, "name", v->moved[i].name);
			json_writer_key_string(&w, "direction", trail_direction_name(v->moved[i].own > 0 ? DIRECTION_SLOWER : DIRECTION_FASTER));
			json_writer_key_number(&w, "self_share_before", v->moved[i].before);
			json_writer_key_number(&w, "self_share_after", v->moved[i].after);
			json_writer_end(&w);
		}
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}
