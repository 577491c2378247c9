/*
 * alloc_read.c - one raw allocation file (raw.h) -> perf.data records: the
 * process's COMM, an MMAP2 per executable file mapping of its last saved
 * /proc/self/maps, then a SAMPLE per distinct stack of the allocations the view counts,
 * its period their summed estimate (bytes or objects, see alloc_read.h).
 * Validates every length first: the files come from a traced program.
 * An exact recording (interval 1) holds SITE records instead, folded by
 * the interposer while the program ran: the same weights per stack.
 * A file cut short (no END record: the process was killed, or its
 * records were lost) counts what it holds, and the totals say so.
 */
#include "alloc/alloc_read.h"
#include "alloc/raw.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/hashmap.h"
#include "core/strbuf.h"
#include "core/unaligned.h"
#include "perf/perfdata_write.h"

#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const struct {
	const char *name, *unit;
} views[] = {
	[ALLOC_VIEW_SPACE] = { "alloc-space", "bytes" },
	[ALLOC_VIEW_OBJECTS] = { "alloc-objects", "objects" },
	[ALLOC_VIEW_INUSE_PEAK] = { "inuse-peak", "bytes" },
	[ALLOC_VIEW_INUSE_EXIT] = { "inuse-exit", "bytes" },
	[ALLOC_VIEW_INTERVALS] = { "alloc-intervals", "intervals" },
	[ALLOC_VIEW_PEAK_INTERVALS] = { "inuse-peak-intervals", "intervals" },
};

int alloc_view_parse(const char *name)
{
	size_t i;

	for (i = 0; i < ALLOC_VIEW_INTERVALS; i++)	/* the user's views */
		if (!strcmp(name, views[i].name))
			return (int)i;
	return -1;
}

const char *alloc_view_name(enum alloc_view v)
{
	return views[v].name;
}

const char *alloc_view_unit(enum alloc_view v)
{
	return views[v].unit;
}

const char *alloc_view_names(void)
{
	return "alloc-space, alloc-objects, inuse-peak, inuse-exit";
}

struct sampled {
	uint32_t stack;		/* its stack's id */
	uint64_t ptr, size;	/* size in bytes */
	uint64_t seq;		/* event number of the allocation */
	uint64_t freed;		/* event number of its free, UINT64_MAX if never */
	double bytes, objects;	/* estimates it stands for */
};

struct raw_file {
	const unsigned char *data;
	size_t words;
	const char *name;
	uint64_t interval, pid;
	char comm[17];
	size_t maps_word;	/* the last MAPS record, 0 when none */
	struct sampled *s;
	size_t nr, alloc;
	uint64_t *stacks;	/* id -> where its STACK record starts, in words */
	size_t stacks_nr, stacks_alloc;
	uint64_t *site_at;	/* id -> where its last SITE record starts, 0 if none */
	size_t sites_alloc;	/* site_at[] has stacks_nr entries */
	int has_sites;
	uint64_t events;	/* ALLOC and FREE records */
	int ended;		/* an END record: the image finished its record */
};

static uint64_t word(const struct raw_file *f, size_t i)
{
	return rd64(f->data + i * 8);
}

static int bad(const struct raw_file *f, size_t at, const char *what)
{
	return trail_error("%s: offset %zu: %s", f->name, at * 8, what);
}

static void weigh(const struct raw_file *f, struct sampled *a)
{
	double p = 1;

	if (f->interval > 1)
		p = -expm1(-(double)a->size / (double)f->interval);
	if (p <= 0) {
		a->bytes = a->objects = 0;
		return;
	}
	a->bytes = (double)a->size / p;
	a->objects = 1 / p;
}

/*
 * The live sampled blocks: pointer -> index in f->s, the pointers seen
 * indexed by core/hashmap.  A pointer stays once seen (malloc reuses
 * addresses: the keys are few, one per sampled block).
 */
struct live_block {
	uint64_t ptr;
	uint32_t at;		/* 1: seen, not live; 2 + index in f->s: live */
};

struct live_map {
	struct hashmap index;	/* hash of ptr -> number in blocks[] */
	struct live_block *blocks;
	size_t nr, alloc;
};

/* ptr's block, or NULL (with *it where it would go) when never seen. */
static struct live_block *live_find(struct live_map *m, uint64_t ptr, struct hashmap_iter *it)
{
	uint32_t id;

	for (id = hashmap_first(&m->index, hashmap_hash_u64(ptr), it); id != HASHMAP_NONE;
	     id = hashmap_next(it))
		if (m->blocks[id].ptr == ptr)
			return &m->blocks[id];
	return NULL;
}

/* Where ptr's entry is (added when new). */
static uint32_t *live_entry(struct live_map *m, uint64_t ptr)
{
	struct hashmap_iter it;
	struct live_block *b = live_find(m, ptr, &it);

	if (!b) {
		ALLOC_GROW(m->blocks, m->nr + 1, m->alloc);
		b = &m->blocks[m->nr];
		b->ptr = ptr;
		b->at = 1;
		hashmap_add_at(&m->index, &it, (uint32_t)m->nr++);
	}
	return &b->at;
}

/* A SITE record at i of len words: well formed, in an exact recording. */
static int check_site(const struct raw_file *f, size_t i, uint64_t len)
{
	if (len != 6)
		return bad(f, i, "malformed site record");
	if (f->interval != 1)
		return bad(f, i, "site record in a sampled recording");
	if (f->nr)
		return bad(f, i, "site records beside allocation records");
	if (word(f, i + 1) >= f->stacks_nr)
		return bad(f, i, "site names a stack not yet written");
	if (word(f, i + 4) > word(f, i + 3) || word(f, i + 5) > word(f, i + 3))
		return bad(f, i, "site has more bytes live than allocated");
	return 0;
}

/* Check every record and collect the sampled allocations with their frees. */
static int scan(struct raw_file *f)
{
	struct live_map live = { HASHMAP_INIT, NULL, 0, 0 };
	size_t i = ALLOC_RAW_HEADER_WORDS;
	int ret = -1;

	while (i < f->words) {
		uint64_t hdr = word(f, i), len = hdr >> 32;
		unsigned type = (unsigned)(hdr & 0xff);
		uint64_t ptr;
		struct live_block *b;
		struct hashmap_iter it;

		if (f->ended) {
			bad(f, i, "a record after the end record");
			goto out;
		}
		if (!len) {
			bad(f, i, "a record of length 0");
			goto out;
		}
		if (len > f->words - i)
			break;	/* the last write was cut short: the records before it count */
		switch (type) {
		case ALLOC_RAW_ALLOC: {
			struct sampled *a;

			if (len != 5) {
				bad(f, i, "malformed allocation record");
				goto out;
			}
			if (word(f, i + 4) >= f->stacks_nr) {
				bad(f, i, "allocation names a stack not yet written");
				goto out;
			}
			if (f->has_sites) {
				bad(f, i, "allocation records beside site records");
				goto out;
			}
			ptr = word(f, i + 2);
			ALLOC_GROW(f->s, f->nr + 1, f->alloc);
			a = &f->s[f->nr];
			a->stack = (uint32_t)word(f, i + 4);
			a->ptr = ptr;
			a->size = word(f, i + 3);
			a->seq = f->events++;
			a->freed = UINT64_MAX;
			weigh(f, a);
			if (f->nr + 2 > UINT32_MAX) {
				bad(f, i, "too many allocations");
				goto out;
			}
			*live_entry(&live, ptr) = (uint32_t)(f->nr + 2);
			f->nr++;
			break;
		}
		case ALLOC_RAW_FREE:
			if (len != 2) {
				bad(f, i, "malformed free record");
				goto out;
			}
			ptr = word(f, i + 1);
			b = live_find(&live, ptr, &it);
			if (b && b->at >= 2) {
				f->s[b->at - 2].freed = f->events;
				b->at = 1;
			}
			f->events++;
			break;
		case ALLOC_RAW_STACK:
			if (len < 3 || word(f, i + 2) != len - 3 || word(f, i + 2) > ALLOC_RAW_MAX_FRAMES) {
				bad(f, i, "malformed stack record");
				goto out;
			}
			if (word(f, i + 1) != f->stacks_nr || f->stacks_nr >= UINT32_MAX) {
				bad(f, i, "stack ids out of order");
				goto out;
			}
			ALLOC_GROW(f->stacks, f->stacks_nr + 1, f->stacks_alloc);
			ALLOC_GROW(f->site_at, f->stacks_nr + 1, f->sites_alloc);
			f->site_at[f->stacks_nr] = 0;
			f->stacks[f->stacks_nr++] = i;
			break;
		case ALLOC_RAW_SITE:
			if (check_site(f, i, len))
				goto out;
			f->has_sites = 1;
			f->site_at[word(f, i + 1)] = i;
			break;
		case ALLOC_RAW_MAPS:
			if (len < 2 || word(f, i + 1) > (len - 2) * 8) {
				bad(f, i, "malformed maps record");
				goto out;
			}
			f->maps_word = i;
			break;
		case ALLOC_RAW_END:
			if (len != 1) {
				bad(f, i, "malformed end record");
				goto out;
			}
			f->ended = 1;
			break;
		default:
			bad(f, i, "unknown record type");
			goto out;
		}
		i += len;
	}
	ret = 0;
out:
	hashmap_release(&live.index);
	free(live.blocks);
	return ret;
}

static void add_padded_string(struct strbuf *rec, const char *s, size_t len)
{
	static const char zeros[8];

	strbuf_add(rec, s, len);
	strbuf_add(rec, zeros, 8 - len % 8);	/* at least one NUL */
}

static void set_header(struct strbuf *rec, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, (uint16_t)rec->len };

	memcpy(rec->buf, &h, sizeof(h));
}

static int write_comm(struct perfdata_writer *w, uint32_t pid, uint32_t tid, const char *comm)
{
	struct strbuf rec = STRBUF_INIT;
	uint32_t ids[2] = { pid, tid };
	int ret;

	strbuf_grow(&rec, 64);
	strbuf_setlen(&rec, sizeof(struct perf_event_header));
	strbuf_add(&rec, ids, sizeof(ids));
	add_padded_string(&rec, comm, strlen(comm));
	set_header(&rec, PERF_RECORD_COMM, 0);
	ret = perfdata_writer_add(w, (const struct perf_event_header *)rec.buf, 0);
	strbuf_release(&rec);
	return ret;
}

/* MMAP2 records for the executable file mappings in the saved maps text. */
static int write_maps(const struct raw_file *f, struct perfdata_writer *w)
{
	const char *text = (const char *)f->data + (f->maps_word + 2) * 8;
	size_t len = (size_t)word(f, f->maps_word + 1), at = 0;
	uint32_t pid = (uint32_t)f->pid;
	struct strbuf line = STRBUF_INIT, rec = STRBUF_INIT;
	int ret = 0;

	while (at < len && !ret) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		unsigned long long lo, hi, off;
		char perms[8];
		int path_at = -1;

		strbuf_setlen(&line, 0);
		strbuf_add(&line, text + at, n);
		at += n + 1;
		if (sscanf(line.buf, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off, &path_at) < 4 ||
		    path_at < 0 || line.buf[path_at] != '/' || !strchr(perms, 'x') || hi <= lo)
			continue;
		strbuf_setlen(&rec, 0);
		strbuf_grow(&rec, 128);
		strbuf_setlen(&rec, sizeof(struct perf_event_header));
		{
			uint32_t ids[2] = { pid, pid };
			uint64_t v[3] = { lo, hi - lo, off };
			uint32_t majmin[2] = { 0, 0 };
			uint64_t ino[2] = { 0, 0 };
			uint32_t prot_flags[2] = { PROT_READ | PROT_EXEC, MAP_PRIVATE };

			strbuf_add(&rec, ids, sizeof(ids));
			strbuf_add(&rec, v, sizeof(v));
			strbuf_add(&rec, majmin, sizeof(majmin));
			strbuf_add(&rec, ino, sizeof(ino));
			strbuf_add(&rec, prot_flags, sizeof(prot_flags));
		}
		add_padded_string(&rec, line.buf + path_at, strlen(line.buf + path_at));
		set_header(&rec, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
		ret = perfdata_writer_add(w, (const struct perf_event_header *)rec.buf, 0);
	}
	strbuf_release(&line);
	strbuf_release(&rec);
	return ret;
}

/* The event after which the estimated live bytes were largest. */
static uint64_t peak_event(const struct raw_file *f, double *peak)
{
	double *delta = xcalloc(f->events + 1, sizeof(*delta)), live = 0;
	uint64_t e, best = 0;
	size_t i;

	*peak = 0;
	for (i = 0; i < f->nr; i++) {
		delta[f->s[i].seq] += f->s[i].bytes;
		if (f->s[i].freed != UINT64_MAX)
			delta[f->s[i].freed] -= f->s[i].bytes;
	}
	for (e = 0; e < f->events; e++) {
		live += delta[e];
		if (live > *peak) {
			*peak = live;
			best = e;
		}
	}
	free(delta);
	return best;
}

/* One SAMPLE record: stack id's frames (raw words), weighed period. */
static int write_sample(const struct raw_file *f, uint32_t id, uint64_t period,
			struct perfdata_writer *w, struct alloc_totals *t, struct strbuf *rec)
{
	uint64_t at = f->stacks[id], n = word(f, at + 2), v, k;
	uint32_t ids[2] = { (uint32_t)f->pid, (uint32_t)f->pid };

	strbuf_setlen(rec, 0);
	strbuf_grow(rec, 64 + n * 8);
	strbuf_setlen(rec, sizeof(struct perf_event_header));
	/* return addresses - 1: inside the call, so the caller's line and function */
	v = word(f, at + 3) - 1;
	strbuf_add(rec, &v, 8);				/* IP */
	strbuf_add(rec, ids, sizeof(ids));		/* TID: the process; threads share its name */
	v = ++t->clock;
	strbuf_add(rec, &v, 8);				/* TIME */
	strbuf_add(rec, &period, 8);			/* PERIOD */
	v = n + 1;
	strbuf_add(rec, &v, 8);				/* CALLCHAIN nr */
	v = PERF_CONTEXT_USER;
	strbuf_add(rec, &v, 8);
	for (k = 0; k < n; k++) {
		v = word(f, at + 3 + k) - 1;
		strbuf_add(rec, &v, 8);
	}
	if (rec->len > UINT16_MAX)
		return bad(f, at, "call stack too deep");
	set_header(rec, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	t->samples_written++;
	return perfdata_writer_add(w, (const struct perf_event_header *)rec->buf, t->clock);
}

/*
 * The view's weight of every sampled allocation, summed per distinct
 * stack (then rounded), so the perf.data file holds one sample per call
 * path however many allocations took it - the folded result is the same.
 */
static int write_samples(const struct raw_file *f, enum alloc_view view,
			 struct perfdata_writer *w, struct alloc_totals *t)
{
	struct strbuf rec = STRBUF_INIT;
	double *sum = xcalloc(f->stacks_nr + 1, sizeof(*sum));	/* per stack id */
	size_t *first = xcalloc(f->stacks_nr + 1, sizeof(*first));	/* an allocation with it */
	size_t i;
	uint64_t at_peak;
	double peak = 0;
	uint32_t id;
	int ret = 0;

	at_peak = peak_event(f, &peak);
	t->peak_bytes += peak;
	for (i = 0; i < f->nr; i++) {
		const struct sampled *a = &f->s[i];
		uint64_t n = word(f, f->stacks[a->stack] + 2);
		double weight;

		t->samples++;
		t->bytes += a->bytes;
		t->objects += a->objects;
		if (a->freed == UINT64_MAX)
			t->exit_bytes += a->bytes;
		switch (view) {
		case ALLOC_VIEW_SPACE:
			weight = a->bytes;
			break;
		case ALLOC_VIEW_OBJECTS:
			weight = a->objects;
			break;
		case ALLOC_VIEW_INTERVALS:
			weight = a->bytes / (double)(f->interval ? f->interval : 1);
			break;
		case ALLOC_VIEW_INUSE_PEAK:
			weight = a->seq <= at_peak && a->freed > at_peak ? a->bytes : 0;
			break;
		case ALLOC_VIEW_PEAK_INTERVALS:
			weight = a->seq <= at_peak && a->freed > at_peak ? a->bytes : 0;
			weight /= (double)(f->interval ? f->interval : 1);
			break;
		default:
			weight = a->freed == UINT64_MAX ? a->bytes : 0;
			break;
		}
		if (!(weight > 0) || !n)
			continue;
		if (!(sum[a->stack] > 0))
			first[a->stack] = i;
		sum[a->stack] += weight;
	}
	for (id = 0; id < f->stacks_nr && !ret; id++) {
		uint64_t period = (uint64_t)llround(sum[id]);

		if (period)
			ret = write_sample(f, f->s[first[id]].stack, period, w, t, &rec);
	}
	free(sum);
	free(first);
	strbuf_release(&rec);
	return ret;
}

/* The same for an exact recording folded by the interposer: its SITE records. */
static int write_sites(const struct raw_file *f, enum alloc_view view,
		       struct perfdata_writer *w, struct alloc_totals *t)
{
	struct strbuf rec = STRBUF_INIT;
	uint32_t id;
	int ret = 0;

	for (id = 0; id < f->stacks_nr && !ret; id++) {
		uint64_t at = f->site_at[id], objects, bytes, live, peak, weight;

		if (!at)
			continue;
		objects = word(f, at + 2);
		bytes = word(f, at + 3);
		live = word(f, at + 4);
		peak = word(f, at + 5);
		t->samples += objects;
		t->bytes += (double)bytes;
		t->objects += (double)objects;
		t->exit_bytes += (double)live;
		t->peak_bytes += (double)peak;
		switch (view) {
		case ALLOC_VIEW_SPACE:
		case ALLOC_VIEW_INTERVALS:	/* the interval is 1 */
			weight = bytes;
			break;
		case ALLOC_VIEW_OBJECTS:
			weight = objects;
			break;
		case ALLOC_VIEW_INUSE_PEAK:
		case ALLOC_VIEW_PEAK_INTERVALS:
			weight = peak;
			break;
		default:
			weight = live;
			break;
		}
		if (weight && word(f, f->stacks[id] + 2))
			ret = write_sample(f, id, weight, w, t, &rec);
	}
	strbuf_release(&rec);
	return ret;
}

int alloc_raw_convert(const unsigned char *data, size_t size, const char *name,
		      enum alloc_view view, struct perfdata_writer *w, struct alloc_totals *t)
{
	struct raw_file f;
	int ret = -1;

	memset(&f, 0, sizeof(f));
	f.data = data;
	f.words = size / 8;
	f.name = name;
	if (!size) {
		/* the image was killed between creating its file and the header */
		t->files++;
		t->unfinished++;
		return 0;
	}
	if (f.words < ALLOC_RAW_HEADER_WORDS || word(&f, 0) != ALLOC_RAW_MAGIC)
		return bad(&f, 0, "not a trail allocation recording");
	if (word(&f, 1) != ALLOC_RAW_VERSION)
		return bad(&f, 8, "unsupported version");
	f.interval = word(&f, 2);
	f.pid = word(&f, 3);
	memcpy(f.comm, data + 6 * 8, 16);
	f.comm[16] = 0;
	if (!f.comm[0])
		strcpy(f.comm, "[unknown]");
	if (f.pid > INT32_MAX)
		return bad(&f, 3, "bad process id");
	if (scan(&f))
		goto out;
	if (!t->interval)
		t->interval = f.interval;
	t->files++;
	if (!f.ended)
		t->unfinished++;
	if (write_comm(w, (uint32_t)f.pid, (uint32_t)f.pid, f.comm))
		goto out;
	if (f.maps_word && write_maps(&f, w))
		goto out;
	if (f.has_sites ? write_sites(&f, view, w, t) : write_samples(&f, view, w, t))
		goto out;
	ret = 0;
out:
	free(f.s);
	free(f.stacks);
	free(f.site_at);
	return ret;
}
