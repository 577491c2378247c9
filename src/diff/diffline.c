/*
 * diffline.c - the text of one three-column output line (see diffline.h).
 */
#include "diff/diffline.h"
#include "diff/difffolded.h"

#include <string.h>

#define COUNT_MAX (DIFFLINE_COUNTS_MAX / 2 - 1)	/* bytes of one count, NUL included */

size_t diffline_format_counts(char *buf, const struct diffline *l)
{
	size_t o = 0;
	int c;

	for (c = 0; c < 2; c++) {
		buf[o++] = ' ';
		o += difffolded_format_count(buf + o, COUNT_MAX, l->count[c]);
	}
	return o;
}

size_t diffline_format(char *buf, const struct diffline *l)
{
	memcpy(buf, l->text, l->len);
	return l->len + diffline_format_counts(buf + l->len, l);
}
