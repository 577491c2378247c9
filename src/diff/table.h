/*
 * table.h - the hotter/cooler table of 'trail diff --top/--json': runs
 * (one or more profiles per side) in, ranked rows out.  Chooses the basis
 * (time when every run says what a sample stands for in the same unit,
 * else share), tests every function that passes the size pre-filter
 * (diff/compare.h), applies Benjamini-Hochberg over them, and lists the
 * discoveries above the floor (a change within the noise is counted, not
 * listed).  By time, an inclusive row is folded away when its change lies
 * in stacks of functions listed by their self change (every caller of a
 * slower function is slower by as much, and so are the interrupts taken
 * in it; listing them all names nothing new).
 *
 * Ownership: the table owns its rows and names; the runs' source stays
 * the caller's.
 */
#ifndef TRAIL_DIFF_TABLE_H
#define TRAIL_DIFF_TABLE_H

#include <stddef.h>

#include "diff/compare.h"
#include "diff/hotspots.h"
#include "profile/folded.h"

struct diff_table_opts {
	unsigned flags;		/* HOTSPOT_STRIP_* */
	double period;		/* counts per sample for weighted runs; 0 unknown */
	double min_delta;	/* floor, fraction (of the before total by time) */
	double confirm;		/* fraction */
	double alpha;		/* false discovery rate */
	unsigned measures;	/* HOTSPOT_MEASURE_BIT()s */
	int basis;		/* -1 automatic, else enum diff_basis */
	int merge_processes;	/* drop every stack's first (process) frame */
	size_t top;		/* rows per direction; 0 all */
};

struct diff_table_row {
	uint32_t func;		/* id in the table's names */
	enum hotspot_measure measure;
	struct diff_test t;	/* values per run: unit (time) or fraction (share) */
	int significant;	/* a Benjamini-Hochberg discovery */
	int confirmed;		/* significant and |delta| >= confirm */
};

struct diff_table {
	struct hotspots all;		/* names, and both sides' sums */
	size_t runs[2];
	enum diff_basis basis;
	enum diff_error error;
	char unit[32];			/* time: "ns" or the runs' unit; share: "" */
	char why_share[160];		/* when share was the fallback: why */
	double total[2];		/* mean per run: unit (time) or samples (share) */
	double samples[2];		/* samples per side, all runs */
	size_t nr_tested;		/* units through the pre-filter */
	size_t nr_folded;		/* inclusive rows folded into callees' rows */
	size_t nr_unsure;		/* above the floor but not significant: not listed */
	struct diff_table_row *hotter, *cooler;
	size_t nr_hotter, nr_cooler;
};

/* One stack of a run (valid during the call) and its count. */
typedef void diff_stack_fn(void *arg, const char *stack, size_t len, double count);

/*
 * Where the runs' stacks come from.  each(ctx, run, add, arg) calls add
 * for every stack of that run, 0 or -1 after trail_error(); the table
 * calls it once per run for the sums, and again only to fold inclusive
 * rows, so a caller can stream files and hold no stack.
 */
struct diff_source {
	size_t runs;
	const char *const *names;			/* per run, for messages */
	const struct folded_weight_info *weights;	/* per run: its units, read after
							 * the run's first each() */
	int (*each)(void *ctx, size_t run, diff_stack_fn *add, void *arg);
	void *ctx;
};

/* A source over profiles in memory (p[0..nr)); weights are read from them. */
void diff_source_profiles(struct diff_source *src, const struct folded_profile *p, size_t nr,
			  const char *const *names, struct folded_weight_info *weights);

/*
 * Build the table of runs [0, nb) (before) against [nb, nb + na) (after).
 * Returns 0; -1 after trail_error() when the runs cannot be compared (a
 * side without samples, weights that are not counts with one run per
 * side and no period, --by time without comparable totals); the message
 * says which and what to do; t then holds nothing to release.
 */
/* diff_table_build() result when a profile could not be read (not a usage error) */
#define DIFF_TABLE_READ_ERROR (-2)
int diff_table_build(struct diff_table *t, const struct diff_source *src, size_t nb, size_t na,
		     const struct diff_table_opts *o);
void diff_table_release(struct diff_table *t);

static inline const char *diff_table_name(const struct diff_table *t, uint32_t id)
{
	return hotspots_name(&t->all, id);
}

#endif
