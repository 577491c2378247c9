/*
 * probe.h - measure one commit and call it fast or slow: build it (cached),
 * run the workload a fixed number of times, and compare the measured value
 * (a function's share of samples, or the metric itself when the CPU
 * profile is flat) with a threshold set from the good and bad ends.  A
 * value within z standard errors of the threshold is measured again, up
 * to a budget of runs; still undecided, the probe says "skip".
 *
 * 'trail flame probe' (run by git bisect run) and the driver's direct
 * probing of suspects both go through flame_probe().
 */
#ifndef TRAIL_FLAME_PROBE_H
#define TRAIL_FLAME_PROBE_H

#include "core/exit_codes.h"
#include "core/string_list.h"
#include "flame/capture.h"
#include "flame/estimate.h"
#include "flame/repo.h"

enum flame_verdict {
	FLAME_FAST = 0,		/* git bisect's "old" term, exit 0 */
	FLAME_SLOW = 1,		/* "new", exit 1 */
	FLAME_SKIP = EXIT_PROBE_SKIP,	/* cannot build, cannot run or cannot decide */
};

struct flame_probe_opts {
	const char *build_cmd;
	double build_timeout;		/* seconds, 0 = none; a build past it failed */
	struct flame_capture_opts cap;
	enum flame_metric metric;	/* measured when function is NULL */
	const char *function;		/* the function whose share is measured */
	int total;			/* inclusive share instead of self */
	int share;			/* measure the share, not samples per run */
	const struct string_list *exclude;	/* share among samples not in these leaves */
	double threshold;		/* slow above it (share fraction or metric unit) */
	unsigned runs;			/* runs in the first window */
	unsigned max_runs;		/* budget of runs before answering skip */
	double z;			/* standard errors needed to decide (when alpha is 0) */
	double alpha;			/* two-sided error rate over all looks; 0: from z */
	double effect_se;		/* pair: standard error of the ends' difference */
	double effect_df;		/* and its degrees of freedom (0: exact) */
	double percentile;		/* metric: the statistic compared, 50 = median */
	double part;			/* pair: the part of effect a split explains; 0 = half */
};

struct flame_probe_result {
	char id[41];
	enum flame_verdict verdict;
	double value;		/* samples per run, share (fraction) or metric */
	double share;		/* the function's share of samples, fraction */
	double se;		/* its standard error */
	unsigned runs;		/* runs measured */
	int build_cached;	/* the build came from the cache */
	double seconds;		/* time the probe took */
	char why[160];		/* reason of a skip */
	char host[80];		/* where it ran (fleet.h); "" = this machine */
};

/* Probe commit id.  Returns 0 (result filled, any verdict) or -1 on error. */
int flame_probe(struct flame_repo *r, const char *id, const struct flame_probe_opts *o,
		struct flame_probe_result *out);

/* What re-probing a suspect beside its parent says of the split between them. */
enum flame_pair_decision {
	FLAME_PAIR_UNDECIDED = 0,
	FLAME_PAIR_SPLIT,	/* the suspect raises the value by half the change or more */
	FLAME_PAIR_NO_SPLIT,	/* it raises it by less than half the change */
};

struct flame_pair_result {
	enum flame_pair_decision decision;
	double diff;		/* suspect's value minus its parent's */
	double se;		/* its standard error */
	double confidence;	/* P(step > 0): 1 - p of the one-sided Welch t test */
	struct flame_step_assessment step;	/* step, explains and intervals (estimate.h) */
	unsigned looks;		/* looks the sequential design took */
};

/*
 * Probe the suspect slow_id and its parent fast_id together, their runs
 * interleaved, and decide on the difference between them rather than on
 * each against the threshold: a machine whose load changed since the ends
 * were measured moves both alike, and the difference stays.  The split is
 * confirmed when the suspect's step is significant and at least half of
 * effect (bad end minus good end), decide.h's flame_pair_decide(), at the
 * alpha spent by the look (estimate.h); the pairs run in ABBA order, an
 * even number of them.  slow and fast get verdicts (slow/fast when split;
 * each against the threshold otherwise).  Returns 0, 1 when the
 * suspect cannot be built or run, 2 when the parent cannot, -1 on error.
 */
int flame_probe_pair(struct flame_repo *r, const char *slow_id, const char *fast_id,
		     const struct flame_probe_opts *o, double effect,
		     struct flame_probe_result *slow, struct flame_probe_result *fast,
		     struct flame_pair_result *pair);

/* Append "id verdict value se runs cached seconds share" to a log file. */
int flame_probe_log_append(const char *path, const struct flame_probe_result *res);
/* Read such a log back, in order (caller frees *out). */
int flame_probe_log_read(const char *path, struct flame_probe_result **out, size_t *nr);
/* A probe's verdict as a word ("fast", "slow", "skip") and back (0, or -1 for another word). */
const char *flame_verdict_name(enum flame_verdict v);
int flame_verdict_parse(const char *name, enum flame_verdict *v);

#endif
