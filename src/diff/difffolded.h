/*
 * difffolded.h - the three-column differential format of FlameGraph's
 * difffolded.pl ("stack BEFORE AFTER"): reading folded files the way that
 * script does, merging two profiles, -n normalisation and -s hex
 * stripping, and writing the result sorted.  'trail diff' is a thin
 * wrapper; the differential flame graph feeds two profiles through
 * difffolded_merge() directly.
 *
 * Results are struct folded_profile with columns == 2: counts[0] is
 * BEFORE, counts[1] is AFTER (see profile/folded.h).
 */
#ifndef TRAIL_DIFF_DIFFFOLDED_H
#define TRAIL_DIFF_DIFFFOLDED_H

#include <stddef.h>
#include <stdio.h>

#include "core/line_map.h"
#include "profile/folded.h"

#define DIFFFOLDED_STRIP_HEX	0x1u	/* -s: every 0x<hex digits> becomes 0x... */
#define DIFFFOLDED_NORMALIZE	0x2u	/* -n: scale BEFORE to AFTER's total */
/* --merge-processes: drop every stack's first (process) frame; a stack of
 * that frame alone becomes "[process]" */
#define DIFFFOLDED_MERGE_PROCESSES	0x4u

/*
 * Split a line as difffolded.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/ does: the
 * count is what follows the last blank (space, tab, \f, \v, \r), the stack
 * everything before that blank (it may itself end in blanks).  So
 * "a;b 1 2" is stack "a;b 1" with count 2, unlike folded_parse_line().
 * Returns 0, or -1 when the line does not match.
 */
int difffolded_parse_line(const char *line, size_t len, const char **stack,
			  size_t *stack_len, double *count);

/*
 * Replace every "0x" followed by hex digits in src[0..len) with "0x...",
 * writing to dst (at least 2 * len + 1 bytes: a match of 3 bytes or more
 * becomes 5).  Returns the new length.
 */
size_t difffolded_strip_hex(char *dst, const char *src, size_t len);

struct difffolded_stats {
	unsigned long long lines;	/* lines read */
	unsigned long long stacks;	/* lines with a stack and a count */
	unsigned long long malformed;	/* non-blank lines without a count */
	struct folded_weight_info weight;	/* a '# trail-folded' header's; samples without */
};

/* Called for every line read: the stack (valid during the call) and count. */
typedef void difffolded_add_fn(void *data, int column, const char *stack, size_t len,
			       double count);

/*
 * Read a folded file ('-' is standard input; gzip is inflated) line by
 * line as difffolded.pl does, calling add(data, column, ...) for each: a line that does not
 * match (blank or malformed) adds a zero count to the empty stack "", so
 * the output has the script's " 0 0" line; malformed non-blank lines are
 * warned about with path:line (the first few); with DIFFFOLDED_STRIP_HEX
 * stacks are stripped first.  stats may be NULL.  The file streams
 * through a bounded buffer (never mapped whole), so a caller that keeps
 * only sums holds no stack.  Returns 0, or -1 when the file cannot be
 * read (error printed).
 */
int difffolded_read_lines(const char *path, int column, unsigned flags,
			  struct difffolded_stats *stats, difffolded_add_fn *add, void *data);

/*
 * difffolded_read_lines() on an open line map: the caller keeps lm open
 * as long as it keeps stacks that point into a stable (mapped) input.
 * Without DIFFFOLDED_STRIP_HEX every stack passed to add lies in the line
 * read or is a string literal; with it, in a scratch buffer.
 */
int difffolded_read_map(struct line_map *lm, int column, unsigned flags,
			struct difffolded_stats *stats, difffolded_add_fn *add, void *data);

/*
 * Read a folded file into column `column` (0 = BEFORE, 1 = AFTER) of p,
 * as difffolded.pl does: a line that does not match (blank or malformed)
 * adds a zero count to the empty stack "", so the output has the script's
 * " 0 0" line; malformed non-blank lines are warned about with path:line
 * (the first few).  Returns 0, or -1 when the file cannot be read.
 */
int difffolded_read(struct folded_profile *p, int column, const char *path,
		    unsigned flags, struct difffolded_stats *stats);

/*
 * out (initialised, empty) = the merge of column bcol of before and column
 * acol of after, with flags applied as in difffolded.pl (strip hex first,
 * then normalise).  out->columns is 2.
 */
void difffolded_merge(struct folded_profile *out,
		      const struct folded_profile *before, int bcol,
		      const struct folded_profile *after, int acol, unsigned flags);

/*
 * -n: when the totals differ, BEFORE's count c becomes int(c * T2 / T1)
 * with Perl's arithmetic (exact integers while they fit, truncation
 * toward zero).  With T1 == 0 nothing is scaled and -1 is returned (the
 * script dies with a division by zero); otherwise 0.  total[0] is
 * recomputed.
 */
int difffolded_normalize(struct folded_profile *p);

/* int(c * t2 / t1) with Perl's arithmetic, as difffolded_normalize() does. */
double difffolded_scale(double c, double t1, double t2);

/*
 * Write "stack before after\n" for every stack, sorted as LC_ALL=C sort
 * sorts the lines, counts printed as Perl prints numbers.  Returns 0 or
 * -1 on a write error (errno set, nothing printed).
 */
int difffolded_write(const struct folded_profile *p, FILE *f);

/* Print a count as Perl prints a number; returns the length. */
size_t difffolded_format_count(char *buf, size_t n, double v);

#endif
