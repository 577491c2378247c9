/*
 * diffmerge.c - the fast path of 'trail diff' without --top: both folded
 * files mapped, every line parsed in place into an open-addressing table
 * of (hash, text, counts) whose text stays in BEFORE's mapping, sorted
 * and printed through one buffer.  Same output as difffolded_read() +
 * difffolded_write(), without copying BEFORE's stacks.
 */
#include "diff/diffmerge.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_REPORTED_MALFORMED 5
#define OUT_FLUSH (64u << 10)		/* bytes buffered before a write */
#define HUGE_START (1u << 20)		/* bytes of input from which the arena starts huge */

struct diffmerge_key {
	const char *text;		/* in m->arena */
	uint32_t len;			/* bytes */
	uint32_t hash;			/* low bits of the 64-bit hash */
	double count[2];		/* BEFORE, AFTER */
};

#define K0 UINT64_C(0x9e3779b97f4a7c15)
#define K1 UINT64_C(0xc2b2ae3d27d4eb4f)
#define K2 UINT64_C(0x165667b19e3779f9)
#define K3 UINT64_C(0xd6e8feb86659fd93)

static uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/*
 * 64-bit hash, 32 bytes per step in four independent lanes (so the
 * multiplies overlap: stacks are long and every byte of both inputs is
 * hashed, 40% faster than two lanes with xor-shifts): a word is mixed
 * into its lane by a xor, a multiply by an odd constant and a rotation
 * that brings the well-mixed high bits down for the next multiply (as in
 * FxHash); the tail is zero-padded, and the lanes and the length are
 * folded with wyhash's xor-shift-multiply finaliser.
 */
static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t a = len, b = 0, c = 0, d = 0, w, x, y, z;
	size_t i = 0;

	for (; i + 32 <= len; i += 32) {
		memcpy(&w, s + i, 8);
		memcpy(&x, s + i + 8, 8);
		memcpy(&y, s + i + 16, 8);
		memcpy(&z, s + i + 24, 8);
		a = rotl((a ^ w) * K0, 31);
		b = rotl((b ^ x) * K1, 29);
		c = rotl((c ^ y) * K2, 27);
		d = rotl((d ^ z) * K3, 33);
	}
	for (; i < len; i += 8) {
		w = 0;
		memcpy(&w, s + i, len - i < 8 ? len - i : 8);
		a = rotl((a ^ w) * K0, 31);
	}
	a ^= (b ^ (c * K0) ^ (d * K1)) * K2;
	a ^= a >> 32;
	a *= K3;
	a ^= a >> 32;
	return a;
}

static void table_grow(struct diffmerge *m)
{
	size_t cap = m->slots_cap ? m->slots_cap * 2 : 1024, i;
	uint32_t *slots = arena_alloc(&m->arena, st_mult(cap, sizeof(*slots)));

	memset(slots, 0xff, cap * sizeof(*slots));
	for (i = 0; i < m->nr; i++) {
		size_t j = m->keys[i].hash & (cap - 1);

		while (slots[j] != UINT32_MAX)
			j = (j + 1) & (cap - 1);
		slots[j] = (uint32_t)i;
	}
	m->slots = slots;	/* the old table stays in the arena, unused */
	m->slots_cap = cap;
}

/* Add count to column of the stack s[0..len) (copied when new). */
static void add(struct diffmerge *m, const char *s, size_t len, int column, double count)
{
	uint64_t h = hash_bytes(s, len);
	size_t j;
	uint32_t id;

	if ((m->nr + 1) * 4 > m->slots_cap * 3)
		table_grow(m);
	for (j = h & (m->slots_cap - 1);; j = (j + 1) & (m->slots_cap - 1)) {
		id = m->slots[j];
		if (id == UINT32_MAX)
			break;
		if (m->keys[id].hash == (uint32_t)h && m->keys[id].len == len &&
		    !memcmp(m->keys[id].text, s, len))
			goto found;
	}
	if (len > UINT32_MAX || m->nr >= UINT32_MAX - 1)
		die("diff: more stack text than trail can index");
	if (m->nr == m->keys_alloc) {
		/* the old array stays in the arena, unused */
		struct diffmerge_key *keys;

		m->keys_alloc = m->keys_alloc ? 2 * m->keys_alloc : 1024;
		keys = arena_alloc(&m->arena, st_mult(m->keys_alloc, sizeof(*keys)));
		if (m->nr)
			memcpy(keys, m->keys, m->nr * sizeof(*keys));
		m->keys = keys;
	}
	id = (uint32_t)m->nr++;
	m->keys[id].text = len ? memcpy(arena_alloc(&m->arena, len), s, len) : "";
	m->keys[id].len = (uint32_t)len;
	m->keys[id].hash = (uint32_t)h;
	m->keys[id].count[0] = m->keys[id].count[1] = 0;
	m->slots[j] = id;
found:
	m->keys[id].count[column] += count;
	m->total[column] += count;
}

/* Parse one folded file (any input line_reader takes) into column. */
static int parse(struct diffmerge *m, int column, const char *path, unsigned flags,
		 struct difffolded_stats *stats)
{
	struct line_reader r;
	unsigned long long malformed = 0;
	char *line, *strip = NULL;
	size_t len, strip_alloc = 0;
	int ret;

	if (line_reader_open(&r, path))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0) {
		const char *stack;
		size_t slen;
		double count;

		stats->lines++;
		if (difffolded_parse_line(line, len, &stack, &slen, &count)) {
			add(m, "", 0, column, 0);
			if (len) {
				stats->malformed++;
				if (++malformed <= MAX_REPORTED_MALFORMED)
					warning("%s:%llu: ignoring line without a sample count: '%.*s'",
						r.path, (unsigned long long)r.lineno,
						(int)(len < 80 ? len : 80), line);
			}
			continue;
		}
		stats->stacks++;
		if (flags & DIFFFOLDED_STRIP_HEX) {
			if (strip_alloc < 2 * slen + 1) {
				strip_alloc = st_add(st_mult(slen, 2), 1);
				free(strip);
				strip = xmalloc(strip_alloc);
			}
			slen = difffolded_strip_hex(strip, stack, slen);
			stack = strip;
		}
		add(m, stack, slen, column, count);
	}
	free(strip);
	line_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

/* The size of a regular file, else 0 (unknown). */
static uint64_t file_size(const char *path)
{
	struct stat sb;

	return strcmp(path, "-") && !stat(path, &sb) && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
}

int diffmerge_read(struct diffmerge *m, const char *before, const char *after,
		   unsigned flags, struct difffolded_stats stats[2])
{
	memset(m, 0, sizeof(*m));
	/* big inputs: the table starts on a huge page (see arena_reserve()) */
	if (file_size(before) + file_size(after) >= HUGE_START)
		arena_reserve(&m->arena, 2u << 20);
	if (parse(m, 0, before, flags, &stats[0]) || parse(m, 1, after, flags, &stats[1]))
		return -1;
	return 0;
}

/* difffolded_normalize() on the table (same order of summation). */
int diffmerge_normalize(struct diffmerge *m)
{
	double t1 = m->total[0], t2 = m->total[1], sum = 0;
	size_t i;

	if (t1 == t2 || !m->nr)
		return 0;
	if (t1 == 0)
		return -1;
	for (i = 0; i < m->nr; i++) {
		m->keys[i].count[0] = difffolded_scale(m->keys[i].count[0], t1, t2);
		sum += m->keys[i].count[0];
	}
	m->total[0] = sum;
	return 0;
}

static size_t format_line(char *buf, const struct diffmerge *m, uint32_t id)
{
	const struct diffmerge_key *k = &m->keys[id];
	size_t o = k->len;
	int c;

	memcpy(buf, k->text, k->len);
	for (c = 0; c < 2; c++) {
		buf[o++] = ' ';
		o += difffolded_format_count(buf + o, 64, k->count[c]);
	}
	return o;
}

/*
 * The order of difffolded_write(): LC_ALL=C sort of the output lines.
 * x and y share their first `from` bytes, and both are at least that long.
 */
static int cmp_from(const struct diffmerge *m, uint32_t x, uint32_t y, uint32_t from)
{
	const struct diffmerge_key *kx = &m->keys[x], *ky = &m->keys[y];
	uint32_t lx = kx->len, ly = ky->len;
	int c = memcmp(kx->text + from, ky->text + from, (lx < ly ? lx : ly) - from);
	unsigned char nx, ny;

	if (c || lx == ly)
		return c;
	/* One stack is a prefix of the other: the shorter line goes on with ' '. */
	nx = lx < ly ? ' ' : (unsigned char)kx->text[ly];
	ny = ly < lx ? ' ' : (unsigned char)ky->text[lx];
	if (nx != ny)
		return (nx > ny) - (nx < ny);
	{
		char *bx = xmalloc((size_t)lx + 130), *by = xmalloc((size_t)ly + 130);
		size_t ox = format_line(bx, m, x), oy = format_line(by, m, y);

		c = memcmp(bx, by, ox < oy ? ox : oy);
		if (!c)
			c = (ox > oy) - (ox < oy);
		free(bx);
		free(by);
		return c;
	}
}

static int cmp_lines(const void *a, const void *b, void *data)
{
	return cmp_from(data, *(const uint32_t *)a, *(const uint32_t *)b, 0);
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

struct sort_group {
	size_t start, n;	/* ids[start..start+n) */
	uint32_t depth;		/* bytes every id of the group shares */
};

/*
 * MSD radix sort of the ids by stack bytes (McIlroy, Bostic and McIlroy,
 * "Engineering Radix Sort", 1993), with an explicit stack of groups:
 * stacks share long prefixes (the frames near the root), which a
 * comparison sort would memcmp again at every comparison.  Past a stack's
 * end its line goes on with ' '; a group holding a stack that ended
 * earlier, and small groups, are finished with cmp_from().
 */
static void sort_ids(const struct diffmerge *m, uint32_t *ids, size_t n)
{
	struct sort_group *stack = NULL;
	size_t nr = 0, alloc = 0, i;
	uint32_t *tmp = xmallocarray(n ? n : 1, sizeof(*tmp));

	ALLOC_GROW(stack, nr + 1, alloc);
	stack[nr++] = (struct sort_group){ 0, n, 0 };
	while (nr) {
		struct sort_group g = stack[--nr];
		uint32_t *v = ids + g.start, d = g.depth;
		size_t count[256], pos[256], b;
		int short_key = 0;

		if (g.n < 2)
			continue;
		if (g.n <= 32) {
			for (i = 1; i < g.n; i++) {
				uint32_t x = v[i];
				size_t j = i;

				while (j > 0 && cmp_from(m, v[j - 1], x, d) > 0) {
					v[j] = v[j - 1];
					j--;
				}
				v[j] = x;
			}
			continue;
		}
		memset(count, 0, sizeof(count));
		for (i = 0; i < g.n; i++) {
			const struct diffmerge_key *k = &m->keys[v[i]];

			if (k->len < d) {
				short_key = 1;
				break;
			}
			count[k->len > d ? (unsigned char)k->text[d] : ' ']++;
		}
		if (short_key) {
			qsort_r(v, g.n, sizeof(*v), cmp_lines, (void *)m);
			continue;
		}
		for (b = 0; b < 256 && count[b] != g.n; b++)
			;
		if (b < 256) {
			/* one byte for all: skip the whole common prefix */
			const struct diffmerge_key *k0 = &m->keys[v[0]];
			uint32_t lcp = k0->len;

			for (i = 1; i < g.n && lcp > d + 1; i++) {
				const struct diffmerge_key *k = &m->keys[v[i]];
				uint32_t lim = k->len < lcp ? k->len : lcp;

				lcp = lim <= d + 1 ? d + 1 :
				      d + 1 + (uint32_t)mismatch(k0->text + d + 1, k->text + d + 1,
								 lim - (d + 1));
			}
			ALLOC_GROW(stack, nr + 1, alloc);
			stack[nr++] = (struct sort_group){ g.start, g.n, lcp > d + 1 ? lcp : d + 1 };
			continue;
		}
		for (b = 0, i = 0; b < 256; b++) {
			pos[b] = i;
			i += count[b];
		}
		for (i = 0; i < g.n; i++) {
			const struct diffmerge_key *k = &m->keys[v[i]];

			tmp[pos[k->len > d ? (unsigned char)k->text[d] : ' ']++] = v[i];
		}
		memcpy(v, tmp, g.n * sizeof(*v));
		for (b = 0, i = 0; b < 256; b++) {
			if (count[b] > 1) {
				ALLOC_GROW(stack, nr + 1, alloc);
				stack[nr++] = (struct sort_group){ g.start + i, count[b], d + 1 };
			}
			i += count[b];
		}
	}
	free(stack);
	free(tmp);
}

int diffmerge_write(const struct diffmerge *m, FILE *f)
{
	uint32_t *ids = xmallocarray(m->nr ? m->nr : 1, sizeof(*ids));
	char *out = xmalloc(OUT_FLUSH);
	size_t i, o = 0;
	int ret = 0;

	for (i = 0; i < m->nr; i++)
		ids[i] = (uint32_t)i;
	sort_ids(m, ids, m->nr);
	for (i = 0; i < m->nr && !ret; i++) {
		const struct diffmerge_key *k = &m->keys[ids[i]];
		size_t need = (size_t)k->len + 130;

		if (o + need > OUT_FLUSH) {
			if (o && fwrite(out, 1, o, f) != o)
				ret = -1;
			o = 0;
		}
		if (need > OUT_FLUSH) {
			char *line = xmalloc(need);
			size_t n = format_line(line, m, ids[i]);

			line[n++] = '\n';
			if (fwrite(line, 1, n, f) != n)
				ret = -1;
			free(line);
			continue;
		}
		o += format_line(out + o, m, ids[i]);
		out[o++] = '\n';
	}
	if (!ret && o && fwrite(out, 1, o, f) != o)
		ret = -1;
	free(out);
	free(ids);
	return ret;
}

void diffmerge_release(struct diffmerge *m)
{
	arena_release(&m->arena);
	memset(m, 0, sizeof(*m));
}
