/*
 * version.c - the version line, "trail VERSION (REV)": the one object that
 * holds the commit it was built from, rebuilt when VERSION or HEAD moves
 * (the Makefile's version stamp) without relinking the unit tests.
 */
#include "cmd/commands.h"

#include <stdio.h>

void cmd_print_version(void)
{
	printf("trail %s (%s)\n", TRAIL_VERSION, TRAIL_GIT_REV);
}
