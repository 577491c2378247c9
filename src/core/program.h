/*
 * program.h - the name every diagnostic starts with ("trail collapse"),
 * kept apart from error.c so the lowest layer (alloc.c's out-of-memory
 * exit) can print it without depending on the diagnostics formatter.
 */
#ifndef TRAIL_CORE_PROGRAM_H
#define TRAIL_CORE_PROGRAM_H

#include <stdnoreturn.h>

/* Name printed before every message, e.g. "trail collapse". */
void error_set_program(const char *name);
const char *error_program(void);

/*
 * "PROGRAM: error: MSG" and exit(EXIT_FAILURE_), for the failures nothing
 * can return from (out of memory, a size that overflows, a broken
 * invariant); allocates nothing.  MSG is trail's own text, not escaped.
 */
noreturn void program_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
