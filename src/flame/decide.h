/*
 * decide.h - the decisions of 'trail flame', as pure functions: numbers in,
 * answer out, no perf, git, files or clock, so tests/unit/test_flame.c
 * checks each one directly.  The steps (ends.h, hotdiff.h, narrow.h ...) gather the numbers and
 * call these; the wording of the report stays with the steps.
 */
#ifndef TRAIL_FLAME_DECIDE_H
#define TRAIL_FLAME_DECIDE_H

#include <stddef.h>

#include "flame/probe.h"

/* Two-sided: the z beyond which a normal value falls with 1 - confidence. */
double flame_z_for(double confidence);
/* P(Z <= z) for a standard normal Z. */
double flame_normal_cdf(double z);
/*
 * Standard error of the median of x[0..n), robustly: 1.2533 * 1.4826 *
 * MAD / sqrt(n) (the normal-theory factor on a scale that outliers barely
 * move); 0 for n < 2.
 */
double flame_median_se(const double *x, size_t n);
/* The pct-th percentile (0..100) of x[0..n), linear interpolation; n >= 1. */
double flame_percentile(const double *x, size_t n, double pct);

/*
 * The pct-th percentile of x[0..n) (value) and its standard error (se):
 * sigma sqrt(p (1 - p) / n) / phi(z_p), the large-sample error of a
 * quantile of normal data (1.2533 sigma / sqrt(n) for the median); with
 * one value, 5% of it.  The probe and the threshold both use this
 * statistic, so --percentile means the same thing to both.
 */
void flame_metric_estimate(const double *x, size_t n, double pct, double *value, double *se);

/*
 * Mann-Whitney U test of bad (b) against good (a) (bench/stats.h): the
 * two-sided p-value (1 when a side is empty) and whether b's values tend
 * to be larger.
 */
double flame_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
			    int *b_larger);

/* The metric compared between the good and the bad runs. */
struct flame_metric_test {
	double p;		/* two-sided Mann-Whitney p-value */
	int bad_larger;		/* bad's values tend to be the larger ones */
	double value[2];	/* the statistic (median or percentile), good and bad */
};

/* Significant at confidence, and bad is the slower end. */
int flame_metric_regressed(const struct flame_metric_test *t, double confidence);
/*
 * CPU unchanged but the wall time rose significantly and by at least 10%:
 * the time went off-CPU.
 */
int flame_wall_rose(const struct flame_metric_test *wall, double confidence);

/*
 * A share shift worth reporting when the total is undecided: at least 5
 * percentage points (delta, a fraction) and more than 4 standard errors.
 */
int flame_share_shift_notable(double delta, double se);

/* Runs shorter than this much CPU time (us) are worth a warning. */
#define FLAME_SHORT_RUN_US 300000.0
/* A run of cpu_us microseconds of CPU time is too short to measure well. */
int flame_run_too_short(double cpu_us);

/* The value between fast and slow: the midpoint of the good and bad ends. */
double flame_threshold(double good, double bad);
/*
 * The same on the log scale, for a measure a machine's load scales (CPU
 * time, samples per run): the geometric midpoint sqrt(good bad).  A load
 * that makes every run d times slower between the ends and a probe flips
 * no probe while d stays within sqrt(bad/good) of 1 either way; with the
 * arithmetic midpoint a probe of the slow side flipped as soon as d fell
 * under (1 + good/bad) / 2 (the demo at load 20-24: ht_lookup 2,451 ms at
 * the bad end, 1,119-1,593 ms at its probes, 215-292 ms on the good side;
 * midpoint 1,371 ms, geometric 760 ms).  An end at or below
 * FLAME_LOG_FLOOR (estimate.h) of the other is raised to it: the
 * threshold stays at a tenth of the larger end or above; an end at 0 or
 * below falls back to the arithmetic midpoint.
 */
double flame_threshold_log(double good, double bad);
/* flame_threshold_log() when log_scale, else flame_threshold(). */
double flame_threshold_scaled(double good, double bad, int log_scale);

/*
 * Another function's own cost changed: its samples per run moved by at
 * least min_delta of the good runs' samples per run (total) and by more
 * than z standard errors of the difference.
 */
int flame_cost_changed(double delta, double se, double total, double min_delta, double z);

/*
 * Bisect on a function's share or on its samples per run?  Each end pair
 * is judged by how many standard errors (se: of the difference) apart the
 * good and bad values stand.  A function that already dominated (90% of
 * the samples) can barely gain share while its CPU time per run grows with
 * the slowdown: samples win when they separate the ends more than twice as
 * clearly (shares stay preferred otherwise: a busy machine moves them
 * less; samples per run inflate with its load).  1 for samples, 0 for the
 * share.
 */
int flame_prefer_samples(double share_good, double share_bad, double share_se,
			 double samples_good, double samples_bad, double samples_se);

/* Probes a binary search needs among candidates positions: ceil(log2). */
unsigned flame_steps_left(size_t candidates);

/*
 * Bisect the ncommits of the range, or probe the nsuspects directly?
 * requested is "auto", "bisect" or "suspects".  Returns "bisect" or
 * "suspects", reason (size n) says why.
 */
const char *flame_choose_strategy(const char *requested, size_t ncommits, size_t nsuspects,
				  char *reason, size_t n);

/*
 * The split from a step's assessment (estimate.h): the suspect's step is
 * real (its interval above 0, one-sided alpha / 2) and explains at least
 * half of the change between the ends; no split when its interval lies
 * below half of that change (part_hi, on the assessment's scale: the log
 * scale for a time); otherwise undecided.
 */
enum flame_pair_decision flame_pair_decide(const struct flame_step_assessment *a);
/*
 * The same for a commit that may explain only a part of the change (every
 * culprit, segment.h): a split when the step is real and explains at
 * least part of it, none when its interval lies below part of it.
 */
enum flame_pair_decision flame_pair_decide_part(const struct flame_step_assessment *a,
						double part);
/* The split reproduced: the pair decided on it. */
int flame_split_confirmed(const struct flame_pair_result *pair);

/*
 * Revert or patch: "patch" when the revert, tried on top of bad
 * (revert: enum flame_revert_state, revert_check.h), conflicts (in
 * conflicts files), when later commits in the range also touched the
 * function (later > 0) or the commit is large, else "revert"; reason
 * (size n) says why, naming function (NULL: "the code"), and says only
 * what was checked.
 */
const char *flame_recommend(size_t later, int revert, size_t conflicts, long files, long lines,
			    const char *function,
			    char *reason, size_t n);

#endif
