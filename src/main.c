/*
 * main.c - trail's entry point: global options, the command table,
 * dispatch, and the final check that everything written to stdout really
 * reached it (a full disk or a closed pipe is an error, not success).
 */
#include "cmd/commands.h"
#include "core/child.h"
#include "core/error.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "collapse", cmd_collapse, "fold profiler output (perf, pprof, JFR, dtrace, ...) into folded stacks" },
	{ "flamegraph", cmd_flamegraph, "render folded stacks as an interactive SVG flame graph" },
	{ "diff", cmd_diff, "compare two folded profiles (difffolded) and rank hotter/cooler frames" },
	{ "record", cmd_record, "sample a command or process with perf_event_open" },
	{ "bench", cmd_bench, "benchmark commands with statistics that decide" },
	{ "top", cmd_top, "flat profile: self and total samples per function" },
	{ "explain", cmd_explain, "reading aids: plateaus, towers, repeated motifs, broken stacks" },
	{ "flame", cmd_flame, "find the function and the commit that made a program slower" },
	{ "history", cmd_history, "profiles per commit in git notes: change points, bisection, a CI guard" },
	{ NULL, NULL, NULL },
};

static void print_help(FILE *f)
{
	const struct command *c;

	fprintf(f, "usage: trail [-q | -v] COMMAND [options] [args]\n"
		   "       trail COMMAND --help\n\n"
		   "trail localises CPU and memory regressions with flame graphs and git history.\n\n"
		   "commands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "    %-12s %s\n", c->name, c->summary);
	fprintf(f, "\nglobal options (every command takes them too):\n"
		   "    -q, --quiet     no progress or notes on stderr (warnings and errors still)\n"
		   "    -v, --verbose   more notes on stderr\n"
		   "    --version       print the version\n"
		   "    -h, --help      this text\n\n"
		   "See 'man trail-COMMAND' or docs/COMMAND.md for each command's manual.\n");
}

static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		error_errno("cannot write to standard output");
		return status ? status : EXIT_FAILURE_;
	}
	return status;
}

int main(int argc, const char **argv)
{
	const struct command *c;
	static char prog[64];
	int i = 1;

	/* A closed pipe ends the writer quietly, as with any Unix filter. */
	signal(SIGPIPE, SIG_DFL);
	/* trail's own helper for measuring a workload alone (core/child.h) */
	if (argc > 1 && !strcmp(argv[1], CHILD_MEASURE_COMMAND))
		return child_measure_main(argc - 2, argv + 2);
	child_set_measure_exe("/proc/self/exe");
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			trail_quiet = 1;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			trail_verbose++;
		} else if (!strcmp(argv[i], "--version")) {
			cmd_print_version();
			return finish_stdout(EXIT_OK);
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_help(stdout);
			return finish_stdout(EXIT_OK);
		} else {
			trail_error("unknown global option '%s'", argv[i]);
			fprintf(stderr, "see 'trail --help'\n");
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		/*
		 * For the completion scripts: "trail help --commands" lists the
		 * commands, "trail help --options CMD" CMD's options, one a line,
		 * "trail help --values CMD OPTION" the values of one option,
		 * "trail help --subcommands CMD" CMD's subcommands (history's).
		 */
		if (i + 1 < argc && !strcmp(argv[i + 1], "--commands")) {
			for (c = commands; c->name; c++)
				printf("%s\n", c->name);
			return finish_stdout(EXIT_OK);
		}
		/* "trail help --values CMD OPTION": the values OPTION takes */
		if (i + 3 < argc && !strcmp(argv[i + 1], "--values")) {
			const char *args[] = { argv[i + 2], "--help", NULL };

			if (!cmd_print_option_values(argv[i + 2], argv[i + 3]))
				return finish_stdout(EXIT_OK);
			/* a choice option: the words of its own table (core/options.h) */
			options_values_of = argv[i + 3];
			for (c = commands; c->name; c++)
				if (!strcmp(c->name, argv[i + 2]))
					(void)c->fn(2, args);
			return finish_stdout(EXIT_OK);	/* nothing to offer is not an error */
		}
		if (i + 2 < argc && !strcmp(argv[i + 1], "--subcommands"))
			return finish_stdout(cmd_print_subcommands(argv[i + 2]));
		/* "trail help exit-codes": the one table (core/exit_codes.h). */
		if (i + 1 < argc && !strcmp(argv[i + 1], "exit-codes")) {
			const struct trail_exit_code *e;

			for (e = trail_exit_codes; e->meaning; e++)
				printf("%3d  %-13s %s\n", e->code, e->commands, e->meaning);
			return finish_stdout(EXIT_OK);
		}
		if (i + 2 < argc && !strcmp(argv[i + 1], "--options")) {
			options_help_lists = 1;
			i++;
		}
		if (i + 1 < argc) {
			/* "trail help collapse" is "trail collapse --help". */
			const char *args[] = { argv[i + 1], "--help", NULL };

			for (c = commands; c->name; c++)
				if (!strcmp(c->name, argv[i + 1])) {
					snprintf(prog, sizeof(prog), "trail %s", c->name);
					error_set_program(prog);
					return finish_stdout(c->fn(2, args));
				}
			trail_error("unknown command '%s'", argv[i + 1]);
			return EXIT_USAGE;
		}
		print_help(stdout);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[i], "version")) {
		cmd_print_version();
		return finish_stdout(EXIT_OK);
	}
	for (c = commands; c->name; c++) {
		if (strcmp(c->name, argv[i]))
			continue;
		snprintf(prog, sizeof(prog), "trail %s", c->name);
		error_set_program(prog);
		return finish_stdout(c->fn(argc - i, argv + i));
	}
	trail_error("unknown command '%s'", argv[i]);
	fprintf(stderr, "see 'trail --help'\n");
	return EXIT_USAGE;
}
