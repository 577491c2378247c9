/*
 * test_history_detect.c - history_detect's answers a person acts on
 * (issue 28): a regression stored at the tip with its runs is found
 * there; a series grown one stored commit at a time keeps its answers
 * (no change point comes and goes on a flat stretch); a significant
 * split that moved neither the metric beyond the minimum effect nor a
 * function is only "possible".
 */
#include "harness.h"
#include "core/alloc.h"
#include "history/cp_null.h"
#include "history/series.h"

#include <math.h>

#define RUNS 5
#define MAXN 32

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Busy-machine noise: 3 % Gaussian, one run in ten up to 30 % slower. */
static double busy(uint64_t *s)
{
	double z = sqrt(-2 * log(uniform(s))) * cos(2 * M_PI * uniform(s)), f = exp(0.03 * z);

	return uniform(s) < 0.1 ? f * (1 + 0.3 * uniform(s)) : f;
}

/* r with the functions names[0..nf) and room for runs profiled runs, their per-run counts 0. */
static void result_alloc(struct history_result *r, const char *const *names, size_t nf, size_t runs)
{
	size_t j;

	history_result_init(r);
	r->runs = xmallocarray(runs, sizeof(double));
	r->funcs = xcalloc(nf, sizeof(*r->funcs));
	r->nfuncs = nf;
	r->profiles = (double)runs;
	r->run_samples = xcalloc(runs, sizeof(double));
	r->nrun_samples = runs;
	for (j = 0; j < nf; j++) {
		r->funcs[j].name = xstrdup(names[j]);
		r->funcs[j].run_self = xcalloc(runs, sizeof(double));
	}
}

/* r, filled in, as the stored commit i of s (s->pts from series_alloc). */
static void point_store(struct history_series *s, size_t i, struct history_result *r)
{
	s->pts[i].r = r;
	s->pts[i].pos = i;
	s->pts[i].profiles = r->profiles;
	history_result_median(r, &s->pts[i].med, &s->pts[i].lo, &s->pts[i].hi);
}

static void series_alloc(struct history_series *s, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->pts = xcalloc(n, sizeof(*s->pts));
	s->nr = n;
}

/*
 * n stored commits of 3 profiled runs with per-run counts (backfill
 * --repeat 3), the last of RUNS (guard --repeat 5), four functions; f's
 * time times slow[i] at commit i; each commit's build 1 % off, each
 * function's time 2 % off per run and, in one run in ten, a busy
 * neighbour's cache misses make one function up to 20 % slower.
 */
static void build(struct history_result *res, struct history_series *s, size_t n, const double *slow,
		  uint64_t seed)
{
	static const char *const names[4] = { "f", "g", "h", "k" };
	static const double base[4] = { 300, 250, 250, 200 };
	uint64_t st = seed;
	size_t i, j, q;

	series_alloc(s, n);
	for (i = 0; i < n; i++) {
		struct history_result *r = &res[i];
		double b = exp(0.01 * (2 * uniform(&st) - 1));
		size_t runs = i + 1 == n ? RUNS : 3;

		result_alloc(r, names, 4, runs);
		for (q = 0; q < runs; q++) {
			double run = 0, load = busy(&st);
			size_t miss = uniform(&st) < 0.1 ? (size_t)(4 * uniform(&st)) : 4;

			for (j = 0; j < 4; j++) {
				double v = base[j] * (j ? 1 : slow[i]) * b * exp(0.02 * (2 * uniform(&st) - 1));

				if (j == miss)
					v *= 1 + 0.2 * uniform(&st);

				r->funcs[j].self += v;
				r->funcs[j].total += v;
				r->samples += v;
				run += v;
				r->funcs[j].run_self[q] = v;
				r->run_samples[q] += v;
			}
			r->runs[r->nruns++] = run * 1000 * load;
		}
		point_store(s, i, r);
	}
}

static void release(struct history_result *res, struct history_series *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		history_result_release(&res[i]);
	free(s->pts);
}

/* The detections share their null tables (same lengths): the suite stays quick. */
static struct cp_null_cache cache;

static size_t detect(const struct history_series *s, struct history_change **c, size_t *all)
{
	struct history_detect_opts o;

	cp_params_init(&o.cp);
	if (!cache.sims)
		cp_null_cache_init(&cache, o.cp.simulations, o.cp.seed);
	o.cp.cache = &cache;
	o.min_share = 0.02;
	*all = history_detect(s, &o, c);
	return history_changes_actionable(*c, *all);
}

/*
 * HEAD stored by guard with 5 runs and per-run counts after commits
 * backfilled with 3, 19 % slower (f 1.63x of 30 %): the change is at the
 * tip, not waiting for a commit after it (before issue 28: nothing until
 * a second commit was stored - the runs did not count when the stored
 * commits' run counts differ, and E-Divisive needs two points a side).
 */
TEST(regression_at_head_found)
{
	struct history_result res[12];
	struct history_series s;
	struct history_change *c;
	double slow[12];
	size_t i, n, all, seed;

	for (seed = 1; seed <= 5; seed++) {
		for (i = 0; i < 12; i++)
			slow[i] = i == 11 ? 1.63 : 1;
		build(res, &s, 12, slow, seed);
		n = detect(&s, &c, &all);
		CHECK_INT(n, 1);
		if (n == 1) {
			CHECK_INT(c[0].index, 11);
			CHECK(c[0].slower);
			CHECK(c[0].change > 0.1);
		}
		history_changes_free(c, all);
		release(res, &s, 12);
	}
}

/*
 * One real change (f twice as slow from commit 16) in a series grown one
 * stored commit at a time from 8 to 32: no change point anywhere else
 * before the tip at any length, and once found it stays found (the
 * real repository of issue 28 grew change points on a flat stretch
 * that came and went).
 */
TEST(growing_series_keeps_its_answers)
{
	struct history_result res[MAXN];
	struct history_series s;
	struct history_change *c;
	double slow[MAXN];
	size_t i, n, all, len, found_at = 0, seed;

	for (seed = 1; seed <= 3; seed++) {
		for (i = 0; i < MAXN; i++)
			slow[i] = i >= 16 ? 2 : 1;
		build(res, &s, MAXN, slow, 100 + seed);
		found_at = 0;
		for (len = 8; len <= MAXN; len++) {
			int here = 0;

			s.nr = len;
			n = detect(&s, &c, &all);
			for (i = 0; i < n; i++) {
				/* the tip's own test (tip.h) is at alpha for each new tip: not a flat stretch */
				if (c[i].index + 1 == len)
					continue;
				if (c[i].index != 16)
					fprintf(stderr, "    seed %zu, %zu stored: change point at %zu "
						"(metric %+.1f%%, p %.2g, %zu functions)\n", seed, len, c[i].index,
						100 * c[i].change, c[i].p, c[i].nmoved);
				CHECK_INT(c[i].index, 16);
				here |= c[i].index == 16;
			}
			if (here && !found_at)
				found_at = len;
			if (found_at && !here)
				fprintf(stderr, "    seed %zu: found with %zu stored, gone with %zu\n", seed,
					found_at, len);
			CHECK(!found_at || here);
			history_changes_free(c, all);
		}
		CHECK(found_at > 0 && found_at <= 20);
		release(res, &s, MAXN);
	}
}

/*
 * n commits counted once each (backfill --metric instructions: one run,
 * no sampling): f's and g's instructions, the run's the sum; g off by up
 * to 20 instructions in 2.3 M (the residue measured between worktrees).
 */
static void build_counted(struct history_result *res, struct history_series *s, size_t n,
			  const double *f, uint64_t seed)
{
	static const char *const names[2] = { "f", "g" };
	uint64_t st = seed;
	size_t i, j;

	series_alloc(s, n);
	for (i = 0; i < n; i++) {
		struct history_result *r = &res[i];
		double v[2] = { f[i], 1295860 + floor(20 * uniform(&st)) };

		result_alloc(r, names, 2, 1);
		for (j = 0; j < 2; j++) {
			r->funcs[j].self = r->funcs[j].total = r->funcs[j].run_self[0] = v[j];
			r->samples += v[j];
			r->run_samples[0] += v[j];
		}
		r->runs[r->nruns++] = v[0] + v[1];
		point_store(s, i, r);
	}
}

/*
 * Issue 33's backfill: 60 commits counted once each, steps of +0.5 % (a
 * hair above: the minimum effect of instructions is 0.5 %) at 20, +5 % at
 * 35 and its revert at 48 - exactly those three change points, the first
 * naming f (its share moves 0.28 points: below the 2 points of sampled
 * shares); the same 60 commits without the steps - none.
 */
TEST(counted_history_finds_exactly_its_steps)
{
	struct history_result res[60];
	struct history_series s;
	struct history_change *c;
	struct history_detect_opts o;
	double f[60], total = 1000000 + 1295870;
	size_t i, n, all;

	cp_params_init(&o.cp);
	/* the metric's defaults (measure/metric.c, cmd/history_common.c) */
	o.cp.min_effect = 0.005;
	o.min_share = o.cp.min_effect / 4;
	for (i = 0; i < 60; i++)
		f[i] = 1000000 + (i >= 20 ? 0.00502 * total : 0) + (i >= 35 && i < 48 ? 0.05 * total : 0);
	build_counted(res, &s, 60, f, 7);
	all = history_detect(&s, &o, &c);
	n = history_changes_actionable(c, all);
	for (i = 0; i < n; i++)
		fprintf(stderr, "    change point at %zu: %+.3f%%\n", c[i].index, 100 * c[i].change);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK_INT(c[0].index, 20);
		CHECK_INT(c[1].index, 35);
		CHECK_INT(c[2].index, 48);
		CHECK(c[0].slower && c[1].slower && !c[2].slower);
		CHECK(c[0].nmoved >= 1 && !strcmp(c[0].moved[0].name, "f"));
	}
	history_changes_free(c, all);
	release(res, &s, 60);
	for (i = 0; i < 60; i++)
		f[i] = 1000000;
	build_counted(res, &s, 60, f, 8);
	all = history_detect(&s, &o, &c);
	CHECK_INT(history_changes_actionable(c, all), 0);
	history_changes_free(c, all);
	release(res, &s, 60);
}

/*
 * A short workload's profile (77-history-suite's gamma: ~74 samples a
 * run, all in spin but for a load burst's timer-interrupt samples): 2 of
 * 74 samples a run outside spin in the first four stored commits, none in
 * the last four, the time flat.  The runs of each commit agree exactly -
 * counts this small cannot vary less than by a sample - so the shares'
 * 2.7 pp move is within their sampling noise: no change point (before:
 * "spin faster, p = 0.0003" beside two hogs, against --alpha 0.001).
 */
TEST(quantized_shares_are_not_a_change)
{
	static const char *const names[2] = { "spin", "irq" };
	struct history_result res[8];
	struct history_series s;
	struct history_change *c;
	uint64_t st = 7;
	size_t i, j, q, n, all;

	series_alloc(&s, 8);
	for (i = 0; i < 8; i++) {
		struct history_result *r = &res[i];
		double other = i < 4 ? 2 : 0;

		result_alloc(r, names, 2, 3);
		for (q = 0; q < 3; q++) {
			double v[2] = { 74 - other, other };

			for (j = 0; j < 2; j++) {
				r->funcs[j].self += v[j];
				r->funcs[j].total += v[j];
				r->funcs[j].run_self[q] = v[j];
			}
			r->samples += 74;
			r->run_samples[q] = 74;
			r->runs[r->nruns++] = 38600 * exp(0.01 * (2 * uniform(&st) - 1));
		}
		point_store(&s, i, r);
	}
	n = detect(&s, &c, &all);
	CHECK_INT(n, 0);
	history_changes_free(c, all);
	release(res, &s, 8);
}

TEST_MAIN("history-detect", regression_at_head_found, growing_series_keeps_its_answers,
	  counted_history_finds_exactly_its_steps, quantized_shares_are_not_a_change)
