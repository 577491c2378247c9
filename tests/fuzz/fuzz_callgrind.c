/*
 * fuzz_callgrind.c - libFuzzer target for the "callgrind" input format
 * (src/collapse/callgrind.c and the call graph to stacks of callgraph.c):
 * see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("callgrind", data, size);
}
