/*
 * perfdata_records.c - the data records of an open perf.data file,
 * decompressed (zstd) and delivered to a perf_tool in the order perf's
 * ordered-events queue delivers them (flushed per FINISHED_ROUND).
 * Layout source: tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h.
 */
#include "perf/perfdata.h"
#include "perf/perfdata_parts.h"
#include "perf/perf_event.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/unaligned.h"
#include "perf/time_order.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* ---- records -------------------------------------------------------------- */

struct process_state {
	struct perfdata *pd;
	struct perf_tool *tool;
	struct pending *q;
	size_t nr, alloc;
	struct pending *q_tmp;	/* scratch for time_order_sort */
	size_t q_tmp_alloc;
	uint64_t seq;
	uint64_t next_flush, max_time;
	uint64_t *ids_sorted;	/* (id, evsel index) pairs, sorted by id */
	size_t nr_ids;
	ZSTD_DCtx *zstd;
	unsigned char *carry;	/* partial record left over from a chunk */
	size_t carry_len;
	struct perf_sample_buf buf;	/* aligned copies of callchains and registers */
};

static int cmp_id(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

static void index_ids(struct process_state *st)
{
	struct perfdata *pd = st->pd;
	size_t i, j, n = 0;

	for (i = 0; i < pd->nr_evsel; i++)
		n += pd->evsel[i].nr_ids;
	free(st->ids_sorted);
	st->ids_sorted = xmallocarray(n ? n : 1, 2 * sizeof(uint64_t));
	st->nr_ids = 0;
	for (i = 0; i < pd->nr_evsel; i++)
		for (j = 0; j < pd->evsel[i].nr_ids; j++) {
			st->ids_sorted[2 * st->nr_ids] = pd->evsel[i].ids[j];
			st->ids_sorted[2 * st->nr_ids + 1] = i;
			st->nr_ids++;
		}
	qsort(st->ids_sorted, st->nr_ids, 2 * sizeof(uint64_t), cmp_id);
}

static const struct perfdata_evsel *evsel_by_id(struct process_state *st, uint64_t id)
{
	size_t lo = 0, hi = st->nr_ids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v = st->ids_sorted[2 * mid];

		if (v == id)
			return &st->pd->evsel[st->ids_sorted[2 * mid + 1]];
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The evsel a record belongs to (NULL when none can be found). */
static const struct perfdata_evsel *record_evsel(struct process_state *st,
						 const unsigned char *rec, uint16_t type,
						 uint16_t size)
{
	struct perfdata *pd = st->pd;
	const struct perfdata_evsel *first;
	uint64_t id;

	if (!pd->nr_evsel)
		return NULL;
	first = &pd->evsel[0];
	if (pd->nr_evsel == 1)
		return first;
	if (type == PERF_RECORD_SAMPLE) {
		if (first->id_pos < 0 || 8 + (size_t)(first->id_pos + 1) * 8 > size)
			return first;
		id = rd64(rec + 8 + first->id_pos * 8);
	} else {
		if (!first->attr.sample_id_all || first->is_pos < 0 ||
		    (size_t)first->is_pos * 8 + 8 > size)
			return first;
		id = rd64(rec + size - first->is_pos * 8);
	}
	first = evsel_by_id(st, id);
	return first ? first : &pd->evsel[0];
}

/*
 * Deliver one record to the tool, decoded by perf_event.c.  Records the
 * profile does not use (LOST is counted) are not delivered.
 */
static int deliver(struct process_state *st, const unsigned char *rec, uint64_t off)
{
	struct perfdata *pd = st->pd;
	uint32_t type = rd32(rec);
	uint16_t size = rd16(rec + 6);
	struct perf_tool_event ev = { NULL, NULL, &st->buf };
	const char *why;
	int ret;

	switch (type) {
	case PERF_RECORD_SAMPLE: {
		const struct perfdata_evsel *e = record_evsel(st, rec, PERF_RECORD_SAMPLE, size);

		if (!e)
			return bad(pd, off, "sample before any attribute");
		ev.attr = &e->attr;
		ev.name = e->name;
		pd->nr_samples++;
		break;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		break;
	case PERF_RECORD_LOST:
		if (size >= 24)
			pd->nr_lost += rd64(rec + 16);
		return 0;
	default:
		return 0;
	}
	ret = perf_tool_deliver(st->tool, &ev, (const struct perf_event_header *)(const void *)rec, &why);
	if (ret && why)
		return bad(pd, off, why);
	return ret;
}

/* Records between the one delivered and the one the tool peeks at. */
#define PEEK_AHEAD 8

/* Show the tool a SAMPLE record it will get soon (perf_tool's .peek). */
static void peek(struct process_state *st, const unsigned char *rec)
{
	uint16_t size = rd16(rec + 6);
	const struct perfdata_evsel *e;

	if (rd32(rec) != PERF_RECORD_SAMPLE)
		return;
	e = record_evsel(st, rec, PERF_RECORD_SAMPLE, size);
	if (e)
		st->tool->peek(st->tool, rec, &e->attr);
}

/*
 * A record whose header was fetched a while ago: fetch what decoding and
 * unwinding will read (its first KiB: fields, callchain, registers and
 * the top of a stack copy; and its last bytes, where a stack copy's
 * dyn_size is), and show it to the tool.
 */
static void prefetch_record(struct process_state *st, const unsigned char *rec)
{
	uint16_t size = rd16(rec + 6);
	size_t at;

	for (at = 64; at < size && at < 1024; at += 64)
		__builtin_prefetch(rec + at);
	if (size > 1024)
		__builtin_prefetch(rec + size - 8);
	if (st->tool->peek)
		peek(st, rec);
}

/* Deliver queued records with time <= limit (all when final), in order. */
static int flush_queue(struct process_state *st, uint64_t limit, int final)
{
	size_t i, n;

	if (!st->nr)
		return 0;
	time_order_sort(st->q, st->nr, &st->q_tmp, &st->q_tmp_alloc);
	for (i = 0; i < st->nr; i++) {
		if (!final && st->q[i].time > limit)
			break;
		/*
		 * Time order jumps around the file: fetch the record two
		 * distances ahead, and let the tool look at the one a distance
		 * ahead (its stack table lookups are cache misses otherwise).
		 */
		if (i + 2 * PEEK_AHEAD < st->nr)
			__builtin_prefetch(st->q[i + 2 * PEEK_AHEAD].rec);
		if (i + PEEK_AHEAD < st->nr)
			prefetch_record(st, st->q[i + PEEK_AHEAD].rec);
		if (deliver(st, st->q[i].rec, st->q[i].off))
			return -1;
	}
	n = st->nr - i;
	memmove(st->q, st->q + i, n * sizeof(*st->q));
	st->nr = n;
	return 0;
}

static int handle_records(struct process_state *st, const unsigned char *buf, size_t len,
			  uint64_t base_off, int in_chunk, size_t *consumed);

/* Pipe-mode and other perf-internal records that describe the stream. */
static int user_record(struct process_state *st, const unsigned char *rec, uint32_t type,
		       uint16_t size, uint64_t off)
{
	struct perfdata *pd = st->pd;

	switch (type) {
	case PERF_RECORD_HEADER_ATTR: {
		uint32_t asz;
		struct perfdata_evsel *e;
		size_t j;

		if (size < 8 + PERF_ATTR_SIZE_VER0)
			return bad(pd, off, "truncated attribute record");
		asz = rd32(rec + 8 + 4);	/* attr.size */
		if (asz < PERF_ATTR_SIZE_VER0 || asz > size - 8u)
			return bad(pd, off, "bad attribute size in attribute record");
		e = perfdata_evsel_add(pd, rec + 8, asz);
		if (!e)
			return bad(pd, off, "too many attributes");
		e->nr_ids = (size - 8 - asz) / 8;
		e->ids = xmallocarray(e->nr_ids ? e->nr_ids : 1, 8);
		for (j = 0; j < e->nr_ids; j++)
			e->ids[j] = rd64(rec + 8 + asz + j * 8);
		e->name = xstrdup(perfdata_default_event_name(&e->attr));
		index_ids(st);
		return 0;
	}
	case PERF_RECORD_HEADER_FEATURE: {
		uint64_t feat;
		size_t i;

		if (size < 16)
			return bad(pd, off, "truncated feature record");
		feat = rd64(rec + 8);
		if (feat < 256 && perfdata_parse_feature(pd, (int)feat, rec + 16, size - 16u))
			return bad(pd, off, "malformed feature record");
		for (i = 0; i < pd->nr_evsel; i++)
			if (!pd->evsel[i].name)
				pd->evsel[i].name = xstrdup(perfdata_default_event_name(&pd->evsel[i].attr));
		return 0;
	}
	case PERF_RECORD_EVENT_UPDATE: {
		/* header, u64 type, u64 id, payload; type 2 = name */
		const struct perfdata_evsel *ce;

		if (size < 24 || rd64(rec + 8) != 2)
			return 0;
		ce = evsel_by_id(st, rd64(rec + 16));
		if (ce && size > 24 && memchr(rec + 24, 0, (size_t)size - 24)) {
			struct perfdata_evsel *e = &pd->evsel[ce - pd->evsel];

			free(e->name);
			e->name = xstrdup((const char *)rec + 24);
		}
		return 0;
	}
	case PERF_RECORD_COMPRESSED: {
		/* zstd stream; a record may end in the middle of an event */
		ZSTD_inBuffer in = { rec + 8, size - 8u, 0 };
		struct perfdata_chunk *c;
		size_t cap = st->carry_len + (size_t)size * 8 + 4096, used, r;

		pd->nr_compressed++;
		if (!st->zstd)
			st->zstd = ZSTD_createDCtx();
		c = xmalloc(st_add(sizeof(*c), cap));
		if (st->carry_len)
			memcpy(c->data, st->carry, st->carry_len);
		c->len = st->carry_len;
		while (in.pos < in.size) {
			ZSTD_outBuffer out;

			if (cap - c->len < 65536) {
				if (cap > ((size_t)1 << 34))
					return free(c), bad(pd, off, "compressed record expands too far");
				cap = st_mult(cap, 2);
				c = xrealloc(c, st_add(sizeof(*c), cap));
			}
			out.dst = c->data + c->len;
			out.size = cap - c->len;
			out.pos = 0;
			r = ZSTD_decompressStream(st->zstd, &out, &in);
			c->len += out.pos;
			if (ZSTD_isError(r)) {
				free(c);
				return bad(pd, off, "corrupt zstd data in compressed record");
			}
			if (!out.pos && in.pos < in.size && cap - c->len >= 65536) {
				free(c);
				return bad(pd, off, "zstd made no progress in compressed record");
			}
		}
		c->next = pd->chunks;
		pd->chunks = c;
		if (handle_records(st, c->data, c->len, off, 1, &used))
			return -1;
		st->carry_len = c->len - used;
		st->carry = xrealloc(st->carry, st->carry_len ? st->carry_len : 1);
		if (st->carry_len)
			memcpy(st->carry, c->data + used, st->carry_len);
		return 0;
	}
	case PERF_RECORD_FINISHED_ROUND: {
		int r = flush_queue(st, st->next_flush, 0);

		st->next_flush = st->max_time;
		return r;
	}
	default:
		pd->nr_unknown++;
		return 0;
	}
}

/*
 * Walk the records in buf; queue timed kernel records, deliver untimed ones
 * at once (as perf does), handle perf's own records.  In a decompressed
 * chunk a trailing partial record is left for the next chunk (*consumed).
 */
static int handle_records(struct process_state *st, const unsigned char *buf, size_t len,
			  uint64_t base_off, int in_chunk, size_t *consumed)
{
	struct perfdata *pd = st->pd;
	size_t pos = 0;

	while (len - pos >= 8) {
		const unsigned char *rec = buf + pos;
		uint32_t type;

		/*
		 * Records of uneven sizes defeat the hardware's stride
		 * prefetcher: reading each header was a cache miss (3% of a
		 * run, more with dwarf's 8 KiB records).  Ask for the bytes
		 * about eight records of this one's size ahead (prefetches
		 * past the end are dropped, never fault).
		 */
		__builtin_prefetch(rec + 8 * (size_t)(rd16(rec + 6) > 128 ? rd16(rec + 6) : 128));
		type = rd32(rec);
		uint16_t size = rd16(rec + 6);
		uint64_t off = in_chunk ? base_off : base_off + pos;

		if (size < 8)
			return bad(pd, off, "record with a size below its header");
		if (size > len - pos) {
			if (in_chunk)
				break;
			return bad(pd, off, "record runs past the end of the data (truncated file?)");
		}
		pd->nr_records++;
		if (type >= PERF_RECORD_USER_TYPE_START) {
			if (type == PERF_RECORD_AUXTRACE && size >= 16) {
				/* the trace bytes follow the record */
				uint64_t extra = rd64(rec + 8);

				if (extra > len - pos - size)
					return bad(pd, off, "auxtrace data runs past the end");
				pos += extra;
			} else if (user_record(st, rec, type, size, off)) {
				return -1;
			}
		} else {
			const struct perfdata_evsel *e = record_evsel(st, rec, (uint16_t)type, size);
			uint64_t t = 0;

			if (e && type == PERF_RECORD_SAMPLE) {
				if (e->time_off && e->time_off + 8 <= size)
					t = rd64(rec + e->time_off);
			} else if (e) {
				const void *h = rec;
				uint32_t pid, tid;

				/* t stays 0 without a sample_id_all trailer holding the time */
				perf_sample_parse_id(&e->attr, h, &pid, &tid, &t);
			}
			if (!t || t == UINT64_MAX) {
				if (deliver(st, rec, off))
					return -1;
			} else {
				struct pending *q;

				ALLOC_GROW(st->q, st->nr + 1, st->alloc);
				q = &st->q[st->nr++];
				q->time = t;
				q->seq = st->seq++;
				q->rec = rec;
				q->off = off;
				if (t > st->max_time)
					st->max_time = t;
			}
		}
		pos += size;
	}
	if (consumed)
		*consumed = pos;
	else if (pos != len)
		return bad(pd, base_off + pos, "truncated record header at the end of the data");
	return 0;
}

int perfdata_process(struct perfdata *pd, struct perf_tool *tool)
{
	struct process_state st;
	int ret;

	memset(&st, 0, sizeof(st));
	st.pd = pd;
	st.tool = tool;
	pd->nr_samples = pd->nr_records = pd->nr_compressed = pd->nr_unknown = pd->nr_lost = 0;
	index_ids(&st);
	ret = handle_records(&st, pd->buf + pd->data_offset, pd->data_size, pd->data_offset,
			     0, NULL);
	if (!ret)
		ret = flush_queue(&st, 0, 1);
	if (!ret && st.carry_len)
		ret = bad(pd, pd->data_offset + pd->data_size,
			  "compressed data ends in the middle of a record");
	free(st.q);
	free(st.q_tmp);
	free(st.ids_sorted);
	free(st.carry);
	perf_sample_buf_release(&st.buf);
	if (st.zstd)
		ZSTD_freeDCtx(st.zstd);
	return ret;
}

