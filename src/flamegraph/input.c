/*
 * input.c - reading folded stacks into memory (see input.h).  Lines are
 * parsed with profile/folded.h's folded_parse_line (flamegraph.pl's rules)
 * in place from a memory mapping of the file (plain regular files, the
 * common case) or copied once into an arena (gzip, pipes); whether the
 * input is already sorted is noted on the way so sorted input (what
 * 'trail collapse' writes) is not sorted again.
 */
#include "flamegraph/input.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/line_map.h"
#include "profile/folded.h"

#include <stdlib.h>
#include <string.h>

#define PREFETCH_AHEAD 16	/* stacks */


int fg_stack_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;
	unsigned ca, cb;

	/* find the first difference (16 bytes at a time while equal), then
	 * rank ';' below every other byte so frames compare one by one */
	while (i + 16 <= n && !memcmp(a + i, b + i, 16))
		i += 16;
	while (i < n && a[i] == b[i])
		i++;
	if (i == n)
		return (alen > blen) - (alen < blen);
	ca = a[i] == ';' ? 0 : (unsigned char)a[i] + 1u;
	cb = b[i] == ';' ? 0 : (unsigned char)b[i] + 1u;
	return (ca > cb) - (ca < cb);
}

void fg_input_init(struct fg_input *in, const struct fg_input_options *opts)
{
	memset(in, 0, sizeof(*in));
	if (opts)
		in->opts = *opts;
	if (!(in->opts.factor > 0))
		in->opts.factor = 1;
	in->columns = 1;
	in->sorted = 1;
}

void fg_input_release(struct fg_input *in)
{
	for (size_t i = 0; i < in->nmaps; i++)
		line_map_close(&in->maps[i]);
	free(in->maps);
	free(in->stacks);
	arena_release(&in->text);
	memset(in, 0, sizeof(*in));
}

/* Offset of the first frame named base in stack, or -1. */
static long find_base(const char *stack, size_t len, const char *base)
{
	size_t blen = strlen(base), i = 0;

	while (i <= len) {
		const char *semi = memchr(stack + i, ';', len - i);
		size_t end = semi ? (size_t)(semi - stack) : len;

		if (end - i == blen && !memcmp(stack + i, base, blen))
			return (long)i;
		if (!semi)
			break;
		i = end + 1;
	}
	return -1;
}

static void reverse_into(char *out, const char *stack, size_t len)
{
	size_t end = len, pos = 0;

	while (1) {
		size_t start = end;

		while (start > 0 && stack[start - 1] != ';')
			start--;
		memcpy(out + pos, stack + start, end - start);
		pos += end - start;
		if (!start)
			break;
		out[pos++] = ';';
		end = start - 1;
	}
}

/*
 * Chain graphs (--colors chain): after the first "--" frame come the
 * waker stacks, separated by more "--" frames; flamegraph.pl marks each
 * of their frames "_[w]" for the palette.  NULL when stack has no "--".
 */
static char *mark_wakers(struct arena *a, const char *stack, size_t *len)
{
	const char *sep = memmem(stack, *len, ";--;", 4), *p, *end = stack + *len;
	char *out, *q;
	size_t frames = 0;

	if (!sep)
		return NULL;
	sep += 4;
	for (p = sep; p < end; p++)
		frames += *p == ';';
	out = arena_alloc(a, *len + 4 * (frames + 1));
	memcpy(out, stack, (size_t)(sep - stack));
	q = out + (sep - stack);
	for (p = sep; p < end;) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t n = (size_t)((semi ? semi : end) - p);

		memcpy(q, p, n);
		q += n;
		if (!(n == 2 && p[0] == '-' && p[1] == '-')) {
			memcpy(q, "_[w]", 4);
			q += 4;
		}
		if (!semi)
			break;
		*q++ = ';';
		p = semi + 1;
	}
	*len = (size_t)(q - out);
	return out;
}

static void add(struct fg_input *in, const char *stack, size_t len,
		const double *count, int columns, int stable)
{
	struct fg_stack *st;
	const char *text;
	char *marked;

	if (in->opts.base) {
		long off = find_base(stack, len, in->opts.base);

		if (off < 0) {
			in->dropped++;
			return;
		}
		stack += off;
		len -= (size_t)off;
	}
	if (len > UINT32_MAX)
		return;	/* the line reader caps lines far below this */
	if (in->opts.reverse && len) {
		char *copy = arena_alloc(&in->text, len);

		reverse_into(copy, stack, len);
		text = copy;
	} else if (stable) {
		text = stack;	/* in a mapping that lives as long as in */
	} else {
		text = arena_strndup(&in->text, stack, len);
	}
	/* after --reverse, as flamegraph.pl rewrites the reversed stack */
	if (in->opts.chain && (marked = mark_wakers(&in->text, text, &len)))
		text = marked;
	ALLOC_GROW(in->stacks, in->nr + 1, in->alloc);
	st = &in->stacks[in->nr++];
	st->s = text;
	st->len = (uint32_t)len;
	st->count[0] = count[0] * in->opts.factor;
	/* a one-column line in a differential file is unchanged: before = after */
	st->count[1] = (columns == 2 ? count[1] : count[0]) * in->opts.factor;
	if (columns == 2)
		in->columns = 2;
	in->total[0] += st->count[0];
	in->total[1] += st->count[1];
	/* counted while the input still looks like a few sorted runs (byte
	 * order, as 'trail collapse' and 'trail diff' write, differs from
	 * frame order in a few places only): see fg_input_sort */
	if (in->nr > 1 && in->descents != SIZE_MAX) {
		const struct fg_stack *prev = st - 1;

		if (fg_stack_cmp(prev->s, prev->len, st->s, st->len) > 0) {
			in->sorted = 0;
			/* too many: shuffled, stop comparing */
			in->descents = in->descents < in->nr / 64 + 16 ? in->descents + 1 : SIZE_MAX;
		}
	}
}

void fg_input_add(struct fg_input *in, const char *stack, size_t len,
		  const double *count, int columns)
{
	add(in, stack, len, count, columns, 0);
}

static void add_line(struct fg_input *in, const char *line, size_t len, const char *path,
		     uint64_t lineno, int stable)
{
	struct folded_line fl;

	in->lines++;
	if (!len)
		return;
	if (folded_header_parse(line, len, &in->weight))
		return;
	if (folded_parse_line(line, len, &fl)) {
		in->malformed++;
		if (path)
			folded_warn_malformed(path, lineno, in->malformed, line, len);
		return;
	}
	add(in, fl.stack, fl.stack_len, fl.count, fl.columns, stable);
}

int fg_input_read(struct fg_input *in, const char *path)
{
	struct line_map m;
	const char *line;
	size_t len;
	int ret, stable;

	if (line_map_open(&m, path, 1)) {
		line_map_close(&m);
		return -1;
	}
	/* a mapped file's lines are parsed in place and stay until release */
	stable = line_map_stable(&m);
	while ((ret = line_map_next(&m, &line, &len)) > 0)
		add_line(in, line, len, m.path, m.lineno, stable);
	if (stable) {
		ALLOC_GROW(in->maps, in->nmaps + 1, in->maps_alloc);
		in->maps[in->nmaps++] = m;
	} else {
		line_map_close(&m);
	}
	return ret < 0 ? -1 : 0;
}

void fg_input_read_buffer(struct fg_input *in, const char *buf, size_t len)
{
	size_t pos = 0, alloc = 0;
	char *line = NULL;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - pos;

		/* a NUL-terminated copy, as the line reader hands out */
		ALLOC_GROW(line, n + 1, alloc);
		memcpy(line, buf + pos, n);
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		add_line(in, line, n, NULL, 0, 0);
		pos = end + 1;
	}
	free(line);
}

static int cmp_stack_rec(const void *pa, const void *pb)
{
	const struct fg_stack *a = pa, *b = pb;
	/* equal stacks merge into one frame, so their order does not matter */
	return fg_stack_cmp(a->s, a->len, b->s, b->len);
}

/* Byte d of a stack in fg_stack_cmp's order: the end lowest, then ';', then the bytes. */
static inline unsigned key_at(const struct fg_stack *e, size_t d)
{
	unsigned char c;

	if (d >= e->len)
		return 0;
	c = (unsigned char)e->s[d];
	return c == ';' ? 1u : c + 2u;
}

static void swap_stacks(struct fg_stack *a, struct fg_stack *b)
{
	struct fg_stack t = *a;

	*a = *b;
	*b = t;
}

static unsigned median3(unsigned a, unsigned b, unsigned c)
{
	if (a < b)
		return b < c ? b : (a < c ? c : a);
	return a < c ? a : (b < c ? c : b);
}

/*
 * Multikey quicksort (Bentley & Sedgewick, 1997) one byte at a time: the
 * fallback for input with NUL bytes in it, which the 8-byte keys below
 * cannot rank.  Small ranges get insertion sort; a range that recursed too
 * deep (an adversarial input) falls back to qsort.
 */
static void multikey_sort(struct fg_stack *a, size_t n, size_t d, int depth)
{
	while (n > 12) {
		size_t lt = 0, i = 0, gt = n;
		unsigned p;

		if (depth <= 0) {
			qsort(a, n, sizeof(*a), cmp_stack_rec);
			return;
		}
		p = median3(key_at(&a[0], d), key_at(&a[n / 2], d), key_at(&a[n - 1], d));
		while (i < gt) {
			unsigned k = key_at(&a[i], d);

			if (k < p)
				swap_stacks(&a[lt++], &a[i++]);
			else if (k > p)
				swap_stacks(&a[i], &a[--gt]);
			else
				i++;
		}
		multikey_sort(a, lt, d, depth - 1);
		multikey_sort(a + gt, n - gt, d, depth - 1);
		if (!p)
			return;	/* the equal part ended at byte d: all equal */
		a += lt;
		n = gt - lt;
		d++;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && fg_stack_cmp(a[j - 1].s + d, a[j - 1].len - d,
							 a[j].s + d, a[j].len - d) > 0; j--)
			swap_stacks(&a[j - 1], &a[j]);
}

/*
 * The same sort eight bytes at a time.  Each stack's next eight bytes are
 * loaded once into a key beside its index, so partitioning reads a dense
 * array instead of following a pointer into the text per stack and byte:
 * on deep stacks (hundreds of shared prefix bytes) the byte-wise sort spent
 * its time on those cache misses.  A key packs the bytes big-endian through
 * a table that keeps fg_stack_cmp's order in eight bits - the end 0, ';' 1,
 * every other byte above it in byte order - which needs one symbol less
 * than there are bytes: NUL, which folded text does not contain; a stack
 * that does sends the whole input back to the byte-wise sort.
 */
struct sort_key {
	uint64_t key;		/* bytes d..d+7 of the stack, ranked */
	const char *s;		/* the stack's text (a copy of its fg_stack's) */
	uint32_t len;		/* bytes */
	uint32_t idx;		/* into the input's stacks */
};

static unsigned char rank_of[256];

static void rank_init(void)
{
	for (unsigned c = 1; c < 256; c++)
		rank_of[c] = (unsigned char)(c == ';' ? 1 : c < ';' ? c + 1 : c);
}

/* 0, or -1 when the stack has a NUL byte among bytes d..d+7 */
static int load_key(struct sort_key *k, size_t d)
{
	const unsigned char *s = (const unsigned char *)k->s;
	uint64_t key = 0;

	for (size_t i = d; i < d + 8; i++) {
		unsigned c = i < k->len ? s[i] : 0;

		if (i < k->len && !c)
			return -1;
		key = key << 8 | rank_of[c];
	}
	k->key = key;
	return 0;
}

static int key_cmp(const struct sort_key *a, const struct sort_key *b, size_t d)
{
	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	if (!(a->key & 0xff))
		return 0;	/* both ended in these eight bytes: equal */
	return fg_stack_cmp(a->s + d + 8, a->len - d - 8, b->s + d + 8, b->len - d - 8);
}

static int key_cmp_r(const void *a, const void *b, void *arg)
{
	return key_cmp(a, b, *(const size_t *)arg);
}

/*
 * Bytes from d on that every stack of k[0..n) shares with the first one:
 * one sequential pass over each, so a prefix of hundreds of bytes costs a
 * streaming read per stack, not a cache miss per eight bytes.
 */
static size_t common_prefix(const struct sort_key *k, size_t n, size_t d)
{
	size_t end = k[0].len;

	for (size_t i = 1; i < n && end > d; i++) {
		size_t m = k[i].len < end ? k[i].len : end, j = d;

		if (i + PREFETCH_AHEAD < n)
			__builtin_prefetch(k[i + PREFETCH_AHEAD].s + d);

		while (j + 16 <= m && !memcmp(k[0].s + j, k[i].s + j, 16))
			j += 16;
		while (j < m && k[0].s[j] == k[i].s[j])
			j++;
		end = j;
	}
	return end;
}

static uint64_t median3_u64(uint64_t a, uint64_t b, uint64_t c)
{
	if (a < b)
		return b < c ? b : (a < c ? c : a);
	return a < c ? a : (b < c ? c : b);
}

/* Sort k[0..n) whose keys hold bytes d..d+7; -1 on a NUL byte. */
static int multikey_sort8(struct sort_key *k, size_t n, size_t d, int depth)
{
	while (n > 16) {
		size_t lt = 0, i = 0, gt = n;
		uint64_t p;

		if (depth <= 0) {
			qsort_r(k, n, sizeof(*k), key_cmp_r, &d);
			return 0;
		}
		p = median3_u64(k[0].key, k[n / 2].key, k[n - 1].key);
		while (i < gt) {
			uint64_t x = k[i].key;
			struct sort_key t;

			if (x < p) {
				t = k[lt]; k[lt++] = k[i]; k[i++] = t;
			} else if (x > p) {
				t = k[i]; k[i] = k[--gt]; k[gt] = t;
			} else {
				i++;
			}
		}
		if (multikey_sort8(k, lt, d, depth - 1) || multikey_sort8(k + gt, n - gt, d, depth - 1))
			return -1;
		if (!(p & 0xff))
			return 0;	/* the equal part ended in these bytes: all equal */
		k += lt;
		n = gt - lt;
		d = common_prefix(k, n, d + 8);
		for (i = 0; i < n; i++) {
			/* the stacks lie scattered: fetch ahead so the misses overlap */
			if (i + PREFETCH_AHEAD < n)
				__builtin_prefetch(k[i + PREFETCH_AHEAD].s + d);
			if (load_key(&k[i], d))
				return -1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct sort_key t = k[i];
		size_t j = i;

		for (; j > 0 && key_cmp(&k[j - 1], &t, d) > 0; j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
	return 0;
}

static int sort_by_keys(struct fg_input *in, int depth)
{
	struct sort_key *k = xmallocarray(in->nr, sizeof(*k));
	struct fg_stack *sorted;
	int ret = -1;

	if (!rank_of[';'])
		rank_init();
	for (size_t i = 0; i < in->nr; i++) {
		k[i].idx = (uint32_t)i;
		k[i].s = in->stacks[i].s;
		k[i].len = in->stacks[i].len;
		if (load_key(&k[i], 0))
			goto out;
	}
	if (multikey_sort8(k, in->nr, 0, depth))
		goto out;
	sorted = xmallocarray(in->alloc, sizeof(*sorted));
	for (size_t i = 0; i < in->nr; i++)
		sorted[i] = in->stacks[k[i].idx];
	free(in->stacks);
	in->stacks = sorted;
	ret = 0;
out:
	free(k);
	return ret;
}

static int stack_before(const struct fg_stack *a, const struct fg_stack *b)
{
	return fg_stack_cmp(a->s, a->len, b->s, b->len) < 0;
}

/*
 * Input that is a few sorted runs (in->descents counted them while
 * reading): merge neighbouring runs pairwise until one is left, one
 * comparison per stack and round, where the multikey sort would redo
 * the whole input.  Equal stacks merge into one frame, so ties may go
 * either way.
 */
static void merge_runs(struct fg_input *in)
{
	size_t *ends = NULL, nr_ends = 0, alloc = 0, n = in->nr;
	struct fg_stack *tmp = xmallocarray(n, sizeof(*tmp)), *src = in->stacks, *dst = tmp;

	for (size_t i = 1; i <= n; i++)
		if (i == n || stack_before(&src[i], &src[i - 1])) {
			ALLOC_GROW(ends, nr_ends + 1, alloc);
			ends[nr_ends++] = i;
		}
	while (nr_ends > 1) {
		size_t w = 0, start = 0;

		for (size_t r = 0; r < nr_ends; r += 2) {
			size_t mid = ends[r], end = r + 1 < nr_ends ? ends[r + 1] : mid;
			size_t i = start, j = mid, k = start;

			while (i < mid && j < end)
				dst[k++] = stack_before(&src[j], &src[i]) ? src[j++] : src[i++];
			memcpy(dst + k, src + i, (mid - i) * sizeof(*src));
			k += mid - i;
			memcpy(dst + k, src + j, (end - j) * sizeof(*src));
			ends[w++] = end;
			start = end;
		}
		nr_ends = w;
		dst = src;
		src = src == in->stacks ? tmp : in->stacks;
	}
	if (src != in->stacks)
		memcpy(in->stacks, src, n * sizeof(*src));
	free(tmp);
	free(ends);
}

void fg_input_sort(struct fg_input *in)
{
	int depth = 16;

	if (in->sorted)
		return;
	if (in->descents != SIZE_MAX) {
		merge_runs(in);
		in->sorted = 1;
		return;
	}
	for (size_t n = in->nr; n > 1; n >>= 1)
		depth += 2;
	if (in->nr > UINT32_MAX || sort_by_keys(in, depth))
		multikey_sort(in->stacks, in->nr, 0, depth);
	in->sorted = 1;
}
