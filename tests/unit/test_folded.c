/*
 * test_folded.c - unit tests for src/profile/folded: line parsing as
 * flamegraph.pl does it, merging, totals and sorting.
 */
#include "harness.h"

#include "core/alloc.h"
#include "core/cleanup.h"
#include "profile/folded.h"

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

TEST_MAIN("folded", parse_one_and_two_columns, profile_merges_and_sorts,
	  count_formatting_matches_perl)
