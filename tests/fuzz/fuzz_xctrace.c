/*
 * fuzz_xctrace.c - libFuzzer target for the "xctrace" input format
 * (src/collapse/xctrace.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("xctrace", data, size);
}
