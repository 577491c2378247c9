/*
 * scenarios.h - the calibration scenarios of trail history's detection
 * (issue 20): simulated histories - per-commit runs and profiles as
 * backfill stores them, on a quiet or a busy machine - fed to the real
 * decision of libtrail.a (history_detect, src/history/series.h), counting
 * change points in steady histories (false alarms, against --alpha) and
 * the changes found in a history with three (power).  Shared by
 * bench/history-calibrate/calibrate.c (thousands of trials) and
 * tests/unit/test_history_calibrate.c (a few hundred, in make check).
 */
#ifndef TRAIL_BENCH_HISTORY_CALIBRATE_SCENARIOS_H
#define TRAIL_BENCH_HISTORY_CALIBRATE_SCENARIOS_H

#include "core/alloc.h"
#include "history/cp_null.h"
#include "history/series.h"

#include <math.h>
#include <stdint.h>
#include "stats/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HCAL_ALPHA 0.01		/* trail history's default --alpha */
#define HCAL_MAXF 8

struct hcal_rng {
	uint64_t s;
};

static uint64_t hcal_next(struct hcal_rng *r)
{
	return stats_splitmix64(&r->s);
}

static double hcal_uniform(struct hcal_rng *r)
{
	return ((double)(hcal_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double hcal_normal(struct hcal_rng *r)
{
	return sqrt(-2 * log(hcal_uniform(r))) * cos(2 * M_PI * hcal_uniform(r));
}

/* The program of tests/e2e/gen-kinds --kind history: self time per function, us per run. */
static const char *const hcal_names[HCAL_MAXF] = {
	"score_rows", "summarize", "table_find", "tokenize", "checksum_table", "word_hash",
	"main", "render_frame",
};
static const double hcal_time[HCAL_MAXF] = { 350e3, 150e3, 150e3, 120e3, 80e3, 70e3, 50e3, 30e3 };

/* How a history is measured and what changes in it. */
struct hcal_setup {
	const char *name;
	size_t commits;		/* first-parent commits in the range */
	size_t every;		/* stored: every K-th (and the last) */
	unsigned runs;		/* --repeat */
	double run_sd;		/* run-to-run noise of the metric, log scale */
	double burst_frac, burst;	/* that share of runs that much slower (load bursts) */
	double drift;		/* load across the backfill's time: a random walk's step sd */
	double order_drift;	/* a trend along the commits (CI records each push), total */
	double build_sd;	/* each build's own speed (code layout), log scale */
	double sd_spread;	/* each commit's noise times exp(U(-1,1) * spread): unequal variance */
	double load_share;	/* render_frame's time grows by this times the load */
	double samples;		/* profile samples per run */
	int changes;		/* 0 steady; 1 the three changes of --kind history */
	int pooled_only;	/* notes without per-run counts (written before trail kept them) */
	double func_sd;		/* each function's own run-to-run noise, log scale (a busy
				 * neighbour's cache misses slow one memory-bound function) */
	double layout_sd;	/* each build's speed of each function (code layout), log scale */
};

/* One simulated history, stored as the notes would hold it. */
struct hcal_history {
	struct history_result r[64];
	struct history_point pts[64];
	char ids[64][41];
	const char *id_ptr[64];
	size_t n, stored;
	size_t at[3];		/* commits (range positions) of the three changes */
};

/* gen-kinds' positions of the changes for n commits (1-based there, 0-based here) */
static void hcal_positions(struct hcal_rng *rng, size_t n, size_t at[3])
{
	size_t gap = n / 5 > 5 ? n / 5 : 5, s1, s2, s3;

	s1 = n / 5 + (size_t)(hcal_uniform(rng) * (double)(n / 4 - n / 5 + 1));
	s2 = s1 + gap + (hcal_uniform(rng) < 0.5);
	s3 = s2 + gap + (hcal_uniform(rng) < 0.5);
	if (s3 > n - 4)
		s3 = n - 4;
	at[0] = s1 - 1;
	at[1] = s2 - 1;
	at[2] = s3 - 1;
}

static void hcal_release(struct hcal_history *h)
{
	size_t i, k;

	for (i = 0; i < h->stored; i++) {
		for (k = 0; k < HCAL_MAXF; k++)
			free(h->r[i].funcs[k].run_self);
		free(h->r[i].run_samples);
		free(h->r[i].runs);
		free(h->r[i].funcs);
	}
}

/* The function times of commit c (range position) with the setup's changes. */
static void hcal_times(const struct hcal_setup *s, const struct hcal_history *h, size_t c,
		       double *t)
{
	memcpy(t, hcal_time, sizeof(hcal_time));
	if (!s->changes)
		return;
	if (c >= h->at[0])
		t[4] *= 2;	/* checksum_table: a second pass, +8 % */
	if (c >= h->at[1] && c < h->at[2])
		t[0] *= 2;	/* score_rows twice as slow, then reverted */
}

/*
 * Measure the stored commits as backfill does: R rounds, each in a fresh
 * random order, the machine's load a random walk over the whole time.
 */
static void hcal_measure(struct hcal_rng *rng, const struct hcal_setup *s, struct hcal_history *h)
{
	size_t idx[64], i, j, k, q;
	double load = 0, build[64], spread[64], layout[64][HCAL_MAXF];

	h->n = s->commits > 64 ? 64 : s->commits;
	for (i = h->stored = 0; i < h->n; i++)
		if (i % s->every == 0 || i + 1 == h->n)
			idx[h->stored++] = i;
	for (i = 0; i < h->stored; i++) {
		history_result_init(&h->r[i]);
		h->r[i].runs = xmallocarray(s->runs, sizeof(double));
		h->r[i].funcs = xcalloc(HCAL_MAXF, sizeof(struct history_func));
		h->r[i].nfuncs = HCAL_MAXF;
		for (k = 0; k < HCAL_MAXF; k++) {
			h->r[i].funcs[k].name = (char *)hcal_names[k];
			h->r[i].funcs[k].run_self = s->pooled_only ? NULL : xcalloc(s->runs, sizeof(double));
			layout[i][k] = exp(s->layout_sd * hcal_normal(rng));
		}
		h->r[i].run_samples = s->pooled_only ? NULL : xcalloc(s->runs, sizeof(double));
		h->r[i].nrun_samples = s->pooled_only ? 0 : s->runs;
		build[i] = s->build_sd * hcal_normal(rng);
		spread[i] = exp(s->sd_spread * (2 * hcal_uniform(rng) - 1));
	}
	for (q = 0; q < s->runs; q++) {
		size_t order[64];

		for (i = 0; i < h->stored; i++)
			order[i] = i;
		for (i = h->stored; i > 1; i--) {
			size_t r = (size_t)(hcal_uniform(rng) * (double)i), t = order[i - 1];

			order[i - 1] = order[r];
			order[r] = t;
		}
		for (j = 0; j < h->stored; j++) {
			struct history_result *r = &h->r[order[j]];
			size_t c = idx[order[j]];
			double t[HCAL_MAXF], sum = 0, f;

			load += s->drift * hcal_normal(rng);
			f = exp(load + build[order[j]] + s->order_drift * (double)c / (double)h->n +
				s->run_sd * spread[order[j]] * hcal_normal(rng));
			if (hcal_uniform(rng) < s->burst_frac)
				f *= 1 + s->burst * hcal_uniform(rng);
			hcal_times(s, h, c, t);
			t[7] *= 1 + s->load_share * (f - 1) * 10;
			for (k = 0; k < HCAL_MAXF; k++) {
				t[k] *= layout[order[j]][k];
				if (s->func_sd > 0)
					t[k] *= exp(s->func_sd * hcal_normal(rng));
				sum += t[k];
			}
			r->runs[r->nruns++] = sum * f;
			for (k = 0; k < HCAL_MAXF; k++) {
				double m = s->samples * t[k] / sum, x = m + sqrt(m) * hcal_normal(rng);

				x = x > 0 ? x : 0;
				r->funcs[k].self += x;
				r->funcs[k].total = r->funcs[k].self;
				r->samples += x;
				if (r->run_samples) {
					r->funcs[k].run_self[q] = x;
					r->run_samples[q] += x;
				}
			}
		}
	}
	for (i = 0; i < h->stored; i++) {
		struct history_point *p = &h->pts[i];

		h->r[i].profiles = s->runs;
		snprintf(h->ids[i], sizeof(h->ids[i]), "%040zx", idx[i]);
		h->id_ptr[i] = h->ids[i];
		p->commit = h->ids[i];
		p->pos = idx[i];
		p->r = &h->r[i];
		p->profiles = s->runs;
		history_result_median(&h->r[i], &p->med, &p->lo, &p->hi);
	}
}

/* Outcome of one trial: change points, and those right (gap, function, direction). */
struct hcal_trial {
	size_t found, right, extra;
	int hit[3];		/* each change found right */
};

static void hcal_trial(struct hcal_rng *rng, const struct hcal_setup *s,
		       struct cp_null_cache *cache, struct hcal_trial *t)
{
	static const char *const fn[3] = { "checksum_table", "score_rows", "score_rows" };
	struct hcal_history h;
	struct history_series ser;
	struct history_detect_opts o;
	struct history_change *c = NULL;
	size_t n, i, j;
	int used[3] = { 0, 0, 0 };

	memset(&h, 0, sizeof(h));
	hcal_positions(rng, s->commits, h.at);
	hcal_measure(rng, s, &h);
	memset(&ser, 0, sizeof(ser));
	ser.pts = h.pts;
	ser.nr = h.stored;
	cp_params_init(&o.cp);
	o.cp.alpha = HCAL_ALPHA;
	o.cp.cache = cache;
	o.min_share = 0.02;
	n = history_detect(&ser, &o, &c);
	memset(t, 0, sizeof(*t));
	t->found = n;
	for (i = 0; i < n; i++) {
		size_t a = h.pts[c[i].index - 1].pos, b = h.pts[c[i].index].pos;
		int ok = 0;

		for (j = 0; s->changes && j < 3; j++)
			if (!used[j] && h.at[j] > a && h.at[j] <= b && c[i].slower == (j < 2) &&
			    c[i].nmoved && !strcmp(c[i].moved[0].name, fn[j]))
				ok = used[j] = t->hit[j] = 1;
		t->right += ok;
		t->extra += !ok;
	}
	history_changes_free(c, n);
	hcal_release(&h);
}

/* The scenarios: steady histories (false alarms) and the three changes (power). */
enum hcal_scenario {
	HCAL_STEADY_QUIET,
	HCAL_STEADY_BUSY,
	HCAL_STEADY_BUSY_ONE_RUN,
	HCAL_STEADY_ORDER_DRIFT,
	HCAL_STEADY_SPARSE,
	HCAL_STEADY_LONG,
	HCAL_STEADY_FUNC_NOISE,
	HCAL_STEADY_FUNC_NOISE_SPARSE,
	HCAL_STEADY_LAYOUT,
	HCAL_STEADY_POOLED,
	HCAL_STEADY_LAYOUT_SPARSE,
	HCAL_STEADY_LAYOUT_LARGE_SPARSE,
	HCAL_CHANGES_ALL,
	HCAL_CHANGES_SPARSE,
	HCAL_CHANGES_FUNC_NOISE_SPARSE,
	HCAL_CHANGES_FUNC_NOISE_SPARSE_POOLED,
	HCAL_NSCENARIOS
};

/*
 * Busy: 3 % run-to-run noise, one run in ten up to 30 % slower, load
 * wandering by a random walk, each build 1 % off, commits' noise up to
 * e^0.7 = 2x apart, render_frame's time growing with load.
 */
#define HCAL_BUSY 0.03, 0.10, 0.30, 0.005, 0, 0.01, 0.7, 0.5, 3000
static const struct hcal_setup hcal_setups[HCAL_NSCENARIOS] = {
	{ "steady, quiet machine, 33 commits", 33, 1, 3, 0.01, 0, 0, 0.001, 0, 0.003, 0, 0, 3000, 0, 0, 0, 0 },
	{ "steady, busy machine, 33 commits", 33, 1, 3, HCAL_BUSY, 0, 0, 0, 0 },
	{ "steady, busy, 1 run per commit", 33, 1, 1, HCAL_BUSY, 0, 0, 0, 0 },
	{ "steady, busy, 2 % drift along the commits", 33, 1, 3, 0.03, 0.10, 0.30, 0.005, 0.02, 0.01,
	  0.7, 0.5, 3000, 0, 0, 0, 0 },
	{ "steady, busy, --every 4 (9 stored)", 33, 4, 3, HCAL_BUSY, 0, 0, 0, 0 },
	{ "steady, busy, 64 commits", 64, 1, 3, HCAL_BUSY, 0, 0, 0, 0 },
	/* functions' own noise, as measured live at load 10: checksum_table's share of a run 15 % off */
	{ "steady, busy, each function 15 % off per run, 5 runs", 33, 1, 5, HCAL_BUSY, 0, 0, 0.15, 0 },
	{ "steady, busy, each function 15 % off per run, --every 4", 33, 4, 5, HCAL_BUSY, 0, 0, 0.15, 0 },
	/* each build's own speed of each function: commits differ more than their runs say */
	{ "steady, busy, each function's build 3 % off, 5 runs", 33, 1, 5, HCAL_BUSY, 0, 0, 0.05, 0.03 },
	{ "steady, busy, notes without per-run counts", 33, 1, 3, HCAL_BUSY, 0, 1, 0, 0 },
	/* few stored commits, whose runs agree better than the builds: the runs' noise must not stand in */
	{ "steady, busy, each function's build 3 % off, --every 4, 5 runs", 33, 4, 5, HCAL_BUSY, 0, 0, 0.05,
	  0.03 },
	{ "steady, busy, each function's build 10 % off, --every 4, 5 runs", 33, 4, 5, HCAL_BUSY, 0, 0, 0.05,
	  0.10 },
	{ "three changes, busy, every commit", 33, 1, 3, HCAL_BUSY, 1, 0, 0, 0 },
	{ "three changes, busy, --every 4", 33, 4, 3, HCAL_BUSY, 1, 0, 0, 0 },
	{ "three changes, busy, functions 15 % off per run, --every 4, 5 runs", 33, 4, 5, HCAL_BUSY, 1, 0,
	  0.15, 0 },
	{ "the same, notes without per-run counts", 33, 4, 5, HCAL_BUSY, 1, 1, 0.15, 0 },
};

struct hcal_result {
	const char *name;
	unsigned trials;
	unsigned alarms;	/* trials with a change point that is not one of the changes */
	unsigned right, all_right;	/* changes found right; trials with all three */
	unsigned hit[3];		/* trials that found each change right */
	int changes;
};

static void hcal_run(enum hcal_scenario k, unsigned trials, uint64_t seed, struct hcal_result *res)
{
	const struct hcal_setup *s = &hcal_setups[k];
	struct hcal_rng rng = { seed * 1000003 + (uint64_t)k };
	struct cp_null_cache cache;
	struct hcal_trial t;
	unsigned i;

	memset(res, 0, sizeof(*res));
	res->name = s->name;
	res->trials = trials;
	res->changes = s->changes;
	cp_null_cache_init(&cache, 4999, 0x9e3779b97f4a7c15ULL);
	for (i = 0; i < trials; i++) {
		hcal_trial(&rng, s, &cache, &t);
		res->alarms += t.extra > 0;
		res->right += (unsigned)t.right;
		res->all_right += t.right == 3 && !t.extra;
		for (int j = 0; j < 3; j++)
			res->hit[j] += (unsigned)t.hit[j];
	}
	cp_null_cache_release(&cache);
}

/* Two Monte-Carlo standard errors above alpha. */
static int hcal_within(const struct hcal_result *r)
{
	double rate = r->trials ? (double)r->alarms / r->trials : 0;

	return r->changes || rate <= HCAL_ALPHA + 2 * sqrt(HCAL_ALPHA * (1 - HCAL_ALPHA) / r->trials);
}

#endif
