/*
 * fuzz_massif.c - libFuzzer target for the "massif" input format
 * (src/collapse/massif.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("massif", data, size);
}
