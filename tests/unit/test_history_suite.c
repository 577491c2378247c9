/*
 * test_history_suite.c - .trail, the bench suite: budgets parsed strictly
 * and checked against runs in the stored unit; the line scanner follows
 * git's config syntax (header keys, quotes, continuations, comments); a
 * suite's errors name FILE:LINE and the key; [defaults] fill the benches.
 * The git config listing is written here as git prints it (-z --list).
 */
#include "harness.h"

#include "core/error.h"
#include "history/budget.h"
#include "history/suite.h"

static int budget_ok(const char *s, struct history_budget *b)
{
	const char *why = NULL;

	return history_budget_parse(s, b, &why) == 0;
}

TEST(budgets_parse_strictly)
{
	struct history_budget b;

	CHECK(budget_ok("p95 < 20 ms", &b));
	CHECK_NEAR(b.q, 0.95, 1e-12);
	CHECK_NEAR(b.limit, 0.020, 1e-15);
	CHECK(b.dim == HISTORY_BUDGET_TIME && !b.metric && !b.inclusive);
	CHECK_STREQ(b.text, "p95 < 20 ms");
	CHECK(budget_ok("cpu<1.5s", &b));
	CHECK_STREQ(b.metric, "cpu");
	CHECK_NEAR(b.limit, 1.5, 1e-12);
	CHECK(budget_ok("  peak-heap <= 64 MiB ", &b));
	CHECK(b.inclusive && b.dim == HISTORY_BUDGET_BYTES);
	CHECK_NEAR(b.limit, 64.0 * 1048576, 1e-3);
	CHECK(budget_ok("p99.9 < 1 s", &b));
	CHECK_NEAR(b.q, 0.999, 1e-12);
	CHECK(budget_ok("mean < 3 us", &b) && b.q < 0);
	/* each of these must be refused, not read as something else */
	CHECK(!budget_ok("p95 > 20 ms", &b));
	CHECK(!budget_ok("p95 < 20", &b));
	CHECK(!budget_ok("p95 < 20 ms extra", &b));
	CHECK(!budget_ok("p95 < -1 ms", &b));
	CHECK(!budget_ok("p95 < 1e3 ms", &b));
	CHECK(!budget_ok("p100 < 1 ms", &b));
	CHECK(!budget_ok("p0 < 1 ms", &b));
	CHECK(!budget_ok("fastest < 1 ms", &b));
	CHECK(!budget_ok("cpu < 64 MiB", &b));
	CHECK(!budget_ok("rss < 2 s", &b));
	CHECK(!budget_ok("", &b));
	CHECK(!budget_ok("p95 < 0 ms", &b));
	CHECK(!budget_ok("p95 < 1.2.3 ms", &b));
}

TEST(budget_checks_runs_in_their_unit)
{
	struct history_budget b;
	double runs_us[] = { 15000, 16000, 17000, 30000, 16000 };
	double v;

	CHECK(budget_ok("median < 20 ms", &b));
	CHECK_INT(history_budget_check(&b, runs_us, 5, "us", &v), 1);
	CHECK_NEAR(v, 0.016, 1e-12);
	CHECK(budget_ok("max < 20 ms", &b));
	CHECK_INT(history_budget_check(&b, runs_us, 5, "us", &v), 0);
	CHECK(budget_ok("max <= 30 ms", &b));
	CHECK_INT(history_budget_check(&b, runs_us, 5, "us", &v), 1);
	CHECK(budget_ok("rss < 1 MiB", &b));
	CHECK_INT(history_budget_check(&b, runs_us, 5, "KiB", &v), 0);	/* 16000 KiB */
	CHECK_INT(history_budget_check(&b, runs_us, 5, "us", &v), -1);	/* wrong dimension */
	CHECK_INT(history_budget_check(&b, runs_us, 0, "KiB", &v), -1);
}

TEST(scanner_finds_each_keys_line)
{
	static const char text[] =
		"# a comment [bench \"x\"]\n"
		"[bench \"a.b \\\"q\\\"\"]  run = x ; c\n"
		"  Build = \"make \\\n"
		"  more # not a comment\"\n"
		"[Bench.Sub]\n"
		"  flag\n"
		"[defaults] repeat=3\n"
		"; budget = x\n"
		"\tmetric = \"a;b\" # c\n";
	char **names;
	unsigned *lines;
	size_t n = history_suite_scan_lines(text, sizeof(text) - 1, &names, &lines), i;

	CHECK_INT(n, 5);
	if (n == 5) {
		CHECK_STREQ(names[0], "bench.a.b \"q\".run");
		CHECK_INT(lines[0], 2);
		CHECK_STREQ(names[1], "bench.a.b \"q\".build");
		CHECK_INT(lines[1], 3);
		CHECK_STREQ(names[2], "bench.sub.flag");
		CHECK_INT(lines[2], 6);
		CHECK_STREQ(names[3], "defaults.repeat");
		CHECK_INT(lines[3], 7);
		CHECK_STREQ(names[4], "defaults.metric");
		CHECK_INT(lines[4], 9);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(lines);
}

/* Parse a suite from its text and git's listing of it; the first error into why. */
static int parse(const char *text, const char *list, size_t len, struct history_suite *s,
		 char *why, size_t n)
{
	int ret;

	error_capture(why, n);
	ret = history_suite_parse(s, ".trail", list, len, text, strlen(text));
	error_capture(NULL, 0);
	return ret;
}

#define LIST(s) s, sizeof(s) - 1

TEST(suite_applies_defaults)
{
	static const char text[] =
		"[defaults]\n\tbuild = make\n\trepeat = 7\n\tbudget = p95 < 20 ms\n"
		"[bench \"decompress\"]\n\trun = ./z -d\n\tmetric = wall\n"
		"[bench \"compress-19\"]\n\trun = ./z -19\n\tbuild = make z\n\tmin-effect = 2%\n";
	static const char list[] = "defaults.build\nmake\0defaults.repeat\n7\0"
		"defaults.budget\np95 < 20 ms\0bench.decompress.run\n./z -d\0"
		"bench.decompress.metric\nwall\0bench.compress-19.run\n./z -19\0"
		"bench.compress-19.build\nmake z\0bench.compress-19.min-effect\n2%\0";
	struct history_suite s;
	char why[512];

	CHECK_INT(parse(text, LIST(list), &s, why, sizeof(why)), 0);
	CHECK_INT(s.nr, 2);
	if (s.nr == 2) {
		CHECK_STREQ(s.benches[0].name, "decompress");
		CHECK_STREQ(s.benches[0].build, "make");
		CHECK_STREQ(s.benches[0].metric, "wall");
		CHECK_INT(s.benches[0].repeat, 7);
		CHECK(s.benches[0].has_budget);
		CHECK_INT(s.benches[0].budget_line, 4);
		CHECK_INT(s.benches[0].line, 6);	/* its first key's */
		CHECK_STREQ(s.benches[1].build, "make z");
		CHECK_NEAR(s.benches[1].min_effect, 2, 1e-12);
		CHECK(s.benches[1].timeout < 0);
		CHECK(history_suite_find(&s, "compress-19") == &s.benches[1]);
	}
	history_suite_release(&s);
}

TEST(suite_errors_name_file_line_and_key)
{
	static const struct {
		const char *text, *list;
		size_t len;
		const char *want;
	} cases[] = {
		{ "[bench \"a\"]\n run = x\n repaet = 3\n", LIST("bench.a.run\nx\0bench.a.repaet\n3\0"),
		  ".trail:3: bench \"a\": unknown key 'repaet'" },
		{ "[bench \"a\"]\n run = x\n repeat = 3x\n", LIST("bench.a.run\nx\0bench.a.repeat\n3x\0"),
		  ".trail:3: bench \"a\": repeat '3x' is not a whole number" },
		{ "[bench \"a\"]\n run = x\n\n budget = p95 < 2 parsecs\n",
		  LIST("bench.a.run\nx\0bench.a.budget\np95 < 2 parsecs\0"),
		  ".trail:4: bench \"a\": budget 'p95 < 2 parsecs': the unit" },
		{ "[bench \"a\"]\n run = x\n run = y\n", LIST("bench.a.run\nx\0bench.a.run\ny\0"),
		  ".trail:3: bench \"a\": 'run' given twice" },
		{ "[bnech \"a\"]\n run = x\n", LIST("bnech.a.run\nx\0"),
		  ".trail:2: 'bnech.a.run': unknown section" },
		{ "[bench \"a/../b\"]\n run = x\n", LIST("bench.a/../b.run\nx\0"),
		  ".trail:2: bench name 'a/../b' is not" },
		{ "[bench \"a\"]\n build = make\n", LIST("bench.a.build\nmake\0"),
		  ".trail:2: bench \"a\": no 'run'" },
		{ "[bench \"a\"]\n run\n", LIST("bench.a.run\0"), ".trail:2: bench \"a\": 'run' has no value" },
		{ "[bench \"a\"]\n run = x\n metric = rss\n budget = p95 < 2 ms\n",
		  LIST("bench.a.run\nx\0bench.a.metric\nrss\0bench.a.budget\np95 < 2 ms\0"),
		  ".trail:4: bench \"a\": budget 'p95 < 2 ms' is in time" },
		{ "[bench \"a\"]\n run = x\n budget = cpu < 2 s\n metric = wall\n",
		  LIST("bench.a.run\nx\0bench.a.budget\ncpu < 2 s\0bench.a.metric\nwall\0"),
		  ".trail:3: bench \"a\": budget 'cpu < 2 s' is about cpu" },
		{ "[defaults]\n run = x\n", LIST("defaults.run\nx\0"), ".trail: no [bench \"NAME\"] section" },
		{ "[bench \"a\"]\n run = \"\"\n", LIST("bench.a.run\n\0"), ".trail:2: bench \"a\": 'run' is empty" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct history_suite s;
		char why[512] = "";

		CHECK_INT(parse(cases[i].text, cases[i].list, cases[i].len, &s, why, sizeof(why)), -1);
		if (strncmp(why, cases[i].want, strlen(cases[i].want))) {
			fprintf(stderr, "    case %zu: '%s', expected '%s...'\n", i, why, cases[i].want);
			CHECK(0);
		}
	}
}

TEST_MAIN("history-suite", budgets_parse_strictly, budget_checks_runs_in_their_unit,
	  scanner_finds_each_keys_line, suite_applies_defaults, suite_errors_name_file_line_and_key)
