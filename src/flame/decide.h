/*
 * decide.h - the decisions of 'trail flame', as pure functions: numbers in,
 * answer out, no perf, git, files or clock, so tests/unit/test_flame.c
 * checks each one directly.  The steps (steps.h) gather the numbers and
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
/*
 * The relative change bad/good - 1 of two medians and the upper end of its
 * interval at z: the standard errors combined in quadrature (delta method).
 */
double flame_change_hi(double good, double se_good, double bad, double se_bad, double z);
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
 * The upper end of the change's interval from paired runs: the runs
 * alternate good and bad, so good[i] and bad[i] ran moments apart and a
 * machine whose load drifts slows both alike.  The change is the median
 * of bad[i] / good[i] - 1 over the n pairs; its upper end is the
 * distribution-free bound of flame_median_upper_bound() at the one-sided
 * level of z (Phi(z): 0.975 for z = 1.96), infinite when n pairs cannot
 * give one (fewer than 6 at 0.975) - a few runs never show absence.
 * Returns -1 (nothing set) for fewer than 3 pairs or a non-positive value.
 */
/*
 * An upper confidence bound at level (one-sided, e.g. 0.975) for the
 * median of x[0..n) from its order statistics (x is sorted in place);
 * HUGE_VAL when n values cannot reach level.
 */
double flame_median_upper_bound(double *x, size_t n, double level);
int flame_paired_change(const double *good, const double *bad, size_t n, double z,
			double *change, double *change_hi);

/*
 * The verdict on the total: "regression" when the slowdown is significant
 * and its relative size change (bad/good - 1) reaches min_effect;
 * "no-regression" only when the upper end of the change's confidence
 * interval, change_hi, lies below min_effect (equivalence: absence shown,
 * not assumed from a large p); else "inconclusive".
 */
const char *flame_total_verdict(int significant, double change, double change_hi,
				double min_effect);

/*
 * Whether the ends' measurement may stop: the verdict flame_total_verdict
 * would give is decided (not "inconclusive").  A significant speed-up, or
 * a significant rise below min_effect, is not decided until the interval
 * shows the change below min_effect.
 */
int flame_ends_decided(const struct flame_metric_test *t, double confidence, double change,
		       double change_hi, double min_effect);

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
 * The suspect raises the measured value by diff (standard error se) over
 * its parent; the ends differ by effect.  Split when the step is there (diff
 * above 0 by z standard errors) and explains at least half of effect; no
 * split when diff falls short of half of effect by z; otherwise undecided.
 */
enum flame_pair_decision flame_pair_decide(double diff, double se, double effect, double z);
/* P(diff > effect / 2) in the normal approximation (a step when se is 0). */
double flame_pair_confidence(double diff, double se, double effect);
/* The split reproduced: suspect slow, parent fast, confidence >= 0.5. */
int flame_split_confirmed(const struct flame_probe_result *slow,
			  const struct flame_probe_result *fast, double confidence);

/*
 * Revert or patch: "patch" when later commits in the range also touched
 * the function (later > 0) or the commit is large, else "revert"; reason
 * (size n) says why, naming function (NULL: "the code").
 */
const char *flame_recommend(size_t later, long files, long lines, const char *function,
			    char *reason, size_t n);

#endif
