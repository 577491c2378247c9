/*
 * distributions.c - tail probabilities and quantiles of the reference
 * distributions the tests use: Student's t and Fisher's F through the
 * regularized incomplete beta, and the standard normal (distributions.h).
 */
#include "stats/distributions.h"

#include <math.h>

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

double stats_student_t_p(double t, double df)
{
	if (!isfinite(t))
		return isnan(t) ? 1 : 0;
	if (!(df > 0))
		return 1;
	/* P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2). */
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double stats_f_upper_p(double f, double d1, double d2)
{
	if (!(d1 > 0) || !(d2 > 0) || !(f > 0))
		return 1;
	if (!isfinite(f))
		return 0;
	/* P(F > f) = I_{d2/(d2+d1 f)}(d2/2, d1/2). */
	return incomplete_beta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

double stats_normal_quantile(double p)
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

