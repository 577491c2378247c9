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
#include "history/guard.h"
#include "history/measure.h"
#include "history/series.h"
#include "history/store.h"
#include "history/suite.h"

#include <stdint.h>

/* Exit statuses: core/exit_codes.h (guard: EXIT_REGRESSION; docs/history.md). */

/* guard --markdown: the row of the bench being guarded, and the rows so far */
struct history_md {
	int compared;			/* the fields below are set */
	double change, lo, hi, p;	/* REV against the commits before it */
	char verdict[80];
	struct strbuf movers, budget;	/* Markdown, escaped */
	struct strbuf rows;
};

struct history_cmd {
	/* the command line */
	const char *dir, *cache_root, *rev, *range, *build_cmd, *run_cmd, *metric_name;
	const char *profile_path, *unit, *out, *env_key, *profiler;
	const char *hosts_file, *remote_trail, *remote_repo;
	struct string_list values, functions, commits;
	uint64_t repeat, every, freq, top, simulations, window, keep;
	uint64_t max_note;		/* bytes a note may have (--max-note-size) */
	double discard, build_timeout, run_timeout, alpha, min_effect, min_share, max_regression;
	int json, bisect, all_envs, print;
	int max_regression_given;	/* --max-regression was given: else 5%, 0.5% for counted metrics */
	struct string_list benches;	/* --bench */
	const char *markdown;		/* guard --markdown FILE */
	const char *args[2];		/* diff A B */
	size_t nargs;

	/* the invocation */
	char *top_dir;			/* the user's repository */
	char *trail_exe;
	struct history_store store;
	struct flame_repo repo;		/* opened by history_measure_store() */
	int repo_open;
	char *scratch;
	struct history_suite suite;	/* .trail, when the repository has one */
	const char *bench;		/* the bench being run (history_run_suite), or NULL */
	const struct history_bench *bench_def;
	struct history_md md;		/* guard --markdown */
};

/* trail's own default, where neither the command line nor .trail set it
 * (--repeat and --min-effect unset are the metric's: history_common.c) */
#define HISTORY_DEFAULT_TIMEOUT 300.0		/* seconds per run */

/*
 * Run subcommand sub through run once per bench of h->suite that --bench
 * chose (default: all), each with its commands and settings
 * (history_suite.c).  The worst exit status (usage, failure, regression).
 */
int history_run_suite(struct history_cmd *h, const char *sub,
		      int (*run)(struct history_cmd *, const char *));
/*
 * guard: check the budget of the bench being run (if it has one) against
 * r, REV's result; prints the verdict.  ret is the guard's status so far;
 * EXIT_REGRESSION when the budget is broken.
 */
int history_guard_budget(struct history_cmd *h, const struct history_result *r, int ret);

/* guard --markdown (history_markdown.c): the comparison, the budget, the row, the file. */
void history_md_compare(struct history_cmd *h, double change, double lo, double hi, double p,
			const struct history_moved *mv, size_t nmv, const char *verdict);
void history_md_budget(struct history_cmd *h, const char *text, int kept, const char *got);
void history_md_row(struct history_cmd *h, const char *id, int status);
/* Append the table to --markdown's file (nothing without rows); 0 or -1. */
int history_md_write(struct history_cmd *h);
void history_md_release(struct history_md *m);

/*
 * guard's bound, a fraction: --max-regression when given, else the
 * minimum effect of a counted metric (instructions, est-cycles: 0.5 %),
 * else the option's default (5 %).
 */
double history_cmd_max_regression(const struct history_cmd *h, const char *metric);
/*
 * guard's comparison of REV's runs with the stored commits' (base) for
 * metric against bound (fraction): exact counts for a counted metric
 * (history_guard_counts), the one-sided test otherwise
 * (history_guard_metric).  guard and site's guard column share it.  0 or -1.
 */
int history_cmd_guard_runs(const struct history_cmd *h, const char *metric, const double *base,
			   size_t nb, const double *rev, size_t nr, double bound,
			   struct history_guard_metric *g);
/* The detection parameters of the command line. */
/* metric: the series' (its default --min-effect when none was given), or NULL */
void history_cmd_detect_opts(const struct history_cmd *h, const char *metric,
			     struct history_detect_opts *o);
/* --min-effect as a fraction: given, or the metric's default (measure/metric.h) */
double history_cmd_min_effect(const struct history_cmd *h, const char *metric);
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

/* history_store_put, counted for history_cmd_watch's message; 0 or -1. */
int history_cmd_store(struct history_cmd *h, const char *id, const struct history_result *r);
/*
 * Until history_cmd_unwatch(): if the process is stopped (SIGINT, SIGTERM,
 * SIGHUP, or an exit on an error), say how many results it stored and how
 * to go on; what names the subcommand.
 */
void history_cmd_watch(const char *what);
void history_cmd_unwatch(void);
/* The command line's --range (default HEAD) through core/git_rev.h; 0 or -1 (said). */
int history_cmd_range(struct history_cmd *h, struct git_range *r);
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
 * trail flame's stored answer for the gap before..after of series key and
 * metric (refs/notes/trail-bisect, written by detect --bisect): the
 * culprit ("" when none was named), verdict, function and report
 * directory (of the machine that bisected).  1 found (release out), 0 not.
 */
struct history_bisect_note {
	char culprit[41];		/* "" when none was named, or candidates are listed */
	char *verdict, *function, *report;	/* report "": answered without trail flame */
	struct string_list candidates;	/* commits it could be (untestable ones among them) */
	struct string_list untested;	/* those of them never built or run */
};
int history_bisect_note_get(const char *top, const char *key, const char *metric,
			    const char *before, const char *after, struct history_bisect_note *out);
void history_bisect_note_release(struct history_bisect_note *n);

/*
 * detect --bisect: name the commit of change c of s (ids: the range's
 * first-parent commits) - trail flame's session and report for a
 * slowdown, its answer stored (refs/notes/trail-bisect); the series'
 * midpoints measured and stored for a speed-up.  When commits that
 * could not be built or run lie next to the boundary, c->culprit stays
 * empty and c->candidates lists every commit it could be.  0 or -1.
 */
int history_bisect(struct history_cmd *h, const struct history_series *s,
		   const struct string_list *ids, struct history_change *c);

/*
 * What is known of change c's commit without measuring: 1 the gap's ends
 * are neighbours (c->culprit is the later), 2 an answer stored by an
 * earlier --bisect (refs/notes/trail-bisect), 1 every commit between is
 * stored as failing to build or run (c->candidates: all of them and the
 * later end); 0 nothing known, -1 error.
 */
int history_gap_answer(struct history_cmd *h, const struct history_series *s,
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

/* What guard found, for its JSON (history_view.c). */
struct history_guard_view {
	const char *commit, *metric, *unit;
	double rev_median, base_median;	/* the metric's unit */
	size_t base_commits;		/* stored commits compared with (0: none) */
	const struct history_guard_metric *g;	/* NULL when nothing was compared */
	double implied;			/* the change the profile implies, a fraction */
	const struct history_moved *moved;
	size_t nmoved, skipped;		/* functions that moved; notes skipped */
	const char *verdict;		/* "regression", "slower-not-significant", "pass" */
};
void history_guard_json(const struct history_guard_view *v);

int history_show(struct history_cmd *h);
int history_plot(struct history_cmd *h);
int history_detect_cmd(struct history_cmd *h);
/* The notes skipped when the store was read, one line each; exit 1 when there are any. */
int history_check(struct history_cmd *h);
/* One warning per note skipped when the store was read (at most 10, then a count). */
void history_cmd_warn_skipped(const struct history_cmd *h);
int history_diff_cmd(struct history_cmd *h);
int history_prune_cmd(struct history_cmd *h);
int history_site_cmd(struct history_cmd *h);

#endif
