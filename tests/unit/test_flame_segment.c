/*
 * test_flame_segment.c - flame/segment.h on constructed ranges: exact
 * levels (a fixed standard error, no noise), so each answer is decided
 * by the logic alone - which commits are named, which probes are spent,
 * what an untestable commit does and when the search stops.
 */
#include "harness.h"
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

TEST_MAIN("flame-segment", search_from_the_suspect_costs_one_pair,
	  search_from_the_suspect_still_finds_the_other_half,
	  search_from_an_innocent_suspect_searches_the_range, one_step_is_bisected, two_halves_in_one_measure_are_both_named,
	  three_thirds_and_largest_first, known_levels_are_reused, no_step_spends_nothing,
	  small_step_below_the_minimum_is_not_a_culprit, untestable_commit_is_stepped_over,
	  culprit_cap_stops_the_search, callback_error_is_returned, pair_decides_on_a_part)
