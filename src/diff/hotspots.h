/*
 * hotspots.h - which functions got hotter or cooler between two folded
 * profiles, by how much, and whether that is more than sampling noise.
 * This is the analysis library under 'trail diff --top', 'trail flame'
 * (its probe measures one function's share on each bisect step) and the
 * differential flame graph.
 *
 * Definitions (for a profile with counts c(s) per stack s):
 *   N            = sum of c(s) / period            samples in the profile
 *   self(f)      = sum of c(s) over stacks whose leaf frame is f
 *   total(f)     = sum of c(s) over stacks containing f at least once;
 *                  a recursive stack (f;g;f) counts once, so total <= N
 *   share        = count / period / N, with the binomial standard error and
 *                  the two-proportion z-test of diff/significance.h
 * A function is a frame as it appears between the ';' of a folded stack,
 * optionally normalised by the HOTSPOT_STRIP_* flags below.  Empty frames
 * are ignored.
 *
 * Ownership: struct hotspots owns its name table and arrays; rankings own
 * their row arrays; names are read with hotspots_name() and stay valid
 * until hotspots_release().
 */
#ifndef TRAIL_DIFF_HOTSPOTS_H
#define TRAIL_DIFF_HOTSPOTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/intern.h"
#include "diff/significance.h"
#include "profile/folded.h"

/* "vfs_read_[k]" -> "vfs_read": drop a trailing _[<letters>] annotation
 * (kernel [k], JIT [j], inlined [i], waker [w]) that collapsers add. */
#define HOTSPOT_STRIP_ANNOTATIONS	0x1u
/* "libc.so.6`malloc" -> "malloc": drop a DTrace-style module prefix (up to
 * the last '`'), so profiles from different builds or loaders match. */
#define HOTSPOT_STRIP_MODULE		0x2u

/* "hash.isra.0", "hash.constprop.2", "hash.part.1", "hash.cold" -> "hash":
 * drop the suffixes GCC and LLVM give cloned or split functions (also
 * .lto_priv.N, .llvm.N, .localalias), which come and go between builds and
 * would make one function look like two when comparing revisions. */
#define HOTSPOT_STRIP_CLONES		0x4u

struct hotspot_options {
	unsigned flags;		/* HOTSPOT_STRIP_* */
	double period;		/* counts per sample (e.g. the sampling period when
				 * counts are summed periods); <= 0 means 1 */
};

#define HOTSPOT_OPTIONS_INIT { 0, 1 }

/* Per function, side 0 = before, 1 = after; in counts (not divided by period). */
struct hotspot_func {
	double self[2];
	double total[2];
};

struct hotspots {
	struct intern names;		/* function name -> id */
	struct hotspot_func *funcs;	/* indexed by name id */
	uint32_t *seen;			/* per name id: last stack that counted it */
	size_t alloc;			/* elements allocated in funcs and seen */
	uint32_t generation;		/* stamp of the stack being counted */
	double counts[2];		/* sum of all stack counts, per side */
	struct hotspot_options opts;
};

void hotspots_init(struct hotspots *h, const struct hotspot_options *opts);
void hotspots_release(struct hotspots *h);
/*
 * Account column `column` (0 or 1) of p to side 0 (before) or 1 (after).
 * Several profiles may be added to the same side (repeated captures).
 */
void hotspots_add_profile(struct hotspots *h, int side, const struct folded_profile *p,
			  int column);
/* Account one stack with count c to a side. */
void hotspots_add_stack(struct hotspots *h, int side, const char *stack, size_t len,
			double c);
static inline const char *hotspots_name(const struct hotspots *h, uint32_t id)
{
	return intern_str(&h->names, id);
}
static inline size_t hotspots_size(const struct hotspots *h)
{
	return h->names.nr;
}
/* Id of a function (name normalised with the table's flags), or UINT32_MAX. */
uint32_t hotspots_find(const struct hotspots *h, const char *name);
/* Samples on a side: counts / period. */
double hotspots_samples(const struct hotspots *h, int side);

enum hotspot_measure {
	HOTSPOT_SELF,		/* leaf frame: time spent in the function itself */
	HOTSPOT_TOTAL,		/* inclusive: the function or anything it called */
};
#define HOTSPOT_MEASURE_BIT(m) (1u << (m))
const char *hotspot_measure_name(enum hotspot_measure m);	/* "self", "total" */

/* Compare one function between the sides; id from hotspots_find(). */
void hotspots_test(const struct hotspots *h, uint32_t id, enum hotspot_measure m,
		   struct share_test *out);

struct hotspot_row {
	uint32_t func;			/* name id */
	enum hotspot_measure measure;
	struct share_test test;		/* shares, delta, se, z, p-value */
	int significant;		/* p_value < alpha */
	int confirmed;			/* significant and |delta| >= confirm */
};

struct hotspot_rank_options {
	double min_delta;	/* noise floor, fraction: |delta| below it is dropped */
	double confirm;		/* fraction: the confirm threshold on |delta| */
	double alpha;		/* significance level of the z-test */
	unsigned measures;	/* HOTSPOT_MEASURE_BIT()s to rank */
	size_t top;		/* at most this many rows per direction; 0 = all */
};

/* 1 point noise floor, 2 points to confirm, alpha 0.05, self and total. */
#define HOTSPOT_RANK_OPTIONS_INIT { 0.01, 0.02, 0.05, 3u, 0 }

struct hotspot_ranking {
	struct hotspot_row *hotter;	/* delta > 0, largest first */
	size_t nr_hotter;
	struct hotspot_row *cooler;	/* delta < 0, most negative first */
	size_t nr_cooler;
};

/* Rank every function (ties: name byte order, then self before total). */
void hotspots_rank(const struct hotspots *h, const struct hotspot_rank_options *o,
		   struct hotspot_ranking *out);
void hotspot_ranking_release(struct hotspot_ranking *r);

/*
 * One function's self and inclusive share in one profile (column of p),
 * with standard errors: what 'trail flame probe' measures.  func is
 * normalised with opts->flags like the frames are.  found says whether
 * any stack contains it (a share of 0 is still a valid measurement).
 */
struct hotspot_share {
	struct share_estimate self;
	struct share_estimate total;
	int found;
};

void hotspot_function_share(const struct folded_profile *p, int column, const char *func,
			    const struct hotspot_options *opts, struct hotspot_share *out);

/*
 * The function name a frame stands for under flags: returns the length and
 * sets *start (a pointer into frame); never allocates.
 */
size_t hotspot_frame_name(const char *frame, size_t len, unsigned flags, const char **start);

#endif
