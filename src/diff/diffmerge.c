/*
 * diffmerge.c - the fast path of 'trail diff' without --top: both folded
 * files mapped, every line parsed in place into an open-addressing table
 * of (hash, text, counts) whose text stays in BEFORE's mapping, sorted
 * and printed through one buffer.  Same output as difffolded_read() +
 * difffolded_write(), without copying BEFORE's stacks.
 */
#include "diff/diffmerge.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_REPORTED_MALFORMED 5
#define ARENA_CHUNK (1u << 20)		/* bytes per arena block */
#define DROP_WINDOW (256u << 10)		/* bytes of AFTER released at a time */
#define OUT_FLUSH (64u << 10)		/* bytes buffered before a write */

struct diffmerge_key {
	const char *text;
	uint32_t len;			/* bytes */
	uint32_t hash;			/* low bits of the 64-bit hash */
};

/*
 * 64-bit hash, 16 bytes per step in two independent lanes (so the
 * multiplies overlap): each word is mixed in with a multiply and a
 * xor-shift (the multiply-xorshift family of FxHash and wyhash's
 * finaliser); the tail is zero-padded and the length is mixed in.
 */
static uint64_t hash_bytes(const char *s, size_t len)
{
	const uint64_t k = UINT64_C(0x9e3779b97f4a7c15), k2 = UINT64_C(0xc2b2ae3d27d4eb4f);
	uint64_t h = (uint64_t)len * k, g = k2, w, v;
	size_t i = 0;

	for (; i + 16 <= len; i += 16) {
		memcpy(&w, s + i, 8);
		memcpy(&v, s + i + 8, 8);
		h = (h ^ w) * k;
		g = (g ^ v) * k2;
		h ^= h >> 29;
		g ^= g >> 31;
	}
	if (i + 8 <= len) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
		i += 8;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, s + i, len - i);
		g = (g ^ w) * k2;
	}
	h ^= g * k;
	h ^= h >> 32;
	h *= UINT64_C(0xd6e8feb86659fd93);
	h ^= h >> 32;
	return h;
}

static char *arena_copy(struct diffmerge *m, const char *s, size_t len)
{
	char *p;

	if (!len)
		return (char *)"";
	if (len > ARENA_CHUNK / 4 || m->arena_left < len) {
		p = xmalloc(len > ARENA_CHUNK / 4 ? len : ARENA_CHUNK);
		ALLOC_GROW(m->blocks, m->nr_blocks + 1, m->blocks_alloc);
		m->blocks[m->nr_blocks++] = p;
		if (len <= ARENA_CHUNK / 4) {
			m->arena_cur = p;
			m->arena_left = ARENA_CHUNK;
		}
	}
	if (len <= ARENA_CHUNK / 4) {
		p = m->arena_cur;
		m->arena_cur += len;
		m->arena_left -= len;
	}
	memcpy(p, s, len);
	return p;
}

static void table_grow(struct diffmerge *m)
{
	size_t cap = m->slots_cap ? m->slots_cap * 2 : 1024, i;
	uint32_t *slots = xmallocarray(cap, sizeof(*slots));

	memset(slots, 0xff, cap * sizeof(*slots));
	for (i = 0; i < m->nr; i++) {
		size_t j = m->keys[i].hash & (cap - 1);

		while (slots[j] != UINT32_MAX)
			j = (j + 1) & (cap - 1);
		slots[j] = (uint32_t)i;
	}
	free(m->slots);
	m->slots = slots;
	m->slots_cap = cap;
}

/* Add count to column of the stack s[0..len); copy says whether the text
 * must be copied (it lives in a mapping that will be released). */
static void add(struct diffmerge *m, const char *s, size_t len, int column,
		double count, int copy)
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
	ALLOC_GROW(m->keys, m->nr + 1, m->keys_alloc);
	if (m->nr >= m->counts_alloc) {
		size_t old = m->counts_alloc;

		ALLOC_GROW(m->counts[0], m->nr + 1, m->counts_alloc);
		m->counts[1] = xreallocarray(m->counts[1], m->counts_alloc, sizeof(double));
		memset(m->counts[0] + old, 0, (m->counts_alloc - old) * sizeof(double));
		memset(m->counts[1] + old, 0, (m->counts_alloc - old) * sizeof(double));
	}
	id = (uint32_t)m->nr++;
	m->keys[id].text = copy ? arena_copy(m, s, len) : s;
	m->keys[id].len = (uint32_t)len;
	m->keys[id].hash = (uint32_t)h;
	m->slots[j] = id;
found:
	m->counts[column][id] += count;
	m->total[column] += count;
}

/* Map a regular, non-gzip file of 2 bytes or more; 0 when it is not one. */
static int map_file(const char *path, const char **map, size_t *size)
{
	struct stat sb;
	unsigned char magic[2];
	int fd;

	if (!strcmp(path, "-") || stat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < 2 ||
	    (uint64_t)sb.st_size > SIZE_MAX)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, magic, 2, 0) != 2 || (magic[0] == 0x1f && magic[1] == 0x8b)) {
		close(fd);
		return 0;
	}
	*map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (*map == MAP_FAILED)
		return 0;
	*size = (size_t)sb.st_size;
	madvise((void *)*map, *size, MADV_SEQUENTIAL);
	return 1;
}

/*
 * Parse one mapped file into column.  BEFORE's text stays referenced in
 * its mapping; AFTER's new stacks are copied and AFTER's pages dropped
 * behind the parser, so only one file is resident at a time.
 */
static void parse(struct diffmerge *m, int column, const char *path, const char *map,
		  size_t size, unsigned flags, struct difffolded_stats *stats)
{
	const char *p = map, *end = map + size, *dropped = map;
	unsigned long long lineno = 0, malformed = 0;
	/* with -s every stack is a stripped copy: release BEFORE's pages too */
	int copy = column == 1 || (flags & DIFFFOLDED_STRIP_HEX);
	char *strip = NULL;
	size_t strip_alloc = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *stack;
		size_t len = (size_t)(le - p), slen;
		double count;

		lineno++;
		if (len && p[len - 1] == '\r')
			len--;
		stats->lines++;
		if (difffolded_parse_line(p, len, &stack, &slen, &count)) {
			add(m, "", 0, column, 0, 0);
			if (len) {
				stats->malformed++;
				if (++malformed <= MAX_REPORTED_MALFORMED)
					warning("%s:%llu: ignoring line without a sample count: '%.*s'",
						path, lineno, (int)(len < 80 ? len : 80), p);
			}
		} else {
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
			add(m, stack, slen, column, count, copy);
		}
		p = le + 1;
		if (copy && (size_t)(p - dropped) >= DROP_WINDOW) {
			/* whole pages behind the parser: their stacks were copied */
			size_t n = (size_t)(p - dropped) & ~(size_t)4095;

			madvise((void *)dropped, n, MADV_DONTNEED);
			dropped += n;
		}
	}
	free(strip);
}

int diffmerge_read(struct diffmerge *m, const char *before, const char *after,
		   unsigned flags, struct difffolded_stats stats[2])
{
	const char *map[2];
	size_t size[2];

	memset(m, 0, sizeof(*m));
	if (!map_file(before, &map[0], &size[0]))
		return 0;
	if (!map_file(after, &map[1], &size[1])) {
		munmap((void *)map[0], size[0]);
		return 0;
	}
	m->map = map[0];
	m->map_size = size[0];
	madvise((void *)map[0], size[0], MADV_WILLNEED);
	parse(m, 0, before, map[0], size[0], flags, &stats[0]);
	parse(m, 1, after, map[1], size[1], flags, &stats[1]);
	munmap((void *)map[1], size[1]);
	return 1;
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
		m->counts[0][i] = difffolded_scale(m->counts[0][i], t1, t2);
		sum += m->counts[0][i];
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
		o += difffolded_format_count(buf + o, 64, m->counts[c][id]);
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
	size_t i;

	if (m->map)
		munmap((void *)m->map, m->map_size);
	for (i = 0; i < m->nr_blocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	free(m->keys);
	free(m->slots);
	free(m->counts[0]);
	free(m->counts[1]);
	memset(m, 0, sizeof(*m));
}
