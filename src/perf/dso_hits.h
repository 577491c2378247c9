/*
 * dso_hits.h - which modules (DSOs) a recording needs build-ids for, as
 * perf record decides at the end of a recording: it follows the
 * processes' address maps through the MMAP2, COMM and FORK records and
 * marks the module of every sampled address - the sample's IP and, unlike
 * perf 6.1 but like later perf, every address of its call chain, so the
 * callers' modules (libc's __libc_start_call_main ...) are named too.
 * With all_mapped every module mapped executable is marked instead (for
 * -g dwarf, whose user call chains are only unwound when the file is
 * read).  [vdso] is always included when mapped, as perf does.
 *
 * Records come from per-CPU buffers, not in time order: a sample can
 * arrive before the MMAP2 of the module it fell in (a process that
 * moved to another CPU right after exec).  Such addresses are kept and
 * looked up again in the final maps before the build-ids are read.
 *
 * Lifetime: dso_hits_init() -> each record, in order, to the tool's
 * callbacks (decoded already) or to dso_hits_add() (decoded there) ->
 * dso_hits_build_ids() -> dso_hits_release().
 */
#ifndef TRAIL_PERF_DSO_HITS_H
#define TRAIL_PERF_DSO_HITS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/maps.h"
#include "perf/perf_tool.h"
#include "symbols/symbols.h"

struct dso_hits {
	struct perf_tool tool;	/* .sample, .mmap, .comm, .fork follow the records */
	const struct perf_event_attr *attr;	/* the recording's (borrowed) */
	int all_mapped;		/* mark every executable mapping, not only hits */
	struct symbolizer sym;	/* only its module table is used: no symbols load */
	struct machine machine;
	uint8_t *hit;		/* per dso id: 1 when the module needs its build-id */
	size_t alloc_hit;
	int kernel_hit;		/* a sample or call chain was in the kernel */
	struct dso_hits_pending {
		int32_t pid;
		uint32_t tid;
		uint64_t addr;
	} *pending;		/* user addresses no map held yet */
	size_t nr_pending, alloc_pending;
	const char *kernel_notes;	/* "/sys/kernel/notes" unless a test says otherwise */
};

void dso_hits_init(struct dso_hits *h, const struct perf_event_attr *attr, int all_mapped);
/*
 * Follow one record of the recording through the tool (samples,
 * MMAP/MMAP2, COMM, FORK; others are ignored).  0, or -1 when a sample
 * cannot be decoded.
 */
int dso_hits_add(struct dso_hits *h, const struct perf_event_header *rec);

/*
 * Call fn for each marked module that has a build-id: the kernel first
 * ("[kernel.kallsyms]", kernel 1, its id from the running kernel's notes),
 * then user modules in the order they were first mapped (their path as
 * recorded, kernel 0).  Modules whose file is gone or has no build-id are
 * skipped.  Returns the first non-zero value fn returns, else 0.
 */
typedef int (*dso_hits_fn)(void *ctx, const char *name, int kernel,
			   const uint8_t *id, size_t size);
int dso_hits_build_ids(struct dso_hits *h, dso_hits_fn fn, void *ctx);

void dso_hits_release(struct dso_hits *h);

#endif
