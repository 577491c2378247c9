/*
 * exit_codes.h - the one table of trail's exit statuses (curl keeps one
 * error-code table): every command returns these names, never a literal,
 * and 'trail help exit-codes' prints the table (docs/trail.md lists it).
 * A code has one meaning in the whole program (each value appears once
 * below and once in the table, test_exit_codes checks both); some are
 * returned by one command only, named in the table.  trail record is the
 * exception every profiler makes: once the recorded command ran, record
 * exits with that command's own status.
 */
#ifndef TRAIL_CORE_EXIT_CODES_H
#define TRAIL_CORE_EXIT_CODES_H

#include <stddef.h>

enum trail_exit {
	EXIT_OK = 0,			/* success; flame: a culprit was found */
	EXIT_FAILURE_ = 1,		/* something failed */
	EXIT_USAGE = 2,			/* bad command line or no valid input */
	EXIT_REGRESSION = 3,		/* bench --baseline and history guard: a regression */
	EXIT_INCONCLUSIVE = 4,		/* flame: the data cannot decide */
	EXIT_SMALL_REGRESSION = 5,	/* flame: significant, below --min-effect: not narrowed */
	EXIT_NO_REGRESSION = 6,		/* flame: the change is shown below --min-effect
					 * (3 until 0.2: it meant the opposite of guard's 3) */
	EXIT_PROBE_SKIP = 125,		/* flame probe: cannot build, run or decide (git bisect skips) */
	EXIT_INTERRUPTED = 130,		/* bench, record: Ctrl-C (128 + SIGINT); signal N gives 128 + N */
	EXIT_PROBE_ABORT = 255,		/* flame probe: the probe itself failed (git bisect run stops) */
};

struct trail_exit_code {
	int code;
	const char *commands;	/* "every command", or the ones that return it */
	const char *meaning;
};

/* The table, in code order, ending with a NULL meaning. */
extern const struct trail_exit_code trail_exit_codes[];

#endif
