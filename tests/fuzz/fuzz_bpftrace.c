/*
 * fuzz_bpftrace.c - libFuzzer target for the "bpftrace" input format
 * (src/collapse/bpftrace.c): see collapse_fuzz.h.
 */
#include "collapse_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return collapse_fuzz_one("bpftrace", data, size);
}
