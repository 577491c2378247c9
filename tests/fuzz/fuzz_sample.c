/*
 * fuzz_sample.c - libFuzzer target for the "sample" input format
 * (src/collapse/sample.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("sample", data, size);
}
