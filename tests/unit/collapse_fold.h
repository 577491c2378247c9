/*
 * collapse_fold.h - the whole 'trail collapse' path on a string, for the
 * unit tests of the input formats: read text through one collapser (named,
 * or guessed as the command guesses) into a session and return the folded
 * output.  Include after harness.h (it CHECKs the write).
 */
#ifndef TRAIL_TESTS_COLLAPSE_FOLD_H
#define TRAIL_TESTS_COLLAPSE_FOLD_H

#include "collapse/collapser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Fold text as format (NULL: guessed), module names kept unless
 * no_modules, with --sample-type sample_type (NULL: the format's
 * default).  The folded output (caller frees), or NULL when no format
 * claimed the text or reading it failed.  *weight gets the units the
 * reader set and *bad_lines the lines it did not understand (either may
 * be NULL).
 */
static char *fold_with(const char *format, const char *text, int no_modules, const char *sample_type,
		       struct folded_weight_info *weight, uint64_t *bad_lines)
{
	struct fold_options fo;
	struct collapse_session s;
	struct collapse_input in;
	const struct collapser *c;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int ret;

	memset(&fo, 0, sizeof(fo));
	collapse_session_init(&s, &fo);
	s.opts.no_modules = no_modules;
	s.opts.sample_type = sample_type;
	collapse_input_from_buffer(&in, "t", text, strlen(text));
	c = format ? collapser_find(format) : collapse_guess(in.head, in.head_len, NULL);
	if (!c) {
		collapse_input_close(&in);
		collapse_session_release(&s);
		return NULL;
	}
	ret = c->read(&s, &in, s.folders[0]);
	out = open_memstream(&buf, &len);
	CHECK(collapse_session_write(&s, out) == 0);
	fclose(out);
	if (weight)
		*weight = s.weight;
	if (bad_lines)
		*bad_lines = s.unrecognized;
	collapse_input_close(&in);
	collapse_session_release(&s);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* fold_with() with the format's default sample type. */
static inline char *fold_as(const char *format, const char *text, int no_modules)
{
	return fold_with(format, text, no_modules, NULL, NULL, NULL);
}

#endif
