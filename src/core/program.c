/*
 * program.c - the program name diagnostics start with, and the fatal exit
 * of the bottom layer (see program.h).
 */
#include "core/program.h"
#include "core/exit_codes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *program = "trail";

void error_set_program(const char *name)
{
	program = name;
}

const char *error_program(void)
{
	return program;
}

void program_fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILURE_);
}
