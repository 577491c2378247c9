/*
 * fold_write.c - writing folders out: the stacks of every folder merged,
 * sorted in byte order of their text without building it, and written
 * line by line as folded text or added to a folded_profile in memory.
 */
#include "profile/fold.h"
#include "profile/fold_parts.h"
#include "core/error.h"
#include "core/intern.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

/*
 * The output is sorted in byte order of each stack's text ("a;b;c"), but
 * that text is never built for all stacks at once: it was as large as the
 * stacks themselves again (2.2x the output at the peak).  Stacks are
 * sorted as (folder, stack) references by a comparator that walks the
 * two texts frame by frame through the interned names, and each line is
 * written from its frames.
 */
struct out_ref {
	uint32_t folder;	/* index into the folders given to folder_write */
	uint32_t stack;		/* index into that folder's stacks */
};

/* A position in a stack's text: frame k of ids, byte i of its name. */
struct text_pos {
	const struct intern *names;
	const uint32_t *ids;
	uint32_t n, k;		/* frames; the current one */
	const char *s;		/* the current frame's name, len bytes */
	uint32_t len, i;
};

static void text_load(struct text_pos *t)
{
	t->s = intern_str(t->names, t->ids[t->k]);
	t->len = intern_len(t->names, t->ids[t->k]);
	t->i = 0;
}

/* Start at frame k (after the ';' before it, which both texts share). */
static void text_start(struct text_pos *t, const struct folder *f, const struct fold_stack *st,
		       uint32_t k)
{
	t->names = &f->names;
	t->ids = f->stack_ids + st->off;
	t->n = st->len;
	t->k = k;
	t->s = NULL;
	t->len = t->i = 0;
	if (k < t->n)
		text_load(t);
	else if (k)
		t->k = k - 1;	/* at the end of the last frame */
}

/* The next byte outside the current frame's rest: ';' or -1 at the end. */
static int text_step(struct text_pos *t)
{
	if (t->k + 1 >= t->n)
		return -1;
	t->k++;
	text_load(t);
	return ';';
}

/*
 * Length of the common prefix of a and b (n ids each at most): stacks
 * share long prefixes (deep recursion), so they are compared two ids at
 * a time.
 */
static uint32_t common_ids(const uint32_t *a, const uint32_t *b, uint32_t n)
{
	uint32_t k = 0;

	for (; k + 2 <= n; k += 2) {
		uint64_t x, y;

		memcpy(&x, a + k, sizeof(x));
		memcpy(&y, b + k, sizeof(y));
		if (x != y)
			return a[k] == b[k] ? k + 1 : k;
	}
	if (k < n && a[k] == b[k])
		k++;
	return k;
}

static int cmp_ref(const void *pa, const void *pb, void *ctx)
{
	struct folder *const *folders = ctx;
	const struct out_ref *ra = pa, *rb = pb;
	const struct folder *fa = folders[ra->folder], *fb = folders[rb->folder];
	const struct fold_stack *a = &fa->stacks[ra->stack], *b = &fb->stacks[rb->stack];
	struct text_pos x, y;
	uint32_t k = 0;

	if (fa == fb) {
		/* one folder, one id per name: equal leading ids are equal text */
		const uint32_t *ia = fa->stack_ids + a->off, *ib = fa->stack_ids + b->off;

		k = common_ids(ia, ib, a->len < b->len ? a->len : b->len);
		if (k == a->len && k == b->len)
			return 0;
	}
	text_start(&x, fa, a, k);
	text_start(&y, fb, b, k);
	for (;;) {
		size_t m = x.len - x.i < y.len - y.i ? x.len - x.i : y.len - y.i;
		int c, cx, cy;

		if (m) {
			c = memcmp(x.s + x.i, y.s + y.i, m);
			if (c)
				return c;
			x.i += (uint32_t)m;
			y.i += (uint32_t)m;
		}
		cx = x.i < x.len ? (unsigned char)x.s[x.i++] : text_step(&x);
		cy = y.i < y.len ? (unsigned char)y.s[y.i++] : text_step(&y);
		if (cx != cy)
			return (cx > cy) - (cx < cy);
		if (cx < 0)
			return 0;
	}
}

/* " COUNT\n" at p; returns its length. */
static size_t put_count(char *p, uint64_t count)
{
	char digits[24], *d = digits + sizeof(digits);
	size_t n;

	*--d = '\n';
	do {
		*--d = (char)('0' + count % 10);
		count /= 10;
	} while (count);
	*--d = ' ';
	n = (size_t)(digits + sizeof(digits) - d);
	memcpy(p, d, n);
	return n;
}

/* Append a stack's frames, root first and ';'-separated, to sb. */
static void put_frames(struct strbuf *sb, const struct folder *f, const struct fold_stack *st,
		       size_t extra)
{
	const uint32_t *ids = f->stack_ids + st->off;
	size_t need = st->len + extra;	/* separators and what follows */
	char *p;
	uint32_t k;

	for (k = 0; k < st->len; k++)
		need += intern_len(&f->names, ids[k]);
	strbuf_grow(sb, need);
	p = sb->buf + sb->len;
	for (k = 0; k < st->len; k++) {
		size_t len = intern_len(&f->names, ids[k]);

		if (k)
			*p++ = ';';
		memcpy(p, intern_str(&f->names, ids[k]), len);
		p += len;
	}
	strbuf_setlen(sb, (size_t)(p - sb->buf));
}

/*
 * Append one folded line to sb.  Lines are gathered and written in 64 KiB
 * blocks: an fwrite per frame was 6% of collapsing a 460,000-sample JIT
 * perf.data (400,000 calls through stdio's locking and bookkeeping).
 */
static void write_stack(struct strbuf *sb, const struct folder *f, const struct fold_stack *st,
			uint64_t count)
{
	put_frames(sb, f, st, 24);	/* the count and its newline */
	strbuf_setlen(sb, sb->len + put_count(sb->buf + sb->len, count));
}

/* Write sb out and empty it; 0 or -1. */
static int flush_lines(struct strbuf *sb, FILE *out)
{
	int ok = fwrite(sb->buf, 1, sb->len, out) == sb->len;

	strbuf_reset(sb);
	return ok ? 0 : -1;
}

typedef int emit_stack_fn(void *ctx, const struct folder *f, const struct fold_stack *st,
			  uint64_t count);

/*
 * emit() each distinct stack text of the n folders once, its counts
 * summed (saturating), in byte order (as Perl's sort with cmp); stops at
 * emit's first non-zero return and returns it.
 */
static int each_merged_stack(struct folder *const *folders, size_t n, emit_stack_fn *emit,
			     void *ctx)
{
	struct out_ref *refs;
	size_t nr = 0, total = 0, i, j;
	int ret = 0;

	if (n > UINT32_MAX)
		die("too many folders");
	for (i = 0; i < n; i++)
		total += folders[i]->nr_stacks;
	refs = xmallocarray(total ? total : 1, sizeof(*refs));
	for (i = 0; i < n; i++)
		for (j = 0; j < folders[i]->nr_stacks; j++) {
			refs[nr].folder = (uint32_t)i;
			refs[nr].stack = (uint32_t)j;
			nr++;
		}
	qsort_r(refs, nr, sizeof(*refs), cmp_ref, (void *)folders);
	for (i = 0; i < nr && !ret; i = j) {
		const struct folder *f = folders[refs[i].folder];
		const struct fold_stack *st = &f->stacks[refs[i].stack];
		uint64_t count = st->count;

		/* one stack string can come from several folders or id sequences */
		for (j = i + 1; j < nr && !cmp_ref(&refs[i], &refs[j], (void *)folders); j++) {
			uint64_t c = folders[refs[j].folder]->stacks[refs[j].stack].count;

			count = count + c < count ? UINT64_MAX : count + c;
		}
		ret = emit(ctx, f, st, count);
	}
	free(refs);
	return ret;
}

struct write_ctx {
	struct strbuf sb;
	FILE *out;
};

static int emit_line(void *ctx, const struct folder *f, const struct fold_stack *st,
		     uint64_t count)
{
	struct write_ctx *w = ctx;

	write_stack(&w->sb, f, st, count);
	if (w->sb.len >= 1 << 16 && flush_lines(&w->sb, w->out))
		return error_errno("cannot write the folded stacks");
	return 0;
}

int folder_write(struct folder *const *folders, size_t n, FILE *out)
{
	struct write_ctx w = { STRBUF_INIT, out };
	int ret = each_merged_stack(folders, n, emit_line, &w);

	if (!ret && w.sb.len && flush_lines(&w.sb, out))
		ret = error_errno("cannot write the folded stacks");
	strbuf_release(&w.sb);
	return ret;
}

struct profile_ctx {
	struct strbuf sb;
	struct folded_profile *p;
};

static int emit_profile(void *ctx, const struct folder *f, const struct fold_stack *st,
			uint64_t count)
{
	struct profile_ctx *pc = ctx;

	strbuf_reset(&pc->sb);
	put_frames(&pc->sb, f, st, 0);
	folded_profile_add(pc->p, pc->sb.buf, pc->sb.len, 0, (double)count);
	return 0;
}

void folder_to_profile(struct folder *const *folders, size_t n, struct folded_profile *p)
{
	struct profile_ctx pc = { STRBUF_INIT, p };

	each_merged_stack(folders, n, emit_profile, &pc);
	strbuf_release(&pc.sb);
}

