/*
 * options.h - command-line options declared as tables, so the parser and
 * the --help text never drift apart (the model is git's parse-options).
 *
 * A command declares
 *
 *	static const char *const usage[] = {
 *		"trail diff [options] BEFORE AFTER",
 *		"",
 *		"One paragraph of description, printed under the synopsis.",
 *		NULL
 *	};
 *	struct option opts[] = {
 *		OPT_FLAG('n', "normalize", &normalize, "scale BEFORE to AFTER's total"),
 *		OPT_U64('j', "jobs", &jobs, "N", "worker threads", 1, 1024),
 *		OPT_END()
 *	};
 *
 * and calls parse_options().  Long options take "--name=value" or
 * "--name value"; short ones "-jN" or "-j N" and can be bundled ("-ns").
 * Every flag also accepts "--no-NAME".  Numbers go through the strict
 * parsers of parse_number.h and are range-checked.
 *
 * Common options: every command also accepts -q/--quiet (trail_quiet),
 * -v/--verbose (trail_verbose, repeatable) and --version, unless its table
 * declares the same name; they are not listed in each command's --help.
 */
#ifndef TRAIL_CORE_OPTIONS_H
#define TRAIL_CORE_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

enum option_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in --help */
	OPTION_FLAG,		/* int: set to defval (usually 1), --no-X sets 0 */
	OPTION_STRING,		/* const char *: the argument as given */
	OPTION_STRING_LIST,	/* struct string_list: repeatable */
	OPTION_U64,		/* uint64_t in [min, max] */
	OPTION_DOUBLE,		/* double in [min, max] */
	OPTION_SECONDS,		/* double seconds; accepts s, ms, us, m suffixes */
	OPTION_CALLBACK,	/* callback(opt, arg) returns 0 or -1 (after trail_error()) */
	OPTION_UINT,		/* unsigned in [min, max] */
	OPTION_PERCENT,		/* double: given in percent (or points) in [min, max], stored /100 */
	OPTION_CHOICE,		/* int: the value of the choice named (choices) */
	OPTION_CHOICE_NAME,	/* const char *: the choice's own name (choices) */
};

/*
 * One value of a choice option: its word and what OPTION_CHOICE stores.
 * The list ends with a NULL name; --help, the error for another word and
 * 'trail help --values CMD OPTION' (completion) all read it.
 */
struct option_choice {
	const char *name;
	int value;
};

#define OPTION_NOARG 1		/* OPTION_CALLBACK that takes no argument */
#define OPTION_HIDDEN 2		/* parsed and completed, not shown by --help (aliases) */

struct option {
	enum option_type type;
	int short_name;		/* 0 for none */
	const char *long_name;	/* NULL for none */
	void *value;
	const char *argh;	/* argument name in --help, e.g. "N" or "FILE" */
	const char *help;
	int flags;
	double min, max;	/* accepted range for numeric options */
	int (*callback)(const struct option *opt, const char *arg);
	intptr_t defval;	/* value an OPTION_FLAG stores */
	const struct option_choice *choices;	/* OPTION_CHOICE*: the words, NULL-ended */
};

#define OPT_END() { OPTION_END, 0, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, 0, NULL }
#define OPT_GROUP(h) { OPTION_GROUP, 0, NULL, NULL, NULL, (h), 0, 0, 0, NULL, 0, NULL }
#define OPT_FLAG(s, l, v, h) { OPTION_FLAG, (s), (l), (v), NULL, (h), 0, 0, 0, NULL, 1, NULL }
#define OPT_SET_INT(s, l, v, h, i) { OPTION_FLAG, (s), (l), (v), NULL, (h), 0, 0, 0, NULL, (i), NULL }
#define OPT_STRING(s, l, v, a, h) { OPTION_STRING, (s), (l), (v), (a), (h), 0, 0, 0, NULL, 0, NULL }
#define OPT_STRING_LIST(s, l, v, a, h) { OPTION_STRING_LIST, (s), (l), (v), (a), (h), 0, 0, 0, NULL, 0, NULL }
#define OPT_U64(s, l, v, a, h, lo, hi) { OPTION_U64, (s), (l), (v), (a), (h), 0, (lo), (hi), NULL, 0, NULL }
#define OPT_DOUBLE(s, l, v, a, h, lo, hi) { OPTION_DOUBLE, (s), (l), (v), (a), (h), 0, (lo), (hi), NULL, 0, NULL }
#define OPT_SECONDS(s, l, v, a, h) { OPTION_SECONDS, (s), (l), (v), (a), (h), 0, 0, 1e12, NULL, 0, NULL }
#define OPT_UINT(s, l, v, a, h, lo, hi) { OPTION_UINT, (s), (l), (v), (a), (h), 0, (lo), (hi), NULL, 0, NULL }
#define OPT_PERCENT(s, l, v, a, h, lo, hi) { OPTION_PERCENT, (s), (l), (v), (a), (h), 0, (lo), (hi), NULL, 0, NULL }
#define OPT_CHOICE(s, l, v, a, h, c) { OPTION_CHOICE, (s), (l), (v), (a), (h), 0, 0, 0, NULL, 0, (c) }
#define OPT_CHOICE_NAME(s, l, v, a, h, c) { OPTION_CHOICE_NAME, (s), (l), (v), (a), (h), 0, 0, 0, NULL, 0, (c) }
#define OPT_CALLBACK(s, l, v, a, h, cb) { OPTION_CALLBACK, (s), (l), (v), (a), (h), 0, 0, 0, (cb), 0, NULL }
/* Another tool's spelling of an option (inferno's -n/--nthreads ...): not in --help. */
#define OPT_ALIAS_FLAG(s, l, v) { OPTION_FLAG, (s), (l), (v), NULL, NULL, OPTION_HIDDEN, 0, 0, NULL, 1, NULL }
#define OPT_ALIAS_U64(s, l, v, a, lo, hi) { OPTION_U64, (s), (l), (v), (a), NULL, OPTION_HIDDEN, (lo), (hi), NULL, 0, NULL }
#define OPT_CALLBACK_NOARG(s, l, v, h, cb) { OPTION_CALLBACK, (s), (l), (v), NULL, (h), OPTION_NOARG, 0, 0, (cb), 0, NULL }

/* parse_options() flags */
#define PARSE_OPT_STOP_AT_NON_OPTION 1	/* "trail record -F 99 ls -l": stop at "ls" */

/* parse_options() results below zero */
#define PARSE_OPT_ERROR (-1)	/* an error was printed; exit with status 2 */
#define PARSE_OPT_HELP (-2)	/* --help / -h: help was printed to stdout */
#define PARSE_OPT_VERSION (-3)	/* --version: the caller prints the version */

/*
 * Parse argv[1..argc-1] (argv[0] is the command's name).  Options are
 * stored through the table; the remaining arguments are moved to
 * argv[0..n-1] and n is returned.  "--" ends the options.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usage, unsigned flags);

/*
 * Print every option of the table, one per line, for shell completion:
 * "--long", "-s" and, for options that take a value, " ARG" after the name
 * (e.g. "--sort KEY"); the common options follow.
 */
void options_list(FILE *f, const struct option *opts);
/* When set, --help prints options_list() instead of the usage text
 * ('trail help --options CMD', used by the shell completion scripts). */
extern int options_help_lists;

/* Print the synopsis, description and option list to f. */
void usage_print(FILE *f, const struct option *opts, const char *const *usage);

/*
 * Set (by 'trail help --values CMD OPTION') to OPTION's spelling: --help
 * then prints the words of that choice option, one a line (nothing for
 * another option), instead of the usage.
 */
extern const char *options_values_of;

#endif
