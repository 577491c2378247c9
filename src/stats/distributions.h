/*
 * distributions.h - the reference distributions' tails and quantiles:
 * Student's t, Fisher's F (through the regularized incomplete beta,
 * Numerical Recipes' continued fraction) and the standard normal.
 */
#ifndef TRAIL_STATS_DISTRIBUTIONS_H
#define TRAIL_STATS_DISTRIBUTIONS_H

/* Two-sided p-value of Student's t with df degrees of freedom. */
double stats_student_t_p(double t, double df);
/* Upper tail of Fisher's F with (d1, d2) degrees of freedom: P(F > f). */
double stats_f_upper_p(double f, double d1, double d2);
/* Standard normal upper-tail quantile z such that P(Z > z) = p, 0 < p < 1. */
double stats_normal_quantile(double p);

#endif
