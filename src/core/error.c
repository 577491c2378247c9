/*
 * error.c - the one place that formats diagnostics for stderr and maps
 * fatal errors to exit codes.
 */
#include "core/error.h"
#include "core/escape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int trail_quiet;
int trail_verbose;
static char *capture_buf;	/* error_capture(): the first error goes here */
static size_t capture_len;

void error_capture(char *buf, size_t n)
{
	capture_buf = n ? buf : NULL;
	capture_len = n;
	if (capture_buf)
		capture_buf[0] = '\0';
}

__attribute__((format(printf, 2, 0)))
static void report(const char *kind, const char *fmt, va_list ap, int err)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (capture_buf && kind) {
		/* errors and warnings are the caller's to word: keep the first error */
		if (!capture_buf[0] && !strcmp(kind, "error"))
			snprintf(capture_buf, capture_len, "%s%s%s", msg, err ? ": " : "",
				 err ? strerror(err) : "");
		return;
	}
	/*
	 * Messages carry names from outside (symbols, paths, commit subjects):
	 * control characters are shown escaped, never sent to the terminal.
	 * Escaped text passes unchanged, so callers that escape stay right.
	 */
	if (kind)
		fprintf(stderr, "%s: %s: ", error_program(), kind);
	else
		fprintf(stderr, "%s: ", error_program());
	escape_term_lines_to(stderr, msg, strlen(msg));
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

int trail_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap, err);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap, 0);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	if (trail_quiet)
		return;
	va_start(ap, fmt);
	report(NULL, fmt, ap, 0);
	va_end(ap);
}

void note_verbose(const char *fmt, ...)
{
	va_list ap;

	if (trail_quiet || !trail_verbose)
		return;
	va_start(ap, fmt);
	report(NULL, fmt, ap, 0);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	capture_buf = NULL;	/* the end: always said */
	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	exit(EXIT_FAILURE_);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	capture_buf = NULL;	/* the end: always said */
	va_start(ap, fmt);
	report("error", fmt, ap, 0);
	va_end(ap);
	fprintf(stderr, "see '%s --help'\n", error_program());
	exit(EXIT_USAGE);
}
