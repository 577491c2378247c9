/*
 * numfmt.c - the one number formatter of trail's reports (numfmt.h):
 * printf formats chosen by magnitude, so no "1.254e+06 us" and no
 * "137193.99999999997" reach a reader.
 */
#include "core/numfmt.h"

#include <math.h>
#include <string.h>

static const char *sign(double v, int flags)
{
	return (flags & NUMFMT_SIGN) && v >= 0 ? "+" : "";
}

void numfmt_percent(struct strbuf *sb, double fraction, int flags)
{
	strbuf_addf(sb, "%s%.1f%%", sign(fraction, flags), 100 * fraction);
}

void numfmt_pp(struct strbuf *sb, double delta, int flags)
{
	strbuf_addf(sb, "%s%.1f pp", sign(delta, flags), 100 * delta);
}

/* v to four significant digits, never in exponent form below 1e9. */
static void sig4(struct strbuf *sb, double v, int flags)
{
	double a = fabs(v);
	int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;

	strbuf_addf(sb, "%s%.*f", sign(v, flags), decimals, v);
	/* "114.50" -> "114.5", "1.250" -> "1.25", "2.000" -> "2" */
	if (decimals) {
		while (sb->len && sb->buf[sb->len - 1] == '0')
			strbuf_setlen(sb, sb->len - 1);
		if (sb->len && sb->buf[sb->len - 1] == '.')
			strbuf_setlen(sb, sb->len - 1);
	}
}

void numfmt_seconds(struct strbuf *sb, double seconds, int flags)
{
	double a = fabs(seconds);

	if (!isfinite(seconds)) {
		strbuf_addstr(sb, "n/a");
	} else if (a >= 1 || a == 0) {
		sig4(sb, seconds, flags);
		strbuf_addstr(sb, " s");
	} else if (a >= 1e-3) {
		sig4(sb, seconds * 1e3, flags);
		strbuf_addstr(sb, " ms");
	} else {
		sig4(sb, seconds * 1e6, flags);
		strbuf_addstr(sb, " us");
	}
}

void numfmt_count(struct strbuf *sb, double n, int flags)
{
	if (!isfinite(n))
		strbuf_addstr(sb, "n/a");
	else if (n == floor(n) && fabs(n) < 1e15)
		strbuf_addf(sb, "%s%.0f", sign(n, flags), n);
	else
		sig4(sb, n, flags);
}

void numfmt_value(struct strbuf *sb, double v, const char *unit, int flags)
{
	static const struct { const char *unit; double seconds; } times[] = {
		{ "s", 1 }, { "seconds", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};
	size_t i;

	for (i = 0; unit && i < sizeof(times) / sizeof(times[0]); i++)
		if (!strcmp(unit, times[i].unit)) {
			numfmt_seconds(sb, v * times[i].seconds, flags);
			return;
		}
	numfmt_count(sb, v, flags);
	if (unit && *unit)
		strbuf_addf(sb, " %s", unit);
}
