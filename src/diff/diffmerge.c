/*
 * diffmerge.c - the fast path of 'trail diff' without --top: both folded
 * files read line by line in place (core/line_map: mapped where they are
 * plain files) into core/hashmap's index over an array of lines (stack,
 * counts); written in sorted order (diffsort.c) with the stacks handed to
 * writev() from where they lie (core/gather).  Same output as
 * difffolded_read() + difffolded_write().
 */
#include "diff/diffmerge.h"
#include "diff/diffsort.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/gather.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HUGE_START (1u << 20)		/* bytes of input from which the arena starts huge */
#define PREFETCH_AHEAD 16		/* lines */
#define TEXT_AHEAD 256			/* bytes of a stack fetched before it is compared */

/* Add count to column of the stack s[0..len) of hash h (copied when it would not last). */
static void resolve(struct diffmerge *m, int column, const char *s, size_t len, uint32_t h,
		    double count)
{
	struct hashmap_iter it;
	uint32_t id;
	struct diffline *l;

	/* the hash in the slot spares a cache miss on lines[] per probe */
	for (id = hashmap_first(&m->index, h, &it); id != HASHMAP_NONE; id = hashmap_next(&it))
		if (m->lines[id].len == len && !memcmp(m->lines[id].text, s, len))
			goto found;
	if (len > UINT32_MAX || m->nr >= UINT32_MAX - 1)
		die("diff: more stack text than trail can index");
	/*
	 * realloc: a big array moves by mremap, not by copying, and its
	 * unused tail is never touched, so it costs no resident memory
	 */
	ALLOC_GROW(m->lines, m->nr + 1, m->alloc);
	id = (uint32_t)m->nr++;
	l = &m->lines[id];
	if (m->stable || !len)
		l->text = len ? s : "";
	else
		l->text = memcpy(arena_alloc_bytes(&m->arena, len), s, len);
	l->len = (uint32_t)len;
	l->count[0] = l->count[1] = 0;
	hashmap_add_at(&m->index, &it, id);
	/* in order so far? (checked now, while both stacks are in the cache) */
	if (m->sorted == id && (!id || diffsort_stack_order(l[-1].text, l[-1].len, s, len) < 0))
		m->sorted++;
found:
	m->lines[id].count[column] += count;
	m->total[column] += count;
}

/*
 * A batch of stacks looked up together.  Each look-up is three cache
 * misses, each depending on the one before: the index slot, the line it
 * names, that line's text (BEFORE's 30 MB do not stay in the cache).
 * perf annotate put three quarters of the reading there, stalled on the
 * first load of each.  So the batch fetches every stack's slot
 * (hashmap_prefetch), then the lines found there (hashmap_hint), then
 * their text, and only then looks them up (in input order, fully: the
 * fetches are hints, stale or not).
 */
static void batch_flush(struct diffmerge *m)
{
	struct diffmerge_batch *b = m->batch;
	size_t i, n = m->batch_nr;

	for (i = 0; i < n; i++)
		hashmap_prefetch(&m->index, b[i].hash);
	for (i = 0; i < n; i++) {
		b[i].cand = hashmap_hint(&m->index, b[i].hash);
		if (b[i].cand != HASHMAP_NONE)
			__builtin_prefetch(&m->lines[b[i].cand]);
	}
	for (i = 0; i < n; i++) {
		const struct diffline *l;

		if (b[i].cand == HASHMAP_NONE)
			continue;
		l = &m->lines[b[i].cand];
		for (size_t o = 0; o < l->len && o < TEXT_AHEAD; o += 64)
			__builtin_prefetch(l->text + o);
	}
	for (i = 0; i < n; i++)
		resolve(m, b[i].column, b[i].s, b[i].len, b[i].hash, b[i].count);
	m->batch_nr = 0;
}

static void add(void *data, int column, const char *s, size_t len, double count)
{
	struct diffmerge *m = data;
	uint32_t h = hashmap_hash_bytes(s, len);

	if (!m->stable) {
		/* s lasts for this call only */
		resolve(m, column, s, len, h, count);
		return;
	}
	m->batch[m->batch_nr++] = (struct diffmerge_batch){ s, len, count, h, 0, column };
	if (m->batch_nr == DIFFMERGE_BATCH)
		batch_flush(m);
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
	const char *path[2] = { before, after };
	int side;

	memset(m, 0, sizeof(*m));
	m->in[0].r.fd = m->in[1].r.fd = -1;
	for (side = 0; side < 2; side++) {
		/*
		 * a stack stripped of its hex lies in a scratch buffer, and one
		 * read through the line reader in its buffer: both are copied,
		 * so with -s the input streams rather than being mapped whole
		 */
		if (line_map_open(&m->in[side], path[side], !(flags & DIFFFOLDED_STRIP_HEX)))
			return -1;
		m->stable = line_map_stable(&m->in[side]);
		/* big inputs copied: the arena starts on a huge page (see arena_reserve()) */
		if (!m->stable && !m->arena.head && file_size(path[side]) >= HUGE_START)
			arena_reserve(&m->arena, 2u << 20);
		if (difffolded_read_map(&m->in[side], side, flags, &stats[side], add, m))
			return -1;
		batch_flush(m);
	}
	/* only look-ups need the index: its memory goes to the sort */
	hashmap_release(&m->index);
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
		m->lines[i].count[0] = difffolded_scale(m->lines[i].count[0], t1, t2);
		sum += m->lines[i].count[0];
	}
	m->total[0] = sum;
	return 0;
}

int diffmerge_write(struct diffmerge *m, FILE *f)
{
	uint32_t *ids = diffsort_order(m->lines, m->nr, m->sorted);
	struct gather g;
	size_t i;

	if (fflush(f)) {
		free(ids);
		return -1;
	}
	gather_init(&g, fileno(f));
	for (i = 0; i < m->nr && !g.err; i++) {
		const struct diffline *l = &m->lines[ids[i]];
		char *p;
		size_t n;

		/* lines are visited in random order: each would be a cache miss */
		if (i + PREFETCH_AHEAD < m->nr)
			__builtin_prefetch(&m->lines[ids[i + PREFETCH_AHEAD]]);

		/* the stack from where it lies, its counts formatted in place */
		gather_ref(&g, l->text, l->len);
		p = gather_space(&g, DIFFLINE_COUNTS_MAX + 1);
		n = diffline_format_counts(p, l);
		p[n++] = '\n';
		gather_commit(&g, n);
	}
	free(ids);
	return gather_finish(&g);
}

void diffmerge_release(struct diffmerge *m)
{
	free(m->lines);
	hashmap_release(&m->index);
	arena_release(&m->arena);
	line_map_close(&m->in[0]);
	line_map_close(&m->in[1]);
	memset(m, 0, sizeof(*m));
}
