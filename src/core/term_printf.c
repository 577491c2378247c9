/*
 * term_printf.c - printf with every string argument escaped for the
 * terminal (see term_printf.h).  The format is walked one conversion at
 * a time: a string is escaped and padded here, anything else goes to
 * vsnprintf with its own conversion spec and the one argument it takes.
 */
#include "core/term_printf.h"

#include "core/escape.h"
#include "core/strbuf.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIG_L };

/* Characters (UTF-8 sequences count one) of s[0..n). */
static size_t chars(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

static void add_string(struct strbuf *sb, const char *s, int left, int width, int prec)
{
	struct strbuf esc = STRBUF_INIT;
	size_t n, c;

	if (!s)
		s = "(null)";
	n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
	while (prec >= 0 && n && n < strlen(s) && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;		/* do not cut a UTF-8 sequence */
	escape_term(&esc, s, n);
	c = chars(esc.buf, esc.len);
	if (!left)
		for (; width > 0 && c < (size_t)width; c++)
			strbuf_addch(sb, ' ');
	strbuf_add(sb, esc.buf, esc.len);
	if (left)
		for (; width > 0 && c < (size_t)width; c++)
			strbuf_addch(sb, ' ');
	strbuf_release(&esc);
}


/*
 * spec is one conversion rebuilt here from a checked one (flags, width and
 * precision of the caller's format, then the length modifier of the type
 * the value is read as), so the non-literal format cannot take more or
 * other arguments than the one given.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define EMIT(val) do {							\
		if (stars == 2)						\
			strbuf_addf(sb, spec, star[0], star[1], val);	\
		else if (stars == 1)					\
			strbuf_addf(sb, spec, star[0], val);		\
		else							\
			strbuf_addf(sb, spec, val);			\
	} while (0)

static void add_number(struct strbuf *sb, char *spec, size_t n, int stars, const int *star,
		       char conv, enum length len, va_list *ap)
{
	int is_signed = conv == 'd' || conv == 'i';

	if (conv == 'p') {
		void *v = va_arg(*ap, void *);

		snprintf(spec + n, 3, "p");
		EMIT(v);
	} else if (!strchr("diouxXc", conv)) {
		snprintf(spec + n, 4, "%s%c", len == LEN_BIG_L ? "L" : "", conv);
		if (len == LEN_BIG_L) {
			long double v = va_arg(*ap, long double);

			EMIT(v);
		} else {
			double v = va_arg(*ap, double);

			EMIT(v);
		}
	} else if (len == LEN_NONE || len == LEN_H || len == LEN_HH || conv == 'c') {
		int v = va_arg(*ap, int);	/* hh and h arrive promoted to int */

		snprintf(spec + n, 4, "%s%c", len == LEN_HH ? "hh" : len == LEN_H ? "h" : "", conv);
		EMIT(v);
	} else {
		snprintf(spec + n, 4, "ll%c", conv);
		if (is_signed) {
			long long v = len == LEN_L ? va_arg(*ap, long) :
				      len == LEN_LL ? va_arg(*ap, long long) :
				      len == LEN_J ? (long long)va_arg(*ap, intmax_t) :
				      (long long)va_arg(*ap, ptrdiff_t);	/* z (ssize_t), t */

			EMIT(v);
		} else {
			unsigned long long v = len == LEN_L ? va_arg(*ap, unsigned long) :
					       len == LEN_LL ? va_arg(*ap, unsigned long long) :
					       len == LEN_J ? (unsigned long long)va_arg(*ap, uintmax_t) :
					       (unsigned long long)va_arg(*ap, size_t);

			EMIT(v);
		}
	}
}
#undef EMIT
#pragma GCC diagnostic pop

void term_vaddf(struct strbuf *sb, const char *fmt, va_list ap_in)
{
	va_list ap;
	const char *p = fmt;

	va_copy(ap, ap_in);
	while (*p) {
		const char *start = p;
		const char *mods;
		char spec[64], conv;
		int star[2], stars = 0, left = 0, width = -1, prec = -1;
		enum length len = LEN_NONE;
		size_t n;

		if (*p != '%') {
			const char *pct = strchr(p, '%');

			n = pct ? (size_t)(pct - p) : strlen(p);
			strbuf_add(sb, p, n);
			p += n;
			continue;
		}
		p++;
		if (*p == '%') {
			strbuf_addch(sb, '%');
			p++;
			continue;
		}
		for (; *p && strchr("-+ #0'", *p); p++)
			left |= *p == '-';
		if (*p == '*') {
			width = star[stars++] = va_arg(ap, int);
			if (width < 0) {
				left = 1;
				width = -width;
			}
			p++;
		} else {
			for (width = *p >= '0' && *p <= '9' ? 0 : -1; *p >= '0' && *p <= '9'; p++)
				width = width * 10 + (*p - '0');
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				prec = star[stars++] = va_arg(ap, int);
				p++;
			} else {
				for (prec = 0; *p >= '0' && *p <= '9'; p++)
					prec = prec * 10 + (*p - '0');
			}
		}
		mods = p;
		if (*p == 'h')
			len = p[1] == 'h' ? (p++, LEN_HH) : LEN_H;
		else if (*p == 'l')
			len = p[1] == 'l' ? (p++, LEN_LL) : LEN_L;
		else if (*p == 'j')
			len = LEN_J;
		else if (*p == 'z')
			len = LEN_Z;
		else if (*p == 't')
			len = LEN_T;
		else if (*p == 'L')
			len = LEN_BIG_L;
		if (len != LEN_NONE)
			p++;
		conv = *p;
		if (!conv || !strchr("diouxXcspfFeEgGaA", conv)) {
			/* %n or an unknown conversion: written as it is, no argument taken */
			strbuf_add(sb, start, (size_t)(p - start) + (conv ? 1 : 0));
			p += conv ? 1 : 0;
			continue;
		}
		p++;
		if (conv == 's') {
			add_string(sb, va_arg(ap, const char *), left, width, prec);
			continue;
		}
		n = (size_t)(mods - start);
		if (n > sizeof(spec) - 4)
			n = sizeof(spec) - 4;	/* room for "ll" + conversion + NUL */
		memcpy(spec, start, n);
		add_number(sb, spec, n, stars, star, conv, len, &ap);
	}
	va_end(ap);
}

void term_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	term_vaddf(sb, fmt, ap);
	va_end(ap);
}

void term_printf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	term_vaddf(&sb, fmt, ap);
	va_end(ap);
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}
