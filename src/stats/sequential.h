/*
 * sequential.h - what a test that looks at its data several times, or
 * several tests together, may claim: the p-value adjusted for the looks
 * taken, and Holm's adjustment of a family of p-values.  The looks' alphas
 * come from a spending function (flame/estimate.h, Lan & DeMets 1983);
 * this turns their per-look p-values into one that keeps its meaning.
 */
#ifndef TRAIL_STATS_SEQUENTIAL_H
#define TRAIL_STATS_SEQUENTIAL_H

#include <stddef.h>

/*
 * Look k tests at alpha_k = c_k alpha (its share of the spending), so it
 * rejects at the overall level alpha exactly when p_k <= c_k alpha; the
 * smallest overall level at which some look so far would have rejected is
 * min_k p_k / c_k (Bonferroni over the looks).  Call once per look with
 * the running value (start at 1): returns min(prev, p_look * alpha /
 * alpha_look), at most 1.  The last look's own p after many looks would
 * overstate the evidence (trail flame's issue 31: an innocent commit at
 * P(step > 0) >= 0.975 in 3.3% of trials where 2.5% was promised).
 */
double stats_look_adjusted_p(double prev, double p_look, double alpha_look, double alpha);
/*
 * Holm's step-down adjustment of m p-values tested together (Holm 1979,
 * Scand. J. Statist. 6:65): sorted ascending, adjusted[(i)] = max over
 * j <= i of min(1, (m - j + 1) p[(j)]); rejecting where adjusted < alpha
 * keeps the chance of any false rejection among the m at most alpha, for
 * any dependence between them.  adjusted may be p (in place).
 */
void stats_holm_adjust(const double *p, size_t m, double *adjusted);

#endif
