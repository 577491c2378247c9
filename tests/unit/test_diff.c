/*
 * test_diff.c - unit tests for src/diff: difffolded.pl's line regex, hex
 * stripping, Perl's -n arithmetic and number printing, the share
 * statistics against hand-computed values, the hotspot ranking, and the
 * fast three-column path (diffmerge) against the plain one.
 */
#include "harness.h"

#include <ctype.h>
#include <math.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/cleanup.h"
#include "diff/difffolded.h"
#include "diff/diffmerge.h"
#include "diff/hotspots.h"
#include "diff/significance.h"
#include "diff/compare.h"
#include "diff/table.h"

static int parse(const char *line, char *stack, double *count)
{
	const char *s;
	size_t len;

	if (difffolded_parse_line(line, strlen(line), &s, &len, count))
		return -1;
	memcpy(stack, s, len);
	stack[len] = '\0';
	return 0;
}

TEST(parse_line_like_the_perl_regex)
{
	char st[128];
	double c;

	CHECK_INT(parse("a;b 42", st, &c), 0);
	CHECK_STREQ(st, "a;b");
	CHECK_NEAR(c, 42, 0);
	/* greedy (.*): two counts make the first part of the stack */
	CHECK_INT(parse("a;b 1 2", st, &c), 0);
	CHECK_STREQ(st, "a;b 1");
	CHECK_NEAR(c, 2, 0);
	/* \s+? takes one blank; the others stay in the stack */
	CHECK_INT(parse("a  3", st, &c), 0);
	CHECK_STREQ(st, "a ");
	CHECK_INT(parse("a\t3", st, &c), 0);
	CHECK_STREQ(st, "a");
	CHECK_INT(parse(" 5", st, &c), 0);
	CHECK_STREQ(st, "");
	CHECK_INT(parse("x 20.", st, &c), 0);
	CHECK_NEAR(c, 20, 0);
	CHECK_INT(parse("x 1.25", st, &c), 0);
	CHECK_NEAR(c, 1.25, 0);
	CHECK_INT(parse("x .5", st, &c), -1);
	CHECK_INT(parse("x 1.2.3", st, &c), -1);
	CHECK_INT(parse("x -3", st, &c), -1);
	CHECK_INT(parse("42", st, &c), -1);
	CHECK_INT(parse("", st, &c), -1);
	CHECK_INT(parse("no count", st, &c), -1);
	CHECK_INT(parse("x 12345678901234567890123", st, &c), 0);
	CHECK_NEAR(c, 12345678901234567890123.0, 1e8);
}

static void strip(const char *in, const char *want)
{
	char out[256];
	size_t n = difffolded_strip_hex(out, in, strlen(in));

	out[n] = '\0';
	CHECK_STREQ(out, want);
}

TEST(strip_hex_like_the_perl_substitution)
{
	strip("a;0x234f2abc;b", "a;0x...;b");
	strip("0xF1BDE348", "0x...");
	strip("0x1", "0x...");
	strip("0x;0X12;0xg", "0x;0X12;0xg");
	strip("foo0xabc0x1", "foo0x...x1");
	strip("foo0xabc;0x1", "foo0x...;0x...");
	strip("0x0x12", "0x...x12");
	strip("00x5", "00x...");
	strip("", "");
}

/* s/0x[0-9a-fA-F]+/0x.../g, the obvious way */
static size_t naive_strip(char *dst, const char *s, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len) {
		if (i + 2 < len && s[i] == '0' && s[i + 1] == 'x' && isxdigit((unsigned char)s[i + 2])) {
			memcpy(dst + o, "0x...", 5);
			o += 5;
			for (i += 2; i < len && isxdigit((unsigned char)s[i]); i++)
				;
		} else {
			dst[o++] = s[i++];
		}
	}
	return o;
}

TEST(strip_hex_matches_naive_on_random_input)
{
	/* dense in 'x', and with runs long enough for the 8-byte copies */
	static const char *const alphabets[] = { "0x1aG;X0x", "0x1aG;X0abcdefghij;;f" };
	char in[80], a[200], b[200];
	unsigned seed = 12345;
	int round;

	for (round = 0; round < 40000; round++) {
		const char *alphabet = alphabets[round % 2];
		size_t len = (size_t)(rand_r(&seed) % (round % 2 ? 80 : 30)), i, na, nb;

		for (i = 0; i < len; i++)
			in[i] = alphabet[rand_r(&seed) % strlen(alphabet)];
		na = naive_strip(a, in, len);
		nb = difffolded_strip_hex(b, in, len);
		if (na != nb || memcmp(a, b, na)) {
			CHECK(!"strip differs from the naive version");
			fprintf(stderr, "    input '%.*s'\n", (int)len, in);
			break;
		}
	}
}

TEST(perl_number_printing)
{
	char buf[64];

	difffolded_format_count(buf, sizeof(buf), 0);
	CHECK_STREQ(buf, "0");
	difffolded_format_count(buf, sizeof(buf), 20);
	CHECK_STREQ(buf, "20");
	difffolded_format_count(buf, sizeof(buf), 14.2343983248722834234);
	CHECK_STREQ(buf, "14.2343983248723");
	/* integers print in full, as Perl prints IVs (%.15g would say 1e+15) */
	difffolded_format_count(buf, sizeof(buf), 1000000000000000.0);
	CHECK_STREQ(buf, "1000000000000000");
	difffolded_format_count(buf, sizeof(buf), 0.1 + 0.2);
	CHECK_STREQ(buf, "0.3");
}

TEST(normalize_truncates_like_perl_int)
{
	struct folded_profile p;

	folded_profile_init(&p);
	folded_profile_add(&p, "a", 1, 0, 3);
	folded_profile_add(&p, "b", 1, 0, 4);
	folded_profile_add(&p, "a", 1, 1, 10);
	CHECK_INT(difffolded_normalize(&p), 0);
	/* int(3 * 10 / 7) = 4, int(4 * 10 / 7) = 5 */
	CHECK_NEAR(p.counts[0][0], 4, 0);
	CHECK_NEAR(p.counts[0][1], 5, 0);
	CHECK_NEAR(p.total[0], 9, 0);
	folded_profile_release(&p);

	/* no samples before: nothing to scale (the script dies) */
	folded_profile_init(&p);
	folded_profile_add(&p, "a", 1, 0, 0);
	folded_profile_add(&p, "a", 1, 1, 5);
	CHECK_INT(difffolded_normalize(&p), -1);
	CHECK_NEAR(p.counts[0][0], 0, 0);
	folded_profile_release(&p);
}

TEST(merge_profiles_sorts_and_strips)
{
	struct folded_profile a, b, m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	folded_profile_init(&a);
	folded_profile_init(&b);
	folded_profile_init(&m);
	folded_profile_add(&a, "x;0x12", 6, 0, 2);
	folded_profile_add(&a, "x;0x34", 6, 0, 3);
	folded_profile_add(&a, "w", 1, 0, 5);
	folded_profile_add(&b, "x;0xff", 6, 0, 7);
	folded_profile_add(&b, "z", 1, 0, 1);
	difffolded_merge(&m, &a, 0, &b, 0, DIFFFOLDED_STRIP_HEX);
	CHECK_INT(m.columns, 2);
	f = open_memstream(&buf, &len);
	CHECK_INT(difffolded_write(&m, f), 0);
	fclose(f);
	CHECK_STREQ(buf, "w 5 0\nx;0x... 5 7\nz 0 1\n");
	free(buf);
	folded_profile_release(&a);
	folded_profile_release(&b);
	folded_profile_release(&m);
}

TEST(merge_normalizes_and_feeds_hotspots)
{
	struct folded_profile a, b, m;
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct hotspots h;
	struct share_test t;

	folded_profile_init(&a);
	folded_profile_init(&b);
	folded_profile_init(&m);
	folded_profile_add(&a, "main;f", 6, 0, 1);
	folded_profile_add(&a, "main;g", 6, 0, 3);
	folded_profile_add(&b, "main;f", 6, 0, 6);
	folded_profile_add(&b, "main;g", 6, 0, 2);
	difffolded_merge(&m, &a, 0, &b, 0, DIFFFOLDED_NORMALIZE);
	/* BEFORE scaled to AFTER's total 8: int(1 * 8 / 4) = 2, int(3 * 8 / 4) = 6 */
	CHECK_NEAR(m.counts[0][intern_find(&m.stacks, "main;f", 6)], 2, 0);
	CHECK_NEAR(m.counts[0][intern_find(&m.stacks, "main;g", 6)], 6, 0);
	CHECK_NEAR(m.total[0], 8, 0);
	CHECK_NEAR(m.total[1], 8, 0);

	/* a two-column profile: column 0 is one side, column 1 the other */
	hotspots_init(&h, &o);
	hotspots_add_profile(&h, 0, &m, 0);
	hotspots_add_profile(&h, 1, &m, 1);
	CHECK(hotspots_find(&h, "f") == intern_find(&h.names, "f", 1));
	CHECK(hotspots_find(&h, "nope") == UINT32_MAX);
	CHECK(hotspots_find(&h, "") == UINT32_MAX);
	hotspots_test(&h, hotspots_find(&h, "f"), HOTSPOT_SELF, &t);
	CHECK_NEAR(t.before.share, 0.25, 1e-15);
	CHECK_NEAR(t.after.share, 0.75, 1e-15);
	hotspots_test(&h, intern_find(&h.names, "main", 4), HOTSPOT_TOTAL, &t);
	CHECK_NEAR(t.delta, 0, 0);
	hotspots_release(&h);
	folded_profile_release(&a);
	folded_profile_release(&b);
	folded_profile_release(&m);
}

TEST(output_order_is_sorted_line_order)
{
	struct folded_profile p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	folded_profile_init(&p);
	/* "a\tb 1 0" sorts before "a 1 0" in LC_ALL=C sort ('\t' < ' ') */
	folded_profile_add(&p, "a", 1, 0, 1);
	folded_profile_add(&p, "a\tb", 3, 0, 1);
	folded_profile_add(&p, "a;b", 3, 0, 1);
	folded_profile_add(&p, "a ", 2, 0, 1);
	f = open_memstream(&buf, &len);
	CHECK_INT(difffolded_write(&p, f), 0);
	fclose(f);
	CHECK_STREQ(buf, "a\tb 1 0\na  1 0\na 1 0\na;b 1 0\n");
	free(buf);
	folded_profile_release(&p);
}

TEST(share_estimate_hand_computed)
{
	struct share_estimate e;

	/* 25 of 100: 0.25, sqrt(0.25 * 0.75 / 100) = 0.0433012702 */
	share_estimate(&e, 25, 100);
	CHECK_NEAR(e.share, 0.25, 1e-15);
	CHECK_NEAR(e.se, 0.04330127019, 1e-10);
	/* zero samples: share 0, se 0 */
	share_estimate(&e, 0, 0);
	CHECK_NEAR(e.share, 0, 0);
	CHECK_NEAR(e.se, 0, 0);
	/* all or nothing: se 0 */
	share_estimate(&e, 10, 10);
	CHECK_NEAR(e.share, 1, 0);
	CHECK_NEAR(e.se, 0, 0);
	CHECK_NEAR(share_se(0.5, 400), 0.025, 1e-15);
}

TEST(two_proportion_test_hand_computed)
{
	struct share_test t;

	/*
	 * 20/100 before, 40/100 after: delta 0.2;
	 * se = sqrt(.2*.8/100 + .4*.6/100) = sqrt(.004) = 0.0632455532;
	 * pooled .3: sqrt(.3*.7*.02) = 0.0648074070, z = 3.0860669992,
	 * p = erfc(z / sqrt 2) = 0.0020279
	 */
	share_test(&t, 20, 100, 40, 100);
	CHECK_NEAR(t.delta, 0.2, 1e-15);
	CHECK_NEAR(t.se, 0.0632455532, 1e-9);
	CHECK_NEAR(t.z, 3.0860669992, 1e-9);
	CHECK_NEAR(t.p_value, 0.0020279, 1e-6);
	/* the other direction: same p, negative z */
	share_test(&t, 40, 100, 20, 100);
	CHECK_NEAR(t.z, -3.0860669992, 1e-9);
	CHECK_NEAR(t.p_value, 0.0020279, 1e-6);
	/* identical shares: delta 0, p 1 */
	share_test(&t, 30, 100, 60, 200);
	CHECK_NEAR(t.delta, 0, 1e-15);
	CHECK_NEAR(t.p_value, 1, 1e-12);
	/* zero samples on one side: nothing significant */
	share_test(&t, 0, 0, 5, 10);
	CHECK_NEAR(t.z, 0, 0);
	CHECK_NEAR(t.p_value, 1, 0);
	CHECK_NEAR(t.delta, 0.5, 1e-15);
	/* both shares 0: no variance, p 1 */
	share_test(&t, 0, 50, 0, 60);
	CHECK_NEAR(t.p_value, 1, 0);
}

static uint32_t id_of(const struct hotspots *h, const char *name)
{
	return intern_find(&h->names, name, strlen(name));
}

TEST(recursion_counts_once_in_total)
{
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct hotspots h;
	uint32_t f;

	hotspots_init(&h, &o);
	hotspots_add_stack(&h, 0, "main;f;g;f;f", 12, 3);
	hotspots_add_stack(&h, 0, "main;g", 6, 1);
	f = id_of(&h, "f");
	CHECK(f != UINT32_MAX);
	CHECK_NEAR(h.funcs[f].total[0], 3, 0);
	CHECK_NEAR(h.funcs[f].self[0], 3, 0);
	CHECK_NEAR(h.funcs[id_of(&h, "g")].total[0], 4, 0);
	CHECK_NEAR(h.funcs[id_of(&h, "g")].self[0], 1, 0);
	CHECK_NEAR(h.funcs[id_of(&h, "main")].total[0], 4, 0);
	CHECK_NEAR(h.funcs[id_of(&h, "main")].self[0], 0, 0);
	CHECK_NEAR(hotspots_samples(&h, 0), 4, 0);
	hotspots_release(&h);
}

TEST(frame_name_normalisation)
{
	const char *s;
	size_t n;

	n = hotspot_frame_name("vfs_read_[k]", 12, HOTSPOT_STRIP_ANNOTATIONS, &s);
	CHECK_INT(n, 8);
	n = hotspot_frame_name("vfs_read_[k]", 12, 0, &s);
	CHECK_INT(n, 12);
	n = hotspot_frame_name("_[k]", 4, HOTSPOT_STRIP_ANNOTATIONS, &s);
	CHECK_INT(n, 4);
	n = hotspot_frame_name("a[]", 3, HOTSPOT_STRIP_ANNOTATIONS, &s);
	CHECK_INT(n, 3);
	n = hotspot_frame_name("hash.isra.0", 11, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 4);
	n = hotspot_frame_name("hash.constprop.0.isra.0", 23, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 4);
	n = hotspot_frame_name("hash.part.1.cold", 16, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 4);
	n = hotspot_frame_name("hash.cold", 9, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 4);
	n = hotspot_frame_name("hash.isra.0_[k]", 15,
			       HOTSPOT_STRIP_CLONES | HOTSPOT_STRIP_ANNOTATIONS, &s);
	CHECK_INT(n, 4);
	/* not clone suffixes: a version, a bare kind, a dotted name */
	n = hotspot_frame_name("libfoo.so.1", 11, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 11);
	n = hotspot_frame_name(".cold", 5, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 5);
	n = hotspot_frame_name("java.util.HashMap.partition", 27, HOTSPOT_STRIP_CLONES, &s);
	CHECK_INT(n, 27);
	n = hotspot_frame_name("hash.isra.0", 11, 0, &s);
	CHECK_INT(n, 11);
	n = hotspot_frame_name("libc.so.6`malloc", 16, HOTSPOT_STRIP_MODULE, &s);
	CHECK_INT(n, 6);
	CHECK(!memcmp(s, "malloc", 6));
}

static void fill_pair(struct hotspots *h)
{
	hotspots_add_stack(h, 0, "main;work;hash", 14, 100);
	hotspots_add_stack(h, 0, "main;work", 9, 300);
	hotspots_add_stack(h, 0, "main;io", 7, 600);
	hotspots_add_stack(h, 1, "main;work;hash", 14, 400);
	hotspots_add_stack(h, 1, "main;work", 9, 300);
	hotspots_add_stack(h, 1, "main;io", 7, 300);
}

TEST(rank_finds_hotter_and_cooler)
{
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct hotspot_rank_options ro = HOTSPOT_RANK_OPTIONS_INIT;
	struct hotspot_ranking r;
	struct hotspots h;

	hotspots_init(&h, &o);
	fill_pair(&h);
	hotspots_rank(&h, &ro, &r);
	/* hash: self 10% -> 40% (+30), total the same; work total 40 -> 70 */
	CHECK_INT(r.nr_hotter, 3);
	CHECK_STREQ(hotspots_name(&h, r.hotter[0].func), "hash");
	CHECK_INT(r.hotter[0].measure, HOTSPOT_SELF);
	CHECK_NEAR(r.hotter[0].test.delta, 0.30, 1e-12);
	CHECK_INT(r.hotter[0].confirmed, 1);
	CHECK_STREQ(hotspots_name(&h, r.hotter[1].func), "hash");
	CHECK_INT(r.hotter[1].measure, HOTSPOT_TOTAL);
	CHECK_STREQ(hotspots_name(&h, r.hotter[2].func), "work");
	CHECK_INT(r.hotter[2].measure, HOTSPOT_TOTAL);
	CHECK_INT(r.nr_cooler, 2);
	CHECK_STREQ(hotspots_name(&h, r.cooler[0].func), "io");
	CHECK_NEAR(r.cooler[0].test.delta, -0.30, 1e-12);
	hotspot_ranking_release(&r);

	/* a threshold equal to the delta includes it, despite rounding */
	ro.min_delta = 0.30;
	ro.confirm = 0.30;
	hotspots_rank(&h, &ro, &r);
	CHECK_INT(r.nr_hotter, 3);
	CHECK_INT(r.nr_cooler, 2);
	CHECK_INT(r.hotter[0].confirmed, 1);
	hotspot_ranking_release(&r);
	ro.confirm = 0.02;

	/* noise floor above every change: nothing left */
	ro.min_delta = 0.31;
	hotspots_rank(&h, &ro, &r);
	CHECK_INT(r.nr_hotter + r.nr_cooler, 0);
	hotspot_ranking_release(&r);

	/* top 1, self only */
	ro.min_delta = 0.01;
	ro.top = 1;
	ro.measures = HOTSPOT_MEASURE_BIT(HOTSPOT_SELF);
	hotspots_rank(&h, &ro, &r);
	CHECK_INT(r.nr_hotter, 1);
	CHECK_INT(r.nr_cooler, 1);
	CHECK_INT(r.cooler[0].measure, HOTSPOT_SELF);
	hotspot_ranking_release(&r);
	hotspots_release(&h);
}

TEST(confirm_needs_significance)
{
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct hotspot_rank_options ro = HOTSPOT_RANK_OPTIONS_INIT;
	struct hotspot_ranking r;
	struct hotspots h;

	/* 1/10 -> 2/10: +10 points but far from significant */
	hotspots_init(&h, &o);
	hotspots_add_stack(&h, 0, "a", 1, 1);
	hotspots_add_stack(&h, 0, "b", 1, 9);
	hotspots_add_stack(&h, 1, "a", 1, 2);
	hotspots_add_stack(&h, 1, "b", 1, 8);
	hotspots_rank(&h, &ro, &r);
	CHECK(r.nr_hotter >= 1);
	CHECK_STREQ(hotspots_name(&h, r.hotter[0].func), "a");
	CHECK_INT(r.hotter[0].significant, 0);
	CHECK_INT(r.hotter[0].confirmed, 0);
	hotspot_ranking_release(&r);
	hotspots_release(&h);
}

TEST(identical_profiles_have_zero_deltas)
{
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct hotspot_rank_options ro = HOTSPOT_RANK_OPTIONS_INIT;
	struct hotspot_ranking r;
	struct hotspots h;
	struct share_test t;
	size_t i;

	hotspots_init(&h, &o);
	hotspots_add_stack(&h, 0, "main;a;b", 8, 7);
	hotspots_add_stack(&h, 0, "main;c", 6, 3);
	hotspots_add_stack(&h, 1, "main;a;b", 8, 7);
	hotspots_add_stack(&h, 1, "main;c", 6, 3);
	for (i = 0; i < hotspots_size(&h); i++) {
		hotspots_test(&h, (uint32_t)i, HOTSPOT_TOTAL, &t);
		CHECK_NEAR(t.delta, 0, 0);
		CHECK_NEAR(t.p_value, 1, 1e-12);
		hotspots_test(&h, (uint32_t)i, HOTSPOT_SELF, &t);
		CHECK_NEAR(t.delta, 0, 0);
	}
	ro.min_delta = 0;
	hotspots_rank(&h, &ro, &r);
	CHECK_INT(r.nr_hotter + r.nr_cooler, 0);
	hotspot_ranking_release(&r);
	hotspots_release(&h);
}

TEST(period_scales_the_sample_numbers)
{
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct hotspots h;
	struct share_test t;

	o.period = 1000;
	hotspots_init(&h, &o);
	hotspots_add_stack(&h, 0, "a", 1, 20000);
	hotspots_add_stack(&h, 0, "b", 1, 80000);
	hotspots_add_stack(&h, 1, "a", 1, 40000);
	hotspots_add_stack(&h, 1, "b", 1, 60000);
	CHECK_NEAR(hotspots_samples(&h, 0), 100, 1e-12);
	hotspots_test(&h, id_of(&h, "a"), HOTSPOT_SELF, &t);
	/* the same as 20/100 vs 40/100 */
	CHECK_NEAR(t.z, 3.0860669992, 1e-9);
	hotspots_release(&h);
}

TEST(function_share_probe)
{
	struct hotspot_options o = HOTSPOT_OPTIONS_INIT;
	struct folded_profile p;
	struct hotspot_share s;

	folded_profile_init(&p);
	folded_profile_add(&p, "main;f;g;f", 10, 0, 30);
	folded_profile_add(&p, "main;g", 6, 0, 50);
	folded_profile_add(&p, "main;h_[k]", 10, 0, 20);
	hotspot_function_share(&p, 0, "f", &o, &s);
	CHECK_INT(s.found, 1);
	CHECK_NEAR(s.total.share, 0.30, 1e-15);
	CHECK_NEAR(s.self.share, 0.30, 1e-15);
	CHECK_NEAR(s.total.se, sqrt(0.3 * 0.7 / 100), 1e-15);
	hotspot_function_share(&p, 0, "g", &o, &s);
	CHECK_NEAR(s.total.share, 0.80, 1e-15);
	CHECK_NEAR(s.self.share, 0.50, 1e-15);
	hotspot_function_share(&p, 0, "h", &o, &s);
	CHECK_INT(s.found, 0);
	CHECK_NEAR(s.total.share, 0, 0);
	o.flags = HOTSPOT_STRIP_ANNOTATIONS;
	hotspot_function_share(&p, 0, "h", &o, &s);
	CHECK_INT(s.found, 1);
	CHECK_NEAR(s.self.share, 0.20, 1e-15);
	folded_profile_release(&p);
}

TEST(read_file_adds_empty_stack_for_bad_lines)
{
	char *dir = tempdir_create("trail-unit");
	char *path = xstrfmt("%s/in.folded", dir);
	FILE *f = fopen(path, "w");
	struct folded_profile p;
	struct difffolded_stats st = { 0 };

	fputs("a;0x1f 3\nbroken\n\na;0x2e 4\n", f);
	fclose(f);
	folded_profile_init(&p);
	CHECK_INT(difffolded_read(&p, 0, path, DIFFFOLDED_STRIP_HEX, &st), 0);
	CHECK_INT(st.lines, 4);
	CHECK_INT(st.stacks, 2);
	CHECK_INT(st.malformed, 1);
	CHECK_INT(folded_profile_size(&p), 2);
	CHECK(intern_find(&p.stacks, "", 0) != UINT32_MAX);
	CHECK_NEAR(p.counts[0][intern_find(&p.stacks, "a;0x...", 7)], 7, 0);
	CHECK_INT(difffolded_read(&p, 1, "/nonexistent/x", 0, NULL), -1);
	folded_profile_release(&p);
	tempdir_remove(dir);
	free(path);
	free(dir);
}

/* A random folded file whose stacks share prefixes, end in blanks, are
 * prefixes of each other ("a;b" and "a;b 1": the count follows the last
 * blank), have hex addresses, fractional counts and malformed lines. */
static const char *const frames[] = {
	"a", "ab", "0x1f", "", "a b", "a\tb", "0xAb3", "main", "m", "x 1", " ",	/* the first four have no blank */
};

static void write_random_folded(const char *path, unsigned *seed, int lines, unsigned nframes)
{
	FILE *f = fopen(path, "w");
	int i, d;

	for (i = 0; i < lines; i++) {
		int depth = (int)(rand_r(seed) % 6);

		if (rand_r(seed) % 50 == 0) {
			fputs("malformed\n", f);
			continue;
		}
		fputs("root", f);
		for (d = 0; d < depth; d++)
			fprintf(f, ";%s", frames[rand_r(seed) % nframes]);
		if (nframes > 4 && rand_r(seed) % 4 == 0)
			fprintf(f, " %u", rand_r(seed) % 3);
		if (rand_r(seed) % 10 == 0)
			fprintf(f, " %u.%u\n", rand_r(seed) % 100, rand_r(seed) % 10);
		else
			fprintf(f, " %u\n", rand_r(seed) % 1000);
	}
	fclose(f);
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Rewrite path with its lines in byte order ('trail collapse's), or
 * gzip-compressed (read through the line reader instead of mapped).
 */
static void rewrite_folded(const char *path, int gzip)
{
	char **lines = NULL, buf[512];
	size_t nr = 0, alloc = 0, i;
	FILE *f = fopen(path, "r");

	while (fgets(buf, sizeof(buf), f)) {
		ALLOC_GROW(lines, nr + 1, alloc);
		lines[nr++] = xstrdup(buf);
	}
	fclose(f);
	if (gzip) {
		gzFile gz = gzopen(path, "wb");

		for (i = 0; i < nr; i++)
			gzputs(gz, lines[i]);
		gzclose(gz);
	} else {
		qsort(lines, nr, sizeof(*lines), cmp_lines);
		f = fopen(path, "w");
		for (i = 0; i < nr; i++)
			fputs(lines[i], f);
		fclose(f);
	}
	for (i = 0; i < nr; i++)
		free(lines[i]);
	free(lines);
}

static char *slurp_tmp(FILE *f)
{
	long n = ftell(f);
	char *buf = xmalloc((size_t)n + 1);

	rewind(f);
	buf[fread(buf, 1, (size_t)n, f)] = '\0';
	return buf;
}

TEST(plain_writer_orders_lines_with_nul_bytes)
{
	/* "\0a b 0 3" against "\0a 0 2": the lines differ after the NUL (a
	 * string compare saw them equal and kept the input order) */
	struct folded_profile p;
	FILE *f = tmpfile();
	char *out;

	folded_profile_init(&p);
	folded_profile_add(&p, "\0a b", 4, 1, 3);
	folded_profile_add(&p, "\0a", 2, 1, 2);
	p.columns = 2;
	CHECK_INT(difffolded_write(&p, f), 0);
	out = slurp_tmp(f);
	CHECK(!memcmp(out, "\0a 0 2\n\0a b 0 3\n", 17));
	free(out);
	fclose(f);
	folded_profile_release(&p);
}

TEST(fast_path_matches_plain_path)
{
	char *dir = tempdir_create("trail-unit");
	char *b = xstrfmt("%s/before.folded", dir), *a = xstrfmt("%s/after.folded", dir);
	unsigned seed = 777, flags;
	int round;

	for (round = 0; round < 8; round++) {
		/*
		 * odd rounds: BEFORE in order, and few stacks of AFTER new (a
		 * few frames without blanks), so they are merged into it
		 */
		unsigned nframes = round & 1 ? 4 : sizeof(frames) / sizeof(*frames);

		write_random_folded(b, &seed, 200 + 300 * round, nframes);
		write_random_folded(a, &seed, 100 + 400 * round, nframes);
		if (round & 1)
			rewrite_folded(b, 0);
		if (round % 4 == 3)
			rewrite_folded(a, 1);
		for (flags = 0; flags < 4; flags++) {
			struct difffolded_stats st1[2] = { { 0 }, { 0 } };
			struct difffolded_stats st2[2] = { { 0 }, { 0 } };
			struct folded_profile p;
			struct diffmerge m;
			FILE *f1 = tmpfile(), *f2 = tmpfile();
			char *o1, *o2;

			folded_profile_init(&p);
			CHECK_INT(difffolded_read(&p, 0, b, flags & DIFFFOLDED_STRIP_HEX, &st1[0]), 0);
			CHECK_INT(difffolded_read(&p, 1, a, flags & DIFFFOLDED_STRIP_HEX, &st1[1]), 0);
			p.columns = 2;
			if (flags & DIFFFOLDED_NORMALIZE)
				difffolded_normalize(&p);
			CHECK_INT(difffolded_write(&p, f1), 0);
			CHECK_INT(diffmerge_read(&m, b, a, flags & DIFFFOLDED_STRIP_HEX, st2), 0);
			if (flags & DIFFFOLDED_NORMALIZE)
				diffmerge_normalize(&m);
			CHECK_INT(diffmerge_write(&m, f2), 0);
			fflush(f1);
			o1 = slurp_tmp(f1);
			o2 = slurp_tmp(f2);
			CHECK(strlen(o1) > 1000);
			CHECK(!strcmp(o1, o2));
			CHECK_INT(st2[0].stacks, st1[0].stacks);
			CHECK_INT(st2[1].malformed, st1[1].malformed);
			free(o1);
			free(o2);
			fclose(f1);
			fclose(f2);
			diffmerge_release(&m);
			folded_profile_release(&p);
		}
	}
	tempdir_remove(dir);
	free(a);
	free(b);
	free(dir);
}


/* One profile of "stack count" lines with a samples header of period ns. */
static void profile_of(struct folded_profile *p, const char *text, double period)
{
	folded_profile_init(p);
	while (*text) {
		const char *nl = strchr(text, '\n');
		struct folded_line fl;

		if (!folded_parse_line(text, (size_t)(nl - text), &fl))
			folded_profile_add(p, fl.stack, fl.stack_len, 0, fl.count[0]);
		text = nl + 1;
	}
	if (period > 0) {
		p->weight.weight = FOLDED_WEIGHT_SAMPLES;
		p->weight.period = period;
		snprintf(p->weight.period_unit, sizeof(p->weight.period_unit), "ns");
	}
}

TEST(time_basis_leaves_unchanged_functions_alone)
{
	/* sort keeps 400 samples; check grows 100 -> 500: sort's share falls */
	static const char *before = "p;main;sort 400\np;main;check 100\n";
	static const char *after = "p;main;sort 400\np;main;check 500\n";
	struct folded_profile runs[2];
	const char *names[2] = { "b", "a" };
	struct diff_table_opts o = { 0 };
	struct diff_table t;
	struct diff_source src;
	struct folded_weight_info w[2];

	o.min_delta = 0.01;
	o.confirm = 0.02;
	o.alpha = 0.05;
	o.basis = -1;
	o.measures = 3;
	profile_of(&runs[0], before, 1e6);
	profile_of(&runs[1], after, 1e6);
	diff_source_profiles(&src, runs, 2, names, w);
	CHECK_INT(diff_table_build(&t, &src, 1, 1, &o), 0);
	CHECK_INT(t.basis, DIFF_BY_TIME);
	CHECK_INT(t.error, DIFF_ERROR_SAMPLING);
	/* one row: check by self; main's, p's and check's inclusive rows fold */
	CHECK_INT(t.nr_hotter, 1);
	CHECK_INT(t.nr_cooler, 0);
	CHECK_STREQ(diff_table_name(&t, t.hotter[0].func), "check");
	CHECK_INT(t.hotter[0].measure, HOTSPOT_SELF);
	CHECK_NEAR(t.hotter[0].t.delta, 400 * 1e6, 1e-3);
	diff_table_release(&t);
	/* by share, sort's share fell from 80% to 44%: listed as cooler */
	o.basis = DIFF_BY_SHARE;
	CHECK_INT(diff_table_build(&t, &src, 1, 1, &o), 0);
	CHECK(t.nr_cooler >= 1);
	CHECK_STREQ(diff_table_name(&t, t.cooler[0].func), "sort");
	diff_table_release(&t);
	/* no period on one side: shares, and why */
	runs[1].weight.period = 0;
	diff_source_profiles(&src, runs, 2, names, w);
	o.basis = -1;
	CHECK_INT(diff_table_build(&t, &src, 1, 1, &o), 0);
	CHECK_INT(t.basis, DIFF_BY_SHARE);
	CHECK(strstr(t.why_share, "'a'") != NULL);
	diff_table_release(&t);
	o.basis = DIFF_BY_TIME;
	CHECK_INT(diff_table_build(&t, &src, 1, 1, &o), -1);
	folded_profile_release(&runs[0]);
	folded_profile_release(&runs[1]);
}

TEST(runs_use_welch_and_bh_accepts_p_zero)
{
	/* three runs a side; the spread makes a 5% change undecided */
	double xb[3] = { 100, 140, 60 }, xa[3] = { 105, 145, 65 }, n[3] = { 1000, 1000, 1000 };
	double k[3] = { 1, 1, 1 }, ps[3] = { 0, 0.5, 0.9 };
	struct diff_side b = { xb, n, k, 3 }, a = { xa, n, k, 3 };
	struct diff_test t;

	diff_compare(&b, &a, DIFF_BY_TIME, &t);
	CHECK_INT(t.error, DIFF_ERROR_RUNS);
	CHECK(t.df > 0);
	CHECK_NEAR(t.delta, 5, 1e-9);
	CHECK(t.p > 0.5);
	/* one run a side: the Poisson z on 100 vs 105 is not significant either */
	b.runs = a.runs = 1;
	diff_compare(&b, &a, DIFF_BY_TIME, &t);
	CHECK_INT(t.error, DIFF_ERROR_SAMPLING);
	CHECK_NEAR(t.se, sqrt(205), 1e-9);
	/* a p of exactly 0 is a discovery; none at all gives -1 */
	CHECK(diff_bh_cut(ps, 3, 0.05) == 0);
	ps[0] = 0.2;
	CHECK(diff_bh_cut(ps, 3, 0.05) < 0);
	CHECK(diff_prefilter(0.004, 0.004, 0.01) == 0);
	CHECK(diff_prefilter(0.006, 0.004, 0.01) == 1);
}

TEST_MAIN("diff", time_basis_leaves_unchanged_functions_alone, runs_use_welch_and_bh_accepts_p_zero,
	  parse_line_like_the_perl_regex, strip_hex_like_the_perl_substitution,
	  strip_hex_matches_naive_on_random_input,
	  perl_number_printing, normalize_truncates_like_perl_int,
	  merge_profiles_sorts_and_strips, merge_normalizes_and_feeds_hotspots,
	  output_order_is_sorted_line_order,
	  share_estimate_hand_computed, two_proportion_test_hand_computed,
	  recursion_counts_once_in_total, frame_name_normalisation,
	  rank_finds_hotter_and_cooler, confirm_needs_significance,
	  identical_profiles_have_zero_deltas, period_scales_the_sample_numbers,
	  function_share_probe, read_file_adds_empty_stack_for_bad_lines,
	  plain_writer_orders_lines_with_nul_bytes, fast_path_matches_plain_path)
