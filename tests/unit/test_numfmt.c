/* test_numfmt.c - the one number formatter (core/numfmt.h). */
#include "harness.h"
#include "core/numfmt.h"

#include <math.h>

#define SAME(call, want) do { \
	struct strbuf sb_ = STRBUF_INIT; \
	call; \
	CHECK_STREQ(sb_.buf, want); \
	strbuf_release(&sb_); \
} while (0)

TEST(numbers_read_as_people_write_them)
{
	SAME(numfmt_percent(&sb_, 0.057, NUMFMT_SIGN), "+5.7%");
	SAME(numfmt_percent(&sb_, -0.0123, NUMFMT_SIGN), "-1.2%");
	SAME(numfmt_percent(&sb_, 0.25, 0), "25.0%");
	SAME(numfmt_pp(&sb_, 0.029, NUMFMT_SIGN), "+2.9 pp");
	SAME(numfmt_p(&sb_, 0.31), "p = 0.31");
	SAME(numfmt_p(&sb_, 0.0123), "p = 0.012");
	SAME(numfmt_p(&sb_, 0.00312), "p = 0.0031");
	SAME(numfmt_p(&sb_, 0.000312), "p = 0.0003");
	SAME(numfmt_p(&sb_, 4.9e-6), "p < 0.0001");
	SAME(numfmt_p(&sb_, 0), "p < 0.0001");
	SAME(numfmt_p(&sb_, 1), "p = 1.00");
	SAME(numfmt_pp(&sb_, 0.002, 0), "0.2 pp");
	SAME(numfmt_seconds(&sb_, 0.1145, 0), "114.5 ms");
	SAME(numfmt_seconds(&sb_, 1.254, 0), "1.254 s");
	SAME(numfmt_seconds(&sb_, 1.25, 0), "1.25 s");
	SAME(numfmt_seconds(&sb_, 1254.3, 0), "1254 s");
	SAME(numfmt_seconds(&sb_, 0.00085, 0), "850 us");
	SAME(numfmt_seconds(&sb_, 2, 0), "2 s");
	SAME(numfmt_seconds(&sb_, NAN, 0), "n/a");
	SAME(numfmt_count(&sb_, 137194, 0), "137194");
	SAME(numfmt_count(&sb_, 137193.99999999997, 0), "137194");
	SAME(numfmt_count(&sb_, 12.5, NUMFMT_SIGN), "+12.5");
	SAME(numfmt_value(&sb_, 0.0125, "s", 0), "12.5 ms");
	SAME(numfmt_value(&sb_, 2048, "KiB", 0), "2048 KiB");
	SAME(numfmt_value(&sb_, 88254, "us", 0), "88.25 ms");	/* not "88254 us" */
	SAME(numfmt_value(&sb_, 1254300, "us", 0), "1.254 s");
}

/* An interval keeps its median's unit (history's show, record and guard lines). */
TEST(interval_in_one_unit)
{
	SAME(numfmt_interval(&sb_, 1254300, 1240000, 1260000, "us", 0), "1.254 s [1.24, 1.26]");
	SAME(numfmt_interval(&sb_, 0.1145, 0.1121, 0.117, "s", 0), "114.5 ms [112.1, 117]");
	/* bounds across a unit's edge stay in the median's unit */
	SAME(numfmt_interval(&sb_, 999000, 980000, 1012000, "us", 0), "999 ms [980, 1012]");
	SAME(numfmt_interval(&sb_, 8045034.501404266, 7639400, 8112640, "bytes", 0),
	     "8045035 bytes [7639400, 8112640]");
	SAME(numfmt_interval(&sb_, 137193.99999999997, 137000, 137400.7, "KiB", 0),
	     "137194 KiB [137000, 137401]");
	SAME(numfmt_interval(&sb_, 12.5, 12, 13, "", 0), "12.5 [12, 13]");
	/* a change and its interval: the bounds signed too (flame's culprit steps) */
	SAME(numfmt_interval(&sb_, 210, -4.5, 1500, "ms", NUMFMT_SIGN), "+210 ms [-4.5, +1500]");
	SAME(numfmt_interval(&sb_, 42, 40, 44.25, "samples/run", NUMFMT_SIGN),
	     "+42 samples/run [+40, +44.25]");
	SAME(numfmt_pp_interval(&sb_, 0.123, 0.101, 0.145, NUMFMT_SIGN), "+12.3 pp [+10.1, +14.5]");
	SAME(numfmt_pp_interval(&sb_, 0.02, -0.004, 0.05, 0), "2.0 pp [-0.4, 5.0]");
	SAME(numfmt_percent_interval(&sb_, 0.585, 0.4, 0.75, 0), "58.5% [40.0%, 75.0%]");
}

TEST_MAIN("numfmt", numbers_read_as_people_write_them, interval_in_one_unit)
