/*
 * describe.c - one sample described: quantiles (Hyndman-Fan type 7), the
 * median by selection, its distribution-free interval, outliers by the
 * modified z-score, and the summary trail bench prints (describe.h).
 */
#include "stats/describe.h"
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

int stats_check_sample(const double *x, size_t n, const char *what)
{
	size_t i;

	if (!n)
		return trail_error("statistics of an empty sample (%s)", what);
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return trail_error("statistics: %s value %zu is not a finite number", what, i + 1);
	return 0;
}

double stats_quantile_sorted(const double *s, size_t n, double q)
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

void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

double stats_quantile_inplace(double *x, size_t n, double q)
{
	stats_sort(x, n);
	return stats_quantile_sorted(x, n, q);
}

double stats_quantile(const double *x, size_t n, double q)
{
	double *c, v;

	if (!n)
		return NAN;
	c = xmallocarray(n, sizeof(*c));
	memcpy(c, x, n * sizeof(*c));
	v = stats_quantile_inplace(c, n, q);
	free(c);
	return v;
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

double stats_median_inplace(double *x, size_t n)
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

double stats_spread(const double *x, size_t n)
{
	double lo = HUGE_VAL, hi = -HUGE_VAL;
	size_t i;

	for (i = 0; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	return n && hi > 0 ? (hi - lo) / hi : 0;
}

double stats_median(const double *x, size_t n)
{
	double *tmp, m;

	if (!n)
		return NAN;
	tmp = xmallocarray(n, sizeof(*tmp));
	memcpy(tmp, x, n * sizeof(*tmp));
	m = stats_median_inplace(tmp, n);
	free(tmp);
	return m;
}

size_t stats_outliers(const double *x, size_t n, unsigned char *flags)
{
	double med, mad, scale, *dev;
	size_t i, count = 0;

	if (flags)
		memset(flags, 0, n);
	if (n < 3)
		return 0;
	med = stats_median(x, n);
	dev = xmallocarray(n, sizeof(*dev));
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = stats_median_inplace(dev, n);
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
		if (fabs(x[i] - med) / scale > STATS_OUTLIER_Z) {
			count++;
			if (flags)
				flags[i] = 1;
		}
	return count;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	double *s, sum = 0, m2 = 0, mean;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (stats_check_sample(x, n, "timing"))
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
	out->median = stats_quantile_sorted(s, n, 0.5);
	out->p95 = stats_quantile_sorted(s, n, 0.95);
	out->p99 = stats_quantile_sorted(s, n, 0.99);
	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - out->median);
	out->mad = stats_median_inplace(s, n);
	free(s);
	out->outliers = stats_outliers(x, n, NULL);
	return stats_median_ci(x, n, 0.95, &out->median_lo, &out->median_hi);
}

int stats_median_ci(const double *x, size_t n, double confidence, double *lo, double *hi)
{
	double *s, alpha = 1 - confidence, cdf = 0, log_half_n;
	size_t j = 1, k;

	if (stats_check_sample(x, n, "timing"))
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

