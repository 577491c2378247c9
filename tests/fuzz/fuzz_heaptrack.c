/*
 * fuzz_heaptrack.c - libFuzzer target for the "heaptrack" input format
 * (src/collapse/heaptrack.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("heaptrack", data, size);
}
