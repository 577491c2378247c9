/*
 * term_printf.h - the one printer of terminal text: printf formats whose
 * every string argument (%s, with its width and precision) is written
 * through escape_term() (core/escape.h), so a function name, unit, env
 * field, commit subject, host name or path that came from a note, a
 * profile or a hosts file can never move the cursor, retitle the window
 * or recolour the terminal.  Numbers are formatted as printf does.
 */
#ifndef TRAIL_CORE_TERM_PRINTF_H
#define TRAIL_CORE_TERM_PRINTF_H

#include <stdarg.h>

struct strbuf;

/*
 * Append fmt to sb, escaping each %s argument (a precision cuts the raw
 * string first, on a UTF-8 boundary; a width pads the escaped text, in
 * characters).  Conversions: d i u x X o c s p f F e E g G a A %, with
 * flags, * widths and precisions and the hh h l ll j z t L modifiers; %n
 * is refused (nothing is written for it).
 */
void term_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void term_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* term_addf() to stdout. */
void term_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
