/*
 * test_flame_segment.c - flame/segment.h on constructed ranges: exact
 * levels (a fixed standard error, no noise), so each answer is decided
 * by the logic alone - which commits are named, which probes are spent,
 * what an untestable commit does and when the search stops.
 */
#include "harness.h"
#include <math.h>
#include "flame/decide.h"
#include "flame/segment.h"

#define MAXN 64

/* A range whose level at each position is given; probes are counted. */
struct mock {
	double level[MAXN + 1];
	int untestable[MAXN + 1];
	int probed[MAXN + 1];
	size_t nprobes, npairs;
	double se;
};

static int mock_probe(void *ctx, size_t pos, double threshold, struct flame_level *out)
{
	struct mock *m = ctx;

	(void)threshold;
	m->nprobes++;
	m->probed[pos]++;
	if (m->untestable[pos])
		return 1;
	out->value = m->level[pos];
	out->se = m->se;
	out->df = 8;
	return 0;
}

static int mock_pair(void *ctx, size_t pos, double effect, double alpha,
		     struct flame_step_assessment *a, struct flame_level *slow,
		     struct flame_level *fast)
{
	struct mock *m = ctx;

	m->npairs++;
	if (m->untestable[pos] || m->untestable[pos - 1])
		return 1;
	slow->value = m->level[pos];
	fast->value = m->level[pos - 1];
	slow->se = fast->se = m->se;
	slow->df = fast->df = 9;
	flame_step_assess(slow->value - fast->value, m->se * 1.4142, 18, effect, m->se * 1.4142,
			  18, alpha, a);
	return 0;
}

/* Levels 0 up to steps[k] at positions pos[k] (sorted), n commits. */
static void mock_range(struct mock *m, struct flame_segmentation *g, size_t n, const size_t *pos,
		       const double *steps, size_t nsteps)
{
	size_t i, k;

	memset(m, 0, sizeof(*m));
	m->se = 0.005;
	for (i = 0; i <= n; i++)
		for (k = 0; k < nsteps; k++)
			m->level[i] += i >= pos[k] ? steps[k] : 0;
	flame_segmentation_init(g, n);
	g->level[0] = (struct flame_level){ m->level[0], m->se, 9, FLAME_LEVEL_KNOWN };
	g->level[n] = (struct flame_level){ m->level[n], m->se, 9, FLAME_LEVEL_KNOWN };
	g->effect_se = m->se * 1.4142;
	g->effect_df = 18;
	g->max_probes = 100;
}

static int named(const struct flame_segmentation *g, size_t pos)
{
	size_t k;

	for (k = 0; k < g->nculprits; k++)
		if (g->culprits[k].pos == pos)
			return 1;
	return 0;
}

TEST(one_step_is_bisected)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 11 };
	double step[] = { 0.2 };

	mock_range(&m, &g, 16, pos, step, 1);
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 16), 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 11));
	/* a binary search of 16 commits: 4 probes, and no probe is repeated */
	CHECK(m.nprobes <= 4);
	CHECK_INT(m.npairs, 1);
	CHECK_NEAR(g.culprits[0].step.explains, 1, 1e-9);
	flame_segmentation_release(&g);
}

TEST(search_from_the_suspect_costs_one_pair)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 11 };
	double step[] = { 0.2 };

	mock_range(&m, &g, 16, pos, step, 1);
	CHECK_INT(flame_segment_search_from(&g, &(struct flame_segment_ops){ &m, mock_probe,
					    mock_pair }, 11), 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 11));
	CHECK_INT(m.nprobes, 0);
	CHECK_INT(m.npairs, 1);
	flame_segmentation_release(&g);
}

TEST(search_from_the_suspect_still_finds_the_other_half)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 3, 9 };
	double step[] = { 0.1, 0.1 };

	mock_range(&m, &g, 12, pos, step, 2);
	CHECK_INT(flame_segment_search_from(&g, &(struct flame_segment_ops){ &m, mock_probe,
					    mock_pair }, 9), 0);
	CHECK_INT(g.nculprits, 2);
	CHECK(named(&g, 3) && named(&g, 9));
	flame_segmentation_release(&g);
}

TEST(search_from_an_innocent_suspect_searches_the_range)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 5 };
	double step[] = { 0.2 };

	/* the commit suspected on another measure did not move this one */
	mock_range(&m, &g, 16, pos, step, 1);
	CHECK_INT(flame_segment_search_from(&g, &(struct flame_segment_ops){ &m, mock_probe,
					    mock_pair }, 12), 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 5));
	CHECK(!named(&g, 12));
	/* and an untestable suspect falls back to the plain search */
	flame_segmentation_release(&g);
	mock_range(&m, &g, 16, pos, step, 1);
	m.untestable[12] = 1;
	CHECK_INT(flame_segment_search_from(&g, &(struct flame_segment_ops){ &m, mock_probe,
					    mock_pair }, 12), 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 5));
	flame_segmentation_release(&g);
}

TEST(two_halves_in_one_measure_are_both_named)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 3, 9 };
	double step[] = { 0.1, 0.1 };

	mock_range(&m, &g, 12, pos, step, 2);
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 12), 0);
	CHECK_INT(g.nculprits, 2);
	CHECK(named(&g, 3) && named(&g, 9));
	flame_segment_sort(&g);
	flame_segmentation_release(&g);
}

TEST(three_thirds_and_largest_first)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 2, 5, 7 };
	double step[] = { 0.05, 0.1, 0.06 };

	mock_range(&m, &g, 8, pos, step, 3);
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 8), 0);
	CHECK_INT(g.nculprits, 3);
	flame_segment_sort(&g);
	CHECK_INT(g.culprits[0].pos, 5);
	CHECK_INT(g.culprits[1].pos, 7);
	CHECK_INT(g.culprits[2].pos, 2);
	flame_segmentation_release(&g);
}

TEST(known_levels_are_reused)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 6 };
	double step[] = { 0.2 };
	size_t i;

	mock_range(&m, &g, 8, pos, step, 1);
	/* the narrowing already measured every commit: no new probe */
	for (i = 1; i < 8; i++)
		g.level[i] = (struct flame_level){ m.level[i], m.se, 5, FLAME_LEVEL_KNOWN };
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 8), 0);
	CHECK_INT(m.nprobes, 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 6));
	flame_segmentation_release(&g);
}

TEST(no_step_spends_nothing)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 4 };
	double step[] = { 0.2 };

	mock_range(&m, &g, 8, pos, step, 1);
	/* only the part after the culprit: flat, not one probe */
	g.level[4] = (struct flame_level){ m.level[4], m.se, 9, FLAME_LEVEL_KNOWN };
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       4, 8), 0);
	CHECK_INT(m.nprobes + m.npairs, 0);
	CHECK_INT(g.nculprits, 0);
	flame_segmentation_release(&g);
}

TEST(small_step_below_the_minimum_is_not_a_culprit)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 3, 6 };
	double step[] = { 0.2, 0.02 };	/* the second explains 9%, under 20% */

	mock_range(&m, &g, 8, pos, step, 2);
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 8), 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 3));
	flame_segmentation_release(&g);
}

TEST(untestable_commit_is_stepped_over)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 6 };
	double step[] = { 0.2 };

	mock_range(&m, &g, 8, pos, step, 1);
	m.untestable[4] = 1;
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 8), 0);
	CHECK(named(&g, 6));
	CHECK_INT(m.probed[4], 1);
	flame_segmentation_release(&g);
}

TEST(culprit_cap_stops_the_search)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 2, 4, 6 };
	double step[] = { 0.1, 0.1, 0.1 };

	mock_range(&m, &g, 8, pos, step, 3);
	g.max_culprits = 2;
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, mock_probe, mock_pair },
				       0, 8), 0);
	CHECK_INT(g.nculprits, 2);
	CHECK(g.truncated);
	flame_segmentation_release(&g);
}

static int failing_probe(void *ctx, size_t pos, double threshold, struct flame_level *out)
{
	(void)ctx, (void)pos, (void)threshold, (void)out;
	return -1;
}

TEST(callback_error_is_returned)
{
	struct mock m;
	struct flame_segmentation g;
	size_t pos[] = { 6 };
	double step[] = { 0.2 };

	mock_range(&m, &g, 8, pos, step, 1);
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &m, failing_probe,
									 mock_pair }, 0, 8), -1);
	flame_segmentation_release(&g);
}

TEST(pair_decides_on_a_part)
{
	struct flame_step_assessment a;

	/* a step of a third: a culprit at part 0.2, not the split of half */
	flame_step_assess(0.1, 0.01, 20, 0.3, 0.01, 20, 0.05, &a);
	CHECK_INT(flame_pair_decide_part(&a, 0.2), FLAME_PAIR_SPLIT);
	CHECK_INT(flame_pair_decide(&a), FLAME_PAIR_NO_SPLIT);
	/* nothing: shown under a fifth */
	flame_step_assess(0.0, 0.01, 20, 0.3, 0.01, 20, 0.05, &a);
	CHECK_INT(flame_pair_decide_part(&a, 0.2), FLAME_PAIR_NO_SPLIT);
	/* too noisy to say */
	flame_step_assess(0.05, 0.05, 20, 0.3, 0.01, 20, 0.05, &a);
	CHECK_INT(flame_pair_decide_part(&a, 0.2), FLAME_PAIR_UNDECIDED);
}

/*
 * Issue 31: the demo at load 20-24.  ht_lookup's CPU time per run was
 * 2,451 ms at the bad end (measured at peak load) and 1,119-1,593 ms at
 * the probes of the slow side later; the good side stayed at 215-292 ms.
 * The arithmetic midpoint (1,371 ms) called the slow side's probes fast.
 */
TEST(load_drift_flips_no_probe)
{
	double good = 250, bad = 2451, thr = flame_threshold_scaled(good, bad, 1);
	double slow_side[] = { 1119, 1300, 1593 }, fast_side[] = { 215, 292 };
	size_t i;

	CHECK(thr > 292 && thr < 1119);
	CHECK_NEAR(thr, sqrt(good * bad), 1e-9);
	for (i = 0; i < 3; i++)
		CHECK(slow_side[i] > thr);
	for (i = 0; i < 2; i++)
		CHECK(fast_side[i] < thr);
	/* what old main did: the slow side's 1,119 ms read as fast */
	CHECK(slow_side[0] < flame_threshold_scaled(good, bad, 0));
	/* a share is not scaled by the load: its midpoint stays arithmetic */
	CHECK_NEAR(flame_threshold_scaled(0.1, 0.5, 0), 0.3, 1e-12);
	/* an end at 0 (a function the good end never ran) has no log */
	CHECK_NEAR(flame_threshold_scaled(0, 100, 1), 50, 1e-12);
	/* a near-0 end is raised to a hundredth of the other: a tenth between */
	CHECK_NEAR(flame_threshold_scaled(0.001, 100, 1), 10, 1e-9);
}

/*
 * The true culprit measured 5.6x its parent beside it while the ends
 * read 8.4x: in ms it "explained" 43% of the change (the pair ran at a
 * lower load than the ends) and was turned down; on the log scale it
 * explains 81%, whatever the load did between the ends and the pair.
 */
TEST(culprit_measured_at_another_load_is_split)
{
	struct flame_step_assessment lin, lg;
	double good = 292, bad = 2451, fast = 200, slow = 1119;

	flame_step_assess(slow - fast, 40, 14, bad - good, 60, 18, 0.05, &lin);
	CHECK(flame_pair_decide(&lin) != FLAME_PAIR_SPLIT);
	flame_step_assess_log(slow - fast, 40, 14, fast, bad - good, 60, 18, good, 0.05, &lg);
	CHECK(lg.log_scale);
	CHECK_NEAR(lg.explains, log(slow / fast) / log(bad / good), 1e-9);
	CHECK_INT(flame_pair_decide(&lg), FLAME_PAIR_SPLIT);
	/* the step itself stays in ms */
	CHECK_NEAR(lg.step, slow - fast, 1e-9);
	/* an innocent measured at twice the load is still no step */
	flame_step_assess_log(2 * 1.01 * good - 2 * good, 20, 14, 2 * good, bad - good, 60, 18,
			      good, 0.05, &lg);
	CHECK_INT(flame_pair_decide(&lg), FLAME_PAIR_NO_SPLIT);
}

/* Probes of a range whose whole machine runs drift[pos] times slower than at the ends. */
struct drift_mock {
	struct mock m;
	double drift[MAXN + 1];
	int log_scale;
};

static int drift_probe(void *ctx, size_t pos, double threshold, struct flame_level *out)
{
	struct drift_mock *d = ctx;
	int rc = mock_probe(&d->m, pos, threshold, out);

	out->value *= d->drift[pos];
	out->se *= d->drift[pos];
	return rc;
}

/* the pair runs interleaved: one load for both sides */
static int drift_pair(void *ctx, size_t pos, double effect, double alpha,
		      struct flame_step_assessment *a, struct flame_level *slow,
		      struct flame_level *fast)
{
	struct drift_mock *d = ctx;
	double k = d->drift[pos], se = d->m.se * k * 1.4142;

	d->m.npairs++;
	slow->value = d->m.level[pos] * k;
	fast->value = d->m.level[pos - 1] * k;
	slow->se = fast->se = d->m.se * k;
	slow->df = fast->df = 9;
	if (d->log_scale)
		flame_step_assess_log(slow->value - fast->value, se, 18, fast->value, effect,
				      d->m.se * 1.4142, 18, d->m.level[0], alpha, a);
	else
		flame_step_assess(slow->value - fast->value, se, 18, effect, d->m.se * 1.4142, 18,
				  alpha, a);
	return 0;
}

/*
 * A simulation of the demo's range at load 20-24: the ends measured at
 * peak load, every later probe and pair at 0.45-0.65 of it (a
 * multiplicative drift of the whole machine).  On the log scale the one
 * culprit is named, explaining about all of the change; no innocent.
 */
TEST(segmentation_under_multiplicative_drift)
{
	struct drift_mock d;
	struct flame_segmentation g;
	size_t pos[] = { 11 }, i;
	double step[] = { 2451 - 250 };

	mock_range(&d.m, &g, 16, pos, step, 1);
	for (i = 0; i <= 16; i++)
		d.m.level[i] += 250;
	d.m.se = 20;
	g.level[0] = (struct flame_level){ 250, 20, 9, FLAME_LEVEL_KNOWN };
	g.level[16] = (struct flame_level){ 2451, 20, 9, FLAME_LEVEL_KNOWN };
	g.effect_se = 20 * 1.4142;
	g.log_scale = d.log_scale = 1;
	g.min_explains = 0.5;	/* the narrowing's rule: at least half */
	for (i = 0; i <= 16; i++)
		d.drift[i] = 0.45 + 0.2 * (double)((i + 1) % 3) / 2;
	CHECK_INT(flame_segment_search(&g, &(struct flame_segment_ops){ &d, drift_probe,
				       drift_pair }, 0, 16), 0);
	CHECK_INT(g.nculprits, 1);
	CHECK(named(&g, 11));
	CHECK(g.culprits[0].step.explains > 0.9 && g.culprits[0].step.explains < 1.1);
	flame_segmentation_release(&g);
}

TEST_MAIN("flame-segment", load_drift_flips_no_probe,
	  culprit_measured_at_another_load_is_split, segmentation_under_multiplicative_drift, search_from_the_suspect_costs_one_pair,
	  search_from_the_suspect_still_finds_the_other_half,
	  search_from_an_innocent_suspect_searches_the_range, one_step_is_bisected, two_halves_in_one_measure_are_both_named,
	  three_thirds_and_largest_first, known_levels_are_reused, no_step_spends_nothing,
	  small_step_below_the_minimum_is_not_a_culprit, untestable_commit_is_stepped_over,
	  culprit_cap_stops_the_search, callback_error_is_returned, pair_decides_on_a_part)
