/*
 * guard.h - the calibration scenarios of trail history guard's verdict on
 * the metric (src/history/guard.h): stored commits' runs and REV's runs
 * simulated, fed to the real history_guard_metric; the share of steady
 * REVs called slower (false alarms, against --alpha) and of REVs 8 %
 * slower called so (power), next to the verdict of the guard before it
 * (two-sided Mann-Whitney p from the normal approximation, the same
 * interval rule) on the same samples.
 */
#ifndef TRAIL_BENCH_HISTORY_CALIBRATE_GUARD_H
#define TRAIL_BENCH_HISTORY_CALIBRATE_GUARD_H

#include "scenarios.h"
#include "history/guard.h"
#include "stats/two_sample.h"

#define HGRD_ALPHAS 2
#define HGRD_BOUNDS 2
static const double hgrd_alpha[HGRD_ALPHAS] = { 0.01, 0.05 };
static const double hgrd_bound[HGRD_BOUNDS] = { 0, 0.05 };	/* --max-regression 0 and 5% */

struct hgrd_setup {
	const char *name;
	size_t commits;		/* stored commits before REV (the window) */
	size_t runs;		/* runs per commit, REV's too */
	double run_sd;		/* run-to-run noise, log scale */
	double burst_frac, burst;	/* that share of runs up to that much slower */
	double build_sd;	/* each build's own speed, log scale: runs of a commit share it */
	double rev_load_sd;	/* REV measured apart: its runs share a load offset, log scale */
	double change;		/* REV's true slowdown, log scale (0: steady) */
	int exchangeable;	/* every run independent and alike: the test's level must hold */
};

static const struct hgrd_setup hgrd_setups[] = {
	{ "76-history-live's shape: 5 commits x 3 runs, REV 3 runs, busy", 5, 3, 0.03, 0.1, 0.3, 0, 0, 0, 1 },
	{ "default window: 10 commits x 5 runs, REV 5, busy", 10, 5, 0.03, 0.1, 0.3, 0, 0, 0, 1 },
	{ "2 commits x 5 runs, REV 5, quiet", 2, 5, 0.01, 0, 0, 0, 0, 0, 1 },
	{ "10 x 5, REV 5, busy, builds 1 % apart", 10, 5, 0.03, 0.1, 0.3, 0.01, 0, 0, 0 },
	{ "10 x 5, REV 5, busy, REV's runs 2 % apart in load", 10, 5, 0.03, 0.1, 0.3, 0, 0.02, 0, 0 },
	/* the bound's claim: REV exactly 5 % slower should rarely clear a 5 % bound */
	{ "at the bound: 10 x 5, REV 5 and 5 % slower, busy", 10, 5, 0.03, 0.1, 0.3, 0, 0, 0.0488, 0 },
	{ "at the bound: 5 x 3, REV 3 and 5 % slower, busy", 5, 3, 0.03, 0.1, 0.3, 0, 0, 0.0488, 0 },
	{ "power: 10 x 5, REV 5 and 8 % slower, busy", 10, 5, 0.03, 0.1, 0.3, 0, 0, 0.077, 0 },
	{ "power: 5 x 3, REV 3 and 8 % slower, busy", 5, 3, 0.03, 0.1, 0.3, 0, 0, 0.077, 0 },
	{ "power: 4 x 3, REV 3 and 3x slower (76-history-live)", 4, 3, 0.03, 0.1, 0.3, 0, 0, 1.1, 0 },
};
#define HGRD_NSCENARIOS (sizeof(hgrd_setups) / sizeof(hgrd_setups[0]))

/* Alarms per alpha, bound, and rule (0 before, 1 now); test[][rule]: p < alpha alone. */
struct hgrd_result {
	unsigned trials;
	unsigned test[HGRD_ALPHAS][2];
	unsigned guard[HGRD_ALPHAS][HGRD_BOUNDS][2];
	unsigned exact;		/* trials whose p was exact */
};

static double hgrd_run_value(struct hcal_rng *rng, const struct hgrd_setup *s, double offset)
{
	double x = offset + s->run_sd * hcal_normal(rng);

	if (hcal_uniform(rng) < s->burst_frac)
		x += s->burst * hcal_uniform(rng);
	return 100 * exp(x);
}

static void hgrd_run(size_t k, unsigned trials, uint64_t seed, struct hgrd_result *res)
{
	const struct hgrd_setup *s = &hgrd_setups[k];
	struct hcal_rng rng = { seed * 1000033 + (uint64_t)k };
	double *base = xmallocarray(s->commits * s->runs, sizeof(double));
	double *rev = xmallocarray(s->runs, sizeof(double));
	unsigned t;

	memset(res, 0, sizeof(*res));
	res->trials = trials;
	for (t = 0; t < trials; t++) {
		struct history_guard_metric g;
		struct stats_mwu mw;
		size_t i, j, nb = 0;
		double off, p_before;
		int a, b;

		for (i = 0; i < s->commits; i++) {
			off = s->build_sd * hcal_normal(&rng);
			for (j = 0; j < s->runs; j++)
				base[nb++] = hgrd_run_value(&rng, s, off);
		}
		off = s->change + s->build_sd * hcal_normal(&rng) + s->rev_load_sd * hcal_normal(&rng);
		for (j = 0; j < s->runs; j++)
			rev[j] = hgrd_run_value(&rng, s, off);
		if (history_guard_metric(base, nb, rev, s->runs, 1, 0, &g) ||
		    stats_mann_whitney(rev, s->runs, base, nb, &mw))
			abort();
		res->exact += (unsigned)g.exact;
		p_before = erfc(fabs(mw.z) / sqrt(2.0));	/* the guard's p before exact tests */
		for (a = 0; a < HGRD_ALPHAS; a++) {
			res->test[a][0] += p_before < hgrd_alpha[a] && mw.z > 0;
			res->test[a][1] += g.p < hgrd_alpha[a];
			for (b = 0; b < HGRD_BOUNDS; b++) {
				int beyond = g.ratio.lo - 1 > hgrd_bound[b];

				res->guard[a][b][0] += p_before < hgrd_alpha[a] && beyond;
				res->guard[a][b][1] += g.p < hgrd_alpha[a] && beyond;
			}
		}
	}
	free(base);
	free(rev);
}

/*
 * A steady, exchangeable scenario: every alarm rate within three Monte-Carlo
 * standard errors of alpha (three, not two: 18 checks of one run, and the
 * discrete test's level is just below alpha: 4.96 % at 0.05 for 5 runs
 * against 50).
 */
static int hgrd_within(size_t k, const struct hgrd_result *r)
{
	int a, b;

	if (!hgrd_setups[k].exchangeable)
		return 1;
	for (a = 0; a < HGRD_ALPHAS; a++) {
		double lim = hgrd_alpha[a] + 3 * sqrt(hgrd_alpha[a] * (1 - hgrd_alpha[a]) / r->trials);

		if ((double)r->test[a][1] / r->trials > lim)
			return 0;
		for (b = 0; b < HGRD_BOUNDS; b++)
			if ((double)r->guard[a][b][1] / r->trials > lim)
				return 0;
	}
	return 1;
}

#endif
