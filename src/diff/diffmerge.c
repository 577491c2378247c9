/*
 * diffmerge.c - the fast path of 'trail diff' without --top: both folded
 * files read line by line (core/line_reader) into an open-addressing table
 * of (hash, text, counts), the stacks' text packed in one huge-page-backed
 * arena; written in sorted order (diffsort.c) with the stacks handed to
 * writev() from the arena (core/gather).  Same output as difffolded_read()
 * + difffolded_write().
 */
#include "diff/diffmerge.h"
#include "diff/diffsort.h"
#include "core/alloc.h"
#include "core/arena.h"
#include "core/error.h"
#include "core/gather.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define COUNT_MAX (DIFFMERGE_COUNTS_MAX / 2 - 1)	/* bytes of one count, NUL included */
#define HUGE_START (1u << 20)		/* bytes of input from which the arena starts huge */
#define PREFETCH_AHEAD 16		/* keys */

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

/*
 * Twice the slots, placed by the hashes the slots hold (keys[] is not
 * read); the old table is freed, so the table never holds more than the
 * new one and, while it is filled, the old.
 */
static void table_grow(struct diffmerge *m)
{
	size_t cap = m->slots_cap ? m->slots_cap * 2 : 1024, i;
	struct diffmerge_slot *slots = xmalloc_huge(st_mult(cap, sizeof(*slots)));

	memset(slots, 0xff, cap * sizeof(*slots));
	for (i = 0; i < m->slots_cap; i++) {
		size_t j;

		if (m->slots[i].id == UINT32_MAX)
			continue;
		for (j = m->slots[i].hash & (cap - 1); slots[j].id != UINT32_MAX;
		     j = (j + 1) & (cap - 1))
			;
		slots[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->slots_cap = cap;
}

/* Add count to column of the stack s[0..len) (copied when new). */
static void add(void *data, int column, const char *s, size_t len, double count)
{
	struct diffmerge *m = data;
	uint64_t h = hash_bytes(s, len);
	size_t j;
	uint32_t id;

	if ((m->nr + 1) * 4 > m->slots_cap * 3)
		table_grow(m);
	/* the hash in the slot spares a cache miss on keys[] per probe */
	for (j = h & (m->slots_cap - 1);; j = (j + 1) & (m->slots_cap - 1)) {
		id = m->slots[j].id;
		if (id == UINT32_MAX)
			break;
		if (m->slots[j].hash == (uint32_t)h && m->keys[id].len == len &&
		    !memcmp(m->keys[id].text, s, len))
			goto found;
	}
	if (len > UINT32_MAX || m->nr >= UINT32_MAX - 1)
		die("diff: more stack text than trail can index");
	/*
	 * realloc: a big array moves by mremap, not by copying, and its
	 * unused tail is never touched, so it costs no resident memory
	 */
	ALLOC_GROW(m->keys, m->nr + 1, m->keys_alloc);
	id = (uint32_t)m->nr++;
	m->keys[id].text = len ? memcpy(arena_alloc_bytes(&m->arena, len), s, len) : "";
	m->keys[id].len = (uint32_t)len;
	m->keys[id].hash = (uint32_t)h;
	m->keys[id].count[0] = m->keys[id].count[1] = 0;
	m->slots[j].id = id;
	m->slots[j].hash = (uint32_t)h;
found:
	m->keys[id].count[column] += count;
	m->total[column] += count;
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
	if (difffolded_read_lines(before, 0, flags, &stats[0], add, m) ||
	    difffolded_read_lines(after, 1, flags, &stats[1], add, m))
		return -1;
	/* only look-ups need the hash table: its memory goes to the sort */
	free(m->slots);
	m->slots = NULL;
	m->slots_cap = 0;
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

/* " before after" of k into buf (DIFFMERGE_COUNTS_MAX bytes); its length. */
static size_t format_counts(char *buf, const struct diffmerge_key *k)
{
	size_t o = 0;
	int c;

	for (c = 0; c < 2; c++) {
		buf[o++] = ' ';
		o += difffolded_format_count(buf + o, COUNT_MAX, k->count[c]);
	}
	return o;
}

size_t diffmerge_format_line(char *buf, const struct diffmerge *m, uint32_t id)
{
	const struct diffmerge_key *k = &m->keys[id];

	memcpy(buf, k->text, k->len);
	return k->len + format_counts(buf + k->len, k);
}

int diffmerge_write(struct diffmerge *m, FILE *f)
{
	uint32_t *ids = diffmerge_sort(m);
	struct gather g;
	size_t i;

	if (fflush(f))
		return -1;
	gather_init(&g, fileno(f));
	for (i = 0; i < m->nr && !g.err; i++) {
		const struct diffmerge_key *k = &m->keys[ids[i]];
		char *p;
		size_t n;

		/* keys are visited in random order: each would be a cache miss */
		if (i + PREFETCH_AHEAD < m->nr)
			__builtin_prefetch(&m->keys[ids[i + PREFETCH_AHEAD]]);

		/* the stack from the arena, its counts formatted in place */
		gather_ref(&g, k->text, k->len);
		p = gather_space(&g, DIFFMERGE_COUNTS_MAX + 1);
		n = format_counts(p, k);
		p[n++] = '\n';
		gather_commit(&g, n);
	}
	free(ids);
	return gather_finish(&g);
}

void diffmerge_release(struct diffmerge *m)
{
	free(m->keys);
	free(m->slots);
	arena_release(&m->arena);
	memset(m, 0, sizeof(*m));
}
