/*
 * series.h - the results of one environment and metric along a range's
 * first-parent commits (a series), and its change points: those of the
 * metric (per-commit medians) and of every kept function's samples per
 * run, merged by commit, each with the functions that moved.  Different
 * environment keys are never mixed unless the caller asks (all_envs).
 */
#ifndef TRAIL_HISTORY_SERIES_H
#define TRAIL_HISTORY_SERIES_H

#include "core/string_list.h"
#include "history/changepoint.h"
#include "history/store.h"

struct history_point {
	const char *commit;		/* into the range's list */
	size_t pos;			/* index of commit in that list */
	const struct history_result *r;	/* borrowed from the store */
	double med, lo, hi;		/* the metric's median and its 95 % interval */
	double profiles;		/* profiled runs (samples per run = count / profiles) */
};

struct history_series {
	char key[17];
	char *metric, *unit;
	struct history_point *pts;	/* stored, ok commits in range order */
	size_t nr;
	size_t failed;			/* commits stored as build/run failures */
	size_t *failed_pos;		/* their positions in the range's list, ascending */
	enum history_status *failed_status;	/* and why each failed (build or run) */
	size_t other_keys;		/* other environments with results in the range */
};

/*
 * The series of key (NULL: the environment with the most results in
 * range, ties to the latest) and metric (NULL: that environment's most
 * frequent metric) over commits (oldest first).  all_envs mixes every
 * environment's results of the metric.  0, or -1 when nothing is stored.
 */
int history_series_build(struct history_series *s, const struct history_store *st,
			 const struct string_list *commits, const char *key, const char *metric,
			 int all_envs);
/* The same over the results of one .trail bench (NULL: any; "": none). */
int history_series_build_bench(struct history_series *s, const struct history_store *st,
			       const struct string_list *commits, const char *bench,
			       const char *key, const char *metric, int all_envs);
void history_series_release(struct history_series *s);

struct history_moved {
	char *name;
	double before, after;		/* self share either side, fractions */
	double own;			/* after - r0 * before: the share its own change moved,
					 * beside the common shrink r0 of the others */
	double contribution;		/* its change of time, a fraction of the run before:
					 * after * (metric after / before) - before; movers
					 * are sorted by its size */
};

struct history_change {
	size_t index;			/* first point after the change */
	double before, after;		/* the metric's medians of the segments */
	double change, lo, hi;		/* after/before - 1 and its 95 % interval */
	double p;			/* the split's calibrated p-value times the series tested */
	double implied;			/* the run's change the profile implies (1 / r0 - 1) */
	int slower;
	int metric_changed;		/* the metric itself has the change point */
	int possible;			/* significant, but neither the metric (beyond the
					 * minimum effect) nor a function moved: not one to
					 * act on (only --json lists it, as "possible") */
	struct history_moved *moved;	/* largest first */
	size_t nmoved;
	char culprit[41];		/* named by --bisect, "" otherwise (also when ambiguous) */
	char *report;			/* --bisect: trail flame's report directory, or NULL */
	/*
	 * --bisect with commits that could not be built or run next to the
	 * boundary (git bisect's "only skipped commits left"): every commit
	 * the change could be, oldest first, and those of them never
	 * measured; empty when the answer is one commit.
	 */
	struct string_list candidates, untested;
};

struct history_detect_opts {
	struct cp_params cp;		/* alpha (of the whole detection), min_effect (relative) ... */
	double min_share;		/* a function moves by at least this fraction of all samples */
};

/* Change points of s, sorted; *out is malloc'd (release with history_changes_free). */
size_t history_detect(const struct history_series *s, const struct history_detect_opts *o,
		      struct history_change **out);
void history_changes_free(struct history_change *c, size_t nr);
/*
 * Reorders c[0..nr) (stably) so that the changes to act on come first,
 * the possible ones after them; returns how many are to act on.
 */
size_t history_changes_actionable(struct history_change *c, size_t nr);
/*
 * The functions that moved between points [a, b) and [b, c) of s: their
 * self share changed beyond the common factor r0 by which every other
 * share changed (the median ratio), by min_share of all samples and by
 * min_effect of its own share, by a quarter of the largest such change
 * at least, significantly (Student's t over the
 * commits, alpha) when both sides have two points or more, else by
 * twice min_share; sorted by their share of the run's change
 * (contribution).  Returns the change of the whole run the profile
 * implies, 1 / r0 - 1 (+0.15: 15 % more time, all of it in the movers).
 */
double history_moved_between(const struct history_series *s, size_t a, size_t b, size_t c,
			     const struct history_detect_opts *o, struct history_moved **out,
			     size_t *nr);

#endif
