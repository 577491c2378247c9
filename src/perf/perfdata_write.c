/*
 * perfdata_write.c - the perf.data writer: header, ids, attrs, buffered
 * data section, and the feature sections perf report reads after it.  The
 * feature formats follow tools/perf/util/header.c (write_* functions) and
 * tools/perf/Documentation/perf.data-file-format.txt: strings are a u32
 * length (NUL included, padded to 64) and the bytes; BUILD_ID is a run of
 * build_id_event records.
 */
#include "perf/perfdata_write.h"
#include "perf/perf_file.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define FLUSH_AT (256u << 10)	/* bytes buffered before a write() */
#define NAME_ALIGN 64		/* perf's string padding */

static int write_all(struct perfdata_writer *w, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error_errno("cannot write '%s'", w->path);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int flush_buf(struct perfdata_writer *w)
{
	int ret = 0;

	if (w->buf.len)
		ret = write_all(w, w->buf.buf, w->buf.len);
	strbuf_reset(&w->buf);
	return ret;
}

int perfdata_writer_open(struct perfdata_writer *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	strbuf_init(&w->buf, FLUSH_AT + 4096);
	strbuf_init(&w->build_ids, 0);
	w->path = xstrdup(path);
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		error_errno("cannot create '%s'", path);
		return -1;
	}
	return 0;
}

void perfdata_writer_add_event(struct perfdata_writer *w, const struct perf_event_attr *attr,
			       const char *name, const uint64_t *ids, size_t nr_ids)
{
	struct perfdata_event *e;

	ALLOC_GROW(w->events, w->nr_events + 1, w->alloc_events);
	e = &w->events[w->nr_events++];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->name = xstrdup(name);
	e->nr_ids = nr_ids;
	e->ids = xmallocarray(nr_ids ? nr_ids : 1, sizeof(*ids));
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * sizeof(*ids));
}

/* The attr as stored in files: perf 6.1 rejects attrs larger than its own. */
static void file_attr(const struct perf_event_attr *in, unsigned char out[PERFDATA_ATTR_SIZE])
{
	struct perf_event_attr a = *in;

	a.size = PERFDATA_ATTR_SIZE;
	memcpy(out, &a, PERFDATA_ATTR_SIZE);
}

int perfdata_writer_start(struct perfdata_writer *w)
{
	struct perf_file_header h;
	uint64_t off = sizeof(h);
	size_t i;

	memset(&h, 0, sizeof(h));
	if (write_all(w, &h, sizeof(h)))
		return -1;
	for (i = 0; i < w->nr_events; i++) {
		if (write_all(w, w->events[i].ids, w->events[i].nr_ids * sizeof(uint64_t)))
			return -1;
		off += w->events[i].nr_ids * sizeof(uint64_t);
	}
	/* off is now where the attrs start; ids were laid out in order. */
	{
		uint64_t id_off = sizeof(h);

		for (i = 0; i < w->nr_events; i++) {
			unsigned char attr[PERFDATA_ATTR_SIZE];
			struct perf_file_section ids;

			file_attr(&w->events[i].attr, attr);
			ids.offset = id_off;
			ids.size = w->events[i].nr_ids * sizeof(uint64_t);
			id_off += ids.size;
			if (write_all(w, attr, sizeof(attr)) || write_all(w, &ids, sizeof(ids)))
				return -1;
		}
	}
	w->data_offset = off + w->nr_events * (PERFDATA_ATTR_SIZE + sizeof(struct perf_file_section));
	w->started = 1;
	return 0;
}

int perfdata_writer_add(struct perfdata_writer *w, const struct perf_event_header *rec,
			uint64_t sample_time)
{
	if (rec->size < sizeof(*rec) || rec->size % 8)
		return trail_error("internal error: record of type %u has bad size %u",
			     (unsigned)rec->type, (unsigned)rec->size);
	strbuf_add(&w->buf, rec, rec->size);
	w->data_size += rec->size;
	w->nr_records++;
	if (sample_time) {
		if (!w->first_time || sample_time < w->first_time)
			w->first_time = sample_time;
		if (sample_time > w->last_time)
			w->last_time = sample_time;
	}
	if (w->buf.len >= FLUSH_AT)
		return flush_buf(w);
	return 0;
}

int perfdata_writer_round(struct perfdata_writer *w)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(h) };

	return perfdata_writer_add(w, &h, 0);
}

/* ---- feature sections ---- */

/* perf's struct build_id_event without the name: header, pid, id[24]. */
#define BUILD_ID_EVENT_FIXED (8 + 4 + 24)
#define BUILD_ID_FIELD 20	/* bytes of the id field before its length byte */

int perfdata_writer_add_build_id(struct perfdata_writer *w, int32_t pid, uint16_t misc,
				 const uint8_t *id, size_t size, const char *filename)
{
	static const char zeros[NAME_ALIGN];
	unsigned char fixed[BUILD_ID_EVENT_FIXED];
	size_t olen = strlen(filename) + 1;
	size_t len = (olen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	struct perf_event_header h;

	if (BUILD_ID_EVENT_FIXED + len > UINT16_MAX)
		return trail_error("file name too long for a build-id record: '%.64s...'", filename);
	if (size > BUILD_ID_FIELD)
		size = BUILD_ID_FIELD;
	memset(fixed, 0, sizeof(fixed));
	h.type = 0;	/* perf leaves it 0 in the feature section */
	h.misc = misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
	h.size = (uint16_t)(BUILD_ID_EVENT_FIXED + len);
	memcpy(fixed, &h, sizeof(h));
	memcpy(fixed + 8, &pid, 4);
	memcpy(fixed + 12, id, size);
	fixed[12 + BUILD_ID_FIELD] = (unsigned char)size;
	strbuf_add(&w->build_ids, fixed, sizeof(fixed));
	strbuf_add(&w->build_ids, filename, olen);
	strbuf_add(&w->build_ids, zeros, len - olen);
	w->nr_build_ids++;
	return 0;
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_u64(struct strbuf *sb, uint64_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_string(struct strbuf *sb, const char *s)
{
	size_t olen = strlen(s) + 1;
	size_t len = (olen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	static const char zeros[NAME_ALIGN];

	put_u32(sb, (uint32_t)len);
	strbuf_add(sb, s, olen);
	strbuf_add(sb, zeros, len - olen);
}

/* First line of a /proc file field "key<blanks>: value", or NULL. */
static char *proc_field(const char *path, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char *ret = NULL, *line, *save = NULL;
	size_t klen = strlen(key);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (strbuf_read_fd(&sb, fd, path) == 0) {
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *colon;

			if (strncmp(line, key, klen))
				continue;
			colon = strchr(line, ':');
			if (!colon)
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			ret = xstrdup(colon);
			break;
		}
	}
	close(fd);
	strbuf_release(&sb);
	return ret;
}

static void feat_event_desc(struct perfdata_writer *w, struct strbuf *sb)
{
	size_t i, j;

	put_u32(sb, (uint32_t)w->nr_events);
	put_u32(sb, PERFDATA_ATTR_SIZE);
	for (i = 0; i < w->nr_events; i++) {
		unsigned char attr[PERFDATA_ATTR_SIZE];

		file_attr(&w->events[i].attr, attr);
		strbuf_add(sb, attr, sizeof(attr));
		put_u32(sb, (uint32_t)w->events[i].nr_ids);
		put_string(sb, w->events[i].name);
		for (j = 0; j < w->events[i].nr_ids; j++)
			put_u64(sb, w->events[i].ids[j]);
	}
}

/* Build the body of feature `feat` into sb; returns 0 when it is not written. */
static int feature_body(struct perfdata_writer *w, int feat, struct strbuf *sb,
			int argc, const char *const *argv)
{
	struct utsname u;
	char *s;
	int i;

	switch (feat) {
	case HEADER_BUILD_ID:
		if (!w->nr_build_ids)
			return 0;
		strbuf_add(sb, w->build_ids.buf, w->build_ids.len);
		return 1;
	case HEADER_HOSTNAME:
	case HEADER_OSRELEASE:
	case HEADER_ARCH:
		if (uname(&u))
			return 0;
		put_string(sb, feat == HEADER_HOSTNAME ? u.nodename :
			       feat == HEADER_OSRELEASE ? u.release : u.machine);
		return 1;
	case HEADER_VERSION:
		put_string(sb, "trail " TRAIL_VERSION);
		return 1;
	case HEADER_NRCPUS:
		put_u32(sb, (uint32_t)sysconf(_SC_NPROCESSORS_CONF));
		put_u32(sb, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
		return 1;
	case HEADER_CPUDESC:
		s = proc_field("/proc/cpuinfo", "model name");
		if (!s)
			return 0;
		put_string(sb, s);
		free(s);
		return 1;
	case HEADER_TOTAL_MEM: {
		uint64_t kb = 0;

		s = proc_field("/proc/meminfo", "MemTotal");
		if (!s)
			return 0;
		/* "24683548 kB": digits, then a unit */
		if (parse_u64_n(s, strspn(s, "0123456789"), &kb))
			kb = 0;
		free(s);
		put_u64(sb, kb);
		return 1;
	}
	case HEADER_CMDLINE:
		put_u32(sb, (uint32_t)argc);
		for (i = 0; i < argc; i++)
			put_string(sb, argv[i]);
		return 1;
	case HEADER_EVENT_DESC:
		feat_event_desc(w, sb);
		return 1;
	case HEADER_SAMPLE_TIME:
		put_u64(sb, w->first_time);
		put_u64(sb, w->last_time);
		return 1;
	}
	return 0;
}

int perfdata_writer_finish(struct perfdata_writer *w, int argc, const char *const *argv)
{
	static const int feats[] = {
		HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH,
		HEADER_NRCPUS, HEADER_CPUDESC, HEADER_TOTAL_MEM, HEADER_CMDLINE,
		HEADER_EVENT_DESC, HEADER_SAMPLE_TIME,
	};
	struct strbuf bodies[sizeof(feats) / sizeof(feats[0])];
	struct perf_file_section idx[sizeof(feats) / sizeof(feats[0])];
	struct perf_file_header h;
	size_t i, n = 0, nfeat = sizeof(feats) / sizeof(feats[0]);
	uint64_t off;
	int ret = -1;

	if (!w->started && perfdata_writer_start(w))
		return -1;
	/*
	 * A data size of 0 is what a recording cut short leaves, and readers
	 * (perf's and trail's) then take the rest of the file as data: a file
	 * with nothing to say still holds one record, an empty round.
	 */
	if (!w->data_size && perfdata_writer_round(w))
		return -1;
	if (flush_buf(w))
		return -1;
	memset(&h, 0, sizeof(h));
	for (i = 0; i < nfeat; i++) {
		strbuf_init(&bodies[i], 0);
		if (feature_body(w, feats[i], &bodies[i], argc, argv)) {
			h.adds_features[feats[i] / 64] |= 1ULL << (feats[i] % 64);
			n++;
		} else {
			strbuf_release(&bodies[i]);
		}
	}
	/* The index lists the set bits in increasing order; feats[] is sorted. */
	off = w->data_offset + w->data_size + n * sizeof(struct perf_file_section);
	for (i = 0, n = 0; i < nfeat; i++) {
		if (!bodies[i].len)
			continue;
		idx[n].offset = off;
		idx[n].size = bodies[i].len;
		off += bodies[i].len;
		n++;
	}
	if (write_all(w, idx, n * sizeof(idx[0])))
		goto out;
	for (i = 0; i < nfeat; i++)
		if (bodies[i].len && write_all(w, bodies[i].buf, bodies[i].len))
			goto out;

	h.magic = PERF_FILE_MAGIC;
	h.size = sizeof(h);
	h.attr_size = PERFDATA_ATTR_SIZE + sizeof(struct perf_file_section);
	h.attrs.offset = sizeof(h);
	for (i = 0; i < w->nr_events; i++)
		h.attrs.offset += w->events[i].nr_ids * sizeof(uint64_t);
	h.attrs.size = w->nr_events * h.attr_size;
	h.data.offset = w->data_offset;
	h.data.size = w->data_size;
	if (pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
		error_errno("cannot write '%s'", w->path);
		goto out;
	}
	if (close(w->fd)) {
		w->fd = -1;
		error_errno("cannot write '%s'", w->path);
		goto out;
	}
	w->fd = -1;
	ret = 0;
out:
	for (i = 0; i < nfeat; i++)
		strbuf_release(&bodies[i]);
	return ret;
}

void perfdata_writer_release(struct perfdata_writer *w)
{
	size_t i;

	if (w->fd >= 0 && w->path)
		close(w->fd);
	w->fd = -1;
	for (i = 0; i < w->nr_events; i++) {
		free(w->events[i].name);
		free(w->events[i].ids);
	}
	free(w->events);
	w->events = NULL;
	w->nr_events = w->alloc_events = 0;
	strbuf_release(&w->buf);
	strbuf_release(&w->build_ids);
	w->nr_build_ids = 0;
	FREE_AND_NULL(w->path);
}
