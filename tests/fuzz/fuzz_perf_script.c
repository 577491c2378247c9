/*
 * fuzz_perf_script.c - libFuzzer target for the perf script parser and the
 * folding engine: any bytes, under option sets picked by the first byte,
 * must fold and write without crashing, leaking or tripping UBSan.
 */
#include "profile/fold.h"
#include "collapse/collapser.h"
#include "collapse/perf_script.h"
#include "core/string_list.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct string_list skip = STRING_LIST_INIT;
	struct fold_options o;
	struct collapse_session s;
	uint8_t flags = size ? data[0] : 0;

	if (!sink)
		sink = fopen("/dev/null", "w");
	memset(&o, 0, sizeof(o));
	o.include_pid = flags & 1;
	o.include_tid = flags & 2;
	o.annotate_kernel = flags & 4;
	o.annotate_jit = flags & 8;
	o.include_addrs = flags & 16;
	if (flags & 32) {
		string_list_append(&skip, "main");
		o.skip_after = &skip;
	}
	collapse_session_init(&s, &o);
	if (flags & 64)
		s.event_filter = strdup("cycles");
	perf_script_read_buffer(&s, s.folders[0], "fuzz", (const char *)data, size);
	if (sink)
		folder_write(s.folders, s.nr_folders, sink);
	collapse_session_release(&s);
	string_list_clear(&skip);
	return 0;
}
