/*
 * estimate.h - the one estimand of trail flame and the statistics that
 * decide on it, as pure functions (no perf, git, files or clock):
 * the ends, every probe and the suspect/parent confirmation measure
 * interleaved ABBA pairs and estimate the paired log ratio bad/good of
 * the metric (or, for a share, the difference), with one interval from
 * Student's t, at the alpha that a Pocock-type spending function leaves
 * for the look (Lan & DeMets 1983).  docs/flame.md ("How the numbers are
 * decided") states the design; bench/calibrate checks its error rates.
 */
#ifndef TRAIL_FLAME_ESTIMATE_H
#define TRAIL_FLAME_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

/* t with P(T_df > t) = p (0 < p < 1), Student's t; the normal's for huge df. */
double flame_t_quantile(double p, double df);
/* P(T_df > t), the upper tail. */
double flame_t_upper(double t, double df);

/*
 * Alpha spent by information fraction frac (0..1] with the Pocock-type
 * spending function alpha ln(1 + (e - 1) frac) (Lan & DeMets 1983,
 * Biometrika 70:659); 0 at 0, alpha at 1.
 */
double flame_alpha_spent(double alpha, double frac);
/*
 * The alpha of one look: what the spending function adds between the
 * previous look (nprev of nmax observations; 0 = none) and this one (n).
 * Each look tested at its increment keeps the chance of any error across
 * all looks at most alpha (Bonferroni over the looks), whatever the
 * correlation between them; the last look (last, or n >= nmax: the
 * budget ran out or the ceiling is reached) spends the rest.
 */
double flame_alpha_look(double alpha, size_t nprev, size_t n, size_t nmax, int last);

/*
 * Run order of pair i in an ABBA design: 0 good first, 1 bad first
 * (G B, B G, G B, B G ...).  An even number of pairs balances the order,
 * so a drift or a warm cache weighs on both sides alike.
 */
int flame_abba_bad_first(size_t i);
/* n rounded up to an even number of pairs (at least 2). */
unsigned flame_even_pairs(unsigned n);
/*
 * Pairs added between two looks of the ends, first pairs up to max:
 * about eight looks in all, at least 4 pairs apart, an even number.
 */
unsigned flame_look_step(unsigned first, unsigned max);

/* A change and its interval. */
struct flame_interval {
	double estimate;	/* bad/good - 1 (a fraction), or the difference */
	double lo, hi;		/* two-sided interval at 1 - alpha */
	double se;		/* of the log ratio (or difference) */
	double df;		/* degrees of freedom of its t */
	double alpha;		/* two-sided level used */
	size_t n;		/* pairs */
	int relative;		/* estimate is a ratio - 1 (exp of the log scale) */
};

/*
 * The paired log ratio: d_i = ln(bad_i / good_i) over n pairs, its mean
 * with the t interval at alpha (two-sided), as bad/good - 1.  -1 for
 * n < 2 or a non-positive value (nothing set).
 */
int flame_paired_log_ratio(const double *good, const double *bad, size_t n, double alpha,
			   struct flame_interval *out);
/*
 * Widen iv (a relative interval of the good and bad values) to the
 * resolution the values are read in (resolution, in their unit; 0: none):
 * rounding to a step q errs uniformly within it, variance q^2 / 12
 * (Sheppard 1898), so each log ratio carries at least
 * q^2/12 (1/good_i^2 + 1/bad_i^2) and the standard error of their mean at
 * least the square root of that mean over n.  Values that round alike
 * (two pairs with the same ratio) then give an interval as wide as their
 * rounding, never one of width zero that reads as significant.
 */
void flame_interval_resolution_floor(const double *good, const double *bad, size_t n,
				     double resolution, struct flame_interval *iv);
/*
 * The pct-th percentile's ratio Q(bad)/Q(good) - 1 with a paired
 * percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13: pairs
 * resampled together, resamples times, deterministic seed).  -1 for n < 2
 * or a non-positive quantile.
 */
int flame_paired_quantile_ratio(const double *good, const double *bad, size_t n, double pct,
				double alpha, unsigned resamples, uint64_t seed,
				struct flame_interval *out);
/*
 * Runs needed before the pct-th percentile is more than the largest run:
 * ceil(1 / (1 - pct/100)) (100 for p99); 1 for the median and below.
 */
size_t flame_percentile_min_runs(double pct);

/* The verdict on the whole range. */

/*
 * The verdict by the interval: a regression when its lower end is above
 * 0 (small when the estimate is below min_effect); no regression only by
 * equivalence, the whole interval below min_effect; else inconclusive.
 * Always inconclusive unless enough (runs for the statistic: a p99 of
 * fewer than 100 runs is their maximum, and no interval of it holds).
 */
enum trail_verdict flame_outcome_decide(const struct flame_interval *iv, double min_effect,
					int enough);
/*
 * May the report say the change is at least min_effect?  Only when the
 * interval's lower end clears it: a regression is narrowed on its
 * estimate (power near the minimum), but the claim "at least the
 * minimum" is the interval's, wrong at most alpha/2 of the time over all
 * looks (a true 1.5% change claimed ">= 3%" in 6.5-9.4% of runs when
 * the claim went with the narrowing).  0 without an interval.
 */
int flame_change_at_least(const struct flame_interval *iv, double min_effect);
/*
 * The smallest change the data gathered would detect with probability
 * power at the interval's alpha: (t_{alpha/2} + t_{1-power}) se, on the
 * interval's scale (a fraction for a ratio).
 */
double flame_min_detectable(const struct flame_interval *iv, double power);
/*
 * What the ends measured, for planning a suspect/parent re-probe: the
 * change between them (a full culprit's step) with its standard error,
 * one run's spread a side with its degrees of freedom (0: take them as
 * exact), the re-probe's alpha and the power wanted.
 */
struct flame_power_plan {
	double effect, effect_se;
	double sd_slow, sd_fast, sd_df;
	double alpha, power;
};
/*
 * Runs per side a suspect/parent re-probe needs so that a step of the
 * ends' change (a full culprit) is called real with probability power:
 * the smallest n in [floor, cap] with E >= (t_{alpha/8, n-1} +
 * t_{1-power, n-1}) sqrt((sd_slow^2 + sd_fast^2) k / n); alpha/4 for the
 * last looks' share of the spending.  The ends are a few runs, so the plan
 * does not take them at face value: E is the change's 80% lower bound
 * (effect - 0.84 effect_se, at least a quarter of it) and k = sd_df /
 * chi2_{0.10}(sd_df) the spreads' 90% upper bound (Wilson-Hilferty); at
 * face value, 30x overdispersed shares measured from 10 runs an end
 * planned too few runs in a fifth of the cases (power 80%, bench/calibrate).
 * cap + 1 when even cap runs fall short (the caller says so).
 */
unsigned flame_pair_runs_for_power(const struct flame_power_plan *p, unsigned floor, unsigned cap);
/*
 * The runs a side a re-probe adds before its next look, n taken so far:
 * first, then a third of n (even, at least 2): about 8 looks up to 40
 * runs rather than 18, so the alpha spent at each is larger (the spending
 * is over looks: a look every 2 runs cost power at 30x overdispersion).
 */
unsigned flame_pair_look_runs(unsigned n, unsigned first);
/*
 * The runs a side a re-probe starts with, runs asked: one when one is asked
 * (a counted metric whose counts repeat, exact.c: a second run would count
 * the same), else an even number of ABBA pairs.
 */
unsigned flame_pair_first_runs(unsigned runs);
/* Pairs needed for a detectable change of target at the same noise. */
size_t flame_pairs_needed(const struct flame_interval *iv, double target, double power);

/*
 * Two-sample Kolmogorov-Smirnov test of a[0..na) against b[0..nb): the
 * largest gap between their empirical distributions and its asymptotic
 * p-value with Stephens' small-sample correction (Stephens 1970, JRSS B
 * 32:115; Numerical Recipes 14.3).  Beside Mann-Whitney, which sees a
 * shift of the middle, it sees a change of the tail alone.  1 when a side
 * is empty.
 */
double flame_ks_p(const double *a, size_t na, const double *b, size_t nb);

/* Welch-Satterthwaite degrees of freedom of se_a^2 + se_b^2 (df_a, df_b). */
double flame_welch_df(double se_a, double df_a, double se_b, double df_b);

/*
 * One commit's step: it raises the measured value by step (standard
 * error se, df degrees of freedom) over its parent, while the ends differ
 * by effect (standard error effect_se, effect_df).
 */
struct flame_step_assessment {
	double step, se, df;
	double effect;			/* the change between the ends it is set against */
	double lo, hi;			/* the step's interval at alpha */
	double confidence;		/* 1 - p of the one-sided t test of step <= 0 */
	double explains;		/* step / effect (log scale: see log_scale) */
	double explains_lo, explains_hi;	/* Fieller's interval for it, effect's error
						 * included; -inf, +inf when unbounded */
	double explains_level;		/* that interval's level, 1 - alpha */
	double part_hi;			/* the step's upper bound as a part of effect */
	int explains_bounded;		/* the ends' change is significant at alpha: the
					 * interval is bounded */
	int log_scale;			/* explains is ln(slow/fast) / ln(bad/good) */
	int real;			/* lo > 0: a step, at alpha / 2 one-sided */
	int most;			/* explains_lo > 1/2: the larger part of the change */
	int small;			/* part_hi < 1/2: shown to be under half of it */
};
/*
 * The step in the values' unit (step, lo, hi, real, confidence) and the
 * part of the change it explains with Fieller's interval (Fieller 1954):
 * the delta method's interval for a ratio whose denominator is measured
 * from a few overdispersed runs covered 97.0% where it stated 98.95%.
 */
void flame_step_assess(double step, double se, double df, double effect, double effect_se,
		       double effect_df, double alpha, struct flame_step_assessment *out);
/*
 * "80% [60%, 103%] (95% Fieller)": the part explained, its interval and
 * the interval's level (", log scale" when taken there); an unbounded
 * interval says so.  Into buf (size n; FLAME_EXPLAINS_TEXT is enough).
 */
#define FLAME_EXPLAINS_TEXT 112
void flame_explains_format(const struct flame_step_assessment *a, char *buf, size_t n);
/*
 * The same for a measure that a machine's load scales (a CPU time, a
 * count of time samples): the step stays in the values' unit, but the
 * part it explains is taken on the log scale, ln(slow / fast) over
 * ln(bad / good), with fast the parent's value and good the good end's.
 * A load that makes every run d times slower between the ends and this
 * pair multiplies slow, fast (or bad, good) alike and cancels; in the
 * values' unit the step read d times its size and a true full culprit
 * measured at half the ends' load "explained" under half of the change
 * (the demo at load 20: 5.6x its parent, ends 8.4x at peak load).  Falls
 * back to flame_step_assess() when a value is 0 or under FLAME_LOG_FLOOR
 * of its partner (no log, or one dominated by noise).
 */
#define FLAME_LOG_FLOOR 0.01
void flame_step_assess_log(double step, double se, double df, double fast, double effect,
			   double effect_se, double effect_df, double good, double alpha,
			   struct flame_step_assessment *out);

#endif
