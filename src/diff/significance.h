/*
 * significance.h - the statistics behind "did this function really get
 * hotter?": the standard error of a share of samples and the two-proportion
 * z-test on the difference of two shares.  Used by the hotspot table
 * (diff/hotspots.h), 'trail flame' and the differential flame graph, which
 * draws deltas that fail the test in a neutral colour.
 *
 * Shares are fractions in [0, 1]; sample numbers may be fractional (scaled
 * or normalised profiles).  Nothing here allocates or fails.
 */
#ifndef TRAIL_DIFF_SIGNIFICANCE_H
#define TRAIL_DIFF_SIGNIFICANCE_H

/*
 * A share estimated from n samples, x of which had the property (e.g. "the
 * leaf frame is malloc"):  share = x / n,  se = sqrt(share (1 - share) / n),
 * the binomial standard error.  n <= 0 gives share 0 and se 0; x is clamped
 * to [0, n].
 */
struct share_estimate {
	double samples;	/* x: samples with the property */
	double n;	/* samples in the profile */
	double share;	/* x / n, fraction in [0, 1] */
	double se;	/* standard error of share, fraction */
};

void share_estimate(struct share_estimate *out, double x, double n);
/* sqrt(p (1 - p) / n), 0 when n <= 0. */
double share_se(double p, double n);

/*
 * Two-proportion z-test of "share after == share before" (two-sided):
 *
 *   delta   = p2 - p1
 *   se      = sqrt(se1^2 + se2^2)                  unpooled, reported
 *   pooled  = (x1 + x2) / (n1 + n2)
 *   z       = delta / sqrt(pooled (1 - pooled) (1/n1 + 1/n2))
 *   p_value = erfc(|z| / sqrt(2))                  = 2 (1 - Phi(|z|))
 *
 * Source: NIST/SEMATECH e-Handbook of Statistical Methods, section 7.3.3
 * ("How can we determine whether two processes produce the same proportion
 * of defectives?"); also Agresti, Categorical Data Analysis, 3rd ed., 3.1.
 * The test assumes each sample lands in the function independently (the
 * usual sampling-profiler assumption) and is accurate when both shares
 * have a few samples on each side (n p >= 5); below that it is reported
 * but should be read as "too few samples".
 *
 * When the pooled variance is 0 (both shares 0 or both 1, or a profile
 * with no samples) z is 0 and p_value 1: nothing can be concluded.
 */
struct share_test {
	struct share_estimate before, after;
	double delta;	/* after.share - before.share, fraction */
	double se;	/* unpooled standard error of delta, fraction */
	double z;	/* test statistic (pooled), dimensionless */
	double p_value;	/* two-sided, in [0, 1] */
};

void share_test(struct share_test *out, double x1, double n1, double x2, double n2);

/* p_value < alpha. */
static inline int share_test_significant(const struct share_test *t, double alpha)
{
	return t->p_value < alpha;
}

#endif
