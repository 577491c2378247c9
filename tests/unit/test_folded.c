/*
 * test_folded.c - unit tests for src/profile/folded: line parsing as
 * flamegraph.pl does it, merging, totals and sorting.
 */
#include "harness.h"

#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST(parse_one_and_two_columns)
{
	struct folded_line fl;

	CHECK_INT(folded_parse_line("a;b;c 42", 8, &fl), 0);
	CHECK_INT(fl.columns, 1);
	CHECK_INT(fl.stack_len, 5);
	CHECK_NEAR(fl.count[0], 42, 0);
	CHECK_INT(folded_parse_line("a;b 10 12", 9, &fl), 0);
	CHECK_INT(fl.columns, 2);
	CHECK_INT(fl.stack_len, 3);
	CHECK_NEAR(fl.count[0], 10, 0);
	CHECK_NEAR(fl.count[1], 12, 0);
	CHECK_INT(folded_parse_line("x 2.5", 5, &fl), 0);
	CHECK_NEAR(fl.count[0], 2.5, 0);
	CHECK_INT(folded_parse_line("no count", 8, &fl), -1);
	CHECK_INT(folded_parse_line("a;b 1.2.3", 9, &fl), -1);
	CHECK_INT(folded_parse_line("42", 2, &fl), -1);
	CHECK_INT(folded_parse_line("a;b -3", 6, &fl), -1);
}

TEST(profile_merges_and_sorts)
{
	char *dir = tempdir_create("trail-unit");
	char *path = xstrfmt("%s/in.folded", dir);
	FILE *f = fopen(path, "w");
	struct folded_profile p;
	uint32_t *ids;

	fputs("b;c 3\na;b 1\n\nb;c 4\nbroken line\na 2\n", f);
	fclose(f);
	folded_profile_init(&p);
	CHECK_INT(folded_profile_read(&p, path), 0);
	CHECK_INT(folded_profile_size(&p), 3);
	CHECK_INT(p.malformed, 1);
	CHECK_NEAR(p.total[0], 10, 0);
	ids = folded_profile_sorted(&p);
	CHECK_STREQ(intern_str(&p.stacks, ids[0]), "a");
	CHECK_STREQ(intern_str(&p.stacks, ids[1]), "a;b");
	CHECK_STREQ(intern_str(&p.stacks, ids[2]), "b;c");
	CHECK_NEAR(p.counts[0][ids[2]], 7, 0);
	free(ids);
	folded_profile_release(&p);
	tempdir_remove(dir);
}

TEST(count_formatting_matches_perl)
{
	char buf[64];

	folded_format_count(buf, sizeof(buf), 1.0);
	CHECK_STREQ(buf, "1");
	folded_format_count(buf, sizeof(buf), 14.2343983248722834234);
	CHECK_STREQ(buf, "14.2343983248723");
	folded_format_count(buf, sizeof(buf), 1001001.0 * 3);
	CHECK_STREQ(buf, "3003003");
}

TEST(weight_header_round_trips)
{
	struct folded_weight_info w, r;
	struct folded_line fl;
	char buf[192];

	memset(&w, 0, sizeof(w));
	w.weight = FOLDED_WEIGHT_PERIOD;
	snprintf(w.unit, sizeof(w.unit), "ns");

	folded_header_format(buf, sizeof(buf), &w);
	CHECK_STREQ(buf, "# trail-folded weight=period unit=ns\n");
	/* flamegraph.pl and inferno skip it: it has no count */
	CHECK(folded_parse_line(buf, strlen(buf) - 1, &fl) < 0);
	CHECK_INT(folded_header_parse(buf, strlen(buf) - 1, &r), 1);
	CHECK_INT(r.weight, FOLDED_WEIGHT_PERIOD);
	CHECK_STREQ(r.unit, "ns");
	/* samples: no header at all, so default output is unchanged */
	w.weight = FOLDED_WEIGHT_SAMPLES;
	folded_header_format(buf, sizeof(buf), &w);
	CHECK_STREQ(buf, "");
	/* a hostile unit cannot end the line in " digits" (a stack to Perl) */
	w.weight = FOLDED_WEIGHT_TIME;
	snprintf(w.unit, sizeof(w.unit), "x 5");
	folded_header_format(buf, sizeof(buf), &w);
	CHECK_STREQ(buf, "# trail-folded weight=time unit=x_5\n");
	CHECK(folded_parse_line(buf, strlen(buf) - 1, &fl) < 0);
	/* an unknown weight is not a count */
	CHECK_INT(folded_header_parse("# trail-folded weight=joules unit=J", 35, &r), 1);
	CHECK_INT(r.weight, FOLDED_WEIGHT_PERIOD);
	CHECK_STREQ(r.unit, "J");
	CHECK_INT(folded_header_parse("# other comment", 15, &r), 0);
	CHECK_INT(folded_header_parse("main;f 3", 8, &r), 0);
}

TEST(units_header_carries_type_and_period)
{
	struct folded_weight_info w, r;
	struct folded_line fl;
	char buf[192];

	memset(&w, 0, sizeof(w));
	w.weight = FOLDED_WEIGHT_SAMPLES;
	snprintf(w.type, sizeof(w.type), "cpu");
	w.period = 1001001;
	snprintf(w.period_unit, sizeof(w.period_unit), "ns");
	folded_header_format(buf, sizeof(buf), &w);
	CHECK_STREQ(buf, "# trail-folded weight=samples type=cpu period=1001001 period_unit=ns "
		    "unit=samples\n");
	CHECK(folded_parse_line(buf, strlen(buf) - 1, &fl) < 0);
	CHECK_INT(folded_header_parse(buf, strlen(buf) - 1, &r), 1);
	CHECK_INT(r.weight, FOLDED_WEIGHT_SAMPLES);
	CHECK_STREQ(r.type, "cpu");
	CHECK_STREQ(r.unit, "");
	CHECK(r.period == 1001001);
	CHECK(folded_ns_per_count(&r) == 1001001);
	CHECK_STREQ(folded_unit_word(&r), "samples");
	CHECK(r.runs == 0);
	/* the runs the counts sum (trail flame's diff.folded), written when > 1 */
	w.runs = 8;
	folded_header_format(buf, sizeof(buf), &w);
	CHECK_STREQ(buf, "# trail-folded weight=samples type=cpu period=1001001 period_unit=ns "
		    "runs=8 unit=samples\n");
	CHECK_INT(folded_header_parse(buf, strlen(buf) - 1, &r), 1);
	CHECK(r.runs == 8);
	CHECK(r.period == 1001001);
	/* a period that is not a number is unknown, not zero or garbage */
	CHECK_INT(folded_header_parse("# trail-folded weight=samples period=1e9x unit=samples", 54,
				      &r), 1);
	CHECK(r.period == 0);
	CHECK(folded_ns_per_count(&r) == 0);
	/* pprof's and speedscope's words */
	CHECK_INT(folded_weight_from_words(&r, "alloc_space", "bytes"), 0);
	CHECK_STREQ(r.unit, "bytes");
	CHECK_STREQ(folded_unit_word(&r), "bytes");
	CHECK_INT(folded_weight_from_words(&r, "off-cpu", "microseconds"), 0);
	CHECK(folded_ns_per_count(&r) == 1000);
	CHECK_INT(folded_weight_from_words(&r, "samples", "count"), 0);
	CHECK_INT(r.weight, FOLDED_WEIGHT_SAMPLES);
	CHECK_INT(folded_weight_from_words(&r, "x", "furlongs"), -1);
}

TEST(profile_read_takes_the_header)
{
	char *dir = tempdir_create("test-folded"), *path = xstrfmt("%s/w.folded", dir);
	FILE *f = fopen(path, "w");
	struct folded_profile p;

	CHECK(f != NULL);
	fputs("# trail-folded weight=time unit=us\nmain;f 1000\nmain;g 2000\n", f);
	fclose(f);
	folded_profile_init(&p);
	CHECK_INT(folded_profile_read(&p, path), 0);
	CHECK_INT(p.malformed, 0);
	CHECK_INT(folded_profile_size(&p), 2);
	CHECK_INT(p.weight.weight, FOLDED_WEIGHT_TIME);
	CHECK_STREQ(p.weight.unit, "us");
	folded_profile_release(&p);
	tempdir_remove(dir);
	free(path);
	free(dir);
}

/* docs/collapse.md, "Frame names": a name never reads as a count. */
TEST(stack_push_guards_count_like_names)
{
	static const struct { const char *name, *want; } cases[] = {
		{ "line\nbreak 5", "main;line break_5" },
		{ "f\t1.5", "main;f_1.5" },
		{ "worker 7", "main;worker_7" },
		{ "a 1 2", "main;a 1_2" },
		{ "vector<int> 2x", "main;vector<int> 2x" },
		{ "x 1.2.3", "main;x 1.2.3" },
		{ "42", "main;42" },
		{ "", "main;[unknown]" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		struct folded_line fl;

		folded_stack_push(&sb, "main", 4);
		folded_stack_push(&sb, cases[i].name, strlen(cases[i].name));
		CHECK_STREQ(sb.buf, cases[i].want);
		strbuf_addstr(&sb, " 10");
		CHECK_INT(folded_parse_line(sb.buf, sb.len, &fl), 0);
		CHECK_INT(fl.columns, 1);
		CHECK(fl.count[0] == 10);
		strbuf_release(&sb);
	}
}

TEST(ns_become_whole_us)
{
	struct folded_profile ns, us;

	folded_profile_init(&ns);
	folded_profile_init(&us);
	folded_profile_add(&ns, "b;read", 6, 0, 2500000);	/* 2500 us */
	folded_profile_add(&ns, "a;poll", 6, 0, 499);		/* rounds to 0: left out */
	folded_profile_add(&ns, "a;nanosleep", 11, 0, 500);	/* half a us rounds up */
	folded_profile_add(&ns, "c;futex", 7, 0, 1499);
	folded_profile_add_us(&us, &ns);
	CHECK_INT(folded_profile_size(&us), 3);
	CHECK_STREQ(intern_str(&us.stacks, 0), "a;nanosleep");	/* byte order */
	CHECK_STREQ(intern_str(&us.stacks, 1), "b;read");
	CHECK_STREQ(intern_str(&us.stacks, 2), "c;futex");
	CHECK(us.counts[0][0] == 1);
	CHECK(us.counts[0][1] == 2500);
	CHECK(us.counts[0][2] == 1);
	CHECK(us.weight.weight == FOLDED_WEIGHT_SAMPLES);	/* the caller's to set */
	folded_profile_release(&ns);
	folded_profile_release(&us);
}

TEST_MAIN("folded", parse_one_and_two_columns, profile_merges_and_sorts,
	  count_formatting_matches_perl, weight_header_round_trips, profile_read_takes_the_header,
	  stack_push_guards_count_like_names, units_header_carries_type_and_period,
	  ns_become_whole_us)
