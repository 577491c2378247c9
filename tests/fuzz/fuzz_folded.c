/*
 * fuzz_folded.c - libFuzzer target for the "folded" input format
 * (src/collapse/folded.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("folded", data, size);
}
