/*
 * explain.h - reading aids for a flat profile (flat.h): the patterns a
 * person looks for in a flame graph, found by rule and each paired with
 * what to do about it.
 *
 *   wide plateaus    functions whose self share is at least plateau_share:
 *                    flat tops where the CPU time is spent;
 *   narrow towers    stacks at least tower_depth frames deep (by default
 *                    twice the sample-weighted median depth, and at least
 *                    tower_min_depth), deepest first, with the function the
 *                    stack repeats most (recursion shows as many repeats);
 *   repeated motifs  functions reached from at least motif_callers distinct
 *                    callers with a total share of at least motif_share:
 *                    candidates for caching, memoising or inlining;
 *   no symbols       "[module]" frames (perf's name for an address in a
 *                    module without symbols, "[cc1]", "[liblzma.so.5]"):
 *                    not functions, so never plateaus; listed by module
 *                    with what to install or rebuild;
 *   broken stacks    samples whose stack holds an "[unknown]" or "[module]"
 *                    frame or has a single function frame (below the
 *                    process name when stacks are rooted at one): the
 *                    unwinder or the symbolizer lost the way.
 *
 * Everything here is pure: a flat profile in, a report out, text or JSON
 * written into a strbuf.
 */
#ifndef TRAIL_PROFILE_EXPLAIN_H
#define TRAIL_PROFILE_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "profile/flat.h"

struct strbuf;

struct explain_options {
	double plateau_share;		/* fraction of all samples (0.05) */
	double tower_factor;		/* tower depth = factor * median depth (2) */
	uint32_t tower_min_depth;	/* frames, lower bound of the tower depth (16) */
	uint32_t motif_callers;		/* distinct callers (3) */
	double motif_share;		/* fraction of all samples, total (0.01) */
	double broken_share;		/* fraction above which broken stacks are a finding (0.05) */
	int process_root;		/* 1: each stack's root frame is a process name */
	size_t limit;			/* items listed per section (5) */
};

void explain_options_init(struct explain_options *o);

struct explain_plateau {
	uint32_t func;			/* name id in the flat profile */
	double self;			/* samples */
};

struct explain_tower {
	size_t stack;			/* index in flat_profile.stacks */
	uint32_t depth;			/* frames */
	uint32_t repeated;		/* name id of the most repeated frame */
	uint32_t repeats;		/* how often it occurs in the stack */
	double count;			/* samples of this stack */
};

struct explain_motif {
	uint32_t func;
	uint32_t callers;		/* distinct caller functions (itself excluded) */
	uint32_t top_caller;		/* the caller with most samples */
	double top_caller_count;	/* samples through that caller */
	double total;			/* samples whose stack contains func */
};

struct explain_report {
	struct explain_options opts;
	double total;			/* samples */
	uint32_t depth_p50, depth_p90, depth_max;	/* frames, sample-weighted */
	uint32_t tower_depth;		/* frames: the threshold used */
	double tower_samples;		/* samples in stacks at least tower_depth deep */
	size_t nr_tower_stacks;		/* distinct stacks that deep */
	struct explain_plateau *plateaus;
	size_t nr_plateaus;		/* all above the threshold; opts.limit are shown */
	struct explain_tower *towers;
	size_t nr_towers;
	struct explain_motif *motifs;
	size_t nr_motifs;
	struct explain_plateau *nosyms;	/* "[module]" frames by self samples */
	size_t nr_nosyms;
	double nosym;			/* samples with a "[module]" frame */
	double unknown;			/* samples with an [unknown] frame */
	double single;			/* samples with a single function frame */
	double broken;			/* samples with either */
};

/*
 * Whether the stacks look rooted at a process name (as trail collapse and
 * trail record write them): every stack has at least two frames and no
 * root frame appears anywhere below a root.
 */
int explain_guess_process_root(const struct flat_profile *f);

void explain_profile(struct explain_report *r, const struct flat_profile *f,
		     const struct explain_options *o);
void explain_report_release(struct explain_report *r);

/* Append the report as text for a terminal, or as one JSON object. */
void explain_write_text(struct strbuf *out, const struct explain_report *r,
			const struct flat_profile *f);
void explain_write_json(struct strbuf *out, const struct explain_report *r,
			const struct flat_profile *f);

#endif
