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

/*
 * What the counts of a folded file are.  Files that trail writes hold
 * sample counts unless asked otherwise; then a first line
 *
 *	# trail-folded weight=period unit=ns
 *
 * names the weight and its unit.  flamegraph.pl and inferno skip it as a
 * line without a count (so it never ends in a blank and digits); trail's
 * readers take it, and the statistics refuse weights that are not counts
 * (a z-test on 1001001 "samples" per sample calls noise significant).
 */
enum folded_weight {
	FOLDED_WEIGHT_SAMPLES,	/* one per sample: counts (no header is written) */
	FOLDED_WEIGHT_PERIOD,	/* the sum of the samples' event periods */
	FOLDED_WEIGHT_TIME,	/* time, e.g. microseconds blocked off-CPU */
};

/*
 * The profile model's units: what a count is (weight and unit), what was
 * measured (type: "cpu", "off-cpu", "alloc_space", "alloc_objects" ...;
 * "" unknown) and, for sample counts, what one sample stands for (period
 * in period_unit, e.g. 1001001 ns at -F 999; 0 unknown).  A header
 *
 *	# trail-folded weight=samples type=cpu period=1001001 period_unit=ns unit=samples
 *
 * carries them; readers fill the struct, writers keep it (pprof's
 * sample_type and period, speedscope's unit, the JSON of top/diff/explain).
 */
struct folded_weight_info {
	enum folded_weight weight;
	char unit[32];		/* "ns", "us", "bytes", "cycles" ...; "" for samples */
	char type[32];		/* "cpu", "off-cpu", "alloc_space" ...; "" unknown */
	double period;		/* per sample, in period_unit; 0 unknown */
	char period_unit[16];	/* "ns", an event name ...; "" unknown */
	double runs;		/* the counts sum this many runs ("runs=", written when
				 * > 1: trail flame's diff.folded); 0 unknown */
};

/*
 * The unit of one count as a word for outputs: "samples", "nanoseconds",
 * "microseconds", "bytes", "objects", or unit itself.
 */
const char *folded_unit_word(const struct folded_weight_info *w);
/*
 * Nanoseconds per count when counts are (or stand for) time: the unit for
 * period/time weights, period x period_unit for samples; 0 when unknown.
 */
double folded_ns_per_count(const struct folded_weight_info *w);
/*
 * Bytes per count when sample counts stand for bytes (period x
 * period_unit "bytes": page-fault or allocation samples); 0 otherwise.
 * Such counts add up as time's do: compared by amount, not by share.
 */
double folded_bytes_per_sample(const struct folded_weight_info *w);
/*
 * Fill w from another format's names: type ("cpu", "alloc_space") and
 * unit ("nanoseconds", "bytes", "count" ...).  0, or -1 for a unit it
 * does not know (w then says samples).  In profile/units.c.
 */
int folded_weight_from_words(struct folded_weight_info *w, const char *type, const char *unit);

#define FOLDED_HEADER_PREFIX "# trail-folded "

/* "samples", "period", "time" */
const char *folded_weight_name(enum folded_weight w);
/* Parse a --weight value; 0, or -1 when it is none of the names. */
int folded_weight_parse(const char *s, enum folded_weight *out);
/*
 * The header line (with its newline) for w, or "" for samples with no
 * type and no period.  Bytes of names outside [A-Za-z0-9_.:/-] become '_'.
 */
void folded_header_format(char *buf, size_t n, const struct folded_weight_info *w);
/*
 * 1 when line is a header (out filled; an unknown weight name reads as
 * period, a weight that is not a count), 0 when it is not a header.
 */
int folded_header_parse(const char *line, size_t len, struct folded_weight_info *out);
/*
 * "period (ns)" or "samples": for messages.  Returns buf.
 */
const char *folded_weight_describe(char *buf, size_t n, const struct folded_weight_info *w);

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
	struct folded_weight_info weight;	/* from the header; samples without one */
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
/*
 * A line of a folded file without a sample count, the nth (from 1) of its
 * file: warn "path:lineno: ignoring line without a sample count: '...'"
 * with an excerpt, for the first FOLDED_MAX_REPORTED_MALFORMED of them.
 */
#define FOLDED_MAX_REPORTED_MALFORMED 5
void folded_warn_malformed(const char *path, uint64_t lineno, uint64_t nth, const char *line,
			   size_t len);

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
/*
 * --merge-processes: every stack without its first (process) frame, equal
 * stacks merged; a stack of that frame alone becomes "[process]".  For
 * profiles of differently named binaries (./prog, ./prog_slow).
 */
void folded_profile_merge_roots(struct folded_profile *p);
/* Stack ids sorted by stack text in byte order (caller frees). */
uint32_t *folded_profile_sorted(const struct folded_profile *p);
/*
 * ns's first column (nanoseconds: a clock's or off-CPU's periods) added
 * to p in whole microseconds, rounded to nearest, stacks that round to 0
 * left out, in byte order: the time weight trail record --folded writes
 * and trail flame's off-CPU profiles count.  p's weight is not touched.
 */
void folded_profile_add_us(struct folded_profile *p, const struct folded_profile *ns);

/*
 * Append one frame to a stack being built root first: a ';' unless sb is
 * empty, then the name made safe for folded text (docs/collapse.md, "Frame
 * names"): line breaks and tabs become spaces (a folded line cannot hold
 * them), and a blank before a trailing count-like word ("line 5", "x 1.5")
 * becomes '_', so that the name cannot read as a count (a leaf named
 * "f 5" made "f 5 10" a differential line); an empty name becomes
 * "[unknown]".  For readers of profile formats that name frames freely
 * (pprof, speedscope, .cpuprofile, JFR).
 */
struct strbuf;
void folded_stack_push(struct strbuf *sb, const char *name, size_t len);
/* The same rule on one frame name in place (for readers that build stacks otherwise). */
void folded_name_guard(char *name, size_t len);

/*
 * Format a count the way Perl prints a number (%.15g: "1", "2.5",
 * "14.2343983248723"), so outputs match the reference scripts.
 */
void folded_format_count(char *buf, size_t n, double v);

#endif
