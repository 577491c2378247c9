/*
 * diffline.h - one line of 'trail diff's three-column output: a stack and
 * its BEFORE and AFTER counts, and the text "stack before after" as
 * difffolded.pl prints it (counts as Perl prints numbers).  The merge
 * (diffmerge.c) fills them, the sort (diffsort.c) orders them by that text.
 */
#ifndef TRAIL_DIFF_DIFFLINE_H
#define TRAIL_DIFF_DIFFLINE_H

#include <stddef.h>
#include <stdint.h>

#define DIFFLINE_COUNTS_MAX 130		/* bytes of " before after", and room */

struct diffline {
	const char *text;	/* the stack (not NUL-terminated; the line's owner keeps it) */
	uint32_t len;		/* bytes */
	double count[2];	/* BEFORE, AFTER */
};

/* " before after" of l into buf (DIFFLINE_COUNTS_MAX bytes); returns its length. */
size_t diffline_format_counts(char *buf, const struct diffline *l);

/*
 * "stack before after" of l into buf (at least l->len + DIFFLINE_COUNTS_MAX
 * bytes), without a newline; returns its length.
 */
size_t diffline_format(char *buf, const struct diffline *l);

#endif
