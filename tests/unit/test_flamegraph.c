/*
 * test_flamegraph.c - unit tests for src/flamegraph: merging stacks into
 * frames (sorted, unsorted, flame chart, --reverse, --base, --factor,
 * differential columns), layout geometry and pruning, frame order,
 * palettes and the --cp map.
 */
#include "harness.h"

#include "core/alloc.h"
#include "core/cleanup.h"
#include "core/strbuf.h"
#include "flamegraph/diffcolor.h"
#include "flamegraph/input.h"
#include "flamegraph/layout.h"
#include "flamegraph/palette.h"
#include "flamegraph/render.h"

#include <math.h>

/* Read s, sort unless flamechart, lay out with minwidth 0. */
static void build(struct fg_input *in, struct fg_layout *l, const char *s,
		  const struct fg_input_options *io, int flamechart)
{
	struct fg_layout_options o = { 0 };

	fg_input_init(in, io);
	fg_input_read_buffer(in, s, strlen(s));
	if (!flamechart)
		fg_input_sort(in);
	o.width = 1000;
	fg_layout_build(l, in, &o);
}

/* Index of the frame reached from the root by the ';'-separated path, or -1. */
static long find(const struct fg_layout *l, const char *path)
{
	uint32_t cur = 0;
	char *copy = xstrdup(path), *save = NULL, *tok;
	long ret = 0;

	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		uint32_t k, found = UINT32_MAX;

		for (k = cur + 1; k < l->nr && l->frames[k].depth > l->frames[cur].depth; k++)
			if (l->frames[k].depth == l->frames[cur].depth + 1 &&
			    l->frames[k].len == strlen(tok) && !memcmp(l->frames[k].name, tok, strlen(tok))) {
				found = k;
				break;
			}
		if (found == UINT32_MAX) {
			ret = -1;
			break;
		}
		cur = found;
		ret = cur;
	}
	free(copy);
	return ret;
}

static double width_of(const struct fg_layout *l, const char *path)
{
	long k = find(l, path);

	return k < 0 ? -1 : l->frames[k].w[1];
}
#define W(l, path) width_of(&(l), (path))

TEST(merges_sorted_and_unsorted_alike)
{
	const char *sorted = "a;b;c 1\na;b;d 2\na;e 3\nf 4\n";
	const char *unsorted = "a;e 3\na;b;d 2\nf 4\na;b;c 1\n";
	struct fg_input si, ui;
	struct fg_layout s, u;

	build(&si, &s, sorted, NULL, 0);
	build(&ui, &u, unsorted, NULL, 0);
	CHECK(si.sorted);
	CHECK_INT(s.nr, u.nr);
	CHECK_INT(s.nr, 7);
	for (uint32_t i = 0; i < s.nr && i < u.nr; i++) {
		CHECK_INT(s.frames[i].len, u.frames[i].len);
		CHECK_NEAR(s.frames[i].x[1], u.frames[i].x[1], 0);
		CHECK_NEAR(s.frames[i].w[1], u.frames[i].w[1], 0);
	}
	CHECK_NEAR(s.frames[0].w[1], 10, 0);
	CHECK_NEAR(W(u, "a;b"), 3, 0);
	CHECK_NEAR(u.frames[find(&u, "a")].self[0], 0, 0);
	CHECK_INT(u.max_depth, 3);
	CHECK_INT(ui.columns, 1);
	fg_layout_release(&s);
	fg_layout_release(&u);
	fg_input_release(&si);
	fg_input_release(&ui);
}

TEST(repeated_and_prefix_stacks)
{
	struct fg_input in;
	struct fg_layout l;

	build(&in, &l, "a;b 1\na;bc 7\na;b 2\na 5\na;b;c 1\n", NULL, 0);
	CHECK_NEAR(W(l, "a;b"), 4, 0);
	CHECK_NEAR(l.frames[find(&l, "a;b")].self[1], 3, 0);
	CHECK_NEAR(l.frames[find(&l, "a")].self[1], 5, 0);
	CHECK_NEAR(W(l, "a;bc"), 7, 0);
	CHECK_NEAR(W(l, "a"), 16, 0);
	CHECK_INT(l.nr, 5);	/* all a b c bc: b merged once */
	fg_layout_release(&l);
	fg_input_release(&in);
	/* empty stacks and empty frames */
	build(&in, &l, " 4\n;x 1\n;x;y 2\nq; 3\n", NULL, 1);
	CHECK_NEAR(l.frames[0].self[1], 4, 0);
	CHECK_INT(l.nr, 6);	/* all "" x y q "" */
	CHECK_INT(l.frames[1].len, 0);
	CHECK_NEAR(l.frames[1].w[1], 3, 0);
	CHECK_INT(l.frames[2].len, 1);
	CHECK_NEAR(l.frames[2].w[1], 3, 0);
	CHECK_INT(l.frames[3].depth, 3);
	CHECK_INT(l.frames[5].depth, 2);
	CHECK_NEAR(l.frames[5].w[1], 3, 0);
	fg_layout_release(&l);
	fg_input_release(&in);
}

TEST(counts_malformed_lines)
{
	struct fg_input in;
	struct fg_layout l;

	build(&in, &l, "a;b 1\nnot a count\n\nx;y 2.5\n-3\n", NULL, 0);
	CHECK_INT(in.malformed, 2);
	CHECK_INT(in.lines, 5);
	CHECK_NEAR(l.frames[0].w[1], 3.5, 1e-12);
	fg_layout_release(&l);
	fg_input_release(&in);
}

TEST(differential_columns)
{
	struct fg_input in;
	struct fg_layout l;
	long b;

	build(&in, &l, "a;b 10 20\na;c 5 0\na;d 3\n", NULL, 0);
	CHECK_INT(in.columns, 2);
	b = find(&l, "a;b");
	CHECK_NEAR(l.frames[b].w[0], 10, 0);
	CHECK_NEAR(l.frames[b].w[1], 20, 0);
	CHECK_NEAR(W(l, "a;c"), -1, 0);	/* zero width after: drawn only in "both" mode */
	/* a one-column line in differential input is unchanged */
	CHECK_NEAR(l.frames[find(&l, "a;d")].w[0], 3, 0);
	CHECK_NEAR(W(l, "a;d"), 3, 0);
	CHECK_NEAR(l.total[0], 18, 0);
	CHECK_NEAR(l.total[1], 23, 0);
	fg_layout_release(&l);
	fg_input_release(&in);
}

TEST(reverse_base_factor)
{
	struct fg_input_options o = { 0 };
	struct fg_input in;
	struct fg_layout l;

	o.reverse = 1;
	build(&in, &l, "a;b;c 1\nx;b;c 2\n", &o, 0);
	CHECK(find(&l, "c;b;a") >= 0);
	CHECK_NEAR(W(l, "c;b"), 3, 0);
	fg_layout_release(&l);
	fg_input_release(&in);

	memset(&o, 0, sizeof(o));
	o.base = "b";
	o.factor = 2;
	build(&in, &l, "a;b;c 1\nx;b;d 2\nq;r 5\nb 1\n", &o, 0);
	CHECK_INT(in.dropped, 1);
	CHECK_NEAR(W(l, "b"), 8, 0);
	CHECK_NEAR(W(l, "b;d"), 4, 0);
	CHECK(find(&l, "a") < 0);
	fg_layout_release(&l);
	fg_input_release(&in);
}

TEST(flamechart_keeps_order)
{
	struct fg_input in;
	struct fg_layout l;
	int n = 0;

	build(&in, &l, "a;b 1\na;b 1\na;c 1\na;b 1\n", NULL, 1);
	for (uint32_t k = 0; k < l.nr; k++)
		n += l.frames[k].depth == 2;
	/* b, c, b: only consecutive stacks merge */
	CHECK_INT(n, 3);
	CHECK_NEAR(l.frames[2].w[1], 2, 0);
	CHECK_NEAR(l.frames[4].x[1], 3, 0);
	fg_layout_release(&l);
	fg_input_release(&in);
}

TEST(stack_order_is_frame_by_frame)
{
	/* a stack before its extensions, siblings by name bytes */
	CHECK(fg_stack_cmp("a;b", 3, "a;b;c", 5) < 0);
	CHECK(fg_stack_cmp("a;b;c", 5, "a;b.x", 5) < 0);	/* ';' ranks lowest */
	CHECK(fg_stack_cmp("f", 1, "f.isra", 6) < 0);
	CHECK(fg_stack_cmp("x;y", 3, "x;y", 3) == 0);
	CHECK(fg_stack_cmp("b", 1, "a;z", 3) > 0);
	CHECK(fg_stack_cmp("0123456789abcdef;x", 18, "0123456789abcdef;y", 18) < 0);
}

TEST(layout_geometry)
{
	struct fg_input in;
	struct fg_layout l;
	struct fg_layout_options o = { 0 };
	uint32_t i;

	build(&in, &l, "m;z 30\nm;a;x 10\nm;a 20\nm 40\nn 1\n", NULL, 0);
	CHECK_INT(l.nr, 6);
	CHECK_NEAR(l.timemax[1], 101, 0);
	for (i = 1; i < l.nr; i++) {
		const struct fg_frame *f = &l.frames[i], *p = NULL;

		for (uint32_t k = i; k-- > 0;)
			if (l.frames[k].depth + 1 == f->depth) {
				p = &l.frames[k];
				break;
			}
		CHECK(p != NULL);
		if (!p)
			continue;
		CHECK(f->x[1] >= p->x[1]);
		CHECK(f->x[1] + f->w[1] <= p->x[1] + p->w[1] + 1e-9);
	}
	/* "m 40" sorts before "m;a": m's self count first (as in flamegraph.pl),
	 * then the children by name, m;a before m;z */
	CHECK_INT(find(&l, "m;a"), 2);
	CHECK_NEAR(l.frames[2].x[1], 40, 0);
	CHECK_NEAR(l.frames[2].w[1], 30, 0);
	CHECK_INT(find(&l, "m;z"), 4);
	CHECK_NEAR(l.frames[4].x[1], 70, 0);
	CHECK_INT(find(&l, "n"), 5);
	CHECK_NEAR(l.frames[5].x[1], 100, 0);
	fg_layout_release(&l);

	/* 1 of 101 samples at 1000 px is 9.9 px: pruned at minwidth 10 */
	o.width = 1000;
	o.minwidth = 10;
	fg_layout_build(&l, &in, &o);
	CHECK_INT(l.nr, 5);
	CHECK(find(&l, "n") < 0);
	fg_layout_release(&l);
	/* --minwidth 25%: the subtree of a dropped frame goes with it */
	o.minwidth = 25;
	o.minwidth_percent = 1;
	fg_layout_build(&l, &in, &o);
	for (i = 0; i < l.nr; i++)
		CHECK(l.frames[i].w[1] >= 25.25);
	CHECK(find(&l, "m;a") >= 0 && find(&l, "m;a;x") < 0);
	fg_layout_release(&l);
	/* --total: a larger total to draw against */
	o.minwidth = 0;
	o.total = 202;
	fg_layout_build(&l, &in, &o);
	CHECK_NEAR(l.timemax[1], 202, 0);
	fg_layout_release(&l);
	fg_input_release(&in);
}

TEST(layout_keeps_gone_frames_in_differential)
{
	struct fg_input in;
	struct fg_layout l;
	struct fg_layout_options o = { 0 };

	fg_input_init(&in, NULL);
	fg_input_read_buffer(&in, "m;gone 50 0\nm;kept 50 100\n", 26);
	fg_input_sort(&in);
	o.width = 1000;
	o.minwidth = 0.1;
	fg_layout_build(&l, &in, &o);
	CHECK_INT(l.nr, 3);	/* all, m, kept */
	fg_layout_release(&l);
	o.both = 1;
	fg_layout_build(&l, &in, &o);
	CHECK_INT(l.nr, 4);
	CHECK_NEAR(l.frames[2].w[0], 50, 0);
	CHECK_NEAR(l.frames[2].w[1], 0, 0);
	CHECK_NEAR(l.frames[3].x[0], 50, 0);
	CHECK_NEAR(l.frames[3].x[1], 0, 0);
	fg_layout_release(&l);
	fg_input_release(&in);
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

/*
 * The multikey sort gives fg_stack_cmp's order on stacks built to stress
 * it: prefixes of each other, empty frames, ';' runs, bytes below ';' and
 * above 127, many duplicates; enough of them to take every path
 * (insertion sort, partitions, the equal part running off the end).
 */
/*
 * Random stacks over an alphabet that hits fg_stack_cmp's corner cases
 * (';' against the bytes just below and above it, 0xff, blanks), after a
 * shared prefix of prefix_len bytes, come out in fg_stack_cmp order.
 */
static uint32_t shared_prefix(const struct fg_stack *a, const struct fg_stack *b)
{
	uint32_t n = 0;

	while (n < a->len && n < b->len && a->s[n] == b->s[n])
		n++;
	return n;
}

static int sorts_in_stack_order(const char *alphabet, size_t nalpha, size_t prefix_len,
				size_t maxlen)
{
	int has_nul = memchr(alphabet, '\0', nalpha) != NULL;
	struct fg_input in;
	size_t per = prefix_len + maxlen, pos = 0, i;
	char *text = xmalloc(20000 * per);
	unsigned seed = 12345;
	double one[2] = { 1, 1 };
	int ok;

	fg_input_init(&in, NULL);
	for (i = 0; i < 20000; i++) {
		size_t len, k;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % maxlen;
		memset(text + pos, 'p', prefix_len);
		for (k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			text[pos + prefix_len + k] = alphabet[(seed >> 16) % nalpha];
		}
		fg_input_add(&in, text + pos, prefix_len + len, one, 1);
		pos += prefix_len + len;
	}
	ok = !in.sorted;
	fg_input_sort(&in);
	for (i = 1; i < in.nr; i++)
		if (fg_stack_cmp(in.stacks[i - 1].s, in.stacks[i - 1].len, in.stacks[i].s,
				 in.stacks[i].len) > 0)
			break;
	ok = ok && i == in.nr && in.nr == 20000;
	/* the shared prefixes the sort hands the layout are exact: one byte
	 * too many would merge two frames that differ */
	for (i = 1; ok && in.lcp && i < in.nr; i++)
		ok = in.lcp[i] == shared_prefix(&in.stacks[i - 1], &in.stacks[i]);
	ok = ok && (in.lcp != NULL) == !has_nul;
	fg_input_release(&in);
	free(text);
	return ok;
}

TEST(sort_matches_stack_order)
{
	static const char alphabet[] = { 'a', '0', ';', (char)0xff, ' ', ';', ':', '<' };
	static const char with_nul[] = { 'a', ';', '\0', ':' };

	/* short stacks: the 8-byte keys end inside most of them */
	CHECK(sorts_in_stack_order(alphabet, sizeof(alphabet), 0, 12));
	/* long shared prefixes and long tails: the prefix skip and key reloads */
	CHECK(sorts_in_stack_order(alphabet, 3, 100, 40));
	CHECK(sorts_in_stack_order(alphabet, sizeof(alphabet), 37, 60));
	/* a NUL byte cannot be ranked in eight bits: the byte-wise sort takes over */
	CHECK(sorts_in_stack_order(with_nul, sizeof(with_nul), 5, 20));
}

static int cmp_bytes(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;

	return strcmp(a, b);
}

/*
 * Input in byte order ('trail collapse', 'trail diff') differs from frame
 * order only where a frame is followed by a byte below ';' in another
 * stack ("f" and "f.isra"): a few runs, which fg_input_sort merges
 * instead of sorting; the result is in fg_stack_cmp order and lays out
 * as the same stacks shuffled do.
 */
TEST(byte_sorted_input_merges_into_stack_order)
{
	static const char *const names[] = { "a", "b", "f", "g", "h", "f.isra.0", "g x" };
	enum { N = 3000 };
	char **lines = xmallocarray(N, sizeof(*lines));
	struct strbuf sorted = STRBUF_INIT, shuffled = STRBUF_INIT;
	struct fg_input si, ui;
	struct fg_layout sl, ul;
	unsigned seed = 99;
	size_t i;

	for (i = 0; i < N; i++) {
		struct strbuf sb = STRBUF_INIT;
		int depth;

		seed = seed * 1103515245u + 12345u;
		depth = 1 + (int)((seed >> 16) % 7);
		for (int d = 0; d < depth; d++) {
			seed = seed * 1103515245u + 12345u;
			/* one frame in 400 is a name that sorts apart in bytes */
			strbuf_addf(&sb, "%s%s", d ? ";" : "",
				    names[(seed >> 16) % 400 ? (seed >> 16) % 5 : 5 + (seed >> 8) % 2]);
		}
		strbuf_addf(&sb, " %zu\n", i % 5 + 1);
		lines[i] = strbuf_detach(&sb, NULL);
	}
	for (i = 0; i < N; i++)
		strbuf_addstr(&shuffled, lines[i]);
	qsort(lines, N, sizeof(*lines), cmp_bytes);
	for (i = 0; i < N; i++)
		strbuf_addstr(&sorted, lines[i]);
	fg_input_init(&si, NULL);
	fg_input_read_buffer(&si, sorted.buf, sorted.len);
	CHECK(!si.sorted);
	CHECK(si.descents > 0 && si.descents != SIZE_MAX);	/* the merge, not the sort */
	fg_input_sort(&si);
	for (i = 1; i < si.nr; i++)
		CHECK(fg_stack_cmp(si.stacks[i - 1].s, si.stacks[i - 1].len, si.stacks[i].s,
				   si.stacks[i].len) <= 0);
	build(&ui, &ul, shuffled.buf, NULL, 0);
	CHECK(ui.descents == SIZE_MAX);
	{
		struct fg_layout_options o = { .width = 1000 };

		fg_layout_build(&sl, &si, &o);
	}
	CHECK_INT(sl.nr, ul.nr);
	for (i = 0; i < sl.nr && i < ul.nr; i++) {
		CHECK_INT(sl.frames[i].depth, ul.frames[i].depth);
		CHECK_NEAR(sl.frames[i].x[1], ul.frames[i].x[1], 0);
		CHECK_NEAR(sl.frames[i].w[1], ul.frames[i].w[1], 0);
	}
	fg_layout_release(&sl);
	fg_layout_release(&ul);
	fg_input_release(&si);
	fg_input_release(&ui);
	for (i = 0; i < N; i++)
		free(lines[i]);
	free(lines);
	strbuf_release(&sorted);
	strbuf_release(&shuffled);
}

/*
 * 300 functions whose counts move by sampling noise only, and one that
 * really doubled: the per-function test with the false discovery rate
 * finds the one and none of the others; recursion counts once.
 */
TEST(diffcolor_finds_the_real_change_among_noise)
{
	struct strbuf sb = STRBUF_INIT;
	struct fg_diff_options o = { .alpha = 0.01, .min_delta = 0 };
	struct fg_input in;
	struct fg_layout l;
	struct fg_diff d;
	unsigned seed = 12345, coloured = 0;

	for (int i = 0; i < 300; i++) {
		int a = 100, b;

		seed = seed * 1103515245u + 12345u;
		b = 100 + (int)((seed >> 16) % 21) - 10;	/* +-10: well within noise */
		strbuf_addf(&sb, "main;f%03d %d %d\n", i, a, b);
	}
	strbuf_addstr(&sb, "main;hot;hot;hot 1000 2000\n");
	build(&in, &l, sb.buf, NULL, 0);
	fg_diff_classify(&d, &l, &o);
	for (uint32_t i = 0; i < l.nr; i++) {
		if (d.frames[i].state == FG_DIFF_NOISE)
			continue;
		coloured++;
	}
	CHECK(d.nr_top >= 1);
	CHECK_INT(d.top[0].len, 3);
	CHECK(!memcmp(d.top[0].name, "hot", 3));
	CHECK(d.top[0].state == FG_DIFF_HOTTER);
	/* without a floor the f's are all tested: none passes the FDR; hot's
	 * three nested frames share the function's verdict */
	CHECK_INT(coloured, 3);
	/* with a 1 point floor the f's (0.3% a side) are not even tested: the
	 * pre-filter looks at a function's size, never at its change; hot and
	 * main are tested, and main (100% on both sides) does not change */
	o.min_delta = 0.01;
	fg_diff_release(&d);
	fg_diff_classify(&d, &l, &o);
	coloured = 0;
	for (uint32_t i = 0; i < l.nr; i++)
		coloured += d.frames[i].state != FG_DIFF_NOISE;
	CHECK_INT(coloured, 3);
	CHECK_INT(d.nr_candidates, 2);
	/* inclusive share of hot counts the recursive stack once: 2000 / total */
	CHECK_NEAR(d.max_delta, 2000.0 / l.total[1] - 1000.0 / l.total[0], 1e-12);
	fg_diff_release(&d);
	fg_layout_release(&l);
	fg_input_release(&in);
	strbuf_release(&sb);
}


TEST(diffcolor_by_time_colours_only_what_changed)
{
	/* one period on both sides: sort's time is the same, check's grows */
	struct fg_diff_options o = { .alpha = 0.01, .min_delta = 0.01, .by_time = 1 };
	struct fg_input in;
	struct fg_layout l;
	struct fg_diff d;
	int sort_coloured = 0, main_coloured = 0, check_coloured = 0;

	build(&in, &l, "p;main;sort 400 400\np;main;check 100 500\n", NULL, 0);
	fg_diff_classify(&d, &l, &o);
	for (uint32_t i = 1; i < l.nr; i++) {
		const struct fg_frame *f = &l.frames[i];
		int c = d.frames[i].state != FG_DIFF_NOISE;

		if (f->len == 4 && !memcmp(f->name, "sort", 4))
			sort_coloured |= c;
		else if (f->len == 5 && !memcmp(f->name, "check", 5))
			check_coloured |= c;
		else
			main_coloured |= c;	/* main and p grow only through check */
	}
	CHECK_INT(check_coloured, 1);
	CHECK_INT(sort_coloured, 0);
	CHECK_INT(main_coloured, 0);
	fg_diff_release(&d);
	/* by share the same input paints sort cooler: its share fell */
	o.by_time = 0;
	fg_diff_classify(&d, &l, &o);
	for (uint32_t i = 1; i < l.nr; i++)
		if (l.frames[i].len == 4 && !memcmp(l.frames[i].name, "sort", 4))
			CHECK_INT(d.frames[i].state, FG_DIFF_COOLER);
	fg_diff_release(&d);
	fg_layout_release(&l);
	fg_input_release(&in);
}

/* The text of the <title> of the frame named name in svg ("name (" opens it), or NULL. */
static char *title_of(const char *svg, const char *name)
{
	char *open = xstrfmt("<title>%s (", name), *got = NULL;
	const char *p = strstr(svg, open), *end;

	if (p && (end = strstr(p, "</title>")))
		got = xstrndup(p + 7, (size_t)(end - p - 7));
	free(open);
	return got;
}

/* The frame's tooltip exists and holds both texts. */
static void title_has(const char *svg, const char *name, const char *a, const char *b)
{
	char *t = title_of(svg, name);

	CHECK(t != NULL);
	if (t) {
		CHECK(strstr(t, a) != NULL);
		CHECK(strstr(t, b) != NULL);
	}
	free(t);
}

/*
 * Issue 31: the report's diff.svg is coloured by the change in time per
 * run, but its tooltips still gave only share points.  Now a time-based
 * graph's tooltip gives each frame's time per run before and after and
 * its change (numfmt), the share's points beside.  The SVG is parsed.
 */
TEST(diff_tooltips_give_time_per_run)
{
	/* each column sums 4 runs: trail flame's diff.folded says so (runs=) */
	static const char text[] = "# trail-folded weight=samples type=cpu period=1000000 "
				   "period_unit=ns runs=4 unit=samples\np;main;sort 400 400\n"
				   "p;main;check 100 500\n";
	struct fg_input in;
	struct fg_render r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fg_input_init(&in, NULL);
	fg_input_read_buffer(&in, text, strlen(text));
	fg_render_init(&r);
	r.quiet = 1;
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_INT(fg_render(&in, &r, f), 0);
	fclose(f);
	/* check: 100 and 500 samples of 1 ms over 4 runs */
	title_has(buf, "check", "; time per run 25 ms -&gt; 125 ms, +100 ms; share +", " pts");
	/* sort: its time did not change; its share fell (80% -> 44.4%) */
	title_has(buf, "sort", "; time per run 100 ms -&gt; 100 ms, +0", "; share -35.56 pts");
	free(buf);
	fg_input_release(&in);
}

TEST_MAIN("flamegraph", merges_sorted_and_unsorted_alike, repeated_and_prefix_stacks,
	  counts_malformed_lines, differential_columns, reverse_base_factor,
	  flamechart_keeps_order, stack_order_is_frame_by_frame, layout_geometry,
	  layout_keeps_gone_frames_in_differential, palettes_are_deterministic,
	  palette_map_round_trip, sort_matches_stack_order, byte_sorted_input_merges_into_stack_order,
	  diffcolor_finds_the_real_change_among_noise, diffcolor_by_time_colours_only_what_changed,
	  diff_tooltips_give_time_per_run)
