/*
 * history.c - 'trail history': profiles per commit stored as git notes
 * (refs/notes/trail), their change points, and a CI guard.  This file
 * holds the option table, the dispatch and the subcommands that measure
 * (record, backfill, guard); show, plot and detect are in history_view.c,
 * detect --bisect in history_bisect.c, what they share in history_common.c.
 * The engine is src/history/ (store, series, change points, plot) over
 * trail flame's clone, builds and capture (src/flame/).  See docs/history.md.
 */
#include "stats/describe.h"
#include "core/verdict.h"
#include "cmd/commands.h"
#include "cmd/history.h"
#include "collapse/load.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/numfmt.h"
#include "core/git_rev.h"
#include "core/parse_number.h"
#include "core/progress.h"
#include "core/strbuf.h"
#include "core/term_printf.h"
#include "history/guard.h"
#include "history/tip.h"
#include "history/profiles_store.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const history_usage[] = {
	"trail history record [--rev REV] --build CMD --run CMD [--metric cpu|wall|rss|alloc|peak-heap|instructions] [--repeat N]",
	"trail history record --rev REV --profile FILE [--value X --unit U]",
	"trail history backfill --range A..B [--every K] --build CMD --run CMD [--hosts FILE] [options]",
	"trail history show [--range A..B] [--function F] [--json]",
	"trail history plot [--range A..B] [--function F]... -o FILE.svg|FILE.html",
	"trail history detect [--range A..B] [--json] [--bisect [-o DIR]]",
	"trail history guard [--rev REV] [--max-regression 5%] [--json] [--markdown FILE]",
	"trail history check [--max-note-size BYTES]",
	"trail history diff A B [--json] [-o FILE.svg|FILE.html]",
	"trail history prune --keep N",
	"trail history site -o DIR [--range A..B]",
	"",
	"Keep a profile per commit in the repository itself (git notes under refs/notes/trail:",
	"the metric's runs, the functions that matter, the environment), find the change",
	"points of the metric and of each function (E-Divisive means, as Apache Otava),",
	"bisect inside the gaps between stored commits, and guard CI against a regression.",
	"Builds run in trail flame's private clone: the work tree and index are never touched.",
	"Exit: 0 ok, 3 guard found a regression, 1 failure, 2 usage.",
	NULL
};


static void print_stored(const char *id, const struct history_result *r)
{
	double med, lo, hi;

	struct strbuf v = STRBUF_INIT;

	if (r->status != HISTORY_OK || history_result_median(r, &med, &lo, &hi)) {
		term_printf("%.12s %s\n", id, history_status_name(r->status));
		return;
	}
	numfmt_interval(&v, med, lo, hi, r->unit, 0);
	term_printf("%.12s %s %s (median of %zu runs, 95%% interval), env %s\n", id, r->metric, v.buf,
		    r->nruns, r->env.key);
	strbuf_release(&v);
}

/* The newest stored result of the series before id (first parents), or NULL. */
static const struct history_result *previous(struct history_cmd *h, const char *id,
					     const char *key, const char *metric)
{
	char *parent = xstrfmt("%s^", id);
	const char *argv[] = { "git", "rev-list", "--first-parent", "--max-count=50",
			       "--end-of-options", parent, NULL };
	const struct history_result *r = NULL;
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	char *p, *nl;

	c.argv = argv;
	c.dir = h->top_dir;
	c.err = CHILD_DEVNULL;	/* a root commit has no parent: nothing before it */
	if (!child_capture(&c, &out))
		for (p = out.buf; !r && (nl = strchr(p, '\n')); p = nl + 1) {
			*nl = '\0';
			r = history_store_get(&h->store, p, key, metric);
		}
	strbuf_release(&out);
	free(parent);
	return r;
}

static int record_profile(struct history_cmd *h, const char *id)
{
	struct folded_profile p;
	struct history_result r;
	const struct collapser *fmt;
	size_t i;
	int ret = -1;

	if (h->values.nr && !h->unit)
		return trail_error("--value needs --unit (what the value counts: ms, us, bytes ...)");
	folded_profile_init(&p);
	if (load_profile(&p, h->profile_path, NULL, &fmt)) {
		folded_profile_release(&p);
		return -1;
	}
	if (!(p.total[0] > 0)) {
		folded_profile_release(&p);
		return trail_error("--profile '%s' holds no samples: nothing to store", h->profile_path);
	}
	history_result_init(&r);
	r.time = clock_wall();
	r.metric = xstrdup(h->metric_name ? h->metric_name : "value");
	r.unit = xstrdup(h->unit ? h->unit : "");
	r.runs = xmallocarray(h->values.nr + 1, sizeof(double));
	for (i = 0; i < h->values.nr; i++)
		if (parse_double(h->values.items[i], &r.runs[r.nruns++])) {
			trail_error("--value '%s' is not a number", h->values.items[i]);
			goto out;
		}
	history_env_collect(&r.env, NULL, NULL, "external profile", 0, 0);
	if (h->bench)
		history_env_set_bench(&r.env, h->bench);
	history_result_set_functions(&r, &p, (unsigned)h->top, NULL);
	r.profiles = 1;
	if (!history_store_put(&h->store, id, &r) && !history_profile_put(h->top_dir, id, &r, &p)) {
		print_stored(id, &r);
		ret = 0;
	}
out:
	history_result_release(&r);
	folded_profile_release(&p);
	return ret;
}

static int history_record(struct history_cmd *h)
{
	const struct history_result *r, *like;
	enum flame_metric m;
	char id[41], key[17];

	if (git_rev_resolve(h->top_dir, "--rev", h->rev ? h->rev : "HEAD", id))
		return EXIT_FAILURE_;
	if (h->profile_path)
		return record_profile(h, id) ? EXIT_FAILURE_ : EXIT_OK;
	if (!h->build_cmd || !h->run_cmd) {
		trail_error("record needs --build and --run (or --profile FILE)");
		return EXIT_USAGE;
	}
	if (history_cmd_parse_metric(h->metric_name, &m))
		return EXIT_USAGE;
	history_cmd_planned_key(h, h->build_cmd, h->run_cmd, m, key);
	like = previous(h, id, key, h->metric_name);
	if (history_measure_store(h, id, like, NULL, &r) || !r)
		return EXIT_FAILURE_;
	print_stored(id, r);
	return EXIT_OK;
}

/*
 * Commits are measured BACKFILL_BATCH at a time: a batch is built, its
 * runs taken round-robin (one run of each per round), and each commit
 * stored as its last run ends, so an interrupted backfill keeps what it
 * measured.  todo is in bit-reversed order, so a batch spreads over the
 * whole range and a load that comes and goes during one lands on commits
 * all over it, not on a block of neighbours that would look like a change.
 */
#define BACKFILL_BATCH 8

static int backfill_batch(struct history_cmd *h, const char *const *ids, size_t n,
			  const struct history_measure_opts *mo, struct progress *pr,
			  uint64_t *step, size_t *failed)
{
	struct history_measurement ms[BACKFILL_BATCH];
	size_t i, started = 0;
	unsigned round;
	int ret = -1;

	for (i = 0; i < n; i++, started++) {
		progress_update(pr, (*step)++, "building");
		if (history_measure_start(&h->repo, ids[i], mo, &ms[i]))
			goto out;
	}
	for (round = 0; round < mo->repeat; round++)
		for (i = 0; i < n; i++) {
			progress_update(pr, (*step)++, "running");
			if (history_measure_run(mo, &ms[i]))
				goto out;
			if (round + 1 < mo->repeat)
				continue;
			history_measure_finish(mo, &ms[i]);
			*failed += ms[i].res.status != HISTORY_OK;
			if (h->print)
				history_hosts_print_result(ids[i], &ms[i].res);
			else if (history_cmd_store(h, ids[i], &ms[i].res))
				goto out;
		}
	ret = 0;
out:
	for (i = 0; i < started; i++)
		history_measurement_release(&ms[i]);
	return ret;
}

static int backfill_measure(struct history_cmd *h, const struct string_list *todo,
			    const struct history_result *like, enum flame_metric m, size_t *failed)
{
	struct string_list keep = STRING_LIST_INIT;
	struct history_measure_opts mo;
	struct progress pr;
	size_t b;
	uint64_t step = 0;
	int ret = -1;

	if (history_cmd_open_clone(h))
		goto out;
	for (b = 0; like && b < like->nfuncs; b++)
		string_list_append(&keep, like->funcs[b].name);
	history_cmd_measure_opts(h, h->build_cmd, h->run_cmd, m, &mo);
	mo.keep = &keep;
	progress_start(&pr, "backfill", (uint64_t)todo->nr * (1 + mo.repeat));
	for (ret = 0, b = 0; !ret && b < todo->nr; b += BACKFILL_BATCH)
		ret = backfill_batch(h, (const char *const *)todo->items + b,
				     todo->nr - b < BACKFILL_BATCH ? todo->nr - b : BACKFILL_BATCH,
				     &mo, &pr, &step, failed);
	progress_stop(&pr);
out:
	string_list_clear(&keep);
	return ret;
}

/* The commits backfill measures: --commit's, or every --every-th of --range's. */
static int backfill_selection(struct history_cmd *h, struct string_list *sel)
{
	struct string_list ids = STRING_LIST_INIT;
	struct git_range range;
	size_t i;
	char id[41];

	for (i = 0; i < h->commits.nr; i++) {
		if (git_rev_resolve(h->top_dir, "--commit", h->commits.items[i], id))
			return -1;
		string_list_append(sel, id);
	}
	if (h->commits.nr)
		return 0;
	if (history_cmd_range(h, &range) || history_first_parents(h->top_dir, &range, &ids, NULL, NULL))
		return -1;
	for (i = 0; i < ids.nr; i++)
		if (!(i % h->every) || i + 1 == ids.nr)
			string_list_append(sel, ids.items[i]);
	string_list_clear(&ids);
	return 0;
}

static int history_backfill(struct history_cmd *h)
{
	struct string_list sel = STRING_LIST_INIT, todo = STRING_LIST_INIT;
	const struct history_result *like = NULL;
	enum flame_metric m;
	size_t i, skipped = 0, failed = 0, done = 0;
	double t0 = clock_monotonic();
	char key[17];
	int ret = EXIT_FAILURE_, rc;

	if ((!h->range && !h->commits.nr && !h->print) || !h->build_cmd || !h->run_cmd ||
	    (h->range && h->commits.nr) || (h->print && h->hosts_file)) {
		trail_error("backfill needs --range (or --commit), --build and --run; --print "
			    "does not go with --hosts");
		return EXIT_USAGE;
	}
	if (history_cmd_parse_metric(h->metric_name, &m) ||
	    (h->remote_repo && git_url_check("--remote-repo", h->remote_repo)))
		return EXIT_USAGE;
	if (h->print && !h->range && !h->commits.nr) {
		history_hosts_print_env(h, m);	/* what a host of --hosts is asked first */
		return EXIT_OK;
	}
	if (backfill_selection(h, &sel))
		goto out;
	if (h->hosts_file && sel.nr) {
		rc = history_backfill_hosts(h, &sel, &done, &skipped, &failed);
		if (rc == -2)
			ret = EXIT_USAGE;
		else if (!rc)
			ret = EXIT_OK;
		goto out;
	}
	history_cmd_planned_key(h, h->build_cmd, h->run_cmd, m, key);
	for (i = 0; i < sel.nr; i++) {
		if (!h->print && history_store_get(&h->store, sel.items[i], key, h->metric_name))
			skipped++;
		else
			string_list_append(&todo, sel.items[i]);
	}
	if (todo.nr && !h->print)
		like = previous(h, todo.items[0], key, h->metric_name);
	if (!h->commits.nr)
		history_scramble(&todo);
	rc = todo.nr ? backfill_measure(h, &todo, like, m, &failed) : 0;
	for (i = 0; i < todo.nr; i++)	/* what was stored, even when it stopped */
		done += h->print || history_store_get(&h->store, todo.items[i], key, h->metric_name);
	if (!rc)
		ret = EXIT_OK;
out:
	if (ret != EXIT_USAGE) {
		char line[300];

		/* with --print, stdout is the results' */
		snprintf(line, sizeof(line), "backfill: %zu commit(s) measured, %zu already stored, "
			 "%zu failed to build or run; %.2f s per commit", done, skipped, failed,
			 done ? (clock_monotonic() - t0) / (double)done : 0.0);
		if (h->print)
			note("%s", line);
		else
			term_printf("%s\n", line);
	}
	string_list_clear(&sel);
	string_list_clear(&todo);
	return ret;
}

/* metric: the series'; a counted profile's shares are of instructions, not samples */
static void print_moved(const struct history_moved *mv, size_t n, const char *indent, const char *metric)
{
	size_t i;

	for (i = 0; i < n; i++)
		term_printf("%s%-28s %s: self share %.1f%% -> %.1f%% of %s\n", indent, mv[i].name,
		       trail_direction_name(mv[i].own > 0 ? DIRECTION_SLOWER : DIRECTION_FASTER), 100 * mv[i].before,
		       100 * mv[i].after, flame_metric_share_of(metric));
}

/* The level REV is compared with: after the last change point before it, at most --window commits. */
static size_t baseline_start(struct history_cmd *h, struct history_series *s)
{
	struct history_detect_opts o;
	struct history_change *c;
	size_t n = s->nr, nc, a = 0;

	history_cmd_detect_opts(h, s->metric, &o);
	s->nr = n - 1;
	nc = history_detect(s, &o, &c);
	s->nr = n;
	if (nc)
		a = c[nc - 1].index;
	history_changes_free(c, nc);
	if (n - 1 - a > h->window)
		a = n - 1 - h->window;
	return a;
}

static void guard_skipped_line(const struct history_cmd *h)
{
	if (h->store.nskipped)
		term_printf("guard: %zu note(s) skipped as unreadable or implausible, not compared "
			    "(trail history check lists them)\n", h->store.nskipped);
}

/*
 * Exact counts: the two numbers, their difference and the change, whether
 * REV's runs repeated, how far the stored commits' counts spread; no
 * interval and no p-value (a test over a few identical counts says nothing).
 */
static void guard_counted_line(const char *id, const struct history_series *s, const double *rev,
			       size_t nr, const double *base, size_t nb, size_t commits,
			       const struct history_guard_metric *g, double implied)
{
	double r = stats_median(rev, nr), b = stats_median(base, nb);

	term_printf("guard: %.12s %s %.0f %s vs %.0f %s (median of %zu stored commit(s) before it): "
		    "%+.0f %s, %+.3f%% (exact counts: ", id, s->metric, r, s->unit, b, s->unit,
		    commits, r - b, s->unit, (g->ratio.estimate - 1) * 100);
	if (nr == 1)
		term_printf("one run");
	else if (g->rev_spread == 0)
		term_printf("%zu runs identical", nr);
	else
		term_printf("%zu runs within %.2g%%", nr, 100 * g->rev_spread);
	term_printf("; the stored commits' counts span %.3g%%); the profile implies %+.1f%%\n",
		    100 * g->base_spread, implied * 100);
}

static int guard_compare(struct history_cmd *h, struct history_series *s, const char *id)
{
	struct history_detect_opts o;
	struct history_moved *mv;
	struct history_guard_metric g;
	size_t n = s->nr, a = baseline_start(h, s), nb, nr, nmv, i;
	double *base = history_pool_runs(s, a, n - 1, &nb), *rev = history_pool_runs(s, n - 1, n, &nr);
	double change, implied;
	const char *verdict;
	int regression, profile_slower = 0;

	history_cmd_detect_opts(h, s->metric, &o);
	h->max_regression = 100 * history_cmd_max_regression(h, s->metric);	/* 0.5% when counted */
	if (history_cmd_guard_runs(h, s->metric, base, nb, rev, nr, h->max_regression / 100, &g)) {
		free(base);
		free(rev);
		return trail_error("cannot compare %.12s with the commits before it", id);
	}
	change = g.ratio.estimate - 1;
	implied = history_moved_between(s, a, n - 1, n, &o, &mv, &nmv);
	for (i = 0; i < nmv; i++)
		profile_slower |= mv[i].own > 0;
	/*
	 * Slower beyond the bound by the metric (significantly, the whole
	 * interval past the bound: history/guard.h), or by the profile:
	 * functions took a larger share and the others' shrink says the run is
	 * that much longer.
	 */
	regression = g.slower || (profile_slower && implied > h->max_regression / 100);
	verdict = regression ? "regression" : change > h->max_regression / 100 ||
		  implied > h->max_regression / 100 ? "slower-not-significant" : "pass";
	if (h->json) {
		struct history_guard_view gv = {
			id, s->metric, s->unit, stats_median(rev, nr), stats_median(base, nb),
			n - 1 - a, &g, implied, mv, nmv, h->store.nskipped, verdict
		};

		history_guard_json(&gv);
	} else if (g.counted) {
		guard_counted_line(id, s, rev, nr, base, nb, n - 1 - a, &g, implied);
	} else {
		struct strbuf mr = STRBUF_INIT, mb = STRBUF_INIT;

		if (g.varied)
			warning("%.12s's %zu runs of %s differ by %.3g%% (more than %g%%): not exact "
				"counts; the test decides", id, nr, s->metric, 100 * g.rev_spread,
				100 * STATS_EXACT_TOLERANCE);
		numfmt_value(&mr, stats_median(rev, nr), s->unit, 0);
		numfmt_value(&mb, stats_median(base, nb), s->unit, 0);
		term_printf("guard: %.12s %s %s vs %s (%zu stored commit(s) before it): "
			    "%+.1f%% [%+.1f%%, %+.1f%%], p = %.2g (one-sided, %s); the profile "
			    "implies %+.1f%%\n", id, s->metric, mr.buf, mb.buf, n - 1 - a, change * 100,
			    (g.ratio.lo - 1) * 100, (g.ratio.hi - 1) * 100, g.p,
			    g.exact ? "exact" : "normal approximation", implied * 100);
		strbuf_release(&mr);
		strbuf_release(&mb);
	}
	if (!h->json) {
		if (nmv) {
			term_printf("functions that moved:\n");
			print_moved(mv, nmv, "  ", s->metric);
		}
		guard_skipped_line(h);
		term_printf("guard: %s\n", regression ? "regression beyond --max-regression" :
			    !strcmp(verdict, "pass") ? "pass" : "slower, but not significantly: pass");
	}
	verdict = regression ? "regression beyond --max-regression" :
		  change > h->max_regression / 100 || implied > h->max_regression / 100 ?
		  "slower, but not significantly: pass" : "pass";
	history_md_compare(h, change, g.ratio.lo - 1, g.ratio.hi - 1, g.p, mv, nmv, verdict);
	while (nmv)
		free(mv[--nmv].name);
	free(mv);
	free(base);
	free(rev);
	return regression ? EXIT_REGRESSION : EXIT_OK;
}

/*
 * A first pull request: nothing stored before REV (the last of ids) in
 * the environment guard would measure in.  With --build and --run (a
 * .trail bench gives them too), measure REV's first parent first and
 * store it: in a pull request's merge commit (GitHub's checkout) the
 * first parent is the base branch's tip, so the base is recorded by the
 * first guard instead of failing every pull request until a push to
 * main has recorded one.  A parent already stored, even as failing, is
 * left as it is.  0, or -1 with the commands to run.
 */
static int guard_base(struct history_cmd *h, const struct string_list *ids)
{
	const char *rev = ids->items[ids->nr - 1], *parent;
	const struct history_result *r = NULL;
	const struct history_entry *e;
	struct history_series s;
	size_t before = 0, i;

	if (!history_series_build_bench(&s, &h->store, ids, h->bench, h->env_key, h->metric_name,
					h->all_envs)) {
		for (i = 0; i < s.nr; i++)
			before += s.pts[i].pos + 1 < ids->nr;
		history_series_release(&s);
	}
	if (before || ids->nr < 2)
		return 0;	/* a base to compare with, or a root commit (guard passes it) */
	parent = ids->items[ids->nr - 2];
	e = h->env_key ? history_store_find(&h->store, parent) : NULL;
	for (i = 0; e && i < e->nresults; i++)
		if (!strcmp(e->results[i].env.key, h->env_key))
			return 0;
	if (!h->build_cmd || !h->run_cmd)
		return trail_error("nothing stored before %.12s to compare it with, and no --build and "
				   "--run to measure its parent %.12s: run guard with --build CMD --run CMD "
				   "(it measures the parent first), or record the base first with 'trail "
				   "history record --rev %.12s --build CMD --run CMD' (docs/history.md, CI "
				   "RECIPES)", rev, parent, parent);
	note("guard: nothing stored before %.12s here: measuring its parent %.12s first, as the base",
	     rev, parent);
	if (history_measure_store(h, parent, NULL, h->env_key, &r))
		return -1;
	if (r && r->status != HISTORY_OK)
		return trail_error("the base %.12s (the parent of %.12s) is stored as %s: nothing to "
				   "compare with", parent, rev, history_status_name(r->status));
	return 0;
}

static int history_guard(struct history_cmd *h)
{
	struct string_list ids = STRING_LIST_INIT;
	struct git_range range;
	struct history_series s;
	const struct history_result *r;
	char id[41], key[17];
	enum flame_metric m;
	int ret = EXIT_FAILURE_;

	if (git_rev_resolve(h->top_dir, "--rev", h->rev ? h->rev : "HEAD", id))
		return EXIT_FAILURE_;
	memset(&range, 0, sizeof(range));
	memcpy(range.to, id, sizeof(range.to));
	if (history_first_parents(h->top_dir, &range, &ids, NULL, NULL))
		return EXIT_FAILURE_;
	if (!h->env_key && h->build_cmd && h->run_cmd) {
		if (history_cmd_parse_metric(h->metric_name ? h->metric_name : "cpu", &m))
			goto out;
		history_cmd_planned_key(h, h->build_cmd, h->run_cmd, m, key);
		h->env_key = key;
	}
	if (guard_base(h, &ids) || history_cmd_series(h, &ids, &s))
		goto out;
	r = history_store_get(&h->store, id, s.key, s.metric);
	if (!r) {
		const struct history_result *like = s.nr ? s.pts[s.nr - 1].r : NULL;

		if (!like) {
			trail_error("no results before %.12s to compare with", id);
			history_series_release(&s);
			goto out;
		}
		note("guard: measuring %.12s first", id);
		if (history_measure_store(h, id, like, s.key, &r) || !r) {
			history_series_release(&s);
			goto out;
		}
	}
	memcpy(key, s.key, sizeof(key));
	h->env_key = key;
	history_series_release(&s);
	if (r->status != HISTORY_OK) {
		trail_error("%.12s is stored as %s: nothing to compare", id, history_status_name(r->status));
		goto out;
	}
	if (history_cmd_series(h, &ids, &s))
		goto out;
	if (s.nr < 2 || strcmp(s.pts[s.nr - 1].commit, id)) {
		note("guard: no stored commits before %.12s in environment %s: pass", id, s.key);
		if (h->json) {
			struct history_guard_view gv = { .commit = id, .metric = s.metric,
							 .unit = s.unit, .skipped = h->store.nskipped,
							 .verdict = "pass" };

			history_guard_json(&gv);
		} else {
			guard_skipped_line(h);
		}
		ret = EXIT_OK;
	} else {
		ret = guard_compare(h, &s, id);
		if (ret < 0)
			ret = EXIT_FAILURE_;
	}
	history_series_release(&s);
	ret = history_guard_budget(h, r, ret);
	history_md_row(h, id, ret);
out:
	string_list_clear(&ids);
	return ret;
}

/* "5%" or "5": a percentage, 0 or more. */
static int parse_percent(const char *s, double *out)
{
	size_t n = strlen(s);
	char *num = xstrndup(s, n && s[n - 1] == '%' ? n - 1 : n);
	int bad = parse_double(num, out) || *out < 0;

	free(num);
	return bad ? trail_error("--max-regression '%s' is not a percentage (e.g. 5%%)", s) : 0;
}

static int top_level(struct history_cmd *h)
{
	const char *argv[] = { "git", "rev-parse", "--show-toplevel", NULL };
	struct strbuf out = STRBUF_INIT;
	int code = run_capture(h->dir, &out, argv);

	strbuf_rtrim(&out);
	if (code || !out.len) {
		strbuf_release(&out);
		return trail_error("'%s' is not inside a git work tree", h->dir);
	}
	h->top_dir = strbuf_detach(&out, NULL);
	return 0;
}

static void clear_git_env(void)
{
	static const char *const vars[] = {
		"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX", NULL
	};
	const char *const *v;

	for (v = vars; *v; v++)
		unsetenv(*v);
}

/* The subcommands, in the order --help and the completion list them. */
static const struct {
	const char *name;
	int (*fn)(struct history_cmd *);
} subs[] = {
	{ "record", history_record }, { "backfill", history_backfill },
	{ "show", history_show }, { "plot", history_plot },
	{ "detect", history_detect_cmd }, { "guard", history_guard },
	{ "check", history_check },
	{ "diff", history_diff_cmd }, { "prune", history_prune_cmd },
	{ "site", history_site_cmd },
};

void cmd_history_print_subcommands(void)
{
	size_t i;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		term_printf("%s\n", subs[i].name);
}

static int run_sub(struct history_cmd *h, const char *sub);

/*
 * With .trail at the top and no command of the command line (--build,
 * --run, --profile), every subcommand runs per bench; --bench needs it.
 */
static int dispatch(struct history_cmd *h, const char *sub)
{
	int cli_workload = h->build_cmd || h->run_cmd || h->profile_path;
	int rc = history_suite_load(&h->suite, h->top_dir);

	if (rc < 0)
		return EXIT_FAILURE_;
	if (h->profile_path && h->benches.nr == 1 && rc == 0) {
		/* record --profile FILE --bench NAME: a profile made elsewhere, for that bench */
		if (!(h->bench_def = history_suite_find(&h->suite, h->benches.items[0]))) {
			trail_error("no bench '%s' in %s", h->benches.items[0], HISTORY_SUITE_FILE);
			return EXIT_USAGE;
		}
		h->bench = h->bench_def->name;
	} else if (h->print && h->benches.nr == 1 && history_suite_name_ok(h->benches.items[0])) {
		/* a host of backfill --hosts measuring a bench: its name, the commands given */
		h->bench = h->benches.items[0];
	} else if (h->benches.nr && (rc == 1 || cli_workload)) {
		trail_error(rc == 1 ? "--bench needs a %s file at the repository's top (docs/history.md, "
			    "SUITE FILE)" : "--bench takes its commands from %s: not with --build, --run "
			    "or --profile (but record --profile FILE with one --bench)", HISTORY_SUITE_FILE);
		return EXIT_USAGE;
	}
	/* prune and site: every bench at once */
	if (rc == 0 && !cli_workload && strcmp(sub, "prune") && strcmp(sub, "site"))
		return history_run_suite(h, sub, run_sub);
	/* --repeat and --min-effect unset stay so: the metric's defaults (history_common.c) */
	if (h->run_timeout < 0)
		h->run_timeout = HISTORY_DEFAULT_TIMEOUT;
	if (!h->profiler)
		h->profiler = "trail";
	if (!h->metric_name && (!strcmp(sub, "record") || !strcmp(sub, "backfill")) && !h->profile_path)
		h->metric_name = "cpu";
	return run_sub(h, sub);
}

static int run_sub(struct history_cmd *h, const char *sub)
{
	size_t i;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(sub, subs[i].name))
			return subs[i].fn(h);
	trail_error("unknown subcommand '%s' (record, backfill, show, plot, detect, guard, check, diff, "
		    "prune, site)", sub);
	return EXIT_USAGE;
}

int cmd_history(int argc, const char **argv)
{
	struct history_cmd h;
	const char *sub, *max_regression = NULL;
	int ret = EXIT_FAILURE_, n;
	struct option opts[] = {
		OPT_GROUP("what and where"),
		OPT_STRING(0, "rev", &h.rev, "REV", "record, guard: the commit (default HEAD)"),
		OPT_STRING(0, "range", &h.range, "A..B", "first-parent commits of A..B (or all of B's); default HEAD"),
		OPT_U64(0, "every", &h.every, "K", "backfill: every K-th commit of the range (default 1)", 1, 1000000),
		OPT_STRING('C', NULL, &h.dir, "DIR", "run as if started in DIR (the repository)"),
		OPT_STRING_LIST(0, "bench", &h.benches, "NAME", "this bench of .trail (repeatable; default every bench)"),
		OPT_STRING_LIST(0, "commit", &h.commits, "REV", "backfill: this commit instead of --range (repeatable)"),
		OPT_STRING(0, "cache", &h.cache_root, "DIR", "trail flame's cache (private clone, builds)"),
		OPT_STRING(0, "hosts", &h.hosts_file, "FILE", "backfill: measure on these machines over ssh (trail flame's --hosts file), those in one environment"),
		OPT_STRING(0, "remote-trail", &h.remote_trail, "PATH", "backfill --hosts: trail on the hosts (default: trail on their PATH)"),
		OPT_STRING(0, "remote-repo", &h.remote_repo, "URL", "backfill --hosts: hosts git fetch the history from URL (default: a git bundle sent over ssh)"),
		OPT_FLAG(0, "print", &h.print, "backfill: store nothing, print each result after its commit id (what a host of --hosts runs)"),
		OPT_GROUP("measuring"),
		OPT_STRING(0, "build", &h.build_cmd, "CMD", "build command (sh -c, in a private worktree)"),
		OPT_STRING(0, "run", &h.run_cmd, "CMD", "workload command (sh -c, in the same worktree)"),
		OPT_STRING(0, "metric", &h.metric_name, "NAME", flame_metric_help(1)),
		OPT_U64(0, "repeat", &h.repeat, "N", "profiled runs per commit (default 5; 1 for instructions and est-cycles)", 1, 1000),
		OPT_U64('F', "freq", &h.freq, "HZ", "sampling frequency (default 999)", 1, 100000),
		OPT_DOUBLE(0, "discard", &h.discard, "PERCENT", "drop the first part of each run's samples (default 10)", 0, 90),
		OPT_STRING(0, "profiler", &h.profiler, "NAME", "trail (default) or perf"),
		OPT_U64(0, "top", &h.top, "N", "functions kept per commit, by self and by total (default 20)", 1, 100000),
		OPT_DOUBLE(0, "timeout", &h.run_timeout, "SECONDS", "a run past it fails (default 300, 0 = none)", 0, 1e9),
		OPT_DOUBLE(0, "build-timeout", &h.build_timeout, "SECONDS", "a build past it fails (default 600, 0 = none)", 0, 1e9),
		OPT_STRING(0, "profile", &h.profile_path, "FILE", "record: store this profile (any format trail collapse reads)"),
		OPT_STRING_LIST(0, "value", &h.values, "X", "record --profile: a run's metric value (repeatable)"),
		OPT_STRING(0, "unit", &h.unit, "U", "record --profile: the unit of --value"),
		OPT_GROUP("reading"),
		OPT_STRING_LIST(0, "function", &h.functions, "F", "show, plot: this function's share (repeatable)"),
		OPT_FLAG(0, "json", &h.json, "show, detect, guard, diff: JSON on stdout"),
		OPT_STRING('o', "output", &h.out, "FILE", "plot: write FILE.svg, or FILE.html (plot and change-point table); detect --bisect: the reports' directory"),
		OPT_U64(0, "max-note-size", &h.max_note, "BYTES", "a note larger than this is skipped unread (default 1048576)", 1, UINT64_C(1) << 40),
		OPT_STRING(0, "env", &h.env_key, "KEY", "the series of this environment key (default: the one with most results)"),
		OPT_FLAG(0, "all-envs", &h.all_envs, "mix every environment's results in one series"),
		OPT_GROUP("deciding"),
		OPT_FLAG(0, "bisect", &h.bisect, "detect: name the commit inside each gap (trail flame's narrowing and report)"),
		OPT_DOUBLE(0, "alpha", &h.alpha, "P", "false-alarm rate: of a whole steady history (detect), of the test (guard); default 0.01", 1e-6, 0.5),
		OPT_DOUBLE(0, "min-effect", &h.min_effect, "PERCENT", "smallest change of the metric or of a function that counts (default 3; 0.5 for instructions and est-cycles)", 0, 1e6),
		OPT_DOUBLE(0, "min-share", &h.min_share, "PERCENT", "a function moves by at least this share of all samples (default 2; for instructions, est-cycles a quarter of --min-effect)", 0, 100),
		OPT_U64(0, "simulations", &h.simulations, "N", "null series simulated per series length to calibrate the test (default 4999)", 99, 1000000),
		OPT_STRING(0, "max-regression", &max_regression, "PERCENT", "guard: slower than this fails (default 5%; 0.5% for instructions, est-cycles)"),
		OPT_STRING(0, "markdown", &h.markdown, "FILE", "guard: append a Markdown table (a row per bench) to FILE, e.g. $GITHUB_STEP_SUMMARY"),
		OPT_U64(0, "window", &h.window, "N", "guard: stored commits compared with (default 10)", 1, 100000),
		OPT_U64(0, "keep", &h.keep, "N", "prune: the newest N commits of --range keep their full profiles", 1, UINT32_MAX),
		OPT_END()
	};

	memset(&h, 0, sizeof(h));
	h.dir = ".";
	h.every = 1;
	h.repeat = 0;	/* unset: 5, or 1 for a counted metric (history_cmd_measure_opts) */
	h.freq = 999;
	h.discard = 10;
	h.top = 20;
	h.run_timeout = -1;
	h.build_timeout = 600;
	h.alpha = 0.01;
	h.min_effect = -1;	/* unset: 3, or the metric's (history_cmd_min_effect) */
	h.min_share = -1;	/* unset: 2, or a counted metric's (history_cmd_detect_opts) */
	h.simulations = 4999;
	h.window = 10;
	h.max_note = HISTORY_NOTE_BUDGET;
	h.remote_trail = "trail";	/* --profiler unset: .trail's, else trail (dispatch) */
	sub = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	n = cmd_parse_options(sub ? argc - 1 : argc, sub ? argv + 1 : argv, opts, history_usage, 0);
	if (sub && !strcmp(sub, "diff") && n == 2) {	/* diff A B */
		h.args[0] = argv[1];
		h.args[1] = argv[2];
		h.nargs = 2;
		n = 0;
	}
	if (!sub || n != 0) {
		if (!sub)
			trail_error("which subcommand? (record, backfill, show, plot, detect, guard, check, diff, "
				    "prune, site)");
		else
			trail_error("unexpected argument '%s'", argv[1]);
		ret = EXIT_USAGE;
		goto out;
	}
	h.max_regression_given = !!max_regression;
	if (parse_percent(max_regression ? max_regression : "5%", &h.max_regression)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (h.profiler && strcmp(h.profiler, "trail") && strcmp(h.profiler, "perf")) {
		trail_error("unknown profiler '%s' (trail, perf)", h.profiler);
		ret = EXIT_USAGE;
		goto out;
	}
	clear_git_env();
	h.trail_exe = child_self_exe();
	if (top_level(&h) || history_store_load(&h.store, h.top_dir, h.max_note))
		goto out;
	if (strcmp(sub, "check"))
		history_cmd_warn_skipped(&h);
	if (!strcmp(sub, "backfill") || (!strcmp(sub, "detect") && h.bisect))
		history_cmd_watch(sub);
	ret = dispatch(&h, sub);
	history_cmd_unwatch();
	if (history_md_write(&h) && ret == EXIT_OK)
		ret = EXIT_FAILURE_;
out:
	history_store_release(&h.store);
	if (h.repo_open)
		flame_repo_release(&h.repo);
	if (h.scratch) {
		tempdir_remove(h.scratch);
		free(h.scratch);
	}
	free(h.top_dir);
	free(h.trail_exe);
	string_list_clear(&h.values);
	string_list_clear(&h.functions);
	string_list_clear(&h.commits);
	string_list_clear(&h.benches);
	history_suite_release(&h.suite);
	history_md_release(&h.md);
	return ret;
}
