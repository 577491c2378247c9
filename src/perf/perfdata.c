/*
 * perfdata.c - the perf.data reader: header, attributes and feature
 * sections, then the data records, decompressed (zstd) and delivered in the
 * order perf's ordered-events queue delivers them (flushed per
 * FINISHED_ROUND).  Layout source: tools/perf/Documentation/
 * perf.data-file-format.txt and include/uapi/linux/perf_event.h.
 */
#include "perf/perfdata.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/unaligned.h"
#include "perf/time_order.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define MAX_EVSEL 4096		/* attributes; perf has at most a few hundred */

/* Decompressed bytes of PERF_RECORD_COMPRESSED records, kept until close. */
struct perfdata_chunk {
	struct perfdata_chunk *next;
	size_t len;		/* bytes of data[] used */
	unsigned char data[];
};

int perfdata_is_magic(const void *buf, size_t len)
{
	uint64_t m;

	if (len < 8)
		return 0;
	memcpy(&m, buf, 8);
	return m == PERF_FILE_MAGIC;
}

static int bad(const struct perfdata *pd, uint64_t off, const char *what)
{
	return trail_error("%s: offset %llu: %s", pd->path, (unsigned long long)off, what);
}

/* ---- attributes ------------------------------------------------------ */

static void evsel_layout(struct perfdata_evsel *e)
{
	uint64_t t = e->attr.sample_type;
	int pos = 0;

	if (t & PERF_SAMPLE_IDENTIFIER) {
		e->id_pos = 0;
		e->is_pos = 1;
		return;
	}
	if (!(t & PERF_SAMPLE_ID)) {
		e->id_pos = -1;
		e->is_pos = -1;
		return;
	}
	pos += !!(t & PERF_SAMPLE_IP);
	pos += !!(t & PERF_SAMPLE_TID);
	pos += !!(t & PERF_SAMPLE_TIME);
	pos += !!(t & PERF_SAMPLE_ADDR);
	e->id_pos = pos;
	e->is_pos = 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
}

/* Append an evsel from attr bytes (attr_len of them) and ids. */
static struct perfdata_evsel *evsel_add(struct perfdata *pd, const unsigned char *attr,
					size_t attr_len)
{
	struct perfdata_evsel *e;

	if (pd->nr_evsel >= MAX_EVSEL)
		return NULL;
	pd->evsel = xreallocarray(pd->evsel, pd->nr_evsel + 1, sizeof(*pd->evsel));
	e = &pd->evsel[pd->nr_evsel++];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, attr_len < sizeof(e->attr) ? attr_len : sizeof(e->attr));
	evsel_layout(e);
	return e;
}

const char *perfdata_default_event_name(const struct perf_event_attr *attr)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branch-instructions", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
	};

	if (attr->type == PERF_TYPE_HARDWARE && attr->config < sizeof(hw) / sizeof(hw[0]))
		return hw[attr->config];
	if (attr->type == PERF_TYPE_SOFTWARE && attr->config < sizeof(sw) / sizeof(sw[0]))
		return sw[attr->config];
	if (attr->type == PERF_TYPE_TRACEPOINT)
		return "tracepoint";
	if (attr->type == PERF_TYPE_RAW)
		return "raw";
	return "unknown";
}

/* ---- feature sections --------------------------------------------------- */

/* A cursor over [p, end) that fails softly (sets bad) instead of overrunning. */
struct cursor {
	const unsigned char *p, *end;
	int bad;
};

static uint32_t cur_u32(struct cursor *c)
{
	uint32_t v;

	if (c->end - c->p < 4) {
		c->bad = 1;
		return 0;
	}
	v = rd32(c->p);
	c->p += 4;
	return v;
}

/* perf's do_write_string: u32 len (padded, NUL included), then bytes. */
static char *cur_string(struct cursor *c)
{
	uint32_t len = cur_u32(c);
	char *s;

	if (c->bad || len > (size_t)(c->end - c->p)) {
		c->bad = 1;
		return NULL;
	}
	s = xstrndup((const char *)c->p, len);	/* stops at the first NUL */
	c->p += len;
	return s;
}

static int parse_event_desc(struct perfdata *pd, struct cursor *c)
{
	uint32_t nr = cur_u32(c), attr_size = cur_u32(c), i;

	if (c->bad || attr_size < PERF_ATTR_SIZE_VER0 || attr_size > 4096)
		return -1;
	for (i = 0; i < nr && !c->bad; i++) {
		uint32_t nr_ids;
		char *name;
		size_t k, match = SIZE_MAX;
		uint64_t first_id = 0;

		if ((size_t)(c->end - c->p) < attr_size)
			return -1;
		c->p += attr_size;
		nr_ids = cur_u32(c);
		name = cur_string(c);
		if (c->bad || (size_t)(c->end - c->p) / 8 < nr_ids) {
			free(name);
			return -1;
		}
		if (nr_ids)
			first_id = rd64(c->p);
		c->p += (size_t)nr_ids * 8;
		/* Match by id (perf's way), else by position. */
		for (k = 0; k < pd->nr_evsel && nr_ids; k++) {
			size_t j;

			for (j = 0; j < pd->evsel[k].nr_ids; j++)
				if (pd->evsel[k].ids[j] == first_id)
					match = k;
		}
		if (match == SIZE_MAX && i < pd->nr_evsel)
			match = i;
		if (match != SIZE_MAX) {
			free(pd->evsel[match].name);
			pd->evsel[match].name = name;
		} else {
			free(name);
		}
	}
	return c->bad ? -1 : 0;
}

static int parse_build_ids(struct perfdata *pd, const unsigned char *p, const unsigned char *end)
{
	while (end - p >= 8) {
		uint16_t misc = rd16(p + 4), size = rd16(p + 6);
		struct perfdata_build_id *b;
		const unsigned char *name;
		size_t max;

		/* header(8) pid(4) build_id(24) filename(...) */
		if (size < 8 + 4 + 24 || size > end - p)
			return -1;
		name = p + 36;
		max = size - 36;
		if (!memchr(name, 0, max))
			return -1;
		ALLOC_GROW(pd->build_ids, pd->nr_build_ids + 1, pd->alloc_build_ids);
		b = &pd->build_ids[pd->nr_build_ids++];
		memcpy(&b->pid, p + 8, 4);
		memcpy(b->id, p + 12, 20);
		b->size = (misc & (1u << 15)) ? p[32] : 20;	/* PERF_RECORD_MISC_BUILD_ID_SIZE */
		if (b->size > 20)
			b->size = 20;
		b->filename = (const char *)name;
		p += size;
	}
	return 0;
}

static int parse_feature(struct perfdata *pd, int feat, const unsigned char *p, size_t len)
{
	struct cursor c = { p, p + len, 0 };

	switch (feat) {
	case HEADER_EVENT_DESC:
		return parse_event_desc(pd, &c);
	case HEADER_BUILD_ID:
		return parse_build_ids(pd, p, p + len);
	case HEADER_HOSTNAME:
		free(pd->hostname);
		pd->hostname = cur_string(&c);
		return c.bad ? -1 : 0;
	case HEADER_OSRELEASE:
		free(pd->os_release);
		pd->os_release = cur_string(&c);
		return c.bad ? -1 : 0;
	case HEADER_CMDLINE: {
		uint32_t nr = cur_u32(&c), i;
		struct strbuf sb = STRBUF_INIT;

		for (i = 0; i < nr && !c.bad; i++) {
			char *s = cur_string(&c);

			if (!s)
				break;
			if (i)
				strbuf_addch(&sb, ' ');
			strbuf_addstr(&sb, s);
			free(s);
		}
		free(pd->cmdline);
		pd->cmdline = strbuf_detach(&sb, NULL);
		return c.bad ? -1 : 0;
	}
	case HEADER_SAMPLE_TIME:
		/* two u64s, as perf's write_sample_time() puts them */
		if (len < 16)
			return -1;
		pd->first_sample_time = rd64(p);
		pd->last_sample_time = rd64(p + 8);
		return 0;
	default:
		return 0;
	}
}

/* ---- opening -------------------------------------------------------------- */

static int parse_file_header(struct perfdata *pd)
{
	struct perf_file_header h;
	uint64_t i, nr_attrs, attr_bytes;
	int feat, nr_feat = 0;
	uint64_t feat_off;

	if (pd->size < sizeof(h))
		return bad(pd, 0, "truncated perf.data file: the header is incomplete");
	memcpy(&h, pd->buf, sizeof(h));
	if (h.size != sizeof(h))
		return bad(pd, 8, "unsupported perf.data header size");
	if (h.attr_size < PERF_ATTR_SIZE_VER0 + 16 || h.attr_size > 4096)
		return bad(pd, 16, "bad attribute size");
	if (h.attrs.offset > pd->size || h.attrs.size > pd->size - h.attrs.offset)
		return bad(pd, 24, "attribute section outside the file");
	if (h.data.offset > pd->size || h.data.size > pd->size - h.data.offset)
		return bad(pd, 40, "data section outside the file (truncated recording?)");
	if (h.attrs.size % h.attr_size)
		return bad(pd, 32, "attribute section size is not a multiple of the attribute size");
	pd->data_offset = h.data.offset;
	pd->data_size = h.data.size;
	if (!pd->data_size && pd->size > pd->data_offset)
		/* perf record killed before it wrote the header: read to the end */
		pd->data_size = pd->size - pd->data_offset;

	nr_attrs = h.attrs.size / h.attr_size;
	attr_bytes = h.attr_size - 16;
	for (i = 0; i < nr_attrs; i++) {
		uint64_t off = h.attrs.offset + i * h.attr_size;
		const unsigned char *a = pd->buf + off;
		uint64_t ids_off = rd64(a + attr_bytes), ids_size = rd64(a + attr_bytes + 8);
		struct perfdata_evsel *e = evsel_add(pd, a, attr_bytes);
		uint64_t j;

		if (!e)
			return bad(pd, off, "too many attributes");
		if (ids_off > pd->size || ids_size > pd->size - ids_off || ids_size % 8)
			return bad(pd, off + attr_bytes, "attribute ids outside the file");
		e->nr_ids = ids_size / 8;
		e->ids = xmallocarray(e->nr_ids ? e->nr_ids : 1, 8);
		for (j = 0; j < e->nr_ids; j++)
			e->ids[j] = rd64(pd->buf + ids_off + j * 8);
	}

	/* Feature sections: an array of perf_file_section after the data. */
	feat_off = pd->data_offset + h.data.size;
	for (feat = 0; feat < HEADER_LAST_FEATURE + 192 && feat < 256; feat++) {
		struct perf_file_section s;
		uint64_t at;

		if (!(h.adds_features[feat / 64] >> (feat % 64) & 1))
			continue;
		at = feat_off + (uint64_t)nr_feat++ * sizeof(s);
		if (at > pd->size || pd->size - at < sizeof(s))
			return bad(pd, at, "feature section table outside the file");
		memcpy(&s, pd->buf + at, sizeof(s));
		if (s.offset > pd->size || s.size > pd->size - s.offset)
			return bad(pd, at, "feature section outside the file");
		if (parse_feature(pd, feat, pd->buf + s.offset, s.size))
			return bad(pd, s.offset, "malformed feature section");
	}
	return 0;
}

static int finish_open(struct perfdata *pd)
{
	size_t i;

	if (pd->pipe_mode) {
		if (pd->size < 16 || rd64(pd->buf + 8) != 16)
			return bad(pd, 8, "bad pipe-mode header");
		pd->data_offset = 16;
		pd->data_size = pd->size - 16;
	} else if (parse_file_header(pd)) {
		return -1;
	}
	for (i = 0; i < pd->nr_evsel; i++)
		if (!pd->evsel[i].name)
			pd->evsel[i].name = xstrdup(perfdata_default_event_name(&pd->evsel[i].attr));
	return 0;
}

static int open_common(struct perfdata *pd, const char *name)
{
	if (!perfdata_is_magic(pd->buf, pd->size))
		return trail_error("%s: not a perf.data file (no PERFILE2 magic)", name);
	/* Pipe mode writes only magic and a 16-byte size. */
	pd->pipe_mode = pd->size >= 16 && rd64(pd->buf + 8) == 16;
	return finish_open(pd);
}

int perfdata_open_buffer(struct perfdata *pd, const void *buf, size_t size, const char *name)
{
	memset(pd, 0, sizeof(*pd));
	pd->path = xstrdup(name);
	if ((uintptr_t)buf % 8) {
		pd->owned = xmalloc(size ? size : 1);
		memcpy(pd->owned, buf, size);
		buf = pd->owned;
	}
	pd->buf = buf;
	pd->size = size;
	return open_common(pd, name);
}

int perfdata_open(struct perfdata *pd, const char *path)
{
	int fd;

	memset(pd, 0, sizeof(*pd));
	pd->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		fd = 0;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return error_errno("cannot open '%s'", path);
	}
	if (file_map_fd(&pd->file, fd, path, FILE_MAP_POPULATE | FILE_MAP_SEQUENTIAL)) {
		if (fd)
			close(fd);
		return -1;
	}
	pd->buf = pd->file.data;
	pd->size = pd->file.size;
	if (fd)
		close(fd);
	return open_common(pd, path);
}

void perfdata_close(struct perfdata *pd)
{
	size_t i;

	file_map_release(&pd->file);
	free(pd->owned);
	for (i = 0; i < pd->nr_evsel; i++) {
		free(pd->evsel[i].name);
		free(pd->evsel[i].ids);
	}
	free(pd->evsel);
	free(pd->build_ids);
	free(pd->cmdline);
	free(pd->hostname);
	free(pd->os_release);
	while (pd->chunks) {
		struct perfdata_chunk *c = pd->chunks;

		pd->chunks = c->next;
		free(c);
	}
	free(pd->path);
	memset(pd, 0, sizeof(*pd));
}

const struct perfdata_build_id *perfdata_find_build_id(const struct perfdata *pd,
							const char *filename)
{
	size_t i;

	for (i = 0; i < pd->nr_build_ids; i++)
		if (!strcmp(pd->build_ids[i].filename, filename))
			return &pd->build_ids[i];
	return NULL;
}

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

/* Time of a non-sample record from its sample_id_all trailer, or 0. */
static uint64_t trailer_time(const struct perfdata_evsel *e, const unsigned char *rec,
			     uint16_t size)
{
	uint64_t t = e->attr.sample_type;
	size_t n = 0;

	if (!e->attr.sample_id_all || !(t & PERF_SAMPLE_TIME))
		return 0;
	/* Trailer order: TID TIME ID STREAM_ID CPU IDENTIFIER; count from the end. */
	n += !!(t & PERF_SAMPLE_IDENTIFIER);
	n += !!(t & PERF_SAMPLE_CPU);
	n += !!(t & PERF_SAMPLE_STREAM_ID);
	n += !!(t & PERF_SAMPLE_ID);
	n += 1;		/* TIME itself */
	if (n * 8 + 8 > size)
		return 0;
	return rd64(rec + size - n * 8);
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
		e = evsel_add(pd, rec + 8, asz);
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
		if (feat < 256 && parse_feature(pd, (int)feat, rec + 16, size - 16u))
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
		uint32_t type = rd32(rec);
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
				if (e->attr.sample_type & PERF_SAMPLE_TIME) {
					size_t i = !!(e->attr.sample_type & PERF_SAMPLE_IDENTIFIER) +
						   !!(e->attr.sample_type & PERF_SAMPLE_IP) +
						   !!(e->attr.sample_type & PERF_SAMPLE_TID);

					if (8 + i * 8 + 8 <= size)
						t = rd64(rec + 8 + i * 8);
				}
			} else if (e) {
				t = trailer_time(e, rec, size);
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
