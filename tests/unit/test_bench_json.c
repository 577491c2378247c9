/*
 * test_bench_json.c - the strict JSON reader used for baselines: what
 * RFC 8259 allows parses to the right values, everything else is an error.
 */
#include "core/json.h"
#include "harness.h"

static int parses(const char *text)
{
	struct json_value v;
	int rc = json_parse(text, strlen(text), "t.json", &v);

	json_release(&v);
	return rc == 0;
}

TEST(values_and_structure)
{
	const char *text = "{\"a\": [1, -2.5e3, 0, true, false, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\","
			   " \"o\": {}, \"e\": [] }";
	struct json_value v;
	const struct json_value *a, *s;

	CHECK_INT(json_parse(text, strlen(text), "t.json", &v), 0);
	CHECK_INT(v.type, JSON_OBJECT);
	CHECK_INT(v.len, 4);
	a = json_get(&v, "a");
	CHECK(a && a->type == JSON_ARRAY && a->len == 6);
	CHECK_NEAR(a->items[1].number, -2500, 0);
	CHECK_INT(a->items[3].type, JSON_TRUE);
	CHECK_INT(a->items[5].type, JSON_NULL);
	s = json_get(&v, "s");
	CHECK_STREQ(s->string, "x\n\xc3\xa9\xf0\x9f\x98\x80");
	CHECK_INT(s->len, 8);
	CHECK(json_get(&v, "missing") == NULL);
	CHECK(json_get(a, "a") == NULL);
	CHECK_INT(json_get(&v, "o")->len, 0);
	json_release(&v);
}

TEST(accepts_valid_edge_cases)
{
	CHECK(parses("0"));
	CHECK(parses("-0.0e+0"));
	CHECK(parses(" \"\" "));
	CHECK(parses("[[[[]]]]"));
	CHECK(parses("{\"\": 1}"));
	CHECK(parses("\"\\/\\b\\f\\r\\t\\\\\\\"\""));
}

TEST(rejects_malformed)
{
	CHECK(!parses(""));
	CHECK(!parses("   "));
	CHECK(!parses("[1, 2,]"));
	CHECK(!parses("{\"a\": 1,}"));
	CHECK(!parses("{\"a\" 1}"));
	CHECK(!parses("{a: 1}"));
	CHECK(!parses("01"));
	CHECK(!parses("1."));
	CHECK(!parses(".5"));
	CHECK(!parses("1e"));
	CHECK(!parses("+1"));
	CHECK(!parses("NaN"));
	CHECK(!parses("1e400"));
	CHECK(!parses("tru"));
	CHECK(!parses("\"abc"));
	CHECK(!parses("\"a\tb\""));
	CHECK(!parses("\"\\x\""));
	CHECK(!parses("\"\\u12\""));
	CHECK(!parses("\"\\ud800\""));
	CHECK(!parses("\"\\udc00\""));
	CHECK(!parses("[1] 2"));
	CHECK(!parses("// comment\n1"));
	CHECK(!parses("{\"a\": [1, {\"b\": }]}"));
}

TEST(depth_is_bounded)
{
	char deep[201], ok[121];

	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	deep[200] = '\0';
	CHECK(!parses(deep));
	memcpy(ok, deep + 40, 120);	/* 60 deep */
	ok[120] = '\0';
	CHECK(parses(ok));
}

TEST(error_has_line_and_column)
{
	struct json_value v;
	const char *text = "{\n  \"a\": [1,\n  ]\n}";
	char buf[512] = "";
	FILE *saved = stderr;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	stderr = f;
	CHECK_INT(json_parse(text, strlen(text), "base.json", &v), -1);
	fflush(f);
	stderr = saved;
	fclose(f);
	CHECK(strstr(buf, "base.json:3:3: malformed JSON: trailing comma") != NULL);
}

TEST_MAIN("bench_json", values_and_structure, accepts_valid_edge_cases, rejects_malformed,
	  depth_is_bounded, error_has_line_and_column)
