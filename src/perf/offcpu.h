/*
 * offcpu.h - off-CPU time from switch-out samples: a filter between the
 * sampler and the next tool.  Each switch-out sample (sched:sched_switch,
 * or the context-switches event, with its call chain) is held until the
 * same thread is switched in again (a PERF_RECORD_SWITCH record), then
 * passed on with its period set to the time it was blocked, in ns, and its
 * time set to the moment it ran again.  Threads that were preempted (still
 * runnable, PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) are not blocked and are
 * dropped, as perf record --off-cpu does; so are blocks that had not ended
 * when recording stopped.
 *
 * Records from different CPUs' rings arrive out of order, so samples and
 * switches are queued and processed in time order once a round (one pass
 * over all rings) guarantees nothing earlier can still come - perf's
 * ordered-events rule (tools/perf/util/ordered-events.c).
 */
#ifndef TRAIL_PERF_OFFCPU_H
#define TRAIL_PERF_OFFCPU_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hashmap.h"
#include "perf/perf_tool.h"

struct offcpu_item;
struct offcpu_pending;

struct offcpu {
	struct perf_tool tool;		/* give this to sampler_run() */
	struct perf_tool *next;		/* gets the weighted samples and everything else */
	struct perf_event_attr attr;		/* of the samples */
	struct offcpu_item *queue;		/* records waiting for their turn */
	size_t nr_queue, alloc_queue;
	uint64_t seq;				/* arrival order, to keep sorting stable */
	uint64_t max_time;			/* ns: latest time seen so far */
	uint64_t flush_time;			/* ns: process queued items up to this time */
	struct offcpu_pending *pending;		/* switch-out samples waiting, one per tid */
	size_t nr_pending, alloc_pending;
	struct hashmap pending_index;		/* tid -> index in pending */
	uint64_t nr_blocks;			/* samples passed on */
	uint64_t blocked_ns;			/* their total weight */
	uint64_t nr_preempted;			/* switch-outs dropped as preemption */
};

void offcpu_init(struct offcpu *o, const struct perf_event_attr *attr, struct perf_tool *next);
/* Process everything still queued (at the end of recording).  0 or -1. */
int offcpu_flush(struct offcpu *o);
void offcpu_release(struct offcpu *o);

#endif
