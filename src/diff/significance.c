/*
 * significance.c - binomial standard errors and the two-proportion z-test
 * (formulas and sources in significance.h).
 */
#include "diff/significance.h"

#include <math.h>

double share_se(double p, double n)
{
	double v;

	if (!(n > 0))
		return 0;
	v = p * (1 - p) / n;
	return v > 0 ? sqrt(v) : 0;
}

void share_estimate(struct share_estimate *out, double x, double n)
{
	if (!(n > 0)) {
		out->samples = 0;
		out->n = 0;
		out->share = 0;
		out->se = 0;
		return;
	}
	if (!(x > 0))
		x = 0;
	if (x > n)
		x = n;
	out->samples = x;
	out->n = n;
	out->share = x / n;
	out->se = share_se(out->share, n);
}

void share_test(struct share_test *out, double x1, double n1, double x2, double n2)
{
	double pooled, var;

	share_estimate(&out->before, x1, n1);
	share_estimate(&out->after, x2, n2);
	out->delta = out->after.share - out->before.share;
	out->se = sqrt(out->before.se * out->before.se + out->after.se * out->after.se);
	out->z = 0;
	out->p_value = 1;
	if (!(out->before.n > 0) || !(out->after.n > 0))
		return;
	pooled = (out->before.samples + out->after.samples) / (out->before.n + out->after.n);
	var = pooled * (1 - pooled) * (1 / out->before.n + 1 / out->after.n);
	if (!(var > 0))
		return;
	out->z = out->delta / sqrt(var);
	out->p_value = erfc(fabs(out->z) / sqrt(2.0));
	if (out->p_value > 1)
		out->p_value = 1;
}
