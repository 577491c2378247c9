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
#include "core/verdict.h"
#include "core/string_list.h"
#include "measure/capture.h"
#include "flame/estimate.h"
#include "measure/probe_request.h"
#include "measure/repo.h"

/* What a suspect/parent re-probe is judged against (flame_probe_pair). */
struct flame_pair_goal {
	double effect;		/* the measure's change between the ends (bad - good) */
	double effect_se;	/* its standard error */
	double effect_df;	/* and its degrees of freedom (0: exact) */
	double part;		/* the part of effect a split explains; 0 = half */
	double alpha;		/* two-sided error rate over all looks */
	double good;		/* the good end's value (effect starts there) */
	int log_scale;		/* the part explained on the log scale
				 * (flame_step_assess_log(): a time) */
};


struct flame_probe_result {
	char id[41];
	enum trail_probe_verdict verdict;
	double value;		/* samples per run, share (fraction) or metric */
	double share;		/* the function's share of samples, fraction */
	double se;		/* its standard error */
	unsigned runs;		/* runs measured */
	int build_cached;	/* the build came from the cache */
	double seconds;		/* time the probe took */
	char why[160];		/* reason of a skip */
	char host[80];		/* where it ran (fleet.h); "" = this machine */
};

/*
 * A function's value over a side's runs of commit rev in measure m: its
 * share, samples per run or CPU time per run, self or inclusive, among
 * the samples outside exclude for a self share; a lib- measure in runs cut
 * at rev's own definitions (blockers.h).  *share (when given) gets its
 * plain share of the same runs.  What a probe compares, and what the
 * culprits step reads at the ends.  0, or -1 when a lib- measure cannot
 * tell the repository's frames.
 */
struct flame_share;
int flame_function_over_runs(struct flame_repo *r, const char *rev,
			     struct folded_profile *const *runs, const double *cpu_ms, size_t n,
			     const char *func, enum flame_measure m, const struct string_list *exclude,
			     struct flame_share *value, double *share);
/*
 * Probe commit id as req asks (its rev, clone, log and json are the
 * caller's business).  Returns 0 (result filled, any verdict) or -1 on
 * error.
 */
int flame_probe(struct flame_repo *r, const char *id, const struct flame_probe_request *req,
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
	double confidence;	/* 1 - the one-sided Welch p-value adjusted for the looks
				 * (stats_look_adjusted_p()); also in step.confidence */
	struct flame_step_assessment step;	/* step, explains and intervals (estimate.h) */
	unsigned looks;		/* looks the sequential design took */
};

/*
 * Probe the suspect slow_id and its parent fast_id together, their runs
 * interleaved, and decide on the difference between them rather than on
 * each against the threshold: a machine whose load changed since the ends
 * were measured moves both alike, and the difference stays.  The split is
 * confirmed when the suspect's step is significant and at least goal's
 * part (half) of its effect, decide.h's flame_pair_decide(), at the share
 * of goal->alpha spent by the look (estimate.h); the pairs run in ABBA order, an
 * even number of them (one run a side when req->runs is 1: exact counts).  slow and fast get verdicts (slow/fast when split;
 * each against the threshold otherwise).  Returns 0, 1 when the
 * suspect cannot be built or run, 2 when the parent cannot, -1 on error.
 */
int flame_probe_pair(struct flame_repo *r, const char *slow_id, const char *fast_id,
		     const struct flame_probe_request *req, const struct flame_pair_goal *goal,
		     struct flame_probe_result *slow, struct flame_probe_result *fast,
		     struct flame_pair_result *pair);

/* Append "id verdict value se runs cached seconds share" to a log file. */
int flame_probe_log_append(const char *path, const struct flame_probe_result *res);
/* Read such a log back, in order (caller frees *out). */
int flame_probe_log_read(const char *path, struct flame_probe_result **out, size_t *nr);
/* A probe's verdict as a word ("fast", "slow", "skip") and back (0, or -1 for another word). */

#endif
