/*
 * fuzz_alloc_raw.c - libFuzzer target for the allocation interposer's raw
 * files (alloc/alloc_read.c).  A valid header is put before the input, so
 * the fuzzer spends its time on records (the header check is one compare);
 * the first byte picks the view.  The file converts into a perf.data
 * writer or is refused with an error; nothing else may happen.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/alloc_read.h"
#include "alloc/raw.h"
#include "perf/perfdata_write.h"

#include <linux/perf_event.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t hdr[ALLOC_RAW_HEADER_WORDS] = { ALLOC_RAW_MAGIC, ALLOC_RAW_VERSION, 1000, 42, 1, 0, 0, 0 };
	struct perfdata_writer w;
	struct perf_event_attr attr;
	struct alloc_totals t;
	enum alloc_view view;
	unsigned char *buf;
	size_t body;
	uint64_t id = 1;
	char path[64];

	if (!size)
		return 0;
	view = (enum alloc_view)(data[0] % 4);
	hdr[2] = data[0] & 4 ? 1 : 4096;	/* every allocation, or sampled */
	data++;
	size--;
	body = size - size % 8;
	buf = malloc(sizeof(hdr) + body + 1);
	memcpy(buf, hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), data, body);
	snprintf(path, sizeof(path), "/tmp/fuzz_alloc_raw.%d", (int)getpid());
	memset(&w, 0, sizeof(w));
	memset(&attr, 0, sizeof(attr));
	memset(&t, 0, sizeof(t));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = PERFDATA_ATTR_SIZE;
	attr.sample_type = ALLOC_SAMPLE_TYPE;
	w.fd = -1;
	if (!perfdata_writer_open(&w, path)) {
		perfdata_writer_add_event(&w, &attr, alloc_view_name(view), &id, 1);
		if (!perfdata_writer_start(&w))
			alloc_raw_convert(buf, sizeof(hdr) + body, "fuzz", view, &w, &t);
		perfdata_writer_release(&w);
		unlink(path);
	}
	free(buf);
	return 0;
}
