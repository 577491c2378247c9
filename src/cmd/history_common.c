/*
 * history_common.c - what the 'trail history' subcommands share (see
 * cmd/history.h): the metric's name, detection options from the command
 * line, trail flame's clone opened once, the measurement options and
 * environment key of a commit, measuring one commit into the store, the
 * series of a range, and the order backfill measures in.
 */
#include "cmd/history.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "history/profiles_store.h"
#include "measure/metric.h"
#include "measure/probe_request.h"
#include "stats/describe.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Results stored by this process: what a stopped backfill says it kept. */
static volatile sig_atomic_t nstored;
static int watch_handle = -1;
static const char *watch_what = "";

static void add_number(char *buf, size_t *len, size_t cap, unsigned long v)
{
	char digits[24];
	size_t n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < sizeof(digits));
	while (n && *len + 1 < cap)
		buf[(*len)++] = digits[--n];
}

static void add_text(char *buf, size_t *len, size_t cap, const char *s)
{
	while (*s && *len + 1 < cap)
		buf[(*len)++] = *s++;
}

/* Runs in a signal handler too: write(2) only, no stdio. */
static void report_stored(void *data)
{
	char msg[400];
	size_t len = 0;

	(void)data;
	add_text(msg, &len, sizeof(msg), "trail history: ");
	add_text(msg, &len, sizeof(msg), watch_what);
	add_text(msg, &len, sizeof(msg), " stopped: ");
	add_number(msg, &len, sizeof(msg), (unsigned long)nstored);
	add_text(msg, &len, sizeof(msg), " result(s) stored before it ended (kept); run the same "
		 "command again to go on: stored commits are not measured again\n");
	if (write(STDERR_FILENO, msg, len) < 0)
		return;
}

void history_cmd_watch(const char *what)
{
	watch_what = what;
	watch_handle = cleanup_push(report_stored, NULL);
}

void history_cmd_unwatch(void)
{
	if (watch_handle >= 0)
		cleanup_pop(watch_handle, 0);
	watch_handle = -1;
}

int history_cmd_store(struct history_cmd *h, const char *id, const struct history_result *r)
{
	if (history_store_put(&h->store, id, r))
		return -1;
	nstored++;
	return 0;
}

int history_cmd_range(struct history_cmd *h, struct git_range *r)
{
	return git_range_resolve(h->top_dir, "--range", h->range ? h->range : "HEAD", r);
}

void history_cmd_warn_skipped(const struct history_cmd *h)
{
	const struct history_store *s = &h->store;
	size_t i, shown = s->nskipped > 10 ? 9 : s->nskipped;

	for (i = 0; i < shown; i++)
		warning("note of %.12s skipped: %s", s->skipped[i].commit, s->skipped[i].why);
	if (shown < s->nskipped)
		warning("and %zu more note(s) skipped", s->nskipped - shown);
	if (s->nskipped)
		note("'trail history check' lists the skipped notes; remove one with "
		     "'git notes --ref=trail remove COMMIT'");
}

int history_cmd_parse_metric(const char *name, enum flame_metric *m)
{
	return flame_metric_parse_history(name, m);
}

double history_cmd_min_effect(const struct history_cmd *h, const char *metric)
{
	return h->min_effect >= 0 ? h->min_effect / 100
				  : flame_metric_min_effect(flame_metric_find(metric));
}

/*
 * A series' metric may be none of trail's (record --profile --value:
 * "value"): the default bound then, without parsing it as an option (its
 * "unknown metric" error was printed by guard and site that went on).
 */
double history_cmd_max_regression(const struct history_cmd *h, const char *metric)
{
	const struct flame_metric_def *d = flame_metric_find(metric);

	if (!h->max_regression_given && d && d->deterministic)
		return flame_metric_min_effect(d);
	return h->max_regression / 100;
}

int history_cmd_guard_runs(const struct history_cmd *h, const char *metric, const double *base,
			   size_t nb, const double *rev, size_t nr, double bound,
			   struct history_guard_metric *g)
{
	const struct flame_metric_def *d = metric ? flame_metric_find(metric) : NULL;

	if (d && d->deterministic)
		return history_guard_counts(base, nb, rev, nr, h->alpha, bound, STATS_EXACT_TOLERANCE, g);
	return history_guard_metric(base, nb, rev, nr, h->alpha, bound, g);
}

void history_cmd_detect_opts(const struct history_cmd *h, const char *metric,
			     struct history_detect_opts *o)
{
	cp_params_init(&o->cp);
	o->cp.alpha = h->alpha;
	o->cp.min_effect = history_cmd_min_effect(h, metric);
	o->cp.simulations = (unsigned)h->simulations;
	/* counted shares have no sampling noise: a quarter of the minimum effect (as flame) */
	if (h->min_share >= 0)
		o->min_share = h->min_share / 100;
	else if (metric && flame_metric_find(metric) && flame_metric_find(metric)->deterministic)
		o->min_share = o->cp.min_effect / 4;
	else
		o->min_share = 0.02;
}

int history_cmd_open_clone(struct history_cmd *h)
{
	if (h->repo_open)
		return 0;
	/* --print runs in a clone of trail flame's (a host's build cache): no lock of its own */
	if (child_group_begin() || (h->print ? flame_repo_open_clone(&h->repo, h->top_dir) :
				    flame_repo_open(&h->repo, h->top_dir, h->cache_root)))
		return -1;
	h->repo_open = 1;
	h->scratch = tempdir_create("trail-history");
	return h->scratch ? 0 : -1;
}

/* A measured result's whole profile, beside it (refs/notes/trail-profiles). */
static void store_profile(void *ctx, const char *commit, const struct history_result *r,
			  const struct folded_profile *pooled)
{
	struct history_cmd *h = ctx;

	if (history_profile_put(h->top_dir, commit, r, pooled))
		warning("the profile of %.12s is not stored (its result is)", commit);
}

void history_cmd_measure_opts(struct history_cmd *h, const char *build, const char *run,
			      enum flame_metric m, struct history_measure_opts *mo)
{
	struct flame_probe_request r;

	memset(mo, 0, sizeof(*mo));
	mo->build_cmd = build;
	mo->metric = m;
	/* unset: 5 runs, 1 for a counted metric (the same build counts the same) */
	mo->repeat = h->repeat ? (unsigned)h->repeat : flame_metric_deterministic(m) ? 1 : 5;
	mo->build_timeout = h->build_timeout;
	mo->top = (unsigned)h->top;
	mo->bench = h->bench;
	if (!h->print) {	/* a host of --hosts prints its results; profiles stay there */
		mo->on_profile = store_profile;
		mo->ctx = h;
	}
	/* captured as trail flame's probes capture (one metric -> backend mapping) */
	flame_probe_request_init(&r);
	r.run_cmd = run;
	r.freq = (unsigned)h->freq;
	r.discard = h->discard / 100;
	r.run_timeout = h->run_timeout;
	r.metric = m;
	r.profiler = h->profiler;
	r.alloc_interval = 0;	/* the interposer's default */
	r.scratch = h->scratch;
	r.trail_exe = h->trail_exe;
	flame_probe_request_capture(&r, &mo->cap);
}

/* The environment key a measurement with these commands gets here. */
void history_cmd_planned_key(struct history_cmd *h, const char *build, const char *run,
			     enum flame_metric m, char key[17])
{
	struct history_measure_opts mo;
	struct history_env env;
	char desc[200];

	history_cmd_measure_opts(h, build, run, m, &mo);
	history_env_collect(&env, build, run, flame_profiler_describe(&mo.cap, desc, sizeof(desc)),
			    mo.cap.freq, mo.cap.discard);
	if (h->bench)
		history_env_set_bench(&env, h->bench);
	memcpy(key, env.key, 17);
	history_env_release(&env);
}

int history_measure_store(struct history_cmd *h, const char *id, const struct history_result *like,
			  const char *want_key, const struct history_result **out)
{
	const char *build = h->build_cmd ? h->build_cmd : like ? like->env.build : NULL;
	const char *run = h->run_cmd ? h->run_cmd : like ? like->env.run : NULL;
	const char *metric = like ? like->metric : h->metric_name ? h->metric_name : "cpu";
	struct string_list keep = STRING_LIST_INIT;
	struct history_measure_opts mo;
	struct history_result res;
	enum flame_metric m;
	size_t i;
	int ret = -1;

	if (!build || !*build || !run || !*run)
		return trail_error("--build and --run are needed to measure %.12s", id);
	if (history_cmd_parse_metric(metric, &m) || history_cmd_open_clone(h))
		return -1;
	for (i = 0; like && i < like->nfuncs; i++)
		string_list_append(&keep, like->funcs[i].name);
	history_cmd_measure_opts(h, build, run, m, &mo);
	mo.keep = &keep;
	if (history_measure(&h->repo, id, &mo, &res))
		goto out;
	if (want_key && strcmp(res.env.key, want_key)) {
		trail_error("measuring %.12s here gives environment %s, not the series' %s (another "
			    "machine, compiler, CFLAGS or command): it would start a new series", id,
			    res.env.key, want_key);
		history_result_release(&res);
		goto out;
	}
	if (!history_cmd_store(h, id, &res)) {
		ret = 0;
		if (out)
			*out = history_store_get(&h->store, id, res.env.key, res.metric);
	}
	history_result_release(&res);
out:
	string_list_clear(&keep);
	return ret;
}

int history_cmd_series(struct history_cmd *h, const struct string_list *commits,
		       struct history_series *s)
{
	if (history_series_build_bench(s, &h->store, commits, h->bench, h->env_key, h->metric_name,
				       h->all_envs))
		return trail_error("no results stored for %s%s%s in this range (trail history record "
				   "or backfill first)", h->metric_name ? "--metric " : "any metric",
				   h->metric_name ? h->metric_name : "",
				   h->env_key ? " and that --env" : "");
	if (s->other_keys && !h->all_envs)
		note("showing environment %s; %zu other environment(s) have results here "
		     "(--env KEY to choose, --all-envs to mix them)", s->key, s->other_keys);
	return 0;
}

/*
 * Measure in bit-reversed order (van der Corput: 0, n/2, n/4, 3n/4 ...),
 * not oldest first: with the round-robin runs of backfill_measure(), a
 * machine that is busier for a while spreads noise over the whole range
 * instead of drawing a step into it.
 */
void history_scramble(struct string_list *l)
{
	char **tmp;
	size_t bits = 0, i, k = 0, j;

	if (l->nr < 2)
		return;	/* nothing to reorder (and no array when empty) */
	tmp = xmallocarray(l->nr + 1, sizeof(char *));
	while (((size_t)1 << bits) < l->nr)
		bits++;
	for (i = 0; i < ((size_t)1 << bits); i++) {
		size_t r = 0;

		for (j = 0; j < bits; j++)
			r |= ((i >> j) & 1) << (bits - 1 - j);
		if (r < l->nr)
			tmp[k++] = l->items[r];
	}
	memcpy(l->items, tmp, l->nr * sizeof(char *));
	free(tmp);
}
