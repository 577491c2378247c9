/*
 * commands.h - every trail subcommand, one cmd_<name>() per src/cmd/<name>.c.
 *
 * How to add a command:
 *   1. write src/cmd/<name>.c with
 *        int cmd_<name>(int argc, const char **argv)
 *      argv[0] is the command's name; return the exit status.  Keep it glue:
 *      options -> context -> library calls -> output.
 *   2. declare it below and add a line to the table in src/main.c;
 *   3. add it to src/cmd/module.mk, write docs/<name>.md (its synopsis is the
 *      -h text; it becomes the man page trail-<name>.1, and docs/trail.md's
 *      synopsis is 'trail --help') and tests/cli/NN-<name>*.sh.
 * --version, -q and -v, and shell completion ('trail help --options'),
 * come with the option table: nothing to add.
 */
#ifndef TRAIL_CMD_COMMANDS_H
#define TRAIL_CMD_COMMANDS_H

#include "collapse/load.h"
#include "core/options.h"

struct collapser;
struct flat_profile;

int cmd_collapse(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_bench(int argc, const char **argv);
int cmd_flame(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_explain(int argc, const char **argv);
int cmd_history(int argc, const char **argv);

/* Print "trail VERSION (REV)" to stdout. */
void cmd_print_version(void);
/* 'trail help --values CMD OPTION': the values OPTION takes, one a line (none: nothing). */
/* 0 when CMD OPTION is listed in option_values.c (printed), 1 when not. */
int cmd_print_option_values(const char *cmd, const char *opt);
/* 'trail help --subcommands CMD': CMD's subcommands, one a line (none: nothing). */
int cmd_print_subcommands(const char *cmd);
/* history's subcommands, one a line (the table that dispatches them). */
void cmd_history_print_subcommands(void);

/*
 * parse_options() for commands: exits 0 after --help or --version and 2 (with a hint to
 * --help) on a bad option; otherwise returns the number of arguments left.
 */
int cmd_parse_options(int argc, const char **argv, const struct option *opts,
		      const char *const *usage, unsigned flags);

/*
 * The input of the flat-profile commands (top, explain): the nr profiles in
 * paths (nr 0: standard input) read with load_profile() into p (as named,
 * or guessed when named is NULL) and counted into f, column 1 for
 * differential input.  p is initialised here; the
 * caller releases p and f whatever the result.  *format gets what the last
 * input was read as.  Returns EXIT_OK, EXIT_FAILURE_ when an input could
 * not be read, or EXIT_USAGE when an input is in no known format or there
 * are no samples (errors printed).
 */
int cmd_load_flat_profile(int nr, const char **paths, const struct collapser *named,
			  struct folded_profile *p, struct flat_profile *f,
			  const struct collapser **format);

/*
 * The input format a --format NAME option names, for the commands that read
 * profiles: NULL for none (guess), the formats listed and exit 0 for
 * "list", a usage error (exit 2) for a name no reader has.
 */
const struct collapser *cmd_input_format(const char *name);

#endif
