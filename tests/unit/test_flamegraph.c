/*
 * test_flamegraph.c - unit tests for src/flamegraph: merging stacks into
 * the tree (sorted, unsorted, flame chart, --reverse, --base, --factor,
 * differential columns), layout geometry and pruning, flamegraph.pl's name
 * order, palettes, the --cp map and the noise test.
 */
#include "harness.h"

#include "core/alloc.h"
#include "core/cleanup.h"
#include "flamegraph/layout.h"
#include "flamegraph/noise.h"
#include "flamegraph/palette.h"
#include "flamegraph/tree.h"

#include <math.h>

static void read_str(struct fg_tree *t, const char *s)
{
	fg_tree_read_buffer(t, s, strlen(s));
}

/* The node reached from the root by the ';'-separated path, or FG_NONE. */
static uint32_t find(const struct fg_tree *t, const char *path)
{
	uint32_t node = 0;
	char *copy = xstrdup(path), *save = NULL, *tok;

	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		uint32_t k;

		for (k = t->nodes[node].first_child; k != FG_NONE; k = t->nodes[k].next_sibling)
			if (!strcmp(fg_node_name(t, k), tok))
				break;
		if (k == FG_NONE) {
			node = FG_NONE;
			break;
		}
		node = k;
	}
	free(copy);
	return node;
}

TEST(tree_merges_sorted_and_unsorted_alike)
{
	const char *sorted = "a;b;c 1\na;b;d 2\na;e 3\nf 4\n";
	const char *unsorted = "a;e 3\na;b;d 2\nf 4\na;b;c 1\n";
	struct fg_tree s, u;

	fg_tree_init(&s, NULL);
	fg_tree_init(&u, NULL);
	read_str(&s, sorted);
	read_str(&u, unsorted);
	CHECK_INT(s.nr, u.nr);
	CHECK_INT(s.nr, 7);
	CHECK_NEAR(s.nodes[0].total[0], 10, 0);
	CHECK_NEAR(u.nodes[find(&u, "a;b")].total[0], 3, 0);
	CHECK_NEAR(s.nodes[find(&s, "a;b")].total[0], 3, 0);
	CHECK_NEAR(u.nodes[find(&u, "a")].self[0], 0, 0);
	CHECK_INT(u.max_depth, 3);
	CHECK_INT(u.columns, 1);
	fg_tree_release(&s);
	fg_tree_release(&u);
}

TEST(tree_repeated_and_prefix_stacks)
{
	struct fg_tree t;

	fg_tree_init(&t, NULL);
	read_str(&t, "a;b 1\na;b 2\na 5\na;b;c 1\na;bc 7\n");
	CHECK_NEAR(t.nodes[find(&t, "a;b")].total[0], 4, 0);
	CHECK_NEAR(t.nodes[find(&t, "a;b")].self[0], 3, 0);
	CHECK_NEAR(t.nodes[find(&t, "a")].self[0], 5, 0);
	CHECK_NEAR(t.nodes[find(&t, "a;bc")].total[0], 7, 0);
	CHECK_NEAR(t.nodes[find(&t, "a")].total[0], 16, 0);
	fg_tree_release(&t);
}

TEST(tree_counts_malformed_lines)
{
	struct fg_tree t;

	fg_tree_init(&t, NULL);
	read_str(&t, "a;b 1\nnot a count\n\nx;y 2.5\n-3\n");
	CHECK_INT(t.malformed, 2);
	CHECK_INT(t.lines, 5);
	CHECK_NEAR(t.nodes[0].total[0], 3.5, 1e-12);
	fg_tree_release(&t);
}

TEST(tree_differential_columns)
{
	struct fg_tree t;
	uint32_t b;

	fg_tree_init(&t, NULL);
	read_str(&t, "a;b 10 20\na;c 5 0\na;d 3\n");
	CHECK_INT(t.columns, 2);
	b = find(&t, "a;b");
	CHECK_NEAR(t.nodes[b].total[0], 10, 0);
	CHECK_NEAR(t.nodes[b].total[1], 20, 0);
	CHECK_NEAR(t.nodes[find(&t, "a;c")].total[1], 0, 0);
	/* a one-column line in differential input is unchanged */
	CHECK_NEAR(t.nodes[find(&t, "a;d")].total[0], 3, 0);
	CHECK_NEAR(t.nodes[find(&t, "a;d")].total[1], 3, 0);
	CHECK_NEAR(t.nodes[0].total[0], 18, 0);
	CHECK_NEAR(t.nodes[0].total[1], 23, 0);
	fg_tree_release(&t);
}

TEST(tree_reverse_base_factor)
{
	struct fg_tree_options o = { 0 };
	struct fg_tree t;

	o.reverse = 1;
	fg_tree_init(&t, &o);
	read_str(&t, "a;b;c 1\nx;b;c 2\n");
	CHECK(find(&t, "c;b;a") != FG_NONE);
	CHECK_NEAR(t.nodes[find(&t, "c;b")].total[0], 3, 0);
	fg_tree_release(&t);

	memset(&o, 0, sizeof(o));
	o.base = "b";
	o.factor = 2;
	fg_tree_init(&t, &o);
	read_str(&t, "a;b;c 1\nx;b;d 2\nq;r 5\nb 1\n");
	CHECK_INT(t.dropped, 1);
	CHECK_NEAR(t.nodes[find(&t, "b")].total[0], 8, 0);
	CHECK_NEAR(t.nodes[find(&t, "b;d")].total[0], 4, 0);
	CHECK(find(&t, "a") == FG_NONE);
	fg_tree_release(&t);
}

TEST(tree_flamechart_keeps_order)
{
	struct fg_tree_options o = { 0 };
	struct fg_tree t;
	uint32_t a, k;
	int n = 0;

	o.flamechart = 1;
	fg_tree_init(&t, &o);
	read_str(&t, "a;b 1\na;b 1\na;c 1\na;b 1\n");
	a = find(&t, "a");
	for (k = t.nodes[a].first_child; k != FG_NONE; k = t.nodes[k].next_sibling)
		n++;
	/* b, c, b: only consecutive stacks merge */
	CHECK_INT(n, 3);
	CHECK_NEAR(t.nodes[t.nodes[a].first_child].total[0], 2, 0);
	fg_tree_release(&t);
}

TEST(name_order_matches_line_sort)
{
	/* flamegraph.pl sorts lines: "f.isra;x" < "f;x" because '.' < ';' */
	CHECK(fg_name_cmp("f.isra", 6, "f", 1) < 0);
	CHECK(fg_name_cmp("f", 1, "f_x", 3) < 0);
	CHECK(fg_name_cmp("f", 1, "f", 1) == 0);
	CHECK(fg_name_cmp("b", 1, "a", 1) > 0);
}

TEST(layout_geometry)
{
	struct fg_tree t;
	struct fg_layout l;
	struct fg_layout_options o = { 0 };
	uint32_t i;

	fg_tree_init(&t, NULL);
	read_str(&t, "m;z 30\nm;a;x 10\nm;a 20\nm 40\nn 1\n");
	o.width = 1000;
	o.minwidth = 0;
	fg_layout_build(&l, &t, &o);
	CHECK_INT(l.nr, t.nr);
	CHECK_NEAR(l.timemax[1], 101, 0);
	for (i = 1; i < l.nr; i++) {
		const struct fg_frame *f = &l.frames[i], *p = &l.frames[f->parent];

		CHECK(f->parent < i);
		CHECK_INT(f->depth, p->depth + 1);
		CHECK(f->x[1] >= p->x[1]);
		CHECK(f->x[1] + f->w[1] <= p->x[1] + p->w[1] + 1e-9);
	}
	/* children ordered by name from the parent's left edge: m;a before m;z */
	CHECK_STREQ(fg_node_name(&t, l.frames[2].node), "a");
	CHECK_NEAR(l.frames[2].x[1], 0, 0);
	CHECK_NEAR(l.frames[2].w[1], 30, 0);
	CHECK_STREQ(fg_node_name(&t, l.frames[4].node), "z");
	CHECK_NEAR(l.frames[4].x[1], 30, 0);
	CHECK_STREQ(fg_node_name(&t, l.frames[5].node), "n");
	CHECK_NEAR(l.frames[5].x[1], 100, 0);
	fg_layout_release(&l);

	/* 1 of 101 samples at 1000 px is 9.9 px: pruned at minwidth 10 */
	o.minwidth = 10;
	fg_layout_build(&l, &t, &o);
	CHECK_INT(l.nr, t.nr - 1);
	CHECK_INT(l.pruned, 1);
	fg_layout_release(&l);
	o.minwidth = 25;
	o.minwidth_percent = 1;
	fg_layout_build(&l, &t, &o);
	for (i = 0; i < l.nr; i++)
		CHECK(l.frames[i].w[1] >= 25.25);
	fg_layout_release(&l);
	/* --total: a larger total to draw against */
	o.minwidth = 0;
	o.total = 202;
	fg_layout_build(&l, &t, &o);
	CHECK_NEAR(l.timemax[1], 202, 0);
	fg_layout_release(&l);
	fg_tree_release(&t);
}

TEST(layout_keeps_gone_frames_in_differential)
{
	struct fg_tree t;
	struct fg_layout l;
	struct fg_layout_options o = { 0 };

	fg_tree_init(&t, NULL);
	read_str(&t, "m;gone 50 0\nm;kept 50 100\n");
	o.width = 1000;
	o.minwidth = 0.1;
	fg_layout_build(&l, &t, &o);
	CHECK_INT(l.nr, 3);	/* all, m, kept */
	fg_layout_release(&l);
	o.both = 1;
	fg_layout_build(&l, &t, &o);
	CHECK_INT(l.nr, 4);
	CHECK_NEAR(l.frames[2].w[0], 50, 0);
	CHECK_NEAR(l.frames[2].w[1], 0, 0);
	CHECK_NEAR(l.frames[3].x[0], 50, 0);
	CHECK_NEAR(l.frames[3].x[1], 0, 0);
	fg_layout_release(&l);
	fg_tree_release(&t);
}

TEST(palettes_are_deterministic)
{
	const struct fg_palette *hot = fg_palette_find("hot"), *java = fg_palette_find("java");
	struct fg_rgb a = fg_palette_color(hot, "memcpy", 6), b = fg_palette_color(hot, "memcpy", 6);
	struct fg_rgb c = fg_palette_color(hot, "memset", 6);

	CHECK(hot && java);
	CHECK(!fg_palette_find("nope"));
	CHECK(a.r == b.r && a.g == b.g && a.b == b.b);
	CHECK(a.r != c.r || a.g != c.g || a.b != c.b);
	CHECK(a.r >= 205);	/* hot: red 205-255 */
	/* java: JIT frames green, kernel orange */
	a = fg_palette_color(java, "Lfoo;bar_[j]", 12);
	CHECK(a.g > a.r && a.g > a.b);
	a = fg_palette_color(java, "do_syscall_64_[k]", 17);
	CHECK(a.b == 0 && a.r > a.g);
	for (const char *p = "hot mem io wakeup chain java js perl python rust red green blue aqua yellow purple orange";
	     *p;) {
		char name[16];
		size_t n = strcspn(p, " ");

		memcpy(name, p, n);
		name[n] = 0;
		CHECK(fg_palette_find(name) != NULL);
		p += n + (p[n] == ' ');
	}
}

TEST(palette_map_round_trip)
{
	char *dir = tempdir_create("trail-unit");
	char *path = xstrfmt("%s/palette.map", dir);
	struct fg_palette_map m;
	const struct fg_palette *hot = fg_palette_find("hot");
	struct fg_rgb c;
	FILE *f;

	fg_palette_map_init(&m);
	CHECK_INT(fg_palette_map_read(&m, path), 0);	/* absent: fine */
	c = fg_palette_map_color(&m, hot, "main", 4);
	CHECK(m.dirty);
	CHECK_INT(fg_palette_map_write(&m, path), 0);
	fg_palette_map_release(&m);

	f = fopen(path, "a");
	fputs("custom->rgb(1,2,3)\n", f);
	fclose(f);
	fg_palette_map_init(&m);
	CHECK_INT(fg_palette_map_read(&m, path), 0);
	struct fg_rgb d = fg_palette_map_color(&m, hot, "main", 4);
	CHECK(c.r == d.r && c.g == d.g && c.b == d.b);
	d = fg_palette_map_color(&m, hot, "custom", 6);
	CHECK(d.r == 1 && d.g == 2 && d.b == 3);
	CHECK(!m.dirty);
	fg_palette_map_release(&m);

	f = fopen(path, "w");
	fputs("broken line\n", f);
	fclose(f);
	fg_palette_map_init(&m);
	CHECK_INT(fg_palette_map_read(&m, path), -1);
	fg_palette_map_release(&m);
	tempdir_remove(dir);
	free(path);
}

TEST(noise_test)
{
	/* 10% -> 10%: no change */
	CHECK_NEAR(fg_noise_z(100, 1000, 100, 1000), 0, 0);
	/* 10% -> 11% of 1000 samples: well within noise */
	CHECK(!fg_noise_significant(100, 1000, 110, 1000, FG_NOISE_Z_CRIT));
	/* 10% -> 20% of 10000 samples: far outside */
	CHECK(fg_noise_significant(1000, 10000, 2000, 10000, FG_NOISE_Z_CRIT));
	CHECK(fg_noise_z(1000, 10000, 2000, 10000) > 0);
	CHECK(fg_noise_z(2000, 10000, 1000, 10000) < 0);
	/* textbook value: p1 = 0.5 of 100, p2 = 0.6 of 100 -> z = 1.4213 */
	CHECK_NEAR(fg_noise_z(50, 100, 60, 100), 1.4213381, 1e-6);
	CHECK_NEAR(fg_noise_z_crit(0.05), 1.959963985, 1e-8);
	CHECK_NEAR(fg_noise_z_crit(0.01), FG_NOISE_Z_CRIT, 1e-8);
	CHECK_NEAR(fg_noise_z(5, 0, 5, 10), 0, 0);
}

TEST_MAIN("flamegraph", tree_merges_sorted_and_unsorted_alike, tree_repeated_and_prefix_stacks,
	  tree_counts_malformed_lines, tree_differential_columns, tree_reverse_base_factor,
	  tree_flamechart_keeps_order, name_order_matches_line_sort, layout_geometry,
	  layout_keeps_gone_frames_in_differential, palettes_are_deterministic,
	  palette_map_round_trip, noise_test)
