/*
 * perfdata_stacks.h - turn a perf.data file into symbolized samples: runs
 * the reader, rebuilds processes and address maps, walks each callchain
 * (or unwinds the user stack copy of --call-graph dwarf recordings) and
 * resolves every frame to (function, module, address) as perf script
 * would print it.  One callback per sample; nothing is allocated per
 * sample.
 */
#ifndef TRAIL_PERF_PERFDATA_STACKS_H
#define TRAIL_PERF_PERFDATA_STACKS_H

#include <stddef.h>
#include <stdint.h>

struct perfdata;

struct perfdata_frame {
	const char *sym;	/* function name, NULL when unresolved ([unknown]) */
	const char *dso;	/* module path as perf prints it, NULL = [unknown] */
	size_t sym_len, dso_len;	/* bytes */
	int dso_ambiguous;	/* dso has blanks or parentheses */
	uint64_t addr;		/* as perf script prints it (map-relative for files) */
	uint64_t symoff;	/* bytes from the symbol start (when sym) */
	int kernel;		/* a kernel-mode frame */
	int inlined;		/* an inline frame: perf prints "(inlined)" for its module */
	/*
	 * Nonzero for a frame resolved to a symbol: 1 + the number of its
	 * (module, address) among those this run looked up, so equal ids
	 * mean equal sym and dso (a consumer may remember its work per id);
	 * 0 for unresolved and inline frames.
	 */
	uint32_t id;
};

struct perfdata_stack {
	const char *comm;
	int32_t pid;		/* -1 when unknown */
	uint32_t tid;
	uint64_t time;		/* ns */
	uint64_t period;
	uint32_t cpu;
	const char *event;	/* event name as perf script prints it */
	size_t nr;		/* frames, leaf first */
	const struct perfdata_frame *frames;
	/*
	 * With opts->memo: a sample whose raw stack (thread, comm, address
	 * space state, event, callchain or unwound addresses) equals an
	 * earlier one's comes with frames NULL, nr 0 and repeat_of set to
	 * what fn stored through memo for that earlier sample.  memo is
	 * non-NULL on samples that come with frames: fn may store a nonzero
	 * value there (0 = repeats keep coming with frames).
	 */
	uint32_t repeat_of;
	uint32_t *memo;
};

struct perfdata_stacks_opts {
	int max_stack;		/* perf script's default: 127 */
	int no_demangle;
	int jit;		/* read /tmp/perf-PID.map (default 1) */
	int no_inline;		/* skip inline frames (perf script adds them) */
	int inline_fp;		/* also to frame-pointer callchains (perf 6.1 does not) */
	const char *kallsyms;	/* override /proc/kallsyms (tests) */
	int memo;		/* deliver repeated raw stacks without frames */
};

typedef int (*perfdata_stack_fn)(void *ctx, const struct perfdata_stack *st);

/*
 * Read the already opened pd and call fn for every sample.  Returns 0, or
 * -1 after trail_error() (reader errors carry file and byte offset) or when fn
 * returned -1.  Statistics (samples, unresolved frames) go to *stats when
 * given.
 */
struct perfdata_stacks_stats {
	uint64_t samples, frames, unknown_frames, unwound, unwind_failed;
	uint64_t dsos, symbol_lookups, symbol_misses;
	uint64_t repeats;	/* samples delivered as repeats (opts->memo) */
};

int perfdata_stacks(struct perfdata *pd, const struct perfdata_stacks_opts *opts,
		    perfdata_stack_fn fn, void *ctx, struct perfdata_stacks_stats *stats);

#endif
