/*
 * history.h - what the two files of 'trail history' share: the parsed
 * command line and the state of one invocation (the notes read, the
 * private clone opened only when something is measured).  history.c
 * holds the options, record, backfill and guard; history_view.c show,
 * plot and detect.
 */
#ifndef TRAIL_CMD_HISTORY_H
#define TRAIL_CMD_HISTORY_H

#include "core/exit_codes.h"
#include "core/string_list.h"
#include "measure/repo.h"
#include "history/measure.h"
#include "history/series.h"
#include "history/store.h"

#include <stdint.h>

/* Exit statuses: core/exit_codes.h (guard: EXIT_REGRESSION; docs/history.md). */

struct history_cmd {
	/* the command line */
	const char *dir, *cache_root, *rev, *range, *build_cmd, *run_cmd, *metric_name;
	const char *profile_path, *unit, *out, *env_key, *profiler;
	const char *hosts_file, *remote_trail, *remote_repo;
	struct string_list values, functions, commits;
	uint64_t repeat, every, freq, top, simulations, window;
	double discard, build_timeout, run_timeout, alpha, min_effect, min_share, max_regression;
	int json, bisect, all_envs, print;

	/* the invocation */
	char *top_dir;			/* the user's repository */
	char *trail_exe;
	struct history_store store;
	struct flame_repo repo;		/* opened by history_measure_store() */
	int repo_open;
	char *scratch;
};

/* The detection parameters of the command line. */
void history_cmd_detect_opts(const struct history_cmd *h, struct history_detect_opts *o);
/*
 * Measure commit id with the build and run commands (the command line's,
 * else those of like, a stored result of the series) and store it.  When
 * want_key is set, a result in another environment is an error.  *out
 * (may be NULL) gets the stored result (borrowed from h->store).  0 or -1.
 */
int history_measure_store(struct history_cmd *h, const char *id, const struct history_result *like,
			  const char *want_key, const struct history_result **out);
/* The series of range for the command line's --env/--metric/--all-envs; 0 or -1 (error printed). */
int history_cmd_series(struct history_cmd *h, const struct string_list *commits,
		       struct history_series *s);

/* "cpu", "wall", "rss" or "alloc" into *m; else an error, -1. */
int history_cmd_parse_metric(const char *name, enum flame_metric *m);
/* trail flame's clone and a scratch directory, opened once per invocation; 0 or -1. */
int history_cmd_open_clone(struct history_cmd *h);
/* The measurement options of the command line for build, run and metric m. */
void history_cmd_measure_opts(struct history_cmd *h, const char *build, const char *run,
			      enum flame_metric m, struct history_measure_opts *mo);
/* The environment key a measurement with these commands gets here. */
void history_cmd_planned_key(struct history_cmd *h, const char *build, const char *run,
			     enum flame_metric m, char key[17]);
/*
 * detect --bisect: name the commit of change c of s (ids: the range's
 * first-parent commits) - trail flame's session and report for a
 * slowdown, its answer stored (refs/notes/trail-bisect); the series'
 * midpoints measured and stored for a speed-up.  0 or -1.
 */
int history_bisect(struct history_cmd *h, const struct history_series *s,
		   const struct string_list *ids, struct history_change *c);

/* Put l in bit-reversed order (van der Corput), so any prefix spreads over the range. */
void history_scramble(struct string_list *l);
/*
 * backfill --hosts (history_hosts.c): measure the commits of sel (oldest
 * first) not stored yet on the hosts of --hosts, in the environment most
 * of them share (or --env's); *done, *skipped and *failed count them.
 * 0, -1 on error, -2 on a usage error (bad hosts file, too many local
 * slots); errors printed.
 */
int history_backfill_hosts(struct history_cmd *h, const struct string_list *sel, size_t *done,
			   size_t *skipped, size_t *failed);
/* backfill --print: the environment line a host answers with, and a result line. */
void history_hosts_print_env(struct history_cmd *h, enum flame_metric m);
void history_hosts_print_result(const char *id, const struct history_result *r);

int history_show(struct history_cmd *h);
int history_plot(struct history_cmd *h);
int history_detect_cmd(struct history_cmd *h);

#endif
