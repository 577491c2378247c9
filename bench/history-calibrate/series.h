/*
 * series.h - the calibration of cp_detect itself (src/history/changepoint.h)
 * on one series as series.c hands it over: level 100, noise sd 5, under
 * the noise a shared machine makes - Gaussian, Student's t3 and t5, AR(1)
 * with rho 0.3 / 0.5 / 0.8, a linear drift, a load step - at 50, 200 and
 * 1,000 commits, points alone or with 5 runs each (per-run counts), at
 * --min-effect 0 and the default 3 %: the share of series with a change
 * point (false alarms, against alpha); and the power on a step of 2 and 3
 * noise sds in the middle.  Shared by calibrate.c and the unit test.
 */
#ifndef TRAIL_BENCH_HISTORY_CALIBRATE_SERIES_H
#define TRAIL_BENCH_HISTORY_CALIBRATE_SERIES_H

#include "scenarios.h"
#include "history/changepoint.h"

enum hser_noise {
	HSER_NORMAL, HSER_T3, HSER_T5, HSER_AR03, HSER_AR05, HSER_AR08, HSER_DRIFT, HSER_LOAD,
	HSER_NNOISE
};

static const char *const hser_noise_name[HSER_NNOISE] = {
	"N(0,1)", "t3", "t5", "AR(1) rho 0.3", "AR(1) rho 0.5", "AR(1) rho 0.8",
	"drift 0.5 sd, N(0,1)", "load step 0.5 sd, N(0,1)",
};

/* Student's t with df degrees of freedom, scaled to variance 1 (df > 2). */
static double hser_t(struct hcal_rng *r, unsigned df)
{
	double chi = 0;
	unsigned i;

	for (i = 0; i < df; i++) {
		double z = hcal_normal(r);

		chi += z * z;
	}
	return hcal_normal(r) / sqrt(chi / df) / sqrt((double)df / (df - 2));
}

/* n points of noise with sd 1 (AR(1): its marginal sd). */
static void hser_noise(struct hcal_rng *r, enum hser_noise k, double *e, size_t n)
{
	static const double rho[] = { [HSER_AR03] = 0.3, [HSER_AR05] = 0.5, [HSER_AR08] = 0.8 };
	size_t i;

	for (i = 0; i < n; i++) {
		switch (k) {
		case HSER_T3: e[i] = hser_t(r, 3); break;
		case HSER_T5: e[i] = hser_t(r, 5); break;
		case HSER_AR03: case HSER_AR05: case HSER_AR08:
			e[i] = i ? rho[k] * e[i - 1] + sqrt(1 - rho[k] * rho[k]) * hcal_normal(r)
				 : hcal_normal(r);
			break;
		case HSER_DRIFT: e[i] = hcal_normal(r) + 0.5 * (double)i / (double)n; break;
		case HSER_LOAD: e[i] = hcal_normal(r) + (i >= n / 2 ? 0.5 : 0); break;
		default: e[i] = hcal_normal(r); break;
		}
	}
}

struct hser_setup {
	size_t n;
	int runs;		/* 5 runs per point (wv known), or points alone */
	int min_effect0;	/* --min-effect 0, else the default 3 % */
};

/*
 * One series: noise of model k (sd 5 at the point), a step of step sds at
 * n/2; with runs each point is the mean of 5 runs that spread it by sd
 * 5 x sqrt(5) (so the point's own sd from them is 5, as much again as the
 * commits' noise) with the model's tails.  Returns the change points
 * found; *hit: one of them within a point of n/2.
 */
static size_t hser_trial(struct hcal_rng *r, enum hser_noise k, const struct hser_setup *s,
			 double step, struct cp_null_cache *cache, int *hit)
{
	double *x = xmallocarray(s->n, sizeof(double)), *wv = xmallocarray(s->n, sizeof(double));
	double run[5];
	struct cp_point *out = xmallocarray(s->n, sizeof(*out));
	struct cp_params p;
	size_t i, j, found;

	hser_noise(r, k, x, s->n);
	for (i = 0; i < s->n; i++) {
		x[i] = 100 + 5 * x[i] + (i >= s->n / 2 ? 5 * step : 0);
		if (s->runs) {
			double mean = 0, ss = 0;

			hser_noise(r, k == HSER_T3 || k == HSER_T5 ? k : HSER_NORMAL, run, 5);
			for (j = 0; j < 5; j++)
				mean += (run[j] = x[i] + 5 * sqrt(5.0) * run[j]) / 5;
			for (j = 0; j < 5; j++)
				ss += (run[j] - mean) * (run[j] - mean);
			x[i] = mean;
			wv[i] = ss / 4 / 5;
		}
	}
	cp_params_init(&p);
	p.alpha = HCAL_ALPHA;
	p.cache = cache;
	if (s->min_effect0)
		p.min_effect = 0;
	if (s->runs) {
		p.wv = wv;
		p.runs = 5;
		p.min_size = 1;
	}
	found = cp_detect(x, s->n, &p, out, s->n);
	*hit = 0;
	for (i = 0; i < found; i++)
		*hit |= out[i].index + 1 >= s->n / 2 && out[i].index <= s->n / 2 + 1;
	free(x);
	free(wv);
	free(out);
	return found;
}

struct hser_result {
	unsigned trials, alarms;	/* steady: series with a change point */
	unsigned power[2];		/* steps of 2 and 3 sds found (Gaussian noise of model k) */
};

static void hser_run(enum hser_noise k, const struct hser_setup *s, unsigned trials,
		     unsigned power_trials, uint64_t seed, struct cp_null_cache *cache,
		     struct hser_result *res)
{
	struct hcal_rng r = { seed * 7919 + (uint64_t)k * 131 + s->n * 3 + (uint64_t)s->runs };
	unsigned t;
	int hit;

	memset(res, 0, sizeof(*res));
	res->trials = trials;
	for (t = 0; t < trials; t++)
		res->alarms += hser_trial(&r, k, s, 0, cache, &hit) > 0;
	for (t = 0; t < power_trials; t++) {
		hser_trial(&r, k, s, 2, cache, &hit);
		res->power[0] += (unsigned)hit;
		hser_trial(&r, k, s, 3, cache, &hit);
		res->power[1] += (unsigned)hit;
	}
}

/* A stationary model's false-alarm rate within two Monte-Carlo standard errors of alpha. */
static int hser_within(enum hser_noise k, const struct hser_setup *s, const struct hser_result *r)
{
	if (k == HSER_DRIFT || k == HSER_LOAD)
		return !s->min_effect0 ? r->alarms <= HCAL_ALPHA * r->trials +
					 2 * sqrt(HCAL_ALPHA * (1 - HCAL_ALPHA) * r->trials) : 1;
	return r->alarms <= HCAL_ALPHA * r->trials + 2 * sqrt(HCAL_ALPHA * (1 - HCAL_ALPHA) * r->trials);
}

#endif
