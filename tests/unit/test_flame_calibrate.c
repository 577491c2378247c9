/*
 * test_flame_calibrate.c - the small version of bench/calibrate: each
 * scenario of bench/calibrate/scenarios.h over a few hundred trials from
 * a fixed seed; a wrong-decision rate above its nominal by more than two
 * Monte-Carlo standard errors fails.
 */
#include "harness.h"
#include "../../bench/calibrate/scenarios.h"

#define TRIALS 300
#define SEED 17

static void check_scenario(enum cal_scenario k)
{
	struct cal_result c;

	cal_run(k, TRIALS, SEED, &c);
	if (!cal_within(&c))
		fprintf(stderr, "    %s: %s in %.2f%% of %u trials, nominal %.1f%% (+%.2f)\n",
			c.name, c.event, 100 * cal_rate(&c), c.trials, 100 * c.nominal,
			100 * cal_mc_error(&c));
	CHECK(cal_within(&c));
}

TEST(no_change_is_rarely_a_regression) { check_scenario(CAL_NO_CHANGE); }
TEST(change_at_min_effect_is_rarely_no_regression) { check_scenario(CAL_AT_MIN_EFFECT); }
TEST(innocent_commit_rarely_confirmed) { check_scenario(CAL_INNOCENT); }
TEST(half_step_rarely_claims_most) { check_scenario(CAL_HALF_STEP); }
TEST(tail_no_change_is_rarely_a_regression) { check_scenario(CAL_TAIL_NULL); }
TEST(tail_only_change_is_rarely_no_regression) { check_scenario(CAL_TAIL_ONLY); }
TEST(overdispersed_shares_rarely_a_step) { check_scenario(CAL_OVERDISPERSED); }
TEST(probe_on_threshold_rarely_decided) { check_scenario(CAL_ON_THRESHOLD); }

TEST(segmentation_rarely_names_an_innocent) { check_scenario(CAL_SEG_ONE); }
TEST(segmentation_of_two_rarely_names_an_innocent) { check_scenario(CAL_SEG_TWO_WRONG); }
TEST(search_from_an_innocent_suspect_rarely_names_it) { check_scenario(CAL_SEG_FROM_INNOCENT); }
TEST(search_from_the_culprit_rarely_names_another) { check_scenario(CAL_SEG_FROM_CULPRIT); }
TEST(innocent_at_30x_rarely_confirmed) { check_scenario(CAL_INNOCENT_BB30); }
/* the ends' verdict under autocorrelated, heavy-tailed and drifting runs */
TEST(ends_hold_under_ar1) { check_scenario(CAL_AR1_NULL); check_scenario(CAL_AR1_MIN); }
TEST(ends_hold_under_t3) { check_scenario(CAL_T3_NULL); check_scenario(CAL_T3_MIN); }
TEST(ends_hold_under_drift) { check_scenario(CAL_DRIFT_NULL); check_scenario(CAL_DRIFT_MIN); }

/*
 * Issue 31's audit: a true 1.5% change was narrowed as ">= 3%" in 6.5-9.4%
 * of runs.  It is still narrowed on the estimate (10% here, 2,000 trials),
 * but "at least the minimum" is claimed only by the interval: 0.1%.
 */
TEST(below_minimum_rarely_claimed_at_least_it)
{
	struct cal_result c;

	check_scenario(CAL_BELOW_MIN_CLAIMED);
	/* the narrowing's power near the minimum is kept: a true 5% change */
	cal_run(CAL_ABOVE_MIN_NARROWED, TRIALS, SEED, &c);
	CHECK(cal_rate(&c) > 0.8);
}

TEST(segmentation_finds_both_halves)
{
	struct cal_result c;

	/* two culprits of half the change each, 4 run-to-run sd apart: both named */
	cal_run(CAL_SEG_TWO, TRIALS, SEED, &c);
	CHECK(cal_rate(&c) > 0.9);
}

TEST(full_culprit_is_found)
{
	struct cal_result c;

	/* Not a bound on an error: the design must still find a true culprit. */
	cal_run(CAL_FULL_CULPRIT, TRIALS, SEED, &c);
	CHECK(cal_rate(&c) > 0.8);
}

TEST(full_culprit_at_30x_is_found)
{
	struct cal_result c;

	/*
	 * 30x overdispersed shares: 96.5% in 20,000 trials (bench/calibrate);
	 * runs planned on the ends' estimates at face value and a look every
	 * 2 runs found it in 80%.
	 */
	cal_run(CAL_FULL_BB30, TRIALS, SEED, &c);
	CHECK(cal_rate(&c) > 0.9);
}

/*
 * Issue 31: a CPU time 8.4x between the ends, the probes and pairs run
 * at half (or twice) the ends' load.  The arithmetic midpoint called a
 * slow-side probe fast in 62% of 2,000 trials and found the full culprit
 * in 66%; on the log scale 0% and 100%.
 */
TEST(load_drift_between_ends_and_probes)
{
	struct cal_result c;

	check_scenario(CAL_LOAD_PROBE);
	check_scenario(CAL_LOAD_INNOCENT);
	cal_run(CAL_LOAD_FULL, TRIALS, SEED, &c);
	CHECK(cal_rate(&c) > 0.95);
}

TEST_MAIN("flame-calibrate", load_drift_between_ends_and_probes, no_change_is_rarely_a_regression,
	  change_at_min_effect_is_rarely_no_regression, innocent_commit_rarely_confirmed,
	  half_step_rarely_claims_most, tail_no_change_is_rarely_a_regression,
	  tail_only_change_is_rarely_no_regression, overdispersed_shares_rarely_a_step,
	  probe_on_threshold_rarely_decided, segmentation_rarely_names_an_innocent,
	  segmentation_of_two_rarely_names_an_innocent,
	  search_from_an_innocent_suspect_rarely_names_it,
	  search_from_the_culprit_rarely_names_another, innocent_at_30x_rarely_confirmed,
	  ends_hold_under_ar1, ends_hold_under_t3, ends_hold_under_drift,
	  segmentation_finds_both_halves, full_culprit_is_found, full_culprit_at_30x_is_found,
	  below_minimum_rarely_claimed_at_least_it)
