/*
 * stack_sort.c - stack order (fg_stack_cmp) and putting an input's stacks
 * in it (fg_input_sort; see input.h): a few sorted runs (byte-sorted
 * input) are merged; shuffled input is sorted by multikey quicksort on
 * 8-byte keys, which also hands the layout how many bytes each stack
 * shares with the one before it (fg_input.lcp), so the layout does not
 * reread those prefixes out of memory order.
 */
#include "flamegraph/input.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

#define PREFETCH_AHEAD 16	/* stacks */
#define PREFETCH_BYTES 512	/* of each */

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

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define LOWS (~HIGHS)

/* Eight bytes from p, the first in the low bits whatever the host order. */
static inline uint64_t load_le(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The bytes of w that equal c, as their high bits (exact: Hacker's Delight 6-1). */
static inline uint64_t bytes_equal(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (ONES * c);

	return ~(((x & LOWS) + LOWS) | x) & HIGHS;
}

/*
 * Eight bytes ranked in parallel: ';' becomes 1, a byte below ';' one
 * more than itself, the others stay (a NUL would become 1 like ';').
 */
static inline uint64_t rank_bytes(uint64_t w)
{
	uint64_t semi = bytes_equal(w, ';') >> 7;
	uint64_t ge = (((w & LOWS) | HIGHS) - ONES * (uint64_t)';') | w;	/* high bit: >= ';' */

	w += (~ge & HIGHS) >> 7;
	return (w & ~(semi * 0xff)) | semi;
}

/* 0, or -1 when the stack has a NUL byte among bytes d..d+7 */
static int load_key(struct sort_key *k, size_t d)
{
	const unsigned char *s = (const unsigned char *)k->s;
	size_t len = k->len, n = len > d ? len - d : 0;
	uint64_t w, keep;

	if (!n) {
		k->key = 0;
		return 0;
	}
	if (n >= 8) {
		w = load_le(s + d);
		keep = ~0ull;
	} else if (len >= 8) {
		/* the word that ends with the stack, shifted down: no read past it */
		w = load_le(s + len - 8) >> (8 * (8 - n));
		keep = (1ull << (8 * n)) - 1;
	} else {
		w = 0;
		for (size_t i = 0; i < n; i++)
			w |= (uint64_t)s[d + i] << (8 * i);
		keep = (1ull << (8 * n)) - 1;
	}
	if (bytes_equal(w, 0) & keep & HIGHS)
		return -1;
	/* big-endian: the first byte decides first */
	k->key = __builtin_bswap64(rank_bytes(w) & keep);
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
 * The first offset from j on where a and b differ, or m: eight bytes at a
 * time, the differing byte found from the xor of the words (a byte loop
 * after the first differing chunk was a tenth of the sort's instructions).
 */
static inline size_t mismatch(const char *a, const char *b, size_t j, size_t m)
{
	const unsigned char *ua = (const unsigned char *)a, *ub = (const unsigned char *)b;

	/* sixteen bytes a turn while equal: half the loop's instructions */
	for (; j + 16 <= m; j += 16) {
		uint64_t x = load_le(ua + j) ^ load_le(ub + j);
		uint64_t y = load_le(ua + j + 8) ^ load_le(ub + j + 8);

		if (x)
			return j + (size_t)__builtin_ctzll(x) / 8;
		if (y)
			return j + 8 + (size_t)__builtin_ctzll(y) / 8;
	}
	for (; j + 8 <= m; j += 8) {
		uint64_t x = load_le(ua + j) ^ load_le(ub + j);

		if (x)
			return j + (size_t)__builtin_ctzll(x) / 8;
	}
	if (j < m && m >= 8) {
		/* the last bytes from the words that end at m, shifted down */
		uint64_t x = (load_le(ua + m - 8) ^ load_le(ub + m - 8)) >> (8 * (8 - (m - j)));

		return x ? j + (size_t)__builtin_ctzll(x) / 8 : m;
	}
	while (j < m && a[j] == b[j])
		j++;
	return j;
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

		/* the lines this one will compare, as far as the prefix goes so far */
		if (i + PREFETCH_AHEAD < n) {
			const char *ahead = k[i + PREFETCH_AHEAD].s;

			for (size_t b = d; b < end && b < d + PREFETCH_BYTES; b += 64)
				__builtin_prefetch(ahead + b);
		}
		end = mismatch(k[0].s, k[i].s, j, m);
	}
	return end;
}

static uint64_t median3_u64(uint64_t a, uint64_t b, uint64_t c)
{
	if (a < b)
		return b < c ? b : (a < c ? c : a);
	return a < c ? a : (b < c ? c : b);
}

/* Bytes a and b share, knowing they share the first d. */
static size_t shared_bytes(const struct sort_key *a, const struct sort_key *b, size_t d)
{
	size_t m = a->len < b->len ? a->len : b->len;

	return mismatch(a->s, b->s, d, m);
}

/* Bytes shared by two stacks that share the first d and whose keys at d differ. */
static uint32_t key_lcp(size_t d, uint64_t a, uint64_t b)
{
	return (uint32_t)(d + (size_t)__builtin_clzll(a ^ b) / 8);
}

/*
 * Sort k[0..n), whose stacks share their first d bytes and whose keys hold
 * bytes d..d+7; -1 on a NUL byte.  lcp[i] (i >= 1) becomes the bytes
 * k[i] shares with k[i - 1] once sorted: where a partition splits the
 * range it is read off the keys on either side of the split (the largest
 * key below the pivot, the pivot, the smallest above), the rest comes
 * from the parts.
 */
static int multikey_sort8(struct sort_key *k, uint32_t *lcp, size_t n, size_t d, int depth)
{
	while (n > 16) {
		size_t lt = 0, i = 0, gt = n;
		uint64_t p, below = 0, above = UINT64_MAX;

		if (depth <= 0) {
			qsort_r(k, n, sizeof(*k), key_cmp_r, &d);
			for (i = 1; i < n; i++)
				lcp[i] = (uint32_t)shared_bytes(&k[i - 1], &k[i], d);
			return 0;
		}
		p = median3_u64(k[0].key, k[n / 2].key, k[n - 1].key);
		while (i < gt) {
			uint64_t x = k[i].key;
			struct sort_key t;

			if (x < p) {
				below = x > below ? x : below;
				t = k[lt]; k[lt++] = k[i]; k[i++] = t;
			} else if (x > p) {
				above = x < above ? x : above;
				t = k[i]; k[i] = k[--gt]; k[gt] = t;
			} else {
				i++;
			}
		}
		if (multikey_sort8(k, lcp, lt, d, depth - 1) ||
		    multikey_sort8(k + gt, lcp + gt, n - gt, d, depth - 1))
			return -1;
		if (lt)
			lcp[lt] = key_lcp(d, below, p);
		if (gt < n)
			lcp[gt] = key_lcp(d, p, above);
		k += lt;
		lcp += lt;
		n = gt - lt;
		if (!(p & 0xff)) {
			/* the equal part ended in these bytes: all equal */
			for (i = 1; i < n; i++)
				lcp[i] = k[0].len;
			return 0;
		}
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
	for (size_t i = 1; i < n; i++)
		lcp[i] = (uint32_t)shared_bytes(&k[i - 1], &k[i], d);
	return 0;
}

static int sort_by_keys(struct fg_input *in, int depth)
{
	struct sort_key *k = xmallocarray(in->nr, sizeof(*k));
	uint32_t *lcp = xmallocarray(in->nr, sizeof(*lcp));
	struct fg_stack *sorted;
	int ret = -1;

	for (size_t i = 0; i < in->nr; i++) {
		k[i].idx = (uint32_t)i;
		k[i].s = in->stacks[i].s;
		k[i].len = in->stacks[i].len;
		if (load_key(&k[i], 0))
			goto out;
	}
	lcp[0] = 0;
	if (multikey_sort8(k, lcp, in->nr, 0, depth))
		goto out;
	sorted = xmallocarray(in->alloc, sizeof(*sorted));
	for (size_t i = 0; i < in->nr; i++)
		sorted[i] = in->stacks[k[i].idx];
	free(in->stacks);
	in->stacks = sorted;
	in->lcp = lcp;
	lcp = NULL;
	ret = 0;
out:
	free(lcp);
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
	fg_input_forget_lcp(in);
	if (in->nr < 2) {
		in->sorted = 1;
		return;
	}
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

void fg_input_forget_lcp(struct fg_input *in)
{
	free(in->lcp);
	in->lcp = NULL;
}
