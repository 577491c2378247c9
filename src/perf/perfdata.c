/*
 * perfdata.c - opening a perf.data file: its header, attributes and
 * feature sections (event names, build-ids ...); the data records are read
 * by perfdata_records.c.  Layout source: tools/perf/Documentation/
 * perf.data-file-format.txt and include/uapi/linux/perf_event.h.
 */
#include "perf/perfdata.h"
#include "perf/perfdata_parts.h"
#include "perf/perf_event.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/unaligned.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_EVSEL 4096		/* attributes; perf has at most a few hundred */

int perfdata_is_magic(const void *buf, size_t len)
{
	uint64_t m;

	if (len < 8)
		return 0;
	memcpy(&m, buf, 8);
	return m == PERF_FILE_MAGIC;
}

/* ---- attributes ------------------------------------------------------ */

static void evsel_layout(struct perfdata_evsel *e)
{
	uint64_t t = e->attr.sample_type;
	int pos = 0;

	/* the decoder's offset, worked out once: the reader orders samples by it */
	e->time_off = t & PERF_SAMPLE_TIME ? perf_sample_time_offset(&e->attr) : 0;
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

struct perfdata_evsel *perfdata_evsel_add(struct perfdata *pd, const unsigned char *attr,
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

int perfdata_parse_feature(struct perfdata *pd, int feat, const unsigned char *p, size_t len)
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
		struct perfdata_evsel *e = perfdata_evsel_add(pd, a, attr_bytes);
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
		if (perfdata_parse_feature(pd, feat, pd->buf + s.offset, s.size))
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

