/*
 * test_json_writer.c - unit tests for core/json_writer: separators and
 * indentation in both styles, empty containers, escaping (with lengths),
 * integers at their limits, and that numbers are the shortest text that
 * reads back to the same double.
 */
#include "harness.h"

#include "core/json_writer.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* One document exercising every kind of value, written in either style. */
static void write_sample(struct strbuf *sb, enum json_writer_style style)
{
	struct json_writer w;

	json_writer_init(&w, sb, style);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "name", "a\"b\\c\n\t\x01");
	json_writer_key(&w, "list");
	json_writer_begin_array(&w);
	json_writer_int(&w, INT64_MIN);
	json_writer_int(&w, INT64_MAX);
	json_writer_uint(&w, UINT64_MAX);
	json_writer_bool(&w, 1);
	json_writer_null(&w);
	json_writer_begin_object(&w);
	json_writer_end(&w);
	json_writer_begin_array(&w);
	json_writer_end(&w);
	json_writer_end(&w);
	json_writer_key(&w, "nested");
	json_writer_begin_object(&w);
	json_writer_key_bool(&w, "ok", 0);
	json_writer_key_number(&w, "x", 0.5);
	json_writer_end(&w);
	json_writer_key_string(&w, "missing", NULL);
	json_writer_key_len(&w, "k\"ey", 2);	/* lengths: a NUL, a cut */
	json_writer_string_len(&w, "a\0b/\x7f", 5);
	json_writer_end(&w);
	json_writer_release(&w);
}

TEST(both_styles)
{
	static const struct {
		enum json_writer_style style;
		const char *want;
	} cases[] = {
		{ JSON_WRITER_COMPACT,
		  "{\"name\":\"a\\\"b\\\\c\\n\\t\\u0001\","
		  "\"list\":[-9223372036854775808,9223372036854775807,18446744073709551615,"
		  "true,null,{},[]],"
		  "\"nested\":{\"ok\":false,\"x\":0.5},\"missing\":null,"
		  "\"k\\\"\":\"a\\u0000b/\x7f\"}" },
		{ JSON_WRITER_PRETTY,
		  "{\n"
		  "  \"name\": \"a\\\"b\\\\c\\n\\t\\u0001\",\n"
		  "  \"list\": [\n"
		  "    -9223372036854775808,\n"
		  "    9223372036854775807,\n"
		  "    18446744073709551615,\n"
		  "    true,\n"
		  "    null,\n"
		  "    {},\n"
		  "    []\n"
		  "  ],\n"
		  "  \"nested\": {\n"
		  "    \"ok\": false,\n"
		  "    \"x\": 0.5\n"
		  "  },\n"
		  "  \"missing\": null,\n"
		  "  \"k\\\"\": \"a\\u0000b/\x7f\"\n"
		  "}" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		write_sample(&sb, cases[i].style);
		CHECK_STREQ(sb.buf, cases[i].want);
	}
	strbuf_release(&sb);
}

TEST(key_pair_is_a_two_number_array)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;

	json_writer_init(&w, &sb, JSON_WRITER_COMPACT);
	json_writer_begin_object(&w);
	json_writer_key_pair(&w, "interval", -0.5, 2);
	json_writer_end(&w);
	CHECK_STREQ(sb.buf, "{\"interval\":[-0.5,2]}");
	json_writer_release(&w);
	strbuf_release(&sb);
}

TEST(empty_containers_at_top)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;

	json_writer_init(&w, &sb, JSON_WRITER_PRETTY);
	json_writer_begin_array(&w);
	json_writer_end(&w);
	CHECK_STREQ(sb.buf, "[]");
	strbuf_reset(&sb);
	json_writer_begin_object(&w);
	json_writer_end(&w);
	CHECK_STREQ(sb.buf, "{}");
	/* an unbalanced end writes nothing rather than crashing */
	json_writer_end(&w);
	CHECK_STREQ(sb.buf, "{}");
	json_writer_release(&w);
	strbuf_release(&sb);
}

static const char *number_text(struct strbuf *sb, double v)
{
	struct json_writer w;

	strbuf_reset(sb);
	json_writer_init(&w, sb, JSON_WRITER_COMPACT);
	json_writer_number(&w, v);
	json_writer_release(&w);
	return sb->buf;
}

TEST(numbers_shortest_round_trip)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(number_text(&sb, 0), "0");
	CHECK_STREQ(number_text(&sb, -0.0), "0");
	CHECK_STREQ(number_text(&sb, 1), "1");
	CHECK_STREQ(number_text(&sb, 1234567), "1234567");
	CHECK_STREQ(number_text(&sb, 0.1), "0.1");
	CHECK_STREQ(number_text(&sb, -2.5), "-2.5");
	CHECK_STREQ(number_text(&sb, 0.1 + 0.2), "0.30000000000000004");
	CHECK_STREQ(number_text(&sb, 1.0 / 3), "0.3333333333333333");
	CHECK_STREQ(number_text(&sb, 1e300), "1e+300");
	CHECK_STREQ(number_text(&sb, 0.1 * 3), "0.30000000000000004");
	CHECK_STREQ(number_text(&sb, 2.0 / 3), "0.6666666666666666");
	CHECK_STREQ(number_text(&sb, 1e-310), "1e-310");
	CHECK_STREQ(number_text(&sb, 5e-324), "5e-324");
	CHECK_STREQ(number_text(&sb, 9007199254740993.0), "9007199254740992");
	strbuf_release(&sb);
}

TEST(numbers_read_back_exactly)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t x = 88172645463325252ull;
	int i;

	/* xorshift64 (Marsaglia 2003) bit patterns: a spread of finite doubles */
	for (i = 0; i < 2000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		if (!isfinite(v))
			continue;
		if (strtod(number_text(&sb, v), NULL) != v) {
			CHECK(!"number did not read back");
			break;
		}
	}
	strbuf_release(&sb);
}

TEST(non_finite_numbers_are_null)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STREQ(number_text(&sb, NAN), "null");
	CHECK_STREQ(number_text(&sb, INFINITY), "null");
	CHECK_STREQ(number_text(&sb, -INFINITY), "null");
	strbuf_release(&sb);
}

TEST_MAIN("json_writer", key_pair_is_a_two_number_array, both_styles, empty_containers_at_top,
	  numbers_shortest_round_trip, numbers_read_back_exactly,
	  non_finite_numbers_are_null)
