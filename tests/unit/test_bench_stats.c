/*
 * test_bench_stats.c - the statistics of trail bench against values worked
 * out by hand or from closed forms / reference tables: ties, n = 1,
 * identical samples, huge outliers.
 */
#include "stats/describe.h"
#include "core/verdict.h"
#include "stats/two_sample.h"
#include "stats/distributions.h"
#include "stats/bootstrap.h"
#include "stats/rng.h"
#include "stats/sequential.h"
#include "stats/rank_cusum.h"
#include "bench/compare.h"
#include "harness.h"

#include <math.h>

#define N(x) (sizeof(x) / sizeof((x)[0]))

TEST(descriptive_one_to_ten)
{
	const double x[] = { 7, 3, 10, 1, 5, 2, 9, 4, 8, 6 };
	struct stats_summary s;

	CHECK_INT(stats_summarize(x, N(x), &s), 0);
	CHECK_INT(s.n, 10);
	CHECK_NEAR(s.mean, 5.5, 1e-12);
	/* sqrt(sum (i - 5.5)^2 / 9) = sqrt(82.5 / 9) */
	CHECK_NEAR(s.stddev, 3.0276503540974917, 1e-12);
	CHECK_NEAR(s.median, 5.5, 1e-12);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 10, 0);
	/* type 7: h = 9 * 0.95 = 8.55 -> 9 + 0.55 */
	CHECK_NEAR(s.p95, 9.55, 1e-12);
	CHECK_NEAR(s.p99, 9.91, 1e-12);
	/* |x - 5.5| = 0.5 0.5 1.5 1.5 2.5 2.5 3.5 3.5 4.5 4.5 -> median 2.5 */
	CHECK_NEAR(s.mad, 2.5, 1e-12);
	CHECK_INT(s.outliers, 0);
}

TEST(descriptive_n_equals_one)
{
	const double x[] = { 0.25 };
	struct stats_summary s;

	CHECK_INT(stats_summarize(x, 1, &s), 0);
	CHECK_NEAR(s.mean, 0.25, 0);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.median, 0.25, 0);
	CHECK_NEAR(s.p99, 0.25, 0);
	CHECK_NEAR(s.mad, 0, 0);
	CHECK_INT(s.outliers, 0);
}

TEST(descriptive_rejects_empty_and_nan)
{
	const double x[] = { 1, NAN };
	struct stats_summary s;

	CHECK_INT(stats_summarize(x, 0, &s), -1);
	CHECK_INT(stats_summarize(x, 2, &s), -1);
}

TEST(median_even_odd_and_ties)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, same[] = { 2, 2, 2, 2 };
	const double sorted[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const double rev[] = { 8, 7, 6, 5, 4, 3, 2, 1, 0 };

	CHECK_NEAR(stats_median(odd, 3), 3, 0);
	CHECK_NEAR(stats_median(even, 4), 2.5, 0);
	CHECK_NEAR(stats_median(same, 4), 2, 0);
	CHECK_NEAR(stats_median(sorted, 8), 4.5, 0);
	CHECK_NEAR(stats_median(rev, 9), 4, 0);
}

TEST(median_matches_sort_on_many_sizes)
{
	double x[101];
	size_t n, i;

	for (n = 1; n <= N(x); n++) {
		double sorted_median;

		/* a deterministic scramble with many duplicates */
		for (i = 0; i < n; i++)
			x[i] = (double)((i * 37 + 11) % 13);
		{
			struct stats_summary s;

			CHECK_INT(stats_summarize(x, n, &s), 0);
			sorted_median = s.median;
		}
		CHECK_NEAR(stats_median(x, n), sorted_median, 0);
	}
}

TEST(identical_samples)
{
	const double x[] = { 3, 3, 3, 3, 3, 3 };
	struct stats_summary s;
	struct stats_mwu u;
	struct stats_welch w;
	struct bench_comparison c;

	CHECK_INT(stats_summarize(x, N(x), &s), 0);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.mad, 0, 0);
	CHECK_INT(s.outliers, 0);
	CHECK_INT(stats_mann_whitney(x, N(x), x, N(x), &u), 0);
	CHECK_NEAR(u.p, 1, 0);
	CHECK_NEAR(u.u_a, 18, 0);	/* all 36 pairs tied: 36 / 2 */
	CHECK_INT(stats_welch_t(x, N(x), x, N(x), &w), 0);
	CHECK_NEAR(w.p, 1, 0);
	CHECK_INT(bench_compare(x, N(x), x, N(x), 0.95, &c), 0);
	CHECK_INT(c.verdict, DIRECTION_SAME);
	CHECK_NEAR(c.median_ratio.estimate, 1, 0);
	CHECK_NEAR(c.median_ratio.lo, 1, 0);
	CHECK_NEAR(c.median_ratio.hi, 1, 0);
}

TEST(huge_outlier_is_flagged_and_median_robust)
{
	const double x[] = { 10, 10.1, 9.9, 10, 10.2, 9.8, 10.05, 1e6 };
	unsigned char flags[N(x)];
	struct stats_summary s;

	CHECK_INT(stats_summarize(x, N(x), &s), 0);
	CHECK_INT(s.outliers, 1);
	CHECK_INT(stats_outliers(x, N(x), flags), 1);
	CHECK_INT(flags[7], 1);
	CHECK_INT(flags[0], 0);
	CHECK_NEAR(s.median, 10.025, 1e-12);
	CHECK(s.mean > 1e5);
}

TEST(outlier_when_mad_is_zero)
{
	/* MAD is 0 (most values equal): the mean-absolute-deviation form applies.
	 * median 5, mean |dev| = 95/7, scale 1.253314 * 95/7 = 17.01; 100 is 5.6 away */
	const double x[] = { 5, 5, 5, 5, 5, 5, 100 };
	unsigned char flags[N(x)];

	CHECK_INT(stats_outliers(x, N(x), flags), 1);
	CHECK_INT(flags[6], 1);
}

TEST(outliers_none_in_uniform_spread)
{
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	CHECK_INT(stats_outliers(x, N(x), NULL), 0);
}

/*
 * Fully separated, 5 against 5: z from the normal approximation (scipy's
 * mannwhitneyu(method="asymptotic", use_continuity=True): U = 0, z =
 * -2.5067, p = 0.0122), p from the exact distribution: a is below b in one
 * of the C(10, 5) = 252 equally likely splits, P(U <= 0) = 1/252.
 */
TEST(mann_whitney_separated)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct stats_mwu u;

	CHECK_INT(stats_mann_whitney(a, 5, b, 5, &u), 0);
	CHECK_INT(u.exact, 1);
	CHECK_NEAR(u.u_a, 0, 0);
	CHECK_NEAR(u.z, -2.5067182457620487, 1e-9);
	CHECK_NEAR(u.p_less, 1.0 / 252, 1e-15);
	CHECK_NEAR(u.p_greater, 1, 1e-15);
	CHECK_NEAR(u.p, 2.0 / 252, 1e-15);
	CHECK_INT(stats_mann_whitney(b, 5, a, 5, &u), 0);
	CHECK_NEAR(u.u_a, 25, 0);
	CHECK_NEAR(u.p_greater, 1.0 / 252, 1e-15);
	CHECK_NEAR(u.p, 2.0 / 252, 1e-15);
}

/*
 * Ties, by hand: a = 1 2 2 3, b = 2 3 3 4.  Pairs a > b count 1, ties 1/2:
 * U_a = 0 + 0.5 + 0.5 + (1 + 0.5 + 0.5) = 3.  Tie groups {2 x3, 3 x3}:
 * sum(t^3 - t) = 48, var = 16/12 (9 - 48/56) = 10.857; z = (3 - 8 + 0.5)
 * / sqrt(var) = -1.365698 (normal p 0.172).  Exact, given the ties: of
 * the 70 ways to pick a's four values from the eight, 10 give U <= 3
 * (enumerated in Python), so p = 2 x 10/70: the normal approximation
 * claimed 0.17 where the truth is 0.29.
 */
TEST(mann_whitney_ties)
{
	const double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 3, 4 };
	struct stats_mwu u;

	CHECK_INT(stats_mann_whitney(a, 4, b, 4, &u), 0);
	CHECK_NEAR(u.u_a, 3, 0);
	CHECK_NEAR(u.z, -1.365698202000489, 1e-9);
	CHECK_NEAR(u.p_less, 10.0 / 70, 1e-15);
	CHECK_NEAR(u.p_greater, 69.0 / 70, 1e-15);
	CHECK_NEAR(u.p, 20.0 / 70, 1e-15);
}

/* Twice U of x (the chosen values of v) against the others, by pairs. */
static unsigned twice_u(const double *v, size_t n, unsigned mask)
{
	unsigned u2 = 0;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if ((mask >> i & 1) && !(mask >> j & 1))
				u2 += v[i] > v[j] ? 2 : v[i] == v[j];
	return u2;
}

/*
 * The exact p-values against brute force: every way to choose which na of
 * the n pooled values are a's, U counted pair by pair (no ranks), on
 * random samples of 1 to 6 a side with many ties and without.
 */
TEST(mann_whitney_exact_matches_enumeration)
{
	uint64_t st = 12345;
	int trial;

	for (trial = 0; trial < 300; trial++) {
		double v[12];
		size_t na, nb, n, i;
		unsigned mask, u_obs, ge = 0, le = 0, total = 0;
		struct stats_mwu u;

		st = st * 6364136223846793005ULL + 1442695040888963407ULL;
		na = 1 + (st >> 33) % 6;
		nb = 1 + (st >> 45) % 6;
		n = na + nb;
		for (i = 0; i < n; i++) {
			st = st * 6364136223846793005ULL + 1442695040888963407ULL;
			v[i] = trial % 2 ? (double)((st >> 40) % 4) : (double)(st >> 11);
		}
		u_obs = twice_u(v, n, (1u << na) - 1);
		for (mask = 0; mask < 1u << n; mask++) {
			unsigned u2;

			if ((size_t)__builtin_popcount(mask) != na)
				continue;
			u2 = twice_u(v, n, mask);
			total++;
			ge += u2 >= u_obs;
			le += u2 <= u_obs;
		}
		CHECK_INT(stats_mann_whitney(v, na, v + na, nb, &u), 0);
		if (u.z == 0 && u.p == 1 && ge == total && le == total)
			continue;	/* every value equal */
		CHECK_INT(u.exact, 1);
		CHECK_NEAR(u.u_a, u_obs / 2.0, 0);
		CHECK_NEAR(u.p_greater, (double)ge / total, 1e-12);
		CHECK_NEAR(u.p_less, (double)le / total, 1e-12);
	}
}

/*
 * Published critical values, n1 = n2 = 5 (e.g. Siegel & Castellan,
 * "Nonparametric Statistics", 1988, table J; Mann & Whitney 1947, table I):
 * one-sided P(U <= 0..5) = 1, 2, 4, 7, 12, 19 out of 252, so U <= 4 is
 * the one-sided 5% region, U <= 1 the 1% region, and two-sided U <= 2 at
 * 5%, U <= 0 at 1%.
 */
TEST(mann_whitney_table_n5)
{
	static const double cum[] = { 1, 2, 4, 7, 12, 19 };
	double a[5], b[5];
	size_t u, i;

	for (u = 0; u < 6; u++) {
		struct stats_mwu m;

		/* a = 1..5, b = 6..10, then a's largest swapped past u of b's values */
		for (i = 0; i < 5; i++) {
			a[i] = (double)i + 1;
			b[i] = (double)i + 6;
		}
		a[4] = 5.5 + (double)u;	/* beats b = 6 .. 5 + u: U = u */
		CHECK_INT(stats_mann_whitney(a, 5, b, 5, &m), 0);
		CHECK_NEAR(m.u_a, (double)u, 0);
		CHECK_NEAR(m.p_less, cum[u] / 252, 1e-15);
		CHECK_INT(m.p_less < 0.05, u <= 4);
		CHECK_INT(m.p_less < 0.01, u <= 1);
		CHECK_INT(m.p < 0.05, u <= 2);
		CHECK_INT(m.p < 0.01, u == 0);
	}
}

/*
 * tests/cli/76-history-live's guard: REV's 3 runs all slower than the 15
 * of five stored commits (3 runs each).  Exact one-sided p = 1 / C(18, 3)
 * = 1/816 = 0.00123 (the normal approximation said 0.0092, two-sided);
 * with four stored commits 1 / C(15, 3) = 1/455 (normal: 0.0115).
 */
TEST(mann_whitney_76_history_live)
{
	double base[15], rev[3] = { 300, 310, 305 };
	struct stats_mwu m;
	size_t i;

	for (i = 0; i < 15; i++)
		base[i] = 100 + (double)i;
	CHECK_INT(stats_mann_whitney(rev, 3, base, 15, &m), 0);
	CHECK_INT(m.exact, 1);
	CHECK_NEAR(m.p_greater, 1.0 / 816, 1e-15);
	/* the old approximation, unchanged: z = (22.5 - 0.5) / sqrt(15 x 3 / 12 x 19) */
	CHECK_NEAR(m.z, 22 / sqrt(71.25), 1e-12);
	CHECK_NEAR(erfc(m.z / sqrt(2.0)), 0.0092, 5e-5);
	CHECK_INT(stats_mann_whitney(rev, 3, base, 12, &m), 0);
	CHECK_NEAR(m.p_greater, 1.0 / 455, 1e-15);
}

/*
 * Too large to count (200 a side): the normal approximation as before.
 * Reference computed apart (Python, midranks and the tie-corrected
 * variance written out): a = 0..199, b = 30..229: U = 14450, z =
 * -4.800049959784038, p = erfc(|z| / sqrt 2) = 1.5862605401125251e-06.
 */
TEST(mann_whitney_large_is_normal)
{
	double a[200], b[200];
	struct stats_mwu m;
	size_t i;

	for (i = 0; i < 200; i++) {
		a[i] = (double)i;
		b[i] = (double)i + 30;
	}
	CHECK_INT(stats_mann_whitney(a, 200, b, 200, &m), 0);
	CHECK_INT(m.exact, 0);
	CHECK_NEAR(m.u_a, 14450, 0);
	CHECK_NEAR(m.z, -4.800049959784038, 1e-12);
	CHECK_NEAR(m.p, 1.5862605401125251e-06, 1e-18);
	CHECK_NEAR(m.p_less, 1.5862605401125251e-06 / 2, 1e-18);
	CHECK(m.p_greater > 0.999);
	/* 5 runs against 300 are still counted */
	CHECK_INT(stats_mann_whitney(a, 5, b, 200, &m), 0);
	CHECK_INT(m.exact, 1);
}

TEST(mann_whitney_n_equals_one)
{
	const double a[] = { 1 }, b[] = { 2 };
	struct stats_mwu u;

	/* U = 0, mean 0.5: within the continuity correction, so z = 0, p = 1 */
	CHECK_INT(stats_mann_whitney(a, 1, b, 1, &u), 0);
	CHECK_NEAR(u.p, 1, 0);
	CHECK_INT(stats_mann_whitney(a, 0, b, 1, &u), -1);
}

/* Student's t closed forms: df = 1 is Cauchy, P(|T| > 1) = 1/2;
 * df = 2: P(|T| > t) = 1 - t / sqrt(2 + t^2).  Table: t(0.975, 10) = 2.228139. */
TEST(student_t_reference_values)
{
	CHECK_NEAR(stats_student_t_p(1, 1), 0.5, 1e-12);
	CHECK_NEAR(stats_student_t_p(3, 2), 1 - 3 / sqrt(11.0), 1e-12);
	CHECK_NEAR(stats_student_t_p(2.228138851986, 10), 0.05, 1e-9);
	CHECK_NEAR(stats_student_t_p(12.7062047364, 1), 0.05, 1e-9);
	CHECK_NEAR(stats_student_t_p(0, 5), 1, 1e-12);
	CHECK_NEAR(stats_student_t_p(-2.228138851986, 10), 0.05, 1e-9);
}

/* Fisher's F: F(1, d) is T(d) squared; d1 = 2: P(F > f) = (1 + 2 f / d2)^(-d2 / 2).
 * Table: F(0.95; 5, 10) = 3.325835. */
TEST(f_upper_reference_values)
{
	CHECK_NEAR(stats_f_upper_p(2.228138851986 * 2.228138851986, 1, 10), 0.05, 1e-9);
	CHECK_NEAR(stats_f_upper_p(3, 2, 10), pow(1.6, -5), 1e-12);
	CHECK_NEAR(stats_f_upper_p(3.325834530413, 5, 10), 0.05, 1e-8);
	CHECK_NEAR(stats_f_upper_p(0, 3, 7), 1, 0);
	CHECK_NEAR(stats_f_upper_p(2, 0, 7), 1, 0);
}

TEST(normal_quantile_reference_values)
{
	CHECK_NEAR(stats_normal_quantile(0.025), 1.959963984540054, 1e-9);
	CHECK_NEAR(stats_normal_quantile(0.5), 0, 1e-9);
	CHECK_NEAR(stats_normal_quantile(0.005), 2.5758293035489, 1e-9);
}

/*
 * Welch by hand: a = 1 2 3 4 5 (mean 3, var 2.5), b = 3 4 5 6 7 (mean 5,
 * var 2.5): se^2 = 1, t = -2, df = 1 / (2 * 0.25^2 / 4) = 8.
 * Two-sided p of t = 2 with 8 df = 0.0805162 (t table).
 */
TEST(welch_by_hand)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	struct stats_welch w;

	CHECK_INT(stats_welch_t(a, 5, b, 5, &w), 0);
	CHECK_NEAR(w.t, -2, 1e-12);
	CHECK_NEAR(w.df, 8, 1e-12);
	CHECK_NEAR(w.p, 0.08051623795726, 1e-8);
}

TEST(bootstrap_constant_samples_exact_ratio)
{
	const double a[] = { 1, 1, 1, 1 }, b[] = { 2, 2, 2 };
	struct stats_ratio r;

	CHECK_INT(stats_bootstrap_ratio(a, 4, b, 3, 0, 0.95, 500, 1, &r), 0);
	CHECK_NEAR(r.estimate, 2, 0);
	CHECK_NEAR(r.lo, 2, 0);
	CHECK_NEAR(r.hi, 2, 0);
	CHECK_INT(stats_bootstrap_ratio(a, 4, b, 3, 1, 0.95, 500, 1, &r), 0);
	CHECK_NEAR(r.estimate, 2, 0);
}

TEST(bootstrap_interval_brackets_estimate_and_is_deterministic)
{
	double a[40], b[40];
	struct stats_ratio r1, r2;
	size_t i;

	for (i = 0; i < 40; i++) {
		a[i] = 100 + (double)((i * 7) % 11);
		b[i] = 2 * (100 + (double)((i * 5) % 13));
	}
	CHECK_INT(stats_bootstrap_ratio(a, 40, b, 40, 0, 0.95, 0, 42, &r1), 0);
	CHECK_INT(stats_bootstrap_ratio(a, 40, b, 40, 0, 0.95, 0, 42, &r2), 0);
	CHECK(r1.lo <= r1.estimate && r1.estimate <= r1.hi);
	CHECK(r1.lo > 1.8 && r1.hi < 2.3);
	CHECK_NEAR(r1.lo, r2.lo, 0);
	CHECK_NEAR(r1.hi, r2.hi, 0);
	CHECK_INT(stats_bootstrap_ratio(a, 40, b, 40, 0, 1.5, 0, 42, &r1), -1);
}

TEST(bootstrap_zero_denominator)
{
	const double a[] = { 0, 0, 0 }, b[] = { 1, 1, 1 }, z[] = { 0, 0 };
	struct stats_ratio r;

	CHECK_INT(stats_bootstrap_ratio(a, 3, b, 3, 0, 0.95, 100, 1, &r), 0);
	CHECK(isinf(r.estimate));
	CHECK_INT(stats_bootstrap_ratio(a, 3, z, 2, 0, 0.95, 100, 1, &r), 0);
	CHECK_NEAR(r.estimate, 1, 0);
}

TEST(compare_verdicts)
{
	double a[30], b[30], c[30];
	struct bench_comparison cmp;
	size_t i;

	for (i = 0; i < 30; i++) {
		a[i] = 0.05 + 0.001 * (double)((i * 7) % 10);
		b[i] = 0.10 + 0.001 * (double)((i * 3) % 10);
		c[i] = 0.05 + 0.001 * (double)((i * 3) % 10);
	}
	CHECK_INT(bench_compare(a, 30, b, 30, 0.95, &cmp), 0);
	CHECK_INT(cmp.verdict, DIRECTION_SLOWER);
	CHECK(cmp.median_ratio.lo < cmp.median_ratio.estimate);
	CHECK(cmp.median_ratio.lo > 1.7 && cmp.median_ratio.hi < 2.1);
	CHECK(cmp.mwu.p < 1e-6);
	CHECK(cmp.welch.p < 1e-6);
	CHECK_INT(bench_compare(b, 30, a, 30, 0.95, &cmp), 0);
	CHECK_INT(cmp.verdict, DIRECTION_FASTER);
	CHECK(cmp.median_ratio.hi < 0.6);
	/* same distribution, different order: no difference */
	CHECK_INT(bench_compare(a, 30, c, 30, 0.95, &cmp), 0);
	CHECK_INT(cmp.verdict, DIRECTION_SAME);
	CHECK(cmp.median_ratio.lo <= 1 && cmp.median_ratio.hi >= 1);
	CHECK_STREQ(trail_direction_name(DIRECTION_SAME), "no significant difference");
}

/*
 * Holm by hand: p = .01 .04 .03 .005, sorted .005 .01 .03 .04, times 4 3
 * 2 1 = .02 .03 .06 .04, running maximum .02 .03 .06 .06; capped at 1.
 */
TEST(holm_adjust_by_hand)
{
	double p[4] = { 0.01, 0.04, 0.03, 0.005 }, q[4], one[2] = { 0.7, 0.6 };

	stats_holm_adjust(p, 4, q);
	CHECK_NEAR(q[0], 0.03, 1e-12);
	CHECK_NEAR(q[1], 0.06, 1e-12);
	CHECK_NEAR(q[2], 0.06, 1e-12);
	CHECK_NEAR(q[3], 0.02, 1e-12);
	stats_holm_adjust(p, 1, p);	/* alone, in place: unchanged */
	CHECK_NEAR(p[0], 0.01, 1e-12);
	stats_holm_adjust(one, 2, one);
	CHECK_NEAR(one[0], 1, 1e-12);	/* max(2 x .6 capped, .7) */
	CHECK_NEAR(one[1], 1, 1e-12);
}

/*
 * Three commands against one reference: p = .03 alone is "slower" at 95%;
 * beside p = .001 and .5 its Holm p is 2 x .03 = .06, no longer a verdict;
 * the .001 stays (3 x .001).
 */
TEST(compare_family_is_holm)
{
	struct bench_comparison c[3], *f[3] = { &c[0], &c[1], &c[2] };
	double p[3] = { 0.03, 0.001, 0.5 };
	size_t i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < 3; i++) {
		c[i].confidence = 0.95;
		c[i].na = c[i].nb = 10;
		c[i].mwu.u_a = 80;	/* above 10 x 10 / 2: the candidate's runs larger */
		c[i].mwu.p = c[i].p_family = p[i];
		c[i].family = 1;
	}
	bench_compare_family(f, 1);
	CHECK_INT(c[0].verdict, DIRECTION_SLOWER);
	bench_compare_family(f, 3);
	CHECK_INT(c[0].verdict, DIRECTION_SAME);
	CHECK_NEAR(c[0].p_family, 0.06, 1e-12);
	CHECK_INT(c[1].verdict, DIRECTION_SLOWER);
	CHECK_NEAR(c[1].p_family, 0.003, 1e-12);
	CHECK_INT(c[2].verdict, DIRECTION_SAME);
	CHECK_INT((int)c[0].family, 3);
}

/*
 * Four commands no different from the reference (10 runs each, lognormal
 * 5%): some verdict says slower or faster in about 1 - 0.95^4 = 19% of
 * benchmarks when each is decided alone, at most 5% under Holm (400
 * benchmarks, fixed seed: 5% + 2 Monte-Carlo errors).
 */
TEST(compare_family_keeps_the_error)
{
	uint64_t seed = 31;
	unsigned trial, alone = 0, holm = 0;

	for (trial = 0; trial < 400; trial++) {
		double x[5][10];
		struct bench_comparison c[4], *f[4] = { &c[0], &c[1], &c[2], &c[3] };
		int any_alone = 0, any_holm = 0;
		size_t k, i;

		for (k = 0; k < 5; k++)
			for (i = 0; i < 10; i++)
				x[k][i] = exp(0.05 * stats_normal(&seed));
		for (k = 0; k < 4; k++) {
			CHECK_INT(bench_compare(x[0], 10, x[k + 1], 10, 0.95, &c[k]), 0);
			any_alone |= c[k].verdict != DIRECTION_SAME;
		}
		bench_compare_family(f, 4);
		for (k = 0; k < 4; k++)
			any_holm |= c[k].verdict != DIRECTION_SAME;
		alone += any_alone;
		holm += any_holm;
	}
	CHECK(alone > 40);		/* about 19% of 400: 76 */
	CHECK(holm <= 28);		/* 5% of 400 is 20, + 2 x 4.4 */
}

/*
 * Conover's table: for n = 10 at 95%, P(B <= 1) = 11/1024 = 0.0107 and
 * P(B <= 2) = 56/1024 = 0.0547, so j - 1 = 1: [x_(2), x_(9)].  For n = 5,
 * P(B <= 0) = 1/32 = 0.031 > 0.025: [min, max].  For n = 100, j = 40
 * (the normal approximation 50 - 1.96 * 5 = 40.2).
 */
TEST(median_confidence_interval)
{
	double x[100], lo, hi;
	size_t i;

	for (i = 0; i < 100; i++)
		x[i] = (double)(100 - i);	/* 100 .. 1, order must not matter */
	CHECK_INT(stats_median_ci(x + 90, 10, 0.95, &lo, &hi), 0);	/* 10 .. 1 */
	CHECK_NEAR(lo, 2, 0);
	CHECK_NEAR(hi, 9, 0);
	CHECK_INT(stats_median_ci(x + 95, 5, 0.95, &lo, &hi), 0);
	CHECK_NEAR(lo, 1, 0);
	CHECK_NEAR(hi, 5, 0);
	CHECK_INT(stats_median_ci(x, 100, 0.95, &lo, &hi), 0);
	CHECK_NEAR(lo, 40, 0);
	CHECK_NEAR(hi, 61, 0);
	CHECK_INT(stats_median_ci(x + 99, 1, 0.95, &lo, &hi), 0);
	CHECK_NEAR(lo, 1, 0);
	CHECK_NEAR(hi, 1, 0);
}

/* The rank CUSUM (stats/rank_cusum.h, history's change points beyond 160 commits). */
TEST(rank_cusum_reference_values)
{
	const double x[] = { 3, 1, 2, 2, 9, 8, 7, 8 };
	double r[8], y[40];
	struct stats_rank_cusum t;
	size_t i;

	/* Kolmogorov's distribution: its 5 % and 1 % points are 1.358 and 1.628 */
	CHECK_NEAR(stats_kolmogorov_q(1.3581), 0.05, 1e-3);
	CHECK_NEAR(stats_kolmogorov_q(1.6276), 0.01, 1e-3);
	CHECK_NEAR(stats_kolmogorov_q(0.1), 1, 0);
	/* midranks: ties share their mean rank */
	stats_midranks(x, 8, r);
	CHECK_NEAR(r[0], 4, 0);
	CHECK_NEAR(r[1], 1, 0);
	CHECK_NEAR(r[2], 2.5, 0);
	CHECK_NEAR(r[3], 2.5, 0);
	CHECK_NEAR(r[5], 6.5, 0);
	/* a step after 20 of 40 points: found there, far beyond chance */
	for (i = 0; i < 40; i++)
		y[i] = (i >= 20 ? 10 : 0) + (double)((i * 7) % 5);
	stats_rank_cusum(y, 40, &t);
	CHECK_INT(t.at, 20);
	CHECK(t.p < 1e-3);	/* beyond chance with the autocorrelation's upper bound too */
	/* long-run variance ratios: AR(1) (1 + r) / (1 - r); ARMA(1,1) 1 + 2 r / (1 - phi) */
	CHECK_NEAR(stats_lrv_ratio(0.5, 0), 3, 1e-12);
	CHECK_NEAR(stats_lrv_ratio(0.4, 0.5), 5, 1e-12);	/* phi 0.8 */
	CHECK_NEAR(stats_lrv_ratio(-0.2, 0), 1, 0);
	CHECK_NEAR(stats_lrv_ratio(0.5, 0.9), 1 + 2 * 0.5 / (1 - STATS_AR1_MAX_RHO), 1e-12);
	/* a constant series: no test */
	for (i = 0; i < 40; i++)
		y[i] = 1;
	stats_rank_cusum(y, 40, &t);
	CHECK_NEAR(t.p, 1, 0);
}

TEST_MAIN("bench_stats", holm_adjust_by_hand, compare_family_is_holm,
	  compare_family_keeps_the_error, rank_cusum_reference_values, median_confidence_interval,
	  descriptive_one_to_ten, descriptive_n_equals_one,
	  descriptive_rejects_empty_and_nan, median_even_odd_and_ties,
	  median_matches_sort_on_many_sizes, identical_samples,
	  huge_outlier_is_flagged_and_median_robust, outlier_when_mad_is_zero,
	  outliers_none_in_uniform_spread, mann_whitney_separated, mann_whitney_ties,
	  mann_whitney_exact_matches_enumeration, mann_whitney_table_n5, mann_whitney_76_history_live,
	  mann_whitney_large_is_normal,
	  mann_whitney_n_equals_one, student_t_reference_values, f_upper_reference_values,
	  normal_quantile_reference_values, welch_by_hand,
	  bootstrap_constant_samples_exact_ratio,
	  bootstrap_interval_brackets_estimate_and_is_deterministic,
	  bootstrap_zero_denominator, compare_verdicts)
