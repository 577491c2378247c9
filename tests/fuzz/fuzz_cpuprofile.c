/*
 * fuzz_cpuprofile.c - libFuzzer target for the Chrome/V8 .cpuprofile reader (src/collapse/cpuprofile.c): node trees with cycles, missing parents, bad sample ids:
 * any input must fold or fail cleanly, never crash, leak or read out of
 * bounds.  Error messages go to stderr; run with -close_fd_mask=2.
 */
#include "collapse/json_profiles.h"
#include "profile/folded.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_profile p;

	folded_profile_init(&p);
	(void)cpuprofile_fold((const char *)data, size, "fuzz", &p);
	(void)cpuprofile_detect((const char *)data, size);
	folded_profile_release(&p);
	return 0;
}
