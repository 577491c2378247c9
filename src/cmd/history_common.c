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
#include "measure/probe_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int history_cmd_parse_metric(const char *name, enum flame_metric *m)
{
	return flame_metric_parse_history(name, m);
}

void history_cmd_detect_opts(const struct history_cmd *h, struct history_detect_opts *o)
{
	cp_params_init(&o->cp);
	o->cp.alpha = h->alpha;
	o->cp.min_effect = h->min_effect / 100;
	o->cp.simulations = (unsigned)h->simulations;
	o->min_share = h->min_share / 100;
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

void history_cmd_measure_opts(struct history_cmd *h, const char *build, const char *run,
			      enum flame_metric m, struct history_measure_opts *mo)
{
	struct flame_probe_request r;

	memset(mo, 0, sizeof(*mo));
	mo->build_cmd = build;
	mo->metric = m;
	mo->repeat = (unsigned)h->repeat;
	mo->build_timeout = h->build_timeout;
	mo->top = (unsigned)h->top;
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
	memcpy(key, env.key, 17);
	history_env_release(&env);
}

int history_measure_store(struct history_cmd *h, const char *id, const struct history_result *like,
			  const char *want_key, const struct history_result **out)
{
	const char *build = h->build_cmd ? h->build_cmd : like ? like->env.build : NULL;
	const char *run = h->run_cmd ? h->run_cmd : like ? like->env.run : NULL;
	const char *metric = like ? like->metric : h->metric_name;
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
	if (!history_store_put(&h->store, id, &res)) {
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
	if (history_series_build(s, &h->store, commits, h->env_key, h->metric_name, h->all_envs))
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
