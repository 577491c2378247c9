/*
 * shares.h - a function's share of samples across repeated runs: the
 * signal trail flame bisects on.  Each run is one folded profile; a share
 * is averaged over runs and its standard error is the larger of the
 * run-to-run one (s / sqrt(runs)) and the binomial one of the pooled
 * samples (sqrt(p (1 - p) / N)), so neither a lucky quiet run nor a
 * handful of samples can make a difference look certain.
 *
 * self(f)  = samples whose leaf frame is f;  total(f) = samples with f
 * anywhere in the stack (once per stack).  Shares are fractions of all
 * samples of the run.
 */
#ifndef TRAIL_FLAME_SHARES_H
#define TRAIL_FLAME_SHARES_H

#include <stddef.h>

#include "core/string_list.h"
#include "diff/significance.h"
#include "profile/folded.h"

struct flame_share {
	double mean;		/* mean share over runs, fraction */
	double se;		/* standard error of mean, fraction */
	double samples;		/* pooled samples over runs */
	double df;		/* degrees of freedom of se: runs - 1 when the run-to-run
				 * spread set it, FLAME_SHARE_DF_SAMPLING for the
				 * binomial (Poisson) floor of many samples */
};
#define FLAME_SHARE_DF_SAMPLING 1e9

/* Share of func in one profile: *self and *total, fractions (0 when empty). */
void flame_function_share(const struct folded_profile *p, const char *func,
			  double *self, double *total);
/* Mean share of func over nr runs (self or total). */
void flame_share_over_runs(struct folded_profile *const *runs, size_t nr,
			   const char *func, int total, struct flame_share *out);

/*
 * Mean number of samples of func per run (self or total): its CPU time in
 * samples.  Unlike a share it does not rise when some other function gets
 * faster, so a speed-up elsewhere in the range cannot fool a bisection on
 * it; the workload must be the same at every commit (it is).
 */
void flame_samples_over_runs(struct folded_profile *const *runs, size_t nr,
			     const char *func, int total, struct flame_share *out);

/* One function's change between the good and the bad runs. */
struct flame_hotspot {
	char *name;
	struct flame_share good_self, bad_self, good_total, bad_total;
	double delta_self, se_self;	/* bad - good, fractions */
	double delta_total, se_total;
	struct share_test pooled;	/* self share, pooled over runs (diff/hotspots.h) */
	int confirmed;			/* pooled test significant, delta >= confirm, > 2 se */
};

struct flame_hotspots {
	struct flame_hotspot *items;	/* sorted by delta_self, largest first */
	size_t nr;
	struct string_list changed;	/* every function whose self share moved >= min_delta */
};

/*
 * The share of func among the samples whose leaf is not one of exclude
 * (the other functions that changed between good and bad), mean over runs.
 * A speed-up of an excluded function, or a machine that runs everything
 * slower, leaves it unchanged; only func's own cost moves it.
 */
void flame_relative_share_over_runs(struct folded_profile *const *runs, size_t nr,
				    const char *func, const struct string_list *exclude,
				    struct flame_share *out);

/*
 * func's CPU time per run, ms: its share of each run's samples (self, or
 * with total every stack it is on) times that run's CPU time (cpu_ms[i]),
 * mean over runs.  Unlike a share it adds up: it moves with func's own
 * time only, so commits that slow other functions (or speed them up)
 * leave it where it was, and two commits that slow func add their steps.
 * The error is the larger of the run-to-run one and the binomial one of
 * the share, scaled by the CPU time.
 */
void flame_time_over_runs(struct folded_profile *const *runs, const double *cpu_ms, size_t nr,
			  const char *func, int total, struct flame_share *out);

/*
 * Rank the functions whose self or total share rose by at least min_delta
 * (fraction), with diff/hotspots.h over the pooled runs; mark those whose
 * self share rose by at least confirm, significantly at confidence
 * (two-proportion z-test, alpha = 1 - confidence) and by more than t
 * run-to-run standard errors (Welch's t on the per-run shares at alpha:
 * shares are overdispersed, and t on a few runs is not z).  out->items
 * keeps only the confirmed ones and those whose mean self share rose by
 * min_delta or more (a caller whose total share rose is not listed).
 */
void flame_hotspots_rank(struct folded_profile *const *good, size_t ng,
			 struct folded_profile *const *bad, size_t nb,
			 double min_delta, double confirm, double confidence,
			 struct flame_hotspots *out);
void flame_hotspots_release(struct flame_hotspots *h);

/*
 * The index of h's first confirmed item whose name is in names (the
 * program's functions), or h->nr when none is: items ranked above it that
 * are not in names (a library frame whose stacks broke before any program
 * frame) are passed over, not taken for the answer.
 */
size_t flame_hotspots_first_in(const struct flame_hotspots *h, const struct string_list *names);

#endif
