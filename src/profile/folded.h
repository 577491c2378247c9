/*
 * folded.h - the collapsed ("folded") stack format shared by every tool in
 * the FlameGraph family: one stack per line, frames root first separated by
 * ';', then a space and a count ("main;run;hash 42").  Differential files
 * carry two counts ("stack BEFORE AFTER").  Counts may be fractional.
 *
 * struct folded_profile merges duplicate stacks and keeps the totals; it is
 * the input of flamegraph, diff and the regression analysis.
 */
#ifndef TRAIL_PROFILE_FOLDED_H
#define TRAIL_PROFILE_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/intern.h"

struct folded_line {
	const char *stack;	/* points into the parsed line */
	size_t stack_len;
	double count[2];	/* count[0] only, unless columns == 2 */
	int columns;		/* 1, or 2 for differential input */
};

/*
 * Parse one line as flamegraph.pl does: the last blank-separated field is
 * the count; if what precedes it also ends in a number, the line is
 * differential (count[0] = before, count[1] = after).  Returns 0, or -1
 * when the line has no count (nothing printed).
 */
int folded_parse_line(const char *line, size_t len, struct folded_line *out);

struct folded_profile {
	struct intern stacks;	/* stack text -> dense id */
	double *counts[2];	/* per stack id; counts[1] only when columns == 2 */
	size_t counts_alloc;
	int columns;		/* 1, or 2 once any line had two counts */
	double total[2];	/* sum of the counts */
	uint64_t lines;		/* lines read, blank lines included */
	uint64_t malformed;	/* lines without a count, skipped */
};

void folded_profile_init(struct folded_profile *p);
void folded_profile_release(struct folded_profile *p);
/* Add a count to a stack (column 0 or 1). */
void folded_profile_add(struct folded_profile *p, const char *stack, size_t len,
			int column, double count);
/*
 * Read folded stacks from path ("-" for stdin, gzip allowed).  Malformed
 * lines are skipped and counted; the first few are reported as warnings
 * with path:line.  Returns 0, or -1 when the input cannot be read.
 */
int folded_profile_read(struct folded_profile *p, const char *path);
static inline size_t folded_profile_size(const struct folded_profile *p)
{
	return p->stacks.nr;
}
/*
 * Write p as folded text, one "stack count" line per stack (both counts
 * when differential), sorted in byte order.  Returns 0, or -1 after
 * trail_error() when writing failed.
 */
int folded_profile_write(const struct folded_profile *p, FILE *out);
/* Stack ids sorted by stack text in byte order (caller frees). */
uint32_t *folded_profile_sorted(const struct folded_profile *p);

/*
 * Append one frame to a stack being built root first: a ';' unless sb is
 * empty, then the name with line breaks turned into spaces (a folded line
 * cannot hold them); an empty name becomes "[unknown]".  For readers of
 * profile formats that name frames freely (pprof, speedscope, JFR).
 */
struct strbuf;
void folded_stack_push(struct strbuf *sb, const char *name, size_t len);

/*
 * Format a count the way Perl prints a number (%.15g: "1", "2.5",
 * "14.2343983248723"), so outputs match the reference scripts.
 */
void folded_format_count(char *buf, size_t n, double v);

#endif
