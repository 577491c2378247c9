/*
 * numfmt.h - how trail writes a number for a person, once: percentages of
 * a fraction ("+5.7%"), differences of shares in percentage points
 * ("+2.9 pp"), durations in the unit that reads best ("114.5 ms",
 * "1.25 s"), counts ("1234", "12.5"), p-values ("p = 0.0031"), and a
 * value in a metric's unit.
 * report.md, report.html, report.json's display strings and the
 * terminal lines all go through these, so the same number reads the same.
 */
#ifndef TRAIL_CORE_NUMFMT_H
#define TRAIL_CORE_NUMFMT_H

#include "core/strbuf.h"

#define NUMFMT_SIGN 1	/* always write the sign ("+5.7%") */

/* fraction 0.057 -> "5.7%" (or "+5.7%" with NUMFMT_SIGN); one decimal. */
void numfmt_percent(struct strbuf *sb, double fraction, int flags);
/* A fraction and its interval: "58.5% [40.0%, 75.0%]" (flags apply to all three). */
void numfmt_percent_interval(struct strbuf *sb, double fraction, double lo, double hi, int flags);
/* A difference of two shares (fractions) in percentage points: "+2.9 pp". */
void numfmt_pp(struct strbuf *sb, double delta, int flags);
/* The same with its interval: "+12.3 pp [+10.1, +14.5]" (flags apply to the bounds too). */
void numfmt_pp_interval(struct strbuf *sb, double delta, double lo, double hi, int flags);
/*
 * A p-value: "p = 0.31", "p = 0.012", "p = 0.0003" (two significant
 * digits, four decimals at most), "p < 0.0001" below that.
 */
void numfmt_p(struct strbuf *sb, double p);
/* seconds -> "850 us", "114.5 ms", "1.25 s", "1234 s"; four significant digits at most. */
void numfmt_seconds(struct strbuf *sb, double seconds, int flags);
/* A count: whole numbers without decimals, others to three significant digits. */
void numfmt_count(struct strbuf *sb, double n, int flags);
/* v in unit (s, ms, us, ns read as a duration above; "bytes", "KiB", ... as a count and the unit). */
void numfmt_value(struct strbuf *sb, double v, const char *unit, int flags);

/*
 * numfmt_value written into buf (n bytes, truncated), for a fixed-size
 * message or a note's printf: "144 ms", not "1.44e+05 us".  Returns buf.
 */
const char *numfmt_str(char *buf, size_t n, double v, const char *unit, int flags);

/*
 * v and its interval [lo, hi] in one unit, the one that reads best for v:
 * "1.25 s [1.24, 1.26]", "114.5 ms [112.1, 117]", "8110591 bytes
 * [7639400, 8112640]" - never a median in ms beside bounds in s.  With
 * NUMFMT_SIGN (a change and its interval) the bounds carry their sign too.
 */
void numfmt_interval(struct strbuf *sb, double v, double lo, double hi, const char *unit, int flags);

#endif
