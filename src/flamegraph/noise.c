/*
 * noise.c - the pooled two-proportion z-test (e.g. NIST/SEMATECH
 * e-Handbook of Statistical Methods, 7.3.3; Agresti, Categorical Data
 * Analysis, 3.1): z = (p2 - p1) / sqrt(p (1 - p) (1/n1 + 1/n2)) with
 * p = (x1 + x2) / (n1 + n2).
 */
#include "flamegraph/noise.h"

#include <math.h>

double fg_noise_z(double before, double before_total, double after, double after_total)
{
	double p1, p2, p, se;

	if (!(before_total > 0) || !(after_total > 0))
		return 0;
	p1 = before / before_total;
	p2 = after / after_total;
	if (p1 == p2)
		return 0;
	p = (before + after) / (before_total + after_total);
	se = sqrt(p * (1 - p) * (1 / before_total + 1 / after_total));
	if (!(se > 0))
		return p2 > p1 ? INFINITY : -INFINITY;
	return (p2 - p1) / se;
}

int fg_noise_significant(double before, double before_total, double after,
			 double after_total, double z_crit)
{
	return fabs(fg_noise_z(before, before_total, after, after_total)) > z_crit;
}

double fg_noise_z_crit(double alpha)
{
	double lo = 0, hi = 40;

	/* P(|Z| > z) = erfc(z / sqrt 2) falls monotonically: bisect */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
