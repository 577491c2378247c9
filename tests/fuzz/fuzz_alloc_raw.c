/*
 * fuzz_alloc_raw.c - libFuzzer target for the allocation interposer's raw
 * files (alloc/alloc_read.c): every view converts the input into a
 * perf.data writer, or refuses it with an error; nothing else may happen.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "alloc/alloc_read.h"
#include "core/error.h"
#include "perf/perfdata_write.h"

#include <linux/perf_event.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int view;

	snprintf(path, sizeof(path), "/tmp/fuzz_alloc_raw.%d", (int)getpid());
	for (view = ALLOC_VIEW_SPACE; view <= ALLOC_VIEW_INUSE_EXIT; view++) {
		struct perfdata_writer w;
		struct perf_event_attr attr;
		struct alloc_totals t;
		uint64_t id = 1;

		memset(&w, 0, sizeof(w));
		memset(&attr, 0, sizeof(attr));
		memset(&t, 0, sizeof(t));
		attr.type = PERF_TYPE_SOFTWARE;
		attr.size = PERFDATA_ATTR_SIZE;
		attr.sample_type = ALLOC_SAMPLE_TYPE;
		w.fd = -1;
		if (perfdata_writer_open(&w, path))
			return 0;
		perfdata_writer_add_event(&w, &attr, alloc_view_name((enum alloc_view)view), &id, 1);
		if (!perfdata_writer_start(&w))
			alloc_raw_convert(data, size, "fuzz", (enum alloc_view)view, &w, &t);
		perfdata_writer_release(&w);
	}
	unlink(path);
	return 0;
}
