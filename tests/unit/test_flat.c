/*
 * test_flat.c - unit tests for src/profile/flat and src/profile/explain:
 * self/total with recursion counted once per stack, sort orders, and each
 * reading aid on stacks with known answers.
 */
#include "harness.h"

#include "core/strbuf.h"
#include "profile/explain.h"
#include "profile/flat.h"

static void add(struct folded_profile *p, const char *stack, double count)
{
	folded_profile_add(p, stack, strlen(stack), 0, count);
}

static uint32_t id(const struct flat_profile *f, const char *name)
{
	return intern_find(&f->names, name, strlen(name));
}

TEST(self_and_total_count_recursion_once)
{
	struct folded_profile p;
	struct flat_profile f;

	folded_profile_init(&p);
	add(&p, "main;r;r;r", 4);
	add(&p, "main;r;x", 2);
	add(&p, "main", 1);
	add(&p, "zero;count", 0);
	flat_profile_build(&f, &p, 0);
	CHECK_INT(f.nr_stacks, 3);
	CHECK_NEAR(f.total, 7, 0);
	CHECK_NEAR(f.funcs[id(&f, "r")].total, 6, 0);
	CHECK_NEAR(f.funcs[id(&f, "r")].self, 4, 0);
	CHECK_NEAR(f.funcs[id(&f, "main")].total, 7, 0);
	CHECK_NEAR(f.funcs[id(&f, "main")].self, 1, 0);
	CHECK_NEAR(f.funcs[id(&f, "x")].self, 2, 0);
	CHECK(id(&f, "zero") == UINT32_MAX);
	flat_profile_release(&f);
	folded_profile_release(&p);
}

TEST(sort_orders_and_ties)
{
	struct folded_profile p;
	struct flat_profile f;
	uint32_t *ids;
	size_t n;

	folded_profile_init(&p);
	add(&p, "m;b", 3);
	add(&p, "m;a", 3);
	add(&p, "m;c;d", 5);
	flat_profile_build(&f, &p, 0);
	ids = flat_profile_sorted(&f, FLAT_SORT_SELF, &n);
	CHECK_INT(n, 5);
	CHECK_STREQ(intern_str(&f.names, ids[0]), "d");
	CHECK_STREQ(intern_str(&f.names, ids[1]), "a");	/* tie with b: by name */
	CHECK_STREQ(intern_str(&f.names, ids[2]), "b");
	CHECK_STREQ(intern_str(&f.names, ids[3]), "m");	/* self 0, total 11 */
	free(ids);
	ids = flat_profile_sorted(&f, FLAT_SORT_TOTAL, &n);
	CHECK_STREQ(intern_str(&f.names, ids[0]), "m");
	CHECK_STREQ(intern_str(&f.names, ids[1]), "d");	/* tie with c: self 5 > 0 */
	CHECK_STREQ(intern_str(&f.names, ids[2]), "c");
	free(ids);
	ids = flat_profile_sorted(&f, FLAT_SORT_NAME, &n);
	CHECK_STREQ(intern_str(&f.names, ids[0]), "a");
	CHECK_STREQ(intern_str(&f.names, ids[4]), "m");
	free(ids);
	flat_profile_release(&f);
	folded_profile_release(&p);
}

TEST(explain_findings)
{
	struct folded_profile p;
	struct flat_profile f;
	struct explain_options o;
	struct explain_report r;
	struct strbuf sb;
	char deep[512];
	int i;

	folded_profile_init(&p);
	/* plateau: hot 60 of 100; motif: helper under a, b, c (3 callers) */
	add(&p, "app;main;hot", 60);
	add(&p, "app;main;a;helper", 5);
	add(&p, "app;main;b;helper", 5);
	add(&p, "app;main;c;helper", 5);
	add(&p, "app;main;c", 5);
	/* broken: an [unknown] frame, and a single frame below the process */
	add(&p, "app;[unknown];x", 8);
	add(&p, "app;lonely", 2);
	/* a tower: 40 frames, 30 of them rec */
	strcpy(deep, "app;main");
	for (i = 0; i < 30; i++)
		strcat(deep, ";rec");
	for (i = 0; i < 8; i++)
		strcat(deep, ";w");
	add(&p, deep, 10);
	flat_profile_build(&f, &p, 0);
	CHECK(explain_guess_process_root(&f));
	explain_options_init(&o);
	o.process_root = 1;
	explain_profile(&r, &f, &o);
	CHECK_NEAR(r.total, 100, 0);
	/* self >= 5%: hot 60, helper 15, w 10, x 8, c 5 (5 is the limit: kept) */
	CHECK_INT(r.nr_plateaus, 5);
	CHECK_STREQ(intern_str(&f.names, r.plateaus[0].func), "hot");
	CHECK_STREQ(intern_str(&f.names, r.plateaus[1].func), "helper");
	CHECK_STREQ(intern_str(&f.names, r.plateaus[2].func), "w");
	CHECK_STREQ(intern_str(&f.names, r.plateaus[4].func), "c");
	CHECK_INT(r.depth_p50, 3);
	CHECK_INT(r.depth_max, 40);
	CHECK_INT(r.tower_depth, 16);
	CHECK_INT(r.nr_towers, 1);
	CHECK_INT(r.towers[0].depth, 40);
	CHECK_INT(r.towers[0].repeats, 30);
	CHECK_STREQ(intern_str(&f.names, r.towers[0].repeated), "rec");
	CHECK_INT(r.nr_motifs, 1);
	CHECK_STREQ(intern_str(&f.names, r.motifs[0].func), "helper");
	CHECK_INT(r.motifs[0].callers, 3);
	CHECK_NEAR(r.motifs[0].total, 15, 0);
	CHECK_NEAR(r.unknown, 8, 0);
	CHECK_NEAR(r.single, 2, 0);
	CHECK_NEAR(r.broken, 10, 0);
	strbuf_init(&sb, 0);
	explain_write_text(&sb, &r, &f);
	CHECK(strstr(sb.buf, "what to do") != NULL);
	strbuf_setlen(&sb, 0);
	explain_write_json(&sb, &r, &f);
	CHECK(strstr(sb.buf, "\"heaviest_caller\": \"a\"") != NULL);
	strbuf_release(&sb);
	explain_report_release(&r);
	/* a raised caller threshold drops the motif */
	o.motif_callers = 4;
	explain_profile(&r, &f, &o);
	CHECK_INT(r.nr_motifs, 0);
	explain_report_release(&r);
	flat_profile_release(&f);
	folded_profile_release(&p);
}

TEST(process_root_guess)
{
	struct folded_profile p;
	struct flat_profile f;

	folded_profile_init(&p);
	add(&p, "main;a;main", 1);	/* the root reappears: not a process name */
	add(&p, "main;b", 1);
	flat_profile_build(&f, &p, 0);
	CHECK(!explain_guess_process_root(&f));
	flat_profile_release(&f);
	folded_profile_release(&p);
}

TEST(empty_profile)
{
	struct folded_profile p;
	struct flat_profile f;
	struct explain_options o;
	struct explain_report r;
	struct strbuf sb;
	uint32_t *ids;
	size_t n;

	folded_profile_init(&p);
	flat_profile_build(&f, &p, 0);
	CHECK_INT(f.nr_stacks, 0);
	ids = flat_profile_sorted(&f, FLAT_SORT_TOTAL, &n);
	CHECK_INT(n, 0);
	free(ids);
	CHECK(!explain_guess_process_root(&f));
	explain_options_init(&o);
	explain_profile(&r, &f, &o);
	CHECK_INT(r.nr_plateaus + r.nr_towers + r.nr_motifs, 0);
	strbuf_init(&sb, 0);
	explain_write_json(&sb, &r, &f);
	CHECK(strstr(sb.buf, "\"samples\": 0") != NULL);
	strbuf_release(&sb);
	explain_report_release(&r);
	flat_profile_release(&f);
	folded_profile_release(&p);
}

TEST_MAIN("flat", self_and_total_count_recursion_once, sort_orders_and_ties, explain_findings,
	  process_root_guess, empty_profile)
