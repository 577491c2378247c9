/*
 * exit_codes.c - the text of trail's exit-code table (exit_codes.h), the
 * one place 'trail help exit-codes' and the manuals take it from.
 */
#include "core/exit_codes.h"

const struct trail_exit_code trail_exit_codes[] = {
	{ EXIT_OK, "every command", "success; trail flame: a culprit commit was found (verdict regression)" },
	{ EXIT_FAILURE_, "every command", "something failed (an input, a build, a write)" },
	{ EXIT_USAGE, "every command", "usage error: bad option or value, or no valid input" },
	{ EXIT_REGRESSION, "bench, history guard", "a regression: a command slower than --baseline (bench), or REV slower than the stored commits before it (guard), beyond --max-regression" },
	{ EXIT_INCONCLUSIVE, "flame", "inconclusive: the runs cannot decide; the report says what would" },
	{ EXIT_SMALL_REGRESSION, "flame", "a significant regression below --min-effect: reported, not narrowed (--force-narrow narrows it)" },
	{ EXIT_NO_REGRESSION, "flame", "no regression: the change's interval lies below --min-effect (3 before trail 0.2)" },
	{ EXIT_PROBE_SKIP, "flame probe", "cannot build, run or decide this commit (git bisect skips it)" },
	{ EXIT_INTERRUPTED, "bench, record", "stopped by Ctrl-C; by signal N, 128+N (143 for SIGTERM) (bench prints the partial report; record -e alloc writes the profile)" },
	{ EXIT_PROBE_ABORT, "flame probe", "the probe itself failed (git bisect run stops)" },
	{ 0, NULL, NULL },
};
