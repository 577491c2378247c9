/*
 * verdict.h - the one family of answers trail's decisions give, and their
 * names, so every printer and writer says the same word for the same
 * answer: a regression verdict (trail flame's ends and report), a probe's
 * verdict (git bisect's fast/slow/skip), and a direction (trail bench's
 * comparison, a change point of trail history).
 */
#ifndef TRAIL_CORE_VERDICT_H
#define TRAIL_CORE_VERDICT_H

#include "core/exit_codes.h"

/* Is there a regression between two revisions? */
enum trail_verdict {
	VERDICT_NONE = 0,		/* not decided yet */
	VERDICT_REGRESSION,		/* significant and narrowed (or to be) */
	VERDICT_SMALL_REGRESSION,	/* significant, estimate below --min-effect */
	VERDICT_NO_REGRESSION,		/* interval entirely below --min-effect */
	VERDICT_INCONCLUSIVE,
};
/* "regression" (a small one too), "no-regression", "inconclusive"; NULL for none. */
const char *trail_verdict_name(enum trail_verdict v);

/* One probed commit, in git bisect's terms (the values are the probe's exit statuses). */
enum trail_probe_verdict {
	PROBE_FAST = 0,			/* git bisect's "old" term, exit 0 */
	PROBE_SLOW = 1,			/* "new", exit 1 */
	PROBE_SKIP = EXIT_PROBE_SKIP,	/* cannot build, cannot run or cannot decide */
};
/* "fast", "slow", "skip". */
const char *trail_probe_verdict_name(enum trail_probe_verdict v);
/* The verdict of that name: 0, or -1 for another word. */
int trail_probe_verdict_parse(const char *name, enum trail_probe_verdict *v);

/* Which way something moved, when it moved significantly. */
enum trail_direction {
	DIRECTION_SAME,		/* no significant difference */
	DIRECTION_FASTER,
	DIRECTION_SLOWER,
};
/* "faster", "slower", "no significant difference". */
const char *trail_direction_name(enum trail_direction d);

#endif
