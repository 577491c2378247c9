/*
 * diffsort.c - byte order of 'trail diff's output lines by an MSD radix
 * sort of the stacks that reads each stack 8 bytes at a time into an
 * array of its own: the stacks are long and share long prefixes, and
 * reading them a byte per pass (perf: a cache miss per stack per byte)
 * was a fifth of the run.
 */
#include "diff/diffsort.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

#define SMALL_GROUP 16		/* stacks: insertion sort from here down */
#define NOT_LOADED UINT32_MAX	/* wdepth of a group whose words are stale */

/* A stack being sorted: 8 of its bytes, from the group's word depth. */
struct sort_rec {
	uint64_t word;		/* bytes [wdepth, wdepth + 8), big-endian */
	const char *text;	/* the stack (saves a look-up in lines[]) */
	uint32_t id;
	uint32_t len;		/* bytes of the stack */
};

struct sort_group {
	size_t start, n;	/* recs[start..start+n) */
	uint32_t depth;		/* bytes every stack of the group shares */
	uint32_t wdepth;	/* where the words start, or NOT_LOADED */
};

/*
 * The order of the output lines.  x and y share their first `from`
 * bytes.  Past a stack's end its line goes on with ' ' and the counts.
 */
static int stack_order_from(const char *a, size_t la, const char *b, size_t lb, size_t from)
{
	size_t n = la < lb ? la : lb;
	int c = from < n ? memcmp(a + from, b + from, n - from) : 0;
	unsigned char na, nb;

	if (c || la == lb)
		return c;
	/* One stack is a prefix of the other: the shorter line goes on with ' '. */
	na = la < lb ? ' ' : (unsigned char)a[lb];
	nb = lb < la ? ' ' : (unsigned char)b[la];
	return (na > nb) - (na < nb);
}

int diffsort_stack_order(const char *a, size_t alen, const char *b, size_t blen)
{
	return stack_order_from(a, alen, b, blen, 0);
}

static int cmp_from(const struct diffline *lines, uint32_t x, uint32_t y, uint32_t from)
{
	const struct diffline *kx = &lines[x], *ky = &lines[y];
	uint32_t lx = kx->len, ly = ky->len;
	int c = stack_order_from(kx->text, lx, ky->text, ly, from);

	if (c || lx == ly)
		return c;
	/* the longer stack goes on with ' ' too: the counts decide */
	{
		char *bx = xmalloc((size_t)lx + DIFFLINE_COUNTS_MAX);
		char *by = xmalloc((size_t)ly + DIFFLINE_COUNTS_MAX);
		size_t ox = diffline_format(bx, kx), oy = diffline_format(by, ky);

		c = memcmp(bx, by, ox < oy ? ox : oy);
		if (!c)
			c = (ox > oy) - (ox < oy);
		free(bx);
		free(by);
		return c;
	}
}

static int cmp_recs(const void *a, const void *b, void *data)
{
	return cmp_from(data, ((const struct sort_rec *)a)->id,
			((const struct sort_rec *)b)->id, 0);
}

/* Length of the common prefix of a[0..n) and b[0..n), 8 bytes a step. */
static size_t mismatch(const char *a, const char *b, size_t n)
{
	size_t i = 0;
	uint64_t x, y;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Bytes [d, d + 8) of a stack as its line has them: ' ' at its end, 0 past it. */
static uint64_t load_word(const struct sort_rec *r, uint32_t d)
{
	uint64_t w = 0;
	uint32_t i;

	if ((uint64_t)d + 8 <= r->len) {
		memcpy(&w, r->text + d, 8);
		return __builtin_bswap64(w);
	}
	for (i = 0; i < 8; i++) {
		uint64_t p = (uint64_t)d + i;
		unsigned char c = p < r->len ? (unsigned char)r->text[p] : p == r->len ? ' ' : 0;

		w = w << 8 | c;
	}
	return w;
}

static unsigned byte_at(const struct sort_rec *r, const struct sort_group *g)
{
	return (unsigned)(r->word >> (8 * (7 - (g->depth - g->wdepth)))) & 0xff;
}

static void insertion_sort(const struct diffline *lines, struct sort_rec *v, size_t n, uint32_t d)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct sort_rec x = v[i];

		for (j = i; j > 0; j--) {
			uint32_t from = d;

			if (from > v[j - 1].len)
				from = v[j - 1].len;
			if (from > x.len)
				from = x.len;
			if (cmp_from(lines, v[j - 1].id, x.id, from) <= 0)
				break;
			v[j] = v[j - 1];
		}
		v[j] = x;
	}
}

/*
 * The depth all stacks of g share, given that they share the byte at
 * g->depth: first from the words (no stack is read), and when the whole
 * rest of the word is shared, from the stacks themselves, as far as it goes.
 */
static uint32_t common_prefix(const struct sort_rec *v, const struct sort_group *g)
{
	uint32_t shift = 8 * (g->depth - g->wdepth), d, lcp;
	uint64_t diff = 0;
	size_t i;

	for (i = 1; i < g->n; i++)
		diff |= v[i].word ^ v[0].word;
	diff <<= shift;
	if (diff)
		return g->depth + (uint32_t)__builtin_clzll(diff) / 8;
	d = g->wdepth + 8;
	for (i = 0, lcp = v[0].len; i < g->n && lcp > d; i++) {
		uint32_t lim = v[i].len < lcp ? v[i].len : lcp;

		lcp = lim <= d ? d : d + (uint32_t)mismatch(v[0].text + d, v[i].text + d, lim - d);
	}
	return lcp > d ? lcp : d;
}

/*
 * MSD radix sort (McIlroy, Bostic and McIlroy, "Engineering Radix Sort",
 * 1993) with an explicit stack of groups, one byte per pass, the bytes
 * taken from the records' cached words (reloaded every 8 bytes of depth)
 * rather than from the stacks.  A group where every stack has the same
 * next byte skips its whole common prefix; a group holding a stack that
 * ended earlier, and small groups, are finished with cmp_from().
 */
static void sort_recs(const struct diffline *lines, struct sort_rec *recs, size_t n)
{
	size_t nr = 0, alloc = 0, i;
	struct sort_group *stack = NULL;

	ALLOC_GROW(stack, nr + 1, alloc);
	stack[nr++] = (struct sort_group){ 0, n, 0, NOT_LOADED };
	while (nr) {
		struct sort_group g = stack[--nr];
		struct sort_rec *v = recs + g.start;
		size_t count[256], pos[256], end[256], b;
		int short_key = 0;

		if (g.n < 2)
			continue;
		if (g.n <= SMALL_GROUP) {
			insertion_sort(lines, v, g.n, g.depth);
			continue;
		}
		if (g.wdepth == NOT_LOADED || g.depth >= g.wdepth + 8) {
			g.wdepth = g.depth;
			for (i = 0; i < g.n; i++)
				if (v[i].len >= g.depth)
					v[i].word = load_word(&v[i], g.depth);
		}
		memset(count, 0, sizeof(count));
		for (i = 0; i < g.n && !short_key; i++) {
			short_key = v[i].len < g.depth;
			count[byte_at(&v[i], &g)]++;
		}
		if (short_key) {
			qsort_r(v, g.n, sizeof(*v), cmp_recs, (void *)lines);
			continue;
		}
		for (b = 0; b < 256 && count[b] != g.n; b++)
			;
		ALLOC_GROW(stack, nr + 256, alloc);
		if (b < 256) {
			/* one byte for all: skip the whole common prefix */
			uint32_t d = common_prefix(v, &g);

			stack[nr++] = (struct sort_group){ g.start, g.n, d,
							   d < g.wdepth + 8 ? g.wdepth : NOT_LOADED };
			continue;
		}
		for (b = 0, i = 0; b < 256; b++) {
			pos[b] = i;
			i += count[b];
			end[b] = i;
		}
		/*
		 * In place (McIlroy et al.'s "American flag sort"): each
		 * record is swapped into its byte's bucket until the one in
		 * hand belongs where it was taken from.  No second array of
		 * n records, a third of the sort's memory.
		 */
		for (b = 0; b < 256; b++) {
			while (pos[b] < end[b]) {
				struct sort_rec r = v[pos[b]];
				unsigned c = byte_at(&r, &g);

				while (c != b) {
					struct sort_rec t = v[pos[c]];

					v[pos[c]++] = r;
					r = t;
					c = byte_at(&r, &g);
				}
				v[pos[b]++] = r;
			}
		}
		for (b = 0, i = 0; b < 256; b++) {
			if (count[b] > 1)
				stack[nr++] = (struct sort_group){ g.start + i, count[b], g.depth + 1, g.wdepth };
			i += count[b];
		}
	}
	free(stack);
}

/*
 * Where run[lo..hi) (ids of lines in order) holds the first line after
 * line x: a gallop (steps 1, 2, 4 ... from lo, then a binary search
 * between the last two), so merging a few lines into a long run costs a
 * few comparisons each instead of one per line of the run.
 */
static size_t gallop(const struct diffline *lines, const struct sort_rec *run, size_t lo,
		     size_t hi, uint32_t x)
{
	size_t step = 1, prev = lo;

	while (lo < hi && cmp_from(lines, run[lo].id, x, 0) < 0) {
		prev = lo + 1;
		lo = hi - lo > step ? lo + step : hi;
		step *= 2;
	}
	/* run[prev - 1] < x (or prev is where we began), x < run[lo] (or lo == hi) */
	while (prev < lo) {
		size_t mid = prev + (lo - prev) / 2;

		if (cmp_from(lines, run[mid].id, x, 0) < 0)
			prev = mid + 1;
		else
			lo = mid;
	}
	return lo;
}

/*
 * Lines come in input order: BEFORE's stacks, then those only in AFTER.
 * Where BEFORE was already in byte order ('trail collapse' writes it),
 * its lines are one sorted run: only AFTER's new ones (a few percent,
 * usually) are sorted, then galloped into the run.
 */
uint32_t *diffsort_order(const struct diffline *lines, size_t n, size_t sorted)
{
	size_t run = sorted > 1 ? sorted : n ? 1 : 0, i, j, k;
	/* huge pages, where fresh small pages fault; the ids end up in it too */
	struct sort_rec *recs = xmalloc_huge(st_mult(n ? n : 1, sizeof(*recs)));
	uint32_t *ids = (uint32_t *)recs, *merged;

	if (run > n)
		run = n;
	for (i = 0; i < n; i++) {
		recs[i].id = (uint32_t)i;
		recs[i].text = lines[i].text;
		recs[i].len = lines[i].len;
	}
	while (run < n && cmp_from(lines, (uint32_t)run - 1, (uint32_t)run, 0) <= 0)
		run++;
	if (run < n / 2 || run <= SMALL_GROUP) {
		sort_recs(lines, recs, n);
		/* ids[i] lies at or before recs[i], which is read first */
		for (i = 0; i < n; i++)
			ids[i] = recs[i].id;
		return ids;
	}
	sort_recs(lines, recs + run, n - run);
	merged = xmallocarray(n, sizeof(*merged));
	for (i = 0, j = run, k = 0; j < n; j++) {
		size_t to = gallop(lines, recs, i, run, recs[j].id);

		while (i < to)
			merged[k++] = recs[i++].id;
		merged[k++] = recs[j].id;
	}
	while (i < run)
		merged[k++] = recs[i++].id;
	free(recs);
	return merged;
}
