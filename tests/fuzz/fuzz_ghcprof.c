/*
 * fuzz_ghcprof.c - libFuzzer target for the "ghcprof" input format
 * (src/collapse/ghcprof.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("ghcprof", data, size);
}
