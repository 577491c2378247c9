/*
 * fuzz_recursive.c - libFuzzer target for the "recursive" input format
 * (src/collapse/recursive.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("recursive", data, size);
}
