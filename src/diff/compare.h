/*
 * compare.h - one function's change between two sets of runs, by time or
 * by share, and the false-discovery control over all functions.  The
 * statistics under 'trail diff --top' and the differential colouring.
 *
 * Basis (what is compared per run r of a side):
 *   time   v_r = x_r * k_r   x_r samples of the function in run r, k_r the
 *                            unit one sample stands for (its period in ns,
 *                            bytes ...): the function's cost per run.  A
 *                            function whose cost did not change does not
 *                            move when another one grows.
 *   share  v_r = x_r / n_r   n_r samples in the run: its fraction.
 * Error (which spread the test uses):
 *   runs      two or more runs per side: Welch's t on the per-run values
 *             (Welch 1947; Welch-Satterthwaite df), which carries the
 *             run-to-run spread; shares are overdispersed 3.5-54x over the
 *             binomial on real programs (issue 17), so this is the honest one.
 *   sampling  otherwise: the counts' own sampling error only (Poisson for
 *             time, var = sum k^2 x; binomial two-proportion z for shares,
 *             diff/significance.h): a lower bound on the real error.
 * Multiple testing: Benjamini & Hochberg (J. R. Statist. Soc. B 57, 1995)
 * over every unit that passes a pre-filter chosen before testing and
 * independent of the test statistic under the null (Bourgon, Gentleman &
 * Huber, PNAS 107, 2010): the function's size, share before + share after
 * >= the floor, never the size of its change.
 */
#ifndef TRAIL_DIFF_COMPARE_H
#define TRAIL_DIFF_COMPARE_H

#include <stddef.h>

enum diff_basis { DIFF_BY_TIME, DIFF_BY_SHARE };
enum diff_error { DIFF_ERROR_SAMPLING, DIFF_ERROR_RUNS };

const char *diff_basis_name(enum diff_basis b);	/* "time", "share" */
const char *diff_error_name(enum diff_error e);	/* "sampling-only lower bound", "run-to-run" */

/* One side's runs of one function. */
struct diff_side {
	const double *x;	/* per run: samples of the function (or weight / --period) */
	const double *n;	/* per run: samples in the run */
	const double *k;	/* per run: unit per sample (time basis; NULL for share) */
	size_t runs;
};

struct diff_test {
	double before, after;	/* mean per run: unit (time) or fraction (share) */
	double before_se, after_se;
	double delta;		/* after - before */
	double se;		/* of delta */
	double stat;		/* z (sampling) or Welch's t (runs) */
	double df;		/* Welch df; 0 for z */
	double p;		/* two-sided */
	enum diff_error error;
};

/* Compare one function; runs of 0 on a side give p = 1. */
void diff_compare(const struct diff_side *before, const struct diff_side *after,
		  enum diff_basis basis, struct diff_test *out);

/*
 * Benjamini-Hochberg step-up: the largest p(k) with p(k) <= k/m alpha over
 * the m p-values (sorted in place), -1 when none passes (a p of 0 can
 * pass).  A unit is a discovery when its p <= the cut.
 */
double diff_bh_cut(double *p, size_t m, double alpha);

/*
 * The pre-filter: a unit is tested when its size on the two sides,
 * before + after as fractions of the before side's total (share basis:
 * of each side's), reaches floor.  Independent of the change.
 */
static inline int diff_prefilter(double size_before, double size_after, double floor)
{
	return size_before + size_after >= floor - 1e-12 && size_before + size_after > 0;
}

#endif
