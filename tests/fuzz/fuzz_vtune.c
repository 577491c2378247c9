/*
 * fuzz_vtune.c - libFuzzer target for the "vtune" input format
 * (src/collapse/vtune.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("vtune", data, size);
}
