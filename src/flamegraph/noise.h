/*
 * noise.h - is a frame's change between two profiles more than sampling
 * noise?  A two-proportion z-test on the frame's share of all samples
 * before versus after.  (src/diff may later own a shared helper; this one
 * is small on purpose so the two can be folded together.)
 */
#ifndef TRAIL_FLAMEGRAPH_NOISE_H
#define TRAIL_FLAMEGRAPH_NOISE_H

/* Two-sided critical value of the standard normal for alpha = 0.01. */
#define FG_NOISE_Z_CRIT 2.5758293035489

/*
 * z statistic of the change of a share from before/before_total to
 * after/after_total (pooled two-proportion z-test); 0 when either total is
 * zero or the shares are equal.  Counts are taken as sample counts.
 */
double fg_noise_z(double before, double before_total, double after, double after_total);

/*
 * The two-sided critical value for significance level alpha (0 < alpha < 1):
 * the z with P(|Z| > z) = alpha for a standard normal Z.
 */
double fg_noise_z_crit(double alpha);

/* Non-zero when |z| exceeds z_crit (use FG_NOISE_Z_CRIT for alpha = 0.01). */
int fg_noise_significant(double before, double before_total, double after,
			 double after_total, double z_crit);

#endif
