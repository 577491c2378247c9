/*
 * test_flame_estimate.c - the decision statistics of trail flame
 * (flame/estimate.h, flame/decide.h's pair decision): t quantiles, alpha
 * spending, the paired log ratio, the percentile bootstrap, the verdict
 * by the interval and a commit's step, each against hand-worked values.
 */
#include "harness.h"
#include "flame/decide.h"
#include "core/verdict.h"
#include "flame/estimate.h"
#include "stats/two_sample.h"
#include "stats/rng.h"

#include <math.h>

TEST(t_quantiles)
{
	/* Tables of Student's t (e.g. Fisher & Yates): t_{0.975} by df. */
	CHECK_NEAR(flame_t_quantile(0.025, 2), 4.303, 1e-3);
	CHECK_NEAR(flame_t_quantile(0.025, 4), 2.776, 1e-3);
	CHECK_NEAR(flame_t_quantile(0.025, 9), 2.262, 1e-3);
	CHECK_NEAR(flame_t_quantile(0.005, 5), 4.032, 1e-3);
	CHECK_NEAR(flame_t_quantile(0.025, 1e9), 1.960, 1e-3);
	CHECK_NEAR(flame_t_quantile(0.975, 4), -2.776, 1e-3);
	CHECK_NEAR(flame_t_upper(2.776, 4), 0.025, 1e-4);
	CHECK_NEAR(flame_t_upper(0, 7), 0.5, 1e-9);
}

TEST(alpha_spending)
{
	double sum = 0;
	size_t n, prev = 0;

	CHECK_NEAR(flame_alpha_spent(0.05, 0), 0, 1e-12);
	CHECK_NEAR(flame_alpha_spent(0.05, 1), 0.05, 1e-12);
	/* Pocock-type: alpha ln(1 + (e - 1) t); at t = 1/2, 0.05 * 0.6201. */
	CHECK_NEAR(flame_alpha_spent(0.05, 0.5), 0.05 * log(1 + (M_E - 1) / 2), 1e-12);
	/* The looks of the ends (6, 10, ..., 38, 40) spend alpha exactly. */
	for (n = 6; n <= 40; n = n + 4 > 40 && n < 40 ? 40 : n + 4) {
		double a = flame_alpha_look(0.05, prev, n, 40, 0);

		CHECK(a > 0 && a < 0.05);
		sum += a;
		prev = n;
	}
	CHECK_NEAR(sum, 0.05, 1e-12);
	/* A look cut short (budget) spends what is left. */
	CHECK_NEAR(flame_alpha_look(0.05, 10, 14, 40, 1), 0.05 - flame_alpha_spent(0.05, 0.25), 1e-12);
	CHECK_NEAR(flame_alpha_look(0.05, 10, 14, 40, 0), flame_alpha_spent(0.05, 0.35) - flame_alpha_spent(0.05, 0.25), 1e-12);
}

TEST(abba_order)
{
	CHECK_INT(flame_abba_bad_first(0), 0);
	CHECK_INT(flame_abba_bad_first(1), 1);
	CHECK_INT(flame_abba_bad_first(2), 0);
	CHECK_INT(flame_even_pairs(5), 6);
	CHECK_INT(flame_even_pairs(6), 6);
	CHECK_INT(flame_even_pairs(0), 2);
	CHECK_INT(flame_look_step(6, 40), 4);
	CHECK_INT(flame_look_step(6, 100), 12);
	CHECK_INT(flame_look_step(40, 40), 4);
}

/* a re-probe of exact counts starts (and, at --probe-max-runs 1, stays) at one run a side */
TEST(pair_first_runs)
{
	CHECK_INT(flame_pair_first_runs(1), 1);
	CHECK_INT(flame_pair_first_runs(0), 2);
	CHECK_INT(flame_pair_first_runs(3), 4);
	CHECK_INT(flame_pair_first_runs(4), 4);
}

TEST(paired_log_ratio)
{
	/* bad = good * 1.1 * (1 +/- 0.01): ln ratios ln(1.111), ln(1.089). */
	double g[4] = { 100, 200, 50, 80 }, b[4] = { 111.1, 217.8, 55.55, 87.12 };
	struct flame_interval iv;
	double d[4], mean = 0, sd = 0;
	int i;

	CHECK_INT(flame_paired_log_ratio(g, b, 4, 0.05, &iv), 0);
	for (i = 0; i < 4; i++) {
		d[i] = log(b[i] / g[i]);
		mean += d[i] / 4;
	}
	for (i = 0; i < 4; i++)
		sd += (d[i] - mean) * (d[i] - mean) / 3;
	sd = sqrt(sd);
	CHECK_NEAR(iv.estimate, exp(mean) - 1, 1e-12);
	CHECK_NEAR(iv.lo, exp(mean - 3.182446 * sd / 2) - 1, 1e-5);
	CHECK_NEAR(iv.hi, exp(mean + 3.182446 * sd / 2) - 1, 1e-5);
	CHECK_INT((long long)iv.n, 4);
	/* A load that slows a whole pair alike leaves the ratio alone. */
	g[0] *= 3;
	b[0] *= 3;
	{
		struct flame_interval same;

		CHECK_INT(flame_paired_log_ratio(g, b, 4, 0.05, &same), 0);
		CHECK_NEAR(same.estimate, iv.estimate, 1e-12);
	}
	CHECK_INT(flame_paired_log_ratio(g, b, 1, 0.05, &iv), -1);
	g[2] = 0;
	CHECK_INT(flame_paired_log_ratio(g, b, 4, 0.05, &iv), -1);
}

TEST(resolution_floor)
{
	/*
	 * Two pairs whose values round alike to a step of 1000: both ratios
	 * 1.5, no spread, a zero-width interval that reads as a significant
	 * regression.  Each value errs within +/- 500, so each log ratio
	 * carries 1000^2/12 (1/2000^2 + 1/3000^2) and their mean a quarter of
	 * twice that: se 0.1227, t_0.025 at 1 df 12.706.
	 */
	double g[2] = { 2000, 2000 }, b[2] = { 3000, 3000 };
	double se = sqrt(1e6 / 12 * (1 / 4e6 + 1 / 9e6) * 2 / 4);
	double g2[4] = { 100, 200, 50, 80 }, b2[4] = { 111.1, 217.8, 55.55, 87.12 };
	struct flame_interval iv, noisy;

	CHECK_INT(flame_paired_log_ratio(g, b, 2, 0.05, &iv), 0);
	CHECK(iv.lo > 0);	/* the old reading: "significant" */
	flame_interval_resolution_floor(g, b, 2, 1000, &iv);
	CHECK_NEAR(iv.se, se, 1e-12);
	CHECK_NEAR(iv.estimate, 0.5, 1e-12);
	CHECK_NEAR(iv.lo, expm1(log(1.5) - 12.7062 * se), 1e-4);
	CHECK_NEAR(iv.hi, expm1(log(1.5) + 12.7062 * se), 1e-3);
	CHECK(iv.lo < 0);
	CHECK_INT(flame_outcome_decide(&iv, 0.03, 1), VERDICT_INCONCLUSIVE);
	/* identical values at a fine step: no longer zero wide, still no change */
	g[1] = b[0] = b[1] = 2000;
	CHECK_INT(flame_paired_log_ratio(g, b, 2, 0.05, &iv), 0);
	flame_interval_resolution_floor(g, b, 2, 1, &iv);
	CHECK(iv.se > 0 && iv.lo < 0 && iv.hi > 0);
	/* runs noisier than their step keep their own interval */
	CHECK_INT(flame_paired_log_ratio(g2, b2, 4, 0.05, &noisy), 0);
	iv = noisy;
	flame_interval_resolution_floor(g2, b2, 4, 0.01, &iv);
	CHECK_NEAR(iv.se, noisy.se, 0);
	CHECK_NEAR(iv.lo, noisy.lo, 0);
	CHECK_NEAR(iv.hi, noisy.hi, 0);
	/* no step, or a value that is no ratio: left alone */
	iv = noisy;
	flame_interval_resolution_floor(g2, b2, 4, 0, &iv);
	CHECK_NEAR(iv.se, noisy.se, 0);
	g2[1] = 0;
	flame_interval_resolution_floor(g2, b2, 4, 1e6, &iv);
	CHECK_NEAR(iv.se, noisy.se, 0);
}

TEST(percentile_ratio_bootstrap)
{
	double g[200], b[200];
	struct flame_interval iv, again;
	int i;

	/* The slowest 5% of bad runs take 50% longer: p99 rises, p50 does not. */
	for (i = 0; i < 200; i++) {
		g[i] = 100 + (i * 37 % 200) / 10.0;
		b[i] = g[i] * (i % 20 == 0 ? 1.5 : 1.0);
	}
	CHECK_INT(flame_paired_quantile_ratio(g, b, 200, 99, 0.05, 500, 7, &iv), 0);
	CHECK(iv.estimate > 0.3);
	CHECK(iv.lo > 0);
	CHECK(iv.lo <= iv.estimate && iv.estimate <= iv.hi);
	/* Deterministic: the same seed, the same interval. */
	CHECK_INT(flame_paired_quantile_ratio(g, b, 200, 99, 0.05, 500, 7, &again), 0);
	CHECK_NEAR(again.lo, iv.lo, 0);
	CHECK_INT(flame_paired_quantile_ratio(g, b, 200, 50, 0.05, 500, 7, &iv), 0);
	CHECK_NEAR(iv.estimate, 0, 0.02);
	CHECK_INT((long long)flame_percentile_min_runs(99), 100);
	CHECK_INT((long long)flame_percentile_min_runs(90), 10);
	CHECK_INT((long long)flame_percentile_min_runs(50), 1);
}

TEST(outcome_by_interval)
{
	struct flame_interval iv = { .estimate = 0.021, .lo = 0.008, .hi = 0.034, .se = 0.006,
				     .df = 19, .alpha = 0.05, .n = 20, .relative = 1 };

	/* Significant but below the 3% minimum: reported, not narrowed. */
	CHECK(flame_outcome_decide(&iv, 0.03, 1) == VERDICT_SMALL_REGRESSION);
	CHECK_STREQ(trail_verdict_name(VERDICT_SMALL_REGRESSION), "regression");
	iv.estimate = 0.05;
	iv.hi = 0.08;
	CHECK(flame_outcome_decide(&iv, 0.03, 1) == VERDICT_REGRESSION);
	/* The whole interval below the minimum: no regression (equivalence)... */
	iv.estimate = 0.005;
	iv.lo = -0.01;
	iv.hi = 0.02;
	CHECK(flame_outcome_decide(&iv, 0.03, 1) == VERDICT_NO_REGRESSION);
	CHECK_STREQ(trail_verdict_name(VERDICT_NO_REGRESSION), "no-regression");
	/* ... unless the runs are too few for the statistic: then nothing. */
	CHECK(flame_outcome_decide(&iv, 0.03, 0) == VERDICT_INCONCLUSIVE);
	iv.lo = 0.01;
	CHECK(flame_outcome_decide(&iv, 0.03, 0) == VERDICT_INCONCLUSIVE);
	iv.lo = -0.01;
	/* Reaching past the minimum without a significant rise: inconclusive. */
	iv.hi = 0.05;
	CHECK(flame_outcome_decide(&iv, 0.03, 1) == VERDICT_INCONCLUSIVE);
	/* A significant speed-up is no regression. */
	iv.estimate = -0.1;
	iv.lo = -0.15;
	iv.hi = -0.05;
	CHECK(flame_outcome_decide(&iv, 0.03, 1) == VERDICT_NO_REGRESSION);
}

TEST(min_detectable_effect)
{
	struct flame_interval iv = { .se = 0.01, .df = 1e9, .alpha = 0.05, .n = 10, .relative = 1 };

	/* (1.96 + 0.8416) se on the log scale. */
	CHECK_NEAR(flame_min_detectable(&iv, 0.8), expm1(2.8016 * 0.01), 1e-4);
	/* Halving the detectable change takes four times the pairs. */
	CHECK_INT((long long)flame_pairs_needed(&iv, expm1(2.8016 * 0.005), 0.8), 40);
	iv.relative = 0;
	CHECK_NEAR(flame_min_detectable(&iv, 0.8), 2.8016 * 0.01, 1e-4);
}

TEST(step_assessment_and_split)
{
	struct flame_step_assessment a;

	/* The suspect raises the share by 0.4 of a 0.4 change: a split. */
	flame_step_assess(0.4, 0.05, 8, 0.4, 0.02, 10, 0.05, &a);
	CHECK(a.real);
	CHECK_NEAR(a.explains, 1, 1e-12);
	CHECK(a.explains_lo < 1 && a.explains_hi > 1);
	CHECK(a.confidence > 0.999);
	CHECK(flame_pair_decide(&a) == FLAME_PAIR_SPLIT);
	/* By 0.05 +/- 0.05 of it: another commit did the rest. */
	flame_step_assess(0.05, 0.05, 8, 0.4, 0.02, 10, 0.05, &a);
	CHECK(!a.real);
	CHECK(a.small);
	CHECK(flame_pair_decide(&a) == FLAME_PAIR_NO_SPLIT);
	/* No step at all: confidence 1/2, never a split. */
	flame_step_assess(0, 0.05, 8, 0.4, 0.02, 10, 0.05, &a);
	CHECK_NEAR(a.confidence, 0.5, 1e-9);
	CHECK(flame_pair_decide(&a) != FLAME_PAIR_SPLIT);
	/* 0.3 +/- 0.2 on 3 df: t = 1.5 is no step (t_{0.975,3} = 3.18). */
	flame_step_assess(0.3, 0.2, 3, 0.4, 0.02, 10, 0.05, &a);
	CHECK(!a.real);
	CHECK(flame_pair_decide(&a) == FLAME_PAIR_UNDECIDED);
	/* With z it was 1.5 < 1.96 too, but 0.3 +/- 0.12 differs: t 2.5. */
	flame_step_assess(0.3, 0.12, 3, 0.4, 0.02, 10, 0.05, &a);
	CHECK(!a.real);	/* z would call it real (2.5 > 1.96); t on 3 df does not */
	flame_step_assess(0.3, 0.12, 1e9, 0.4, 0.02, 10, 0.05, &a);
	CHECK(a.real);
	/* The ends' own error widens the explained share. */
	{
		struct flame_step_assessment exact, noisy;

		flame_step_assess(0.3, 0.05, 10, 0.4, 0, 10, 0.05, &exact);
		flame_step_assess(0.3, 0.05, 10, 0.4, 0.1, 10, 0.05, &noisy);
		CHECK(noisy.explains_hi - noisy.explains_lo > exact.explains_hi - exact.explains_lo);
	}
	/* A split is what the pair decided. */
	{
		struct flame_pair_result pair = { .decision = FLAME_PAIR_SPLIT };

		CHECK(flame_split_confirmed(&pair));
		pair.decision = FLAME_PAIR_UNDECIDED;
		CHECK(!flame_split_confirmed(&pair));
	}
	CHECK_NEAR(flame_welch_df(1, 4, 1, 4), 8, 1e-12);
}

TEST(ks_sees_a_tail)
{
	double g[100], b[100], same[100];
	struct stats_mwu m;
	int i;

	/* The same middle; the slowest quarter of bad runs 40% slower. */
	for (i = 0; i < 100; i++) {
		g[i] = 100 + i;
		b[i] = (100 + i) * (i >= 75 ? 1.4 : 1.0);
		same[i] = 100.5 + i;
	}
	CHECK(flame_ks_p(g, 100, b, 100) < 0.05);
	CHECK(!stats_mann_whitney(b, 100, g, 100, &m));
	CHECK(m.p > 0.05);	/* the middle test alone misses it */
	CHECK(flame_ks_p(g, 100, same, 100) > 0.5);
	CHECK_NEAR(flame_ks_p(g, 0, b, 40), 1, 0);
	/* D = 1 (no overlap) with 10 and 10: p = 2 exp(-2 (sqrt(5) + 0.12 + 0.11/sqrt(5))^2) */
	{
		double lo[10], hi[10], lam = sqrt(5.0) + 0.12 + 0.11 / sqrt(5.0);

		for (i = 0; i < 10; i++) {
			lo[i] = i;
			hi[i] = 100 + i;
		}
		CHECK_NEAR(flame_ks_p(lo, 10, hi, 10), 2 * exp(-2 * lam * lam) -
			   2 * exp(-8 * lam * lam), 1e-9);
	}
}

/*
 * "Explains" is a ratio step / E with E itself measured: Fieller's
 * interval (issue 31 item 6).  With E known to +-25% it is skewed up
 * (a smaller E makes a larger ratio); the delta method's was symmetric.
 */
TEST(explains_by_fieller)
{
	struct flame_step_assessment a;
	char buf[FLAME_EXPLAINS_TEXT];

	flame_step_assess(0.4, 0.05, 1e9, 0.4, 0.1, 1e9, 0.05, &a);
	CHECK(a.explains_bounded);
	CHECK_NEAR(a.explains_level, 0.95, 1e-12);
	CHECK_NEAR(a.explains_lo, 0.613, 0.002);
	CHECK_NEAR(a.explains_hi, 2.019, 0.002);
	CHECK(a.explains_hi - a.explains > 2 * (a.explains - a.explains_lo));
	flame_explains_format(&a, buf, sizeof(buf));
	CHECK_STREQ(buf, "100% [61%, 202%] (95% Fieller)");
	/* E not significant at the level: the interval is unbounded, and says so */
	flame_step_assess(0.4, 0.05, 1e9, 0.4, 0.25, 1e9, 0.05, &a);
	CHECK(!a.explains_bounded);
	CHECK(isinf(a.explains_lo) && isinf(a.explains_hi));
	CHECK(!a.most);
	flame_explains_format(&a, buf, sizeof(buf));
	CHECK(strstr(buf, "unbounded at 95%") != NULL);
	/* E exact: the interval is the step's, scaled */
	flame_step_assess(0.3, 0.05, 1e9, 0.4, 0, 10, 0.05, &a);
	CHECK_NEAR(a.explains_lo, (0.3 - 1.959964 * 0.05) / 0.4, 1e-4);
	CHECK_NEAR(a.explains_hi, (0.3 + 1.959964 * 0.05) / 0.4, 1e-4);
}

/*
 * Coverage when E is measured with a CV of 40% (a few overdispersed
 * runs, the audit's case): Fieller's interval holds its 95%; the delta
 * method's covered less than it stated.
 */
TEST(explains_interval_covers)
{
	uint64_t rng = 31;
	int i, n = 4000, covered = 0;

	for (i = 0; i < n; i++) {
		struct flame_step_assessment a;
		double e = 0.4 + 0.16 * stats_normal(&rng), st = 0.3 + 0.05 * stats_normal(&rng);

		flame_step_assess(st, 0.05, 1e9, e, 0.16, 1e9, 0.05, &a);
		covered += a.explains_lo <= 0.75 && 0.75 <= a.explains_hi;
	}
	CHECK((double)covered / n > 0.94);
}

TEST_MAIN("flame-estimate", explains_by_fieller, explains_interval_covers, ks_sees_a_tail, t_quantiles, alpha_spending, abba_order, pair_first_runs, paired_log_ratio,
	  resolution_floor, percentile_ratio_bootstrap, outcome_by_interval, min_detectable_effect,
	  step_assessment_and_split)
