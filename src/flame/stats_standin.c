/*
 * stats_standin.c - STAND-IN for bench/stats.h (see stats_standin.h).
 * Mann & Whitney (1947), normal approximation with the tie-corrected
 * variance (Lehmann, Nonparametrics, 1975) and a continuity correction.
 */
#include "flame/stats_standin.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double flame_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double flame_median(const double *x, size_t n)
{
	double *c, m;

	if (!n)
		return 0;
	c = xmallocarray(n, sizeof(double));
	memcpy(c, x, n * sizeof(double));
	qsort(c, n, sizeof(double), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

double flame_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb,
			    int *b_larger)
{
	double u_b = 0, mean, var, ties = 0, z, n = (double)(na + nb);
	double *all;
	size_t i, j;

	*b_larger = 0;
	if (!na || !nb)
		return 1;
	for (i = 0; i < nb; i++)
		for (j = 0; j < na; j++)
			u_b += b[i] > a[j] ? 1 : b[i] == a[j] ? 0.5 : 0;
	all = xmallocarray(na + nb, sizeof(double));
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, b, nb * sizeof(double));
	qsort(all, na + nb, sizeof(double), cmp_double);
	for (i = 0; i < na + nb;) {
		double t;

		for (j = i; j < na + nb && all[j] == all[i]; j++)
			;
		t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	free(all);
	mean = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	*b_larger = u_b > mean;
	if (var <= 0)
		return 1;
	z = (fabs(u_b - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}
