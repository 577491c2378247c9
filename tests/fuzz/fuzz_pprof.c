/*
 * fuzz_pprof.c - libFuzzer target for pprof's profile.proto reader (src/collapse/pprof.c) and the wire-format reader under it (src/core/protobuf.c), raw and gzipped:
 * any input must fold or fail cleanly, never crash, leak or read out of
 * bounds.  Error messages go to stderr; run with -close_fd_mask=2.
 */
#include "collapse/pprof.h"
#include "profile/folded.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_profile p;

	folded_profile_init(&p);
	/* the sample type by name too, on the inputs with an odd first byte */
	(void)pprof_fold((const char *)data, size, "fuzz", size && (data[0] & 1) ? "cpu" : NULL, &p);
	(void)pprof_detect(data, size);
	folded_profile_release(&p);
	return 0;
}
