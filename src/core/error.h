/*
 * error.h - how trail reports problems.
 *
 * Library code reports with trail_error()/warning() and returns; only main()
 * and the cmd_* functions end the process (die(), die_usage()).  Messages
 * are lower-case, say what failed and quote the subject; when they concern
 * a line of input they start with "path:line: ".
 *
 * No function here may share a name with libc or the libraries linked
 * statically into trail: an error() of ours replaced glibc's error(3) for
 * libdw, whose out-of-memory path then crashed (tests/cli/01-symbols.sh).
 */
#ifndef TRAIL_CORE_ERROR_H
#define TRAIL_CORE_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdnoreturn.h>

/* Documented exit codes shared by every command: core/exit_codes.h. */
#include "core/exit_codes.h"

/* The program name every message starts with: core/program.h. */
#include "core/program.h"

/* Print "PROGRAM: error: MSG" to stderr; always returns -1. */
int trail_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same with ": strerror(errno)" appended. */
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "PROGRAM: warning: MSG" to stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "PROGRAM: MSG" (a note, hint or progress message) to stderr. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Until error_capture(NULL, 0): the first trail_error()/error_errno()
 * message (no prefix, no newline) goes into buf of n bytes ("" if none),
 * and no error or warning is printed - for a check whose failure the
 * caller words itself (die() still prints).
 */
void error_capture(char *buf, size_t n);

/* Print the error and exit with status 1 (die) or 2 (die_usage). */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
noreturn void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a note only with -v/--verbose (and not with -q). */
void note_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Global quiet switch: when set, note() prints nothing (warnings still do). */
extern int trail_quiet;
/* -v/--verbose given (count): note_verbose() prints. */
extern int trail_verbose;

#endif
