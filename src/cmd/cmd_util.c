/*
 * cmd_util.c - what every command does the same way: option parsing that
 * ends the process on --help, --version or a usage error (the version
 * line is version.c's), and the loading of the flat-profile commands'
 * inputs.
 */
#include "cmd/commands.h"
#include "collapse/collapser.h"
#include "core/error.h"
#include "profile/flat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const struct collapser *cmd_input_format(const char *name)
{
	const struct collapser *c;
	size_t i;

	if (!name)
		return NULL;
	if (!strcmp(name, "list")) {
		for (i = 0; collapsers[i]; i++)
			printf("%-12s %s\n", collapsers[i]->name, collapsers[i]->description);
		exit(fflush(stdout) || ferror(stdout) ? EXIT_FAILURE_ : EXIT_OK);
	}
	if (!(c = collapser_find(name)))
		die_usage("unknown format '%s' (trail %s --format list)", name,
			  error_program() + (strncmp(error_program(), "trail ", 6) ? 0 : 6));
	return c;
}

int cmd_load_flat_profile(int nr, const char **paths, const struct collapser *named,
			  struct folded_profile *p, struct flat_profile *f,
			  const struct collapser **format)
{
	int i, status = EXIT_OK;

	folded_profile_init(p);
	for (i = 0; i < (nr ? nr : 1); i++) {
		int ret = load_profile(p, nr ? paths[i] : "-", named, format);

		if (ret == LOAD_UNKNOWN_FORMAT)
			status = EXIT_USAGE;	/* input no reader understands, as collapse */
		else if (ret < 0 && status != EXIT_USAGE)
			status = EXIT_FAILURE_;
		else if (!ret)
			note_verbose("read '%s' as %s", nr ? paths[i] : "-", load_format_name(*format));
	}
	flat_profile_build(f, p, 1);
	if (status == EXIT_OK && !f->nr_stacks) {
		trail_error("no samples in the input");
		status = EXIT_USAGE;
	}
	return status;
}
