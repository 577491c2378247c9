/*
 * guard.h - trail history guard's verdict on the metric: is REV's sample
 * of runs slower than the pooled runs of the stored commits before it,
 * significantly and beyond the bound?  A pure function (no git, no
 * clock), so that bench/history-calibrate can measure its false alarms.
 */
#ifndef TRAIL_HISTORY_GUARD_H
#define TRAIL_HISTORY_GUARD_H

#include "stats/bootstrap.h"

#include <stddef.h>

struct history_guard_metric {
	double p;		/* one-sided Mann-Whitney p of "REV's runs are larger" */
	int exact;		/* p from the exact distribution (small samples) */
	struct stats_ratio ratio;	/* median(REV) / median(base), 95% bootstrap interval */
	int slower;		/* p < alpha and the whole interval beyond 1 + bound */
	/* history_guard_counts() only: */
	int counted;		/* exact counts compared exactly: ratio a point, p NAN */
	int varied;		/* REV's counts varied beyond the tolerance: the test decided */
	double rev_spread;	/* (max - min) / max of REV's runs, 0 when identical or one run */
	double base_spread;	/* the same over the stored commits' runs (commits differ) */
};

/*
 * base[0..nb-1]: the stored commits' runs, rev[0..nr-1]: REV's (the
 * metric's unit, larger is slower); alpha the test's false-alarm rate;
 * bound the smallest regression that fails (0.05: 5%).  The guard only
 * fails slowdowns, so the test is one-sided: in a steady history the
 * chance of slower = 1 is at most alpha.  -1 on an empty or non-finite
 * sample.
 */
int history_guard_metric(const double *base, size_t nb, const double *rev, size_t nr,
			 double alpha, double bound, struct history_guard_metric *out);

/*
 * The guard for counted metrics (instructions, est-cycles): when REV's
 * runs agree within tolerance (relative; one run is taken as it is, the
 * counts are deterministic by the metric's definition and flame checks
 * them at its ends), the change is median(REV) / median(base), a point,
 * and slower means it is beyond 1 + bound: no test, whose p over a few
 * identical counts would say nothing (p is NAN).  When REV's counts vary
 * more, the counts are not exact: history_guard_metric() decides, and
 * varied says so.  The spreads are filled either way.
 */
int history_guard_counts(const double *base, size_t nb, const double *rev, size_t nr,
			 double alpha, double bound, double tolerance,
			 struct history_guard_metric *out);

#endif
