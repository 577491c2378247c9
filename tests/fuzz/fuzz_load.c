/*
 * fuzz_load.c - libFuzzer target for the way every profile file is opened
 * (collapse/input.c, collapse/load.c): any bytes, as a file, go through
 * decompression (gzip, zstd, xz by their magic), the byte-order-mark skip,
 * the read-ahead that finds the end of a long first line, the guesser and
 * whichever reader it picks, within a small input budget
 * (collapse/limits.h), as 'trail top' and 'trail explain' read them.
 */
#define _GNU_SOURCE
#include "collapse/limits.h"
#include "collapse/load.h"
#include "profile/folded.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_profile p;
	const struct collapser *fmt = NULL;
	char path[64];
	int fd = memfd_create("fuzz_load", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	/* small limits: a bomb must end at the budget, fast */
	input_limits.max_input_size = 4u << 20;
	input_limits.max_stack_size = 64u << 10;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	folded_profile_init(&p);
	load_profile(&p, path, NULL, &fmt);
	folded_profile_release(&p);
	close(fd);
	return 0;
}
