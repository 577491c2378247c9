/*
 * fuzz_dtrace.c - libFuzzer target for the "dtrace" input format
 * (src/collapse/dtrace.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("dtrace", data, size);
}
