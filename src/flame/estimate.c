/*
 * estimate.c - trail flame's one estimand and its decisions (estimate.h):
 * Student's t quantiles, Pocock-type alpha spending over the looks, the
 * paired log ratio of ABBA pairs, the paired bootstrap of a percentile's
 * ratio, their floor at the values' resolution, the verdict by the
 * interval and a commit's step.
 */
#include "flame/estimate.h"
#include "core/verdict.h"
#include "stats/describe.h"
#include "stats/rng.h"
#include "stats/distributions.h"
#include "core/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double flame_t_upper(double t, double df)
{
	double p;

	if (!(df > 0))
		return 0.5;
	if (df > 1e6)
		return 0.5 * erfc(t / sqrt(2.0));
	p = stats_student_t_p(fabs(t), df) / 2;	/* two-sided p of |t| */
	return t >= 0 ? p : 1 - p;
}

double flame_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (p >= 0.5)
		return -flame_t_quantile(1 - p, df);
	if (!(df > 0) || df > 1e6)
		return stats_normal_quantile(p);
	while (flame_t_upper(hi, df) > p && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-10 * hi; i++) {
		mid = (lo + hi) / 2;
		if (flame_t_upper(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double flame_alpha_spent(double alpha, double frac)
{
	if (!(frac > 0))
		return 0;
	if (frac >= 1)
		return alpha;
	return alpha * log(1 + (M_E - 1) * frac);
}

double flame_alpha_look(double alpha, size_t nprev, size_t n, size_t nmax, int last)
{
	double prev = nmax ? flame_alpha_spent(alpha, (double)nprev / (double)nmax) : 0;

	if (last || !nmax || n >= nmax)
		return alpha - prev;
	return flame_alpha_spent(alpha, (double)n / (double)nmax) - prev;
}

int flame_abba_bad_first(size_t i)
{
	return (int)(i % 2);
}

unsigned flame_even_pairs(unsigned n)
{
	if (n < 2)
		return 2;
	return n + (n % 2);
}

unsigned flame_look_step(unsigned first, unsigned max)
{
	unsigned step = max > first ? (max - first) / 8 : 0;

	return flame_even_pairs(step < 4 ? 4 : step);
}

int flame_paired_log_ratio(const double *good, const double *bad, size_t n, double alpha,
			   struct flame_interval *out)
{
	double mean = 0, var = 0, d, t;
	size_t i;

	if (n < 2)
		return -1;
	for (i = 0; i < n; i++)
		if (!(good[i] > 0) || !(bad[i] > 0))
			return -1;
	for (i = 0; i < n; i++)
		mean += log(bad[i] / good[i]);
	mean /= (double)n;
	for (i = 0; i < n; i++) {
		d = log(bad[i] / good[i]) - mean;
		var += d * d;
	}
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->df = (double)(n - 1);
	out->se = sqrt(var / (double)(n - 1) / (double)n);
	out->alpha = alpha;
	out->relative = 1;
	t = flame_t_quantile(alpha / 2, out->df);
	out->estimate = expm1(mean);
	out->lo = expm1(mean - t * out->se);
	out->hi = expm1(mean + t * out->se);
	return 0;
}

void flame_interval_resolution_floor(const double *good, const double *bad, size_t n,
				     double resolution, struct flame_interval *iv)
{
	double v = 0, se, c, t;
	size_t i;

	if (!(resolution > 0) || !n || !iv->relative)
		return;
	for (i = 0; i < n; i++) {
		if (!(good[i] > 0) || !(bad[i] > 0))
			return;
		v += 1 / (good[i] * good[i]) + 1 / (bad[i] * bad[i]);
	}
	se = sqrt(resolution * resolution / 12 * v / (double)n / (double)n);
	if (!(se > iv->se))
		return;
	iv->se = se;
	c = log1p(iv->estimate);
	t = flame_t_quantile(iv->alpha / 2, iv->df);
	iv->lo = fmin(iv->lo, expm1(c - t * se));
	iv->hi = fmax(iv->hi, expm1(c + t * se));
}

int flame_paired_quantile_ratio(const double *good, const double *bad, size_t n, double pct,
				double alpha, unsigned resamples, uint64_t seed,
				struct flame_interval *out)
{
	double *g, *b, *logs, qg, qb, mean = 0, var = 0;
	size_t i, k, ok = 0;
	uint64_t state = seed;

	if (n < 2 || !resamples)
		return -1;
	g = xcalloc(n, sizeof(*g));
	b = xcalloc(n, sizeof(*b));
	logs = xcalloc(resamples, sizeof(*logs));
	memcpy(g, good, n * sizeof(*g));
	memcpy(b, bad, n * sizeof(*b));
	qg = stats_quantile_inplace(g, n, pct / 100);
	qb = stats_quantile_inplace(b, n, pct / 100);
	memset(out, 0, sizeof(*out));
	if (!(qg > 0) || !(qb > 0)) {
		free(g);
		free(b);
		free(logs);
		return -1;
	}
	for (k = 0; k < resamples; k++) {
		double rg, rb;

		for (i = 0; i < n; i++) {
			size_t j = (size_t)(stats_splitmix64(&state) % n);

			g[i] = good[j];	/* the pair stays together */
			b[i] = bad[j];
		}
		rg = stats_quantile_inplace(g, n, pct / 100);
		rb = stats_quantile_inplace(b, n, pct / 100);
		if (rg > 0 && rb > 0)
			logs[ok++] = log(rb / rg);
	}
	out->n = n;
	out->df = (double)(n - 1);
	out->alpha = alpha;
	out->relative = 1;
	out->estimate = qb / qg - 1;
	if (ok < 2) {
		out->lo = -HUGE_VAL;
		out->hi = HUGE_VAL;
		out->se = HUGE_VAL;
	} else {
		for (k = 0; k < ok; k++)
			mean += logs[k];
		mean /= (double)ok;
		for (k = 0; k < ok; k++)
			var += (logs[k] - mean) * (logs[k] - mean);
		out->se = sqrt(var / (double)(ok - 1));
		stats_sort(logs, ok);
		out->lo = expm1(stats_quantile_sorted(logs, ok, alpha / 2));
		out->hi = expm1(stats_quantile_sorted(logs, ok, 1 - alpha / 2));
	}
	free(g);
	free(b);
	free(logs);
	return 0;
}

size_t flame_percentile_min_runs(double pct)
{
	double tail = 1 - pct / 100;

	if (pct <= 50)
		return 1;
	return (size_t)ceil(1 / tail - 1e-9);
}

enum trail_verdict flame_outcome_decide(const struct flame_interval *iv, double min_effect,
					int enough)
{
	if (!enough)
		return VERDICT_INCONCLUSIVE;
	if (iv->lo > 0)
		return iv->estimate >= min_effect ? VERDICT_REGRESSION
						  : VERDICT_SMALL_REGRESSION;
	if (iv->hi < min_effect)
		return VERDICT_NO_REGRESSION;
	return VERDICT_INCONCLUSIVE;
}

int flame_change_at_least(const struct flame_interval *iv, double min_effect)
{
	return iv->n && iv->lo >= min_effect;
}

double flame_min_detectable(const struct flame_interval *iv, double power)
{
	double m = (flame_t_quantile(iv->alpha / 2, iv->df) + flame_t_quantile(1 - power, iv->df)) *
		   iv->se;

	return iv->relative ? expm1(m) : m;
}

size_t flame_pairs_needed(const struct flame_interval *iv, double target, double power)
{
	double mde = flame_min_detectable(iv, power), want, r;

	if (iv->relative) {
		mde = log1p(mde);
		target = log1p(target);
	}
	if (!(target > 0) || !(mde > 0))
		return iv->n;
	want = mde / target;
	r = ceil((double)iv->n * want * want);
	return r > 1e6 ? (size_t)1e6 : (size_t)r;
}

double flame_ks_p(const double *a, size_t na, const double *b, size_t nb)
{
	double *x, *y, d = 0, ne, lambda, p = 0, term, sign = 1;
	size_t i = 0, j = 0, k;

	if (!na || !nb)
		return 1;
	x = xcalloc(na, sizeof(*x));
	y = xcalloc(nb, sizeof(*y));
	memcpy(x, a, na * sizeof(*x));
	memcpy(y, b, nb * sizeof(*y));
	stats_sort(x, na);
	stats_sort(y, nb);
	while (i < na && j < nb) {
		double v = x[i] < y[j] ? x[i] : y[j], gap;

		while (i < na && x[i] <= v)
			i++;
		while (j < nb && y[j] <= v)
			j++;
		gap = fabs((double)i / (double)na - (double)j / (double)nb);
		if (gap > d)
			d = gap;
	}
	free(x);
	free(y);
	ne = (double)na * (double)nb / (double)(na + nb);
	lambda = (sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * d;
	if (lambda < 0.2)
		return 1;
	for (k = 1; k <= 100; k++) {
		term = sign * 2 * exp(-2 * (double)(k * k) * lambda * lambda);
		p += term;
		if (fabs(term) < 1e-10)
			break;
		sign = -sign;
	}
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

double flame_welch_df(double se_a, double df_a, double se_b, double df_b)
{
	double va = se_a * se_a, vb = se_b * se_b, den = 0;

	if (df_a > 0)
		den += va * va / df_a;
	if (df_b > 0)
		den += vb * vb / df_b;
	if (!(den > 0))
		return df_a + df_b > 0 ? df_a + df_b : 1;
	return (va + vb) * (va + vb) / den;
}

/*
 * Fieller's interval for the ratio a / b of two independent estimates
 * (variances va, vb), t wide (Fieller 1954, JRSS B 16:175): the rho with
 * (a - rho b)^2 <= t^2 (va + rho^2 vb).  Bounded only when b itself is
 * significant (b^2 > t^2 vb); otherwise the set is unbounded and *lo,
 * *hi are -inf, +inf.  Returns 1 when bounded.
 */
static int fieller(double a, double va, double b, double vb, double t, double *lo, double *hi)
{
	double t2 = t * t, qa = b * b - t2 * vb, disc, r1, r2;

	if (!(qa > 0)) {
		*lo = -HUGE_VAL;
		*hi = HUGE_VAL;
		return 0;
	}
	disc = a * a * vb + b * b * va - t2 * va * vb;
	disc = t * sqrt(disc > 0 ? disc : 0);
	r1 = (a * b - disc) / qa;
	r2 = (a * b + disc) / qa;
	*lo = fmin(r1, r2);
	*hi = fmax(r1, r2);
	return 1;
}

/*
 * The part of the change the step explains, a / b with its Fieller
 * interval at alpha (a: the step, se; b: the change, effect_se), on the
 * scale the caller chose (the values, or their logs).
 */
static void explains_set(double a, double se, double df, double b, double effect_se,
			 double effect_df, double alpha, struct flame_step_assessment *out)
{
	double t = flame_t_quantile(alpha / 2, df > 0 ? df : 1), tr, df_r;

	out->explains = a / b;
	out->part_hi = (a + t * se) / b;
	out->small = out->part_hi < 0.5;
	/* the t of the ratio: Welch-Satterthwaite over both errors, as a delta method would */
	df_r = flame_welch_df(se, df > 0 ? df : 1, fabs(out->explains) * effect_se, effect_df);
	tr = flame_t_quantile(alpha / 2, df_r);
	out->explains_level = 1 - alpha;
	out->explains_bounded = fieller(a, se * se, b, effect_se * effect_se, tr,
					&out->explains_lo, &out->explains_hi);
	out->most = out->explains_lo > 0.5;
}

void flame_step_assess(double step, double se, double df, double effect, double effect_se,
		       double effect_df, double alpha, struct flame_step_assessment *out)
{
	double t;

	memset(out, 0, sizeof(*out));
	out->step = step;
	out->effect = effect;
	out->se = se;
	out->df = df > 0 ? df : 1;
	t = flame_t_quantile(alpha / 2, out->df);
	out->lo = step - t * se;
	out->hi = step + t * se;
	out->confidence = se > 0 ? 1 - flame_t_upper(step / se, out->df) : step > 0;
	out->real = out->lo > 0;
	if (!(effect > 0))
		return;
	explains_set(step, se, out->df, effect, effect_se, effect_df, alpha, out);
}

void flame_explains_format(const struct flame_step_assessment *a, char *buf, size_t n)
{
	const char *scale = a->log_scale ? ", log scale" : "";

	if (!a->explains_bounded)
		snprintf(buf, n, "%.0f%% [unbounded at %.0f%%: the ends' change is not significant "
			 "there%s]", 100 * a->explains, 100 * a->explains_level, scale);
	else
		snprintf(buf, n, "%.0f%% [%.0f%%, %.0f%%] (%.0f%% Fieller%s)", 100 * a->explains,
			 100 * a->explains_lo, 100 * a->explains_hi, 100 * a->explains_level, scale);
}

/* sqrt((x^2 + y^2) / 2): the level a standard error of x - y is set against on the log scale */
static double rms2(double x, double y)
{
	return sqrt((x * x + y * y) / 2);
}

void flame_step_assess_log(double step, double se, double df, double fast, double effect,
			   double effect_se, double effect_df, double good, double alpha,
			   struct flame_step_assessment *out)
{
	double slow = fast + step, bad = good + effect;

	flame_step_assess(step, se, df, effect, effect_se, effect_df, alpha, out);
	/*
	 * A value at or near 0 has no log (a function the good end never
	 * ran): its step is compared in the values' unit.
	 */
	if (!(fast > 0) || !(slow > 0) || !(good > 0) || !(bad > good) ||
	    good < bad * FLAME_LOG_FLOOR || fast < slow * FLAME_LOG_FLOOR)
		return;
	out->log_scale = 1;
	explains_set(log(slow / fast), se / rms2(slow, fast), out->df, log(bad / good),
		     effect_se / rms2(good, bad), effect_df, alpha, out);
}

/* The lower p-quantile of chi2(df), Wilson-Hilferty: df (1 - 2/(9df) + z_p sqrt(2/(9df)))^3. */
static double chi2_quantile(double p, double df)
{
	double h = 2 / (9 * df), c = 1 - h + stats_normal_quantile(1 - p) * sqrt(h);

	return c > 0 ? df * c * c * c : 0;
}

unsigned flame_pair_runs_for_power(const struct flame_power_plan *p, unsigned floor, unsigned cap)
{
	double var = p->sd_slow * p->sd_slow + p->sd_fast * p->sd_fast, effect = p->effect;
	unsigned n;

	if (floor < 2)
		floor = 2;
	if (!(effect > 0))
		return cap + 1;
	if (p->effect_se > 0)
		effect = fmax(effect - stats_normal_quantile(0.2) * p->effect_se, effect / 4);
	if (p->sd_df > 0) {
		double q = chi2_quantile(0.10, p->sd_df);

		var *= q > 0 ? p->sd_df / q : 16;
	}
	for (n = floor; n <= cap; n++) {
		double df = (double)n - 1, need = flame_t_quantile(p->alpha / 8, df) +
						   flame_t_quantile(1 - p->power, df);

		if (effect >= need * sqrt(var / (double)n))
			return n;
	}
	return cap + 1;
}

unsigned flame_pair_look_runs(unsigned n, unsigned first)
{
	return n ? flame_even_pairs(n / 3) : first;
}

unsigned flame_pair_first_runs(unsigned runs)
{
	return runs == 1 ? 1 : flame_even_pairs(runs);
}
