/*
 * test_perfdata_write.c - the perf.data writer: the header's sections
 * point where the bytes are, ids and attrs are laid out as perf reads
 * them, feature sections are indexed in bit order with perf's string
 * encoding, FINISHED_ROUND markers land in the data section, and the
 * BUILD_ID section holds perf's build_id_event records, which trail's
 * reader finds again.
 */
#include "harness.h"
#include "core/strbuf.h"
#include "perf/perf_file.h"
#include "perf/perfdata.h"
#include "perf/perfdata_write.h"

#include <fcntl.h>
#include <stdint.h>

static char *temp_path(void)
{
	static char path[] = "/tmp/trail-pdw.XXXXXX";
	int fd = mkstemp(path);

	if (fd >= 0)
		close(fd);
	return path;
}

static int feature_set(const struct perf_file_header *h, int bit)
{
	return (h->adds_features[bit / 64] >> (bit % 64)) & 1;
}

/* The index slot of feature `bit` (count of set bits below it). */
static int feature_slot(const struct perf_file_header *h, int bit)
{
	int i, n = 0;

	for (i = 0; i < bit; i++)
		n += feature_set(h, i);
	return n;
}

/* Open path for one cpu-clock event (id 7, ip and tid samples) and start its data. */
static int start_one_event(struct perfdata_writer *w, const char *path)
{
	static const uint64_t ids[1] = { 7 };
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	if (perfdata_writer_open(w, path))
		return -1;
	perfdata_writer_add_event(w, &attr, "cpu-clock", ids, 1);
	return perfdata_writer_start(w);
}

TEST(writes_a_file_perf_can_index)
{
	char *path = temp_path();
	struct perfdata_writer w;
	struct perf_event_attr attr;
	uint64_t ids[2] = { 101, 102 };
	uint64_t rec[4] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, sizeof(rec) };
	struct strbuf sb = STRBUF_INIT;
	const char *argv[] = { "trail", "record", "--", "ls" };
	const struct perf_file_header *fh;
	const struct perf_file_section *idx, *s;
	const unsigned char *base;
	uint32_t len;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	CHECK_INT(perfdata_writer_open(&w, path), 0);
	perfdata_writer_add_event(&w, &attr, "cpu-clock", ids, 2);
	CHECK_INT(perfdata_writer_start(&w), 0);
	memcpy(rec, &h, sizeof(h));
	CHECK_INT(perfdata_writer_add(&w, (void *)rec, 5000), 0);
	CHECK_INT(perfdata_writer_round(&w), 0);
	CHECK_INT(perfdata_writer_add(&w, (void *)rec, 7000), 0);
	CHECK_INT(perfdata_writer_finish(&w, 4, argv), 0);
	perfdata_writer_release(&w);

	CHECK_INT(strbuf_read_file(&sb, path), 0);
	unlink(path);
	base = (const unsigned char *)sb.buf;
	fh = (const void *)base;
	CHECK(fh->magic == PERF_FILE_MAGIC);
	CHECK_INT(fh->size, sizeof(*fh));
	CHECK_INT(fh->attr_size, PERFDATA_ATTR_SIZE + sizeof(struct perf_file_section));
	CHECK_INT(fh->attrs.size, fh->attr_size);
	CHECK_INT(fh->data.size, 32 + 8 + 32);
	CHECK(fh->data.offset + fh->data.size <= sb.len);
	/* The attr, then where its ids are. */
	{
		const struct perf_event_attr *a = (const void *)(base + fh->attrs.offset);
		const struct perf_file_section *ids_sec =
			(const void *)(base + fh->attrs.offset + PERFDATA_ATTR_SIZE);
		const uint64_t *got = (const void *)(base + ids_sec->offset);

		CHECK_INT(a->size, PERFDATA_ATTR_SIZE);
		CHECK_INT(a->type, PERF_TYPE_SOFTWARE);
		CHECK_INT(ids_sec->size, 16);
		CHECK_INT(got[0], 101);
		CHECK_INT(got[1], 102);
	}
	/* The round marker sits between the two records. */
	{
		const struct perf_event_header *m = (const void *)(base + fh->data.offset + 32);

		CHECK_INT(m->type, PERF_RECORD_FINISHED_ROUND);
		CHECK_INT(m->size, 8);
	}
	/* Features: the index follows the data. */
	CHECK(feature_set(fh, HEADER_CMDLINE));
	CHECK(feature_set(fh, HEADER_EVENT_DESC));
	CHECK(feature_set(fh, HEADER_SAMPLE_TIME));
	CHECK(!feature_set(fh, HEADER_BUILD_ID));
	idx = (const void *)(base + fh->data.offset + fh->data.size);
	s = &idx[feature_slot(fh, HEADER_CMDLINE)];
	CHECK(s->offset + s->size <= sb.len);
	memcpy(&len, base + s->offset, 4);
	CHECK_INT(len, 4);	/* four strings */
	memcpy(&len, base + s->offset + 4, 4);
	CHECK_INT(len, 64);	/* "trail" padded to 64 */
	CHECK_STREQ((const char *)base + s->offset + 8, "trail");
	s = &idx[feature_slot(fh, HEADER_SAMPLE_TIME)];
	{
		uint64_t t[2];

		memcpy(t, base + s->offset, 16);
		CHECK_INT(t[0], 5000);
		CHECK_INT(t[1], 7000);
	}
	s = &idx[feature_slot(fh, HEADER_EVENT_DESC)];
	{
		const unsigned char *p = base + s->offset;
		uint32_t nr, sz, nr_ids;

		memcpy(&nr, p, 4);
		memcpy(&sz, p + 4, 4);
		CHECK_INT(nr, 1);
		CHECK_INT(sz, PERFDATA_ATTR_SIZE);
		p += 8 + sz;
		memcpy(&nr_ids, p, 4);
		CHECK_INT(nr_ids, 2);
		CHECK_STREQ((const char *)p + 8, "cpu-clock");
	}
	strbuf_release(&sb);
}

/* One build_id_event at p: checks its layout; returns its size. */
static size_t check_build_id_event(const unsigned char *p, uint16_t misc, const uint8_t *id,
				   size_t id_size, const char *name)
{
	struct perf_event_header h;
	int32_t pid;
	size_t name_len = strlen(name) + 1, padded = (name_len + 63) / 64 * 64, i;

	memcpy(&h, p, sizeof(h));
	memcpy(&pid, p + 8, 4);
	CHECK_INT(h.type, 0);
	CHECK_INT(h.misc, misc | PERF_RECORD_MISC_BUILD_ID_SIZE);
	CHECK_INT(h.size, 36 + padded);
	CHECK_INT(pid, -1);
	CHECK(!memcmp(p + 12, id, id_size));
	for (i = id_size; i < 20; i++)
		CHECK_INT(p[12 + i], 0);
	CHECK_INT(p[32], id_size);
	CHECK(!p[33] && !p[34] && !p[35]);
	CHECK_STREQ((const char *)p + 36, name);
	for (i = name_len; i < padded; i++)
		CHECK_INT(p[36 + i], 0);
	return h.size;
}

TEST(build_id_section)
{
	char *path = temp_path();
	struct perfdata_writer w;
	uint8_t kid[20], uid[16];
	/* 63 bytes + NUL fill 64 exactly; one more byte needs 128 */
	char name63[64], name64[65];
	const char *argv[] = { "trail" };
	struct strbuf sb = STRBUF_INIT;
	const struct perf_file_header *fh;
	const struct perf_file_section *idx;
	const unsigned char *base, *p;
	struct perfdata pd;
	const struct perfdata_build_id *b;
	size_t i;

	for (i = 0; i < sizeof(kid); i++)
		kid[i] = (uint8_t)(0xf0 - i);
	for (i = 0; i < sizeof(uid); i++)
		uid[i] = (uint8_t)(i + 1);
	memset(name63, 'a', 63);
	name63[0] = '/';
	name63[63] = '\0';
	memset(name64, 'b', 64);
	name64[0] = '/';
	name64[64] = '\0';
	CHECK_INT(start_one_event(&w, path), 0);
	CHECK_INT(perfdata_writer_add_build_id(&w, -1, PERF_RECORD_MISC_KERNEL, kid, 20,
					       "[kernel.kallsyms]"), 0);
	CHECK_INT(perfdata_writer_add_build_id(&w, -1, PERF_RECORD_MISC_USER, uid, 16, name63), 0);
	CHECK_INT(perfdata_writer_add_build_id(&w, -1, PERF_RECORD_MISC_USER, kid, 20, name64), 0);
	CHECK_INT(perfdata_writer_finish(&w, 1, argv), 0);
	perfdata_writer_release(&w);

	CHECK_INT(strbuf_read_file(&sb, path), 0);
	base = (const unsigned char *)sb.buf;
	fh = (const void *)base;
	CHECK(feature_set(fh, HEADER_BUILD_ID));
	CHECK_INT(feature_slot(fh, HEADER_BUILD_ID), 0);
	idx = (const void *)(base + fh->data.offset + fh->data.size);
	CHECK_INT(idx[0].size, (36 + 64) + (36 + 64) + (36 + 128));
	CHECK(idx[0].offset + idx[0].size <= sb.len);
	p = base + idx[0].offset;
	p += check_build_id_event(p, PERF_RECORD_MISC_KERNEL, kid, 20, "[kernel.kallsyms]");
	p += check_build_id_event(p, PERF_RECORD_MISC_USER, uid, 16, name63);
	p += check_build_id_event(p, PERF_RECORD_MISC_USER, kid, 20, name64);
	CHECK(p == base + idx[0].offset + idx[0].size);
	/* the next section starts right after */
	CHECK_INT(idx[1].offset, idx[0].offset + idx[0].size);

	/* trail's reader finds them again, with their sizes */
	CHECK_INT(perfdata_open(&pd, path), 0);
	CHECK_INT(pd.nr_build_ids, 3);
	b = perfdata_find_build_id(&pd, name63);
	CHECK(b != NULL);
	if (b) {
		CHECK_INT(b->size, 16);
		CHECK_INT(b->pid, -1);
		CHECK(!memcmp(b->id, uid, 16));
	}
	b = perfdata_find_build_id(&pd, "[kernel.kallsyms]");
	CHECK(b && b->size == 20 && !memcmp(b->id, kid, 20));
	CHECK(perfdata_find_build_id(&pd, name64) != NULL);
	perfdata_close(&pd);
	unlink(path);
	strbuf_release(&sb);
}

TEST(rejects_misaligned_records)
{
	char *path = temp_path();
	struct perfdata_writer w;
	uint64_t rec[2] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 12 };

	CHECK_INT(perfdata_writer_open(&w, path), 0);
	CHECK_INT(perfdata_writer_start(&w), 0);
	memcpy(rec, &h, sizeof(h));
	CHECK_INT(perfdata_writer_add(&w, (void *)rec, 0), -1);
	perfdata_writer_release(&w);
	unlink(path);
}

/* A file with no records still reads back: its data size is not 0. */
TEST(empty_file_reads_back)
{
	char *path = temp_path();
	struct perfdata_writer w;
	struct perf_tool tool;
	struct perfdata pd;
	const char *argv[] = { "trail" };

	CHECK_INT(start_one_event(&w, path), 0);
	CHECK_INT(perfdata_writer_finish(&w, 1, argv), 0);
	perfdata_writer_release(&w);
	CHECK_INT(perfdata_open(&pd, path), 0);
	CHECK(pd.data_size > 0);
	memset(&tool, 0, sizeof(tool));
	CHECK_INT(perfdata_process(&pd, &tool), 0);
	perfdata_close(&pd);
	unlink(path);
}

TEST(cannot_create_is_an_error)
{
	struct perfdata_writer w;

	CHECK_INT(perfdata_writer_open(&w, "/nonexistent-dir/x.data"), -1);
	perfdata_writer_release(&w);
}

TEST_MAIN("perfdata_write", writes_a_file_perf_can_index, build_id_section, rejects_misaligned_records,
	  empty_file_reads_back,
	  cannot_create_is_an_error)
