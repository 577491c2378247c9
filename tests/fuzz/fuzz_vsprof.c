/*
 * fuzz_vsprof.c - libFuzzer target for the "vsprof" input format
 * (src/collapse/vsprof.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("vsprof", data, size);
}
