/*
 * collapse_fuzz.h - the body shared by the libFuzzer targets of the
 * input formats (tests/fuzz/fuzz_<format>.c): any bytes, read as that
 * format with options picked by the first byte, must fold and write
 * without crashing, leaking or tripping UBSan; the guesser sees them too.
 */
#ifndef TRAIL_TESTS_FUZZ_COLLAPSE_FUZZ_H
#define TRAIL_TESTS_FUZZ_COLLAPSE_FUZZ_H

#include "collapse/collapser.h"
#include "core/error.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline int collapse_fuzz_one(const char *format, const uint8_t *data, size_t size)
{
	static FILE *sink;
	const struct collapser *c = collapser_find(format);
	struct fold_options fo;
	struct collapse_session s;
	struct collapse_input in;
	uint8_t flags = size ? data[0] : 0;

	/* errors are expected on most inputs: run with -close_fd_mask=2 to hide them */
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!c)
		return 0;
	memset(&fo, 0, sizeof(fo));
	collapse_session_init(&s, &fo);
	s.opts.include_offset = flags & 1;
	s.opts.no_modules = flags & 2;
	s.opts.ghc_cost = (enum ghc_cost)((flags >> 2) % 3);
	collapse_input_from_buffer(&in, "fuzz", (const char *)data, size);
	collapse_guess(in.head, in.head_len, NULL);
	c->read(&s, &in, s.folders[0]);
	if (sink)
		collapse_session_write(&s, sink);
	collapse_input_close(&in);
	collapse_session_release(&s);
	return 0;
}

#endif
