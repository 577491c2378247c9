/*
 * stats.c - descriptive statistics, outliers, Mann-Whitney U (exact for small
 * samples through rank_sum.c), Welch's t and the bootstrap ratio interval
 * (see stats.h for the methods and sources).
 */
#include "bench/stats.h"
#include "bench/rank_sum.h"
#include "core/alloc.h"
#include "core/error.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static int check_sample(const double *x, size_t n, const char *what)
{
	size_t i;

	if (!n)
		return trail_error("statistics of an empty sample (%s)", what);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return trail_error("statistics: %s value %zu is not a finite number", what, i + 1);
	return 0;
}

double bench_quantile_sorted(const double *s, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (!n)
		return NAN;
	if (q <= 0)
		return s[0];
	if (q >= 1)
		return s[n - 1];
	/* Hyndman & Fan (1996) type 7: h = (n-1)q, interpolate s[floor h], s[floor h + 1]. */
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (h - lo) * (s[i + 1] - s[i]);
}

/*
 * Selection of the k-th smallest (Wirth, "Algorithms + Data Structures =
 * Programs", 1976, "Find"): afterwards x[k] is in its sorted place, every
 * x[i] before it is <= x[k] and every one after is >= x[k].  Linear on
 * average; the pivot x[k] keeps sorted input linear too.
 */
static void select_kth(double *x, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < m) {
		double pivot = x[kk];
		ptrdiff_t i = l, j = m;

		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				double t = x[i];

				x[i] = x[j];
				x[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
}

/* Median of x, which is reordered. */
static double median_inplace(double *x, size_t n)
{
	size_t k = n / 2, i;
	double m;

	select_kth(x, n, k);
	if (n % 2)
		return x[k];
	/* The other middle value is the largest of the lower part. */
	m = x[0];
	for (i = 1; i < k; i++)
		if (x[i] > m)
			m = x[i];
	return (m + x[k]) / 2;
}

double bench_median(const double *x, size_t n)
{
	double *tmp, m;

	if (!n)
		return NAN;
	tmp = xmallocarray(n, sizeof(*tmp));
	memcpy(tmp, x, n * sizeof(*tmp));
	m = median_inplace(tmp, n);
	free(tmp);
	return m;
}

size_t bench_outliers(const double *x, size_t n, unsigned char *flags)
{
	double med, mad, scale, *dev;
	size_t i, count = 0;

	if (flags)
		memset(flags, 0, n);
	if (n < 3)
		return 0;
	med = bench_median(x, n);
	dev = xmallocarray(n, sizeof(*dev));
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = median_inplace(dev, n);
	/*
	 * Iglewicz & Hoaglin, "How to Detect and Handle Outliers" (1993):
	 * M_i = 0.6745 (x_i - median) / MAD; |M_i| > 3.5 flags an outlier.
	 * With MAD == 0 (over half the values equal) use the mean absolute
	 * deviation with the constant 1.253314 (IBM SPSS / NIST handbook form).
	 */
	if (mad > 0) {
		scale = mad / 0.6745;
	} else {
		double sum = 0;

		for (i = 0; i < n; i++)
			sum += fabs(x[i] - med);
		scale = 1.253314 * sum / (double)n;
	}
	free(dev);
	if (!(scale > 0))
		return 0;
	for (i = 0; i < n; i++)
		if (fabs(x[i] - med) / scale > BENCH_OUTLIER_Z) {
			count++;
			if (flags)
				flags[i] = 1;
		}
	return count;
}

int bench_stats_compute(const double *x, size_t n, struct bench_stats *out)
{
	double *s, sum = 0, m2 = 0, mean;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (check_sample(x, n, "timing"))
		return -1;
	s = xmallocarray(n, sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (i = 0; i < n; i++)
		sum += s[i];
	mean = sum / (double)n;
	/* Two-pass variance: stable for values far from zero. */
	for (i = 0; i < n; i++)
		m2 += (s[i] - mean) * (s[i] - mean);
	out->n = n;
	out->mean = mean;
	out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = bench_quantile_sorted(s, n, 0.5);
	out->p95 = bench_quantile_sorted(s, n, 0.95);
	out->p99 = bench_quantile_sorted(s, n, 0.99);
	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - out->median);
	out->mad = median_inplace(s, n);
	free(s);
	out->outliers = bench_outliers(x, n, NULL);
	return bench_median_ci(x, n, 0.95, &out->median_lo, &out->median_hi);
}

int bench_median_ci(const double *x, size_t n, double confidence, double *lo, double *hi)
{
	double *s, alpha = 1 - confidence, cdf = 0, log_half_n;
	size_t j = 1, k;

	if (check_sample(x, n, "timing"))
		return -1;
	if (!(confidence > 0 && confidence < 1))
		return trail_error("confidence must be between 0 and 1, not %g", confidence);
	s = xmallocarray(n, sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	log_half_n = (double)n * log(0.5);
	/* cdf = P(B <= k); j - 1 = the largest k with 2 cdf <= alpha */
	for (k = 0; k < n / 2; k++) {
		cdf += exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
			   lgamma((double)(n - k) + 1) + log_half_n);
		if (2 * cdf > alpha)
			break;
		j = k + 1;
	}
	if (j > (n + 1) / 2)
		j = (n + 1) / 2;
	*lo = s[j - 1];
	*hi = s[n - j];
	free(s);
	return 0;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * The p-values from the exact distribution of a's rank sum (rank_sum.h),
 * taken over the smaller sample; 0 when done, 1 when too large to count.
 */
static int mann_whitney_exact(const struct ranked *r, size_t n, size_t na,
			      struct bench_mwu *out)
{
	uint32_t *score2 = xmallocarray(n, sizeof(*score2));
	uint64_t sum_a = 0, sum_b = 0;
	size_t i, j, k, m = na <= n - na ? na : n - na;
	double ge, le;
	int ret;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		for (k = i; k < j; k++) {
			score2[k] = (uint32_t)(i + 1 + j);	/* twice the midrank */
			if (r[k].from_a)
				sum_a += score2[k];
			else
				sum_b += score2[k];
		}
	}
	/* over the smaller sample; a's sum large = b's sum small */
	ret = bench_rank_sum_tails(score2, n, m, m == na ? sum_a : sum_b, &ge, &le);
	free(score2);
	if (ret)
		return ret;
	out->p_greater = m == na ? ge : le;
	out->p_less = m == na ? le : ge;
	out->exact = 1;
	return 0;
}

int bench_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		       struct bench_mwu *out)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double rank_sum_a = 0, ties = 0, mean, var, diff, sd;

	memset(out, 0, sizeof(*out));
	out->p = out->p_greater = out->p_less = 1;
	if (check_sample(a, na, "first") || check_sample(b, nb, "second"))
		return -1;
	r = xmallocarray(n, sizeof(*r));
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* Average ranks over runs of ties; sum t^3 - t for the variance. */
	for (i = 0; i < n; i = j) {
		double avg, t;
		size_t k;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		avg = ((double)(i + 1) + (double)j) / 2;
		for (k = i; k < j; k++)
			if (r[k].from_a)
				rank_sum_a += avg;
		ties += t * t * t - t;
	}
	out->u_a = rank_sum_a - (double)na * (double)(na + 1) / 2;
	mean = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 *
	      ((double)(n + 1) - ties / ((double)n * (double)(n - 1) > 0 ? (double)n * (double)(n - 1) : 1));
	if (!(var > 0)) {
		free(r);
		return 0;	/* every value identical: no evidence either way */
	}
	sd = sqrt(var);
	diff = out->u_a - mean;
	/* Continuity correction: move |diff| half a step towards the mean. */
	out->z = fabs(diff) > 0.5 ? (diff > 0 ? diff - 0.5 : diff + 0.5) / sd : 0;
	if (mann_whitney_exact(r, n, na, out)) {
		/* each tail with its own correction; their double is the two-sided p */
		out->p_greater = erfc((diff - 0.5) / sd / sqrt(2.0)) / 2;
		out->p_less = erfc(-(diff + 0.5) / sd / sqrt(2.0)) / 2;
	}
	free(r);
	out->p = 2 * (out->p_greater < out->p_less ? out->p_greater : out->p_less);
	if (out->p > 1)
		out->p = 1;
	return 0;
}

/*
 * Continued fraction for the regularized incomplete beta I_x(a, b), by the
 * modified Lentz method (Lentz 1976; Press et al., "Numerical Recipes",
 * 3rd ed., section 6.4, eq. 6.4.5).  Converges for x < (a+1)/(a+b+2).
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, delta;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double bench_student_t_p(double t, double df)
{
	if (!isfinite(t))
		return isnan(t) ? 1 : 0;
	if (!(df > 0))
		return 1;
	/* P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2). */
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double bench_f_upper_p(double f, double d1, double d2)
{
	if (!(d1 > 0) || !(d2 > 0) || !(f > 0))
		return 1;
	if (!isfinite(f))
		return 0;
	/* P(F > f) = I_{d2/(d2+d1 f)}(d2/2, d1/2). */
	return incomplete_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

double bench_normal_quantile(double p)
{
	double lo = -40, hi = 40;
	int i;

	/* Bisection on the upper tail 0.5 erfc(z / sqrt 2): monotone, exact enough. */
	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(mid / sqrt(2.0)) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double sum = 0, m2 = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / (double)n;
	for (i = 0; i < n; i++)
		m2 += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? m2 / (double)(n - 1) : 0;
}

int bench_welch_t(const double *a, size_t na, const double *b, size_t nb,
		  struct bench_welch *out)
{
	double ma, va, mb, vb, sa, sb, se2;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (check_sample(a, na, "first") || check_sample(b, nb, "second"))
		return -1;
	if (na < 2 || nb < 2)
		return 0;	/* no variance estimate: no test */
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (!(se2 > 0)) {
		/* Both samples constant: different means are certain, equal ones not. */
		out->p = ma == mb ? 1 : 0;
		out->t = ma == mb ? 0 : (ma > mb ? INFINITY : -INFINITY);
		out->df = (double)(na + nb - 2);
		return 0;
	}
	out->t = (ma - mb) / sqrt(se2);
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = bench_student_t_p(out->t, out->df);
	return 0;
}

/* splitmix64 (Steele, Lea & Flood, OOPSLA 2014): small, fast, well mixed. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform index in [0, n) by multiply-shift (Lemire 2019), bias < n / 2^64. */
static size_t random_index(uint64_t *state, size_t n)
{
	return (size_t)(((unsigned __int128)splitmix64(state) * n) >> 64);
}

static double ratio_of(double num, double den)
{
	if (den == 0)
		return num == 0 ? 1 : INFINITY;
	return num / den;
}

static double sample_stat(double *buf, size_t n, int use_mean)
{
	double sum = 0;
	size_t i;

	if (!use_mean)
		return median_inplace(buf, n);
	for (i = 0; i < n; i++)
		sum += buf[i];
	return sum / (double)n;
}

int bench_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			  int use_mean, double confidence, unsigned resamples,
			  uint64_t seed, struct bench_ratio *out)
{
	double *buf, *ratios, sa, sb, alpha;
	uint64_t state = seed;
	unsigned r;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (check_sample(a, na, "first") || check_sample(b, nb, "second"))
		return -1;
	if (!(confidence > 0 && confidence < 1))
		return trail_error("confidence must be between 0 and 1, not %g", confidence);
	if (!resamples)
		resamples = BENCH_BOOTSTRAP_RESAMPLES;
	buf = xmallocarray(na > nb ? na : nb, sizeof(*buf));
	memcpy(buf, a, na * sizeof(*buf));
	sa = sample_stat(buf, na, use_mean);
	memcpy(buf, b, nb * sizeof(*buf));
	sb = sample_stat(buf, nb, use_mean);
	out->estimate = ratio_of(sb, sa);
	ratios = xmallocarray(resamples, sizeof(*ratios));
	for (r = 0; r < resamples; r++) {
		for (i = 0; i < na; i++)
			buf[i] = a[random_index(&state, na)];
		sa = sample_stat(buf, na, use_mean);
		for (i = 0; i < nb; i++)
			buf[i] = b[random_index(&state, nb)];
		sb = sample_stat(buf, nb, use_mean);
		ratios[r] = ratio_of(sb, sa);
	}
	qsort(ratios, resamples, sizeof(*ratios), cmp_double);
	alpha = 1 - confidence;
	out->lo = bench_quantile_sorted(ratios, resamples, alpha / 2);
	out->hi = bench_quantile_sorted(ratios, resamples, 1 - alpha / 2);
	/* A percentile interval always contains the point estimate's neighbourhood;
	 * keep it ordered around the estimate for tiny or degenerate samples. */
	if (out->lo > out->estimate)
		out->lo = out->estimate;
	if (out->hi < out->estimate)
		out->hi = out->estimate;
	free(ratios);
	free(buf);
	return 0;
}

int bench_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, struct bench_comparison *out)
{
	memset(out, 0, sizeof(*out));
	out->confidence = confidence;
	if (bench_mann_whitney(b, nb, a, na, &out->mwu) ||
	    bench_welch_t(b, nb, a, na, &out->welch) ||
	    bench_bootstrap_ratio(a, na, b, nb, 0, confidence, BENCH_BOOTSTRAP_RESAMPLES,
				  BENCH_BOOTSTRAP_SEED, &out->median_ratio) ||
	    bench_bootstrap_ratio(a, na, b, nb, 1, confidence, BENCH_BOOTSTRAP_RESAMPLES,
				  BENCH_BOOTSTRAP_SEED, &out->mean_ratio))
		return -1;
	out->verdict = BENCH_SAME;
	if (out->mwu.p < 1 - confidence) {
		double half = (double)na * (double)nb / 2;

		if (out->mwu.u_a > half)
			out->verdict = BENCH_SLOWER;
		else if (out->mwu.u_a < half)
			out->verdict = BENCH_FASTER;
	}
	return 0;
}

const char *bench_verdict_name(enum bench_verdict v)
{
	switch (v) {
	case BENCH_FASTER:
		return "faster";
	case BENCH_SLOWER:
		return "slower";
	default:
		return "no significant difference";
	}
}
