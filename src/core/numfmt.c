/*
 * numfmt.c - the one number formatter of trail's reports (numfmt.h):
 * printf formats chosen by magnitude, so no "1.254e+06 us" and no
 * "137193.99999999997" reach a reader.
 */
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *sign(double v, int flags)
{
	return (flags & NUMFMT_SIGN) && v >= 0 ? "+" : "";
}

void numfmt_percent(struct strbuf *sb, double fraction, int flags)
{
	strbuf_addf(sb, "%s%.1f%%", sign(fraction, flags), 100 * fraction);
}

void numfmt_percent_interval(struct strbuf *sb, double fraction, double lo, double hi, int flags)
{
	numfmt_percent(sb, fraction, flags);
	strbuf_addstr(sb, " [");
	numfmt_percent(sb, lo, flags);
	strbuf_addstr(sb, ", ");
	numfmt_percent(sb, hi, flags);
	strbuf_addch(sb, ']');
}

void numfmt_p(struct strbuf *sb, double p)
{
	int decimals;

	if (!(p >= 0.0001)) {
		strbuf_addstr(sb, p >= 0 ? "p < 0.0001" : "p = ?");
		return;
	}
	if (p > 1)
		p = 1;
	/* two significant digits: 0.31, 0.012, 0.0031; never more than four decimals */
	decimals = (int)ceil(-log10(p)) + 1;
	if (decimals < 2)
		decimals = 2;
	if (decimals > 4)
		decimals = 4;
	strbuf_addf(sb, "p = %.*f", decimals, p);
}

void numfmt_pp(struct strbuf *sb, double delta, int flags)
{
	strbuf_addf(sb, "%s%.1f pp", sign(delta, flags), 100 * delta);
}

void numfmt_pp_interval(struct strbuf *sb, double delta, double lo, double hi, int flags)
{
	numfmt_pp(sb, delta, flags);
	strbuf_addf(sb, " [%s%.1f, %s%.1f]", sign(lo, flags), 100 * lo, sign(hi, flags), 100 * hi);
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

/* The unit a duration reads best in: its factor from seconds, its name in *name. */
static double time_scale(double seconds, const char **name)
{
	double a = fabs(seconds);

	if (a >= 1 || a == 0 || !isfinite(a)) {
		*name = " s";
		return 1;
	}
	if (a >= 1e-3) {
		*name = " ms";
		return 1e3;
	}
	*name = " us";
	return 1e6;
}

void numfmt_seconds(struct strbuf *sb, double seconds, int flags)
{
	const char *name;
	double f = time_scale(seconds, &name);

	if (!isfinite(seconds)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	sig4(sb, seconds * f, flags);
	strbuf_addstr(sb, name);
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

static double unit_seconds(const char *unit);

void numfmt_value(struct strbuf *sb, double v, const char *unit, int flags)
{
	double to_s = unit_seconds(unit);

	if (to_s) {
		numfmt_seconds(sb, v * to_s, flags);
		return;
	}
	numfmt_count(sb, v, flags);
	if (unit && *unit)
		strbuf_addf(sb, " %s", unit);
}

const char *numfmt_str(char *buf, size_t n, double v, const char *unit, int flags)
{
	struct strbuf sb = STRBUF_INIT;

	numfmt_value(&sb, v, unit, flags);
	snprintf(buf, n, "%s", sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	return buf;
}

/* The factor from unit to seconds when unit is a duration, else 0. */
static double unit_seconds(const char *unit)
{
	static const struct { const char *unit; double seconds; } times[] = {
		{ "s", 1 }, { "seconds", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};
	size_t i;

	for (i = 0; unit && i < sizeof(times) / sizeof(times[0]); i++)
		if (!strcmp(unit, times[i].unit))
			return times[i].seconds;
	return 0;
}

void numfmt_interval(struct strbuf *sb, double v, double lo, double hi, const char *unit, int flags)
{
	double to_s = unit_seconds(unit), f;
	const char *name;

	if (!to_s) {
		numfmt_count(sb, v, flags);
		if (unit && *unit)
			strbuf_addf(sb, " %s", unit);
		strbuf_addstr(sb, " [");
		numfmt_count(sb, lo, flags);
		strbuf_addstr(sb, ", ");
		numfmt_count(sb, hi, flags);
		strbuf_addch(sb, ']');
		return;
	}
	f = time_scale(v * to_s, &name) * to_s;
	if (!isfinite(v))
		strbuf_addstr(sb, "n/a");
	else
		sig4(sb, v * f, flags);
	strbuf_addf(sb, "%s [", name);
	if (isfinite(lo))
		sig4(sb, lo * f, flags);
	else
		strbuf_addstr(sb, "n/a");
	strbuf_addstr(sb, ", ");
	if (isfinite(hi))
		sig4(sb, hi * f, flags);
	else
		strbuf_addstr(sb, "n/a");
	strbuf_addch(sb, ']');
}
