/*
 * cmd_util.c - what every command does the same way: option parsing that
 * ends the process on --help, --version or a usage error, and the version
 * line.
 */
#include "cmd/commands.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>

int cmd_parse_options(int argc, const char **argv, const struct option *opts,
		      const char *const *usage, unsigned flags)
{
	int n = parse_options(argc, argv, opts, usage, flags);

	if (n == PARSE_OPT_VERSION) {
		cmd_print_version();
		n = PARSE_OPT_HELP;
	}
	if (n == PARSE_OPT_HELP) {
		if (fflush(stdout) || ferror(stdout))
			exit(EXIT_FAILURE_);
		exit(EXIT_OK);
	}
	if (n < 0) {
		fprintf(stderr, "see '%s --help'\n", error_program());
		exit(EXIT_USAGE);
	}
	return n;
}

void cmd_print_version(void)
{
	printf("trail %s (%s)\n", TRAIL_VERSION, TRAIL_GIT_REV);
}
