/*
 * perf_tool.h - the one callback table every consumer of perf records
 * implements (perf's struct perf_tool), for perf.data files
 * (perfdata_process) and the live sampler (sampler_run) alike: records are
 * decoded once, by perf_event.c, and handed over with their decoded form.
 * Embed the struct in your context and recover it with container_of-style
 * arithmetic (offsetof).
 */
#ifndef TRAIL_PERF_PERF_TOOL_H
#define TRAIL_PERF_PERF_TOOL_H

#include "perf/perf_event.h"

/*
 * Records (rec) are whole and contiguous, valid only during the call, and
 * not necessarily aligned (read them through core/unaligned.h).  Each
 * callback returns 0, or -1 to stop (after trail_error()).  A NULL
 * callback falls back to .other; a NULL .other drops the record.
 */
struct perf_tool {
	int (*sample)(struct perf_tool *t, const struct perf_event_header *rec,
		      const struct perf_sample *s);
	int (*mmap)(struct perf_tool *t, const struct perf_event_header *rec,
		    const struct perf_mmap *m);				/* MMAP, MMAP2 */
	int (*comm)(struct perf_tool *t, const struct perf_event_header *rec,
		    const struct perf_comm *c);
	int (*fork)(struct perf_tool *t, const struct perf_event_header *rec,
		    const struct perf_fork *f);				/* FORK, EXIT */
	int (*lost)(struct perf_tool *t, const struct perf_event_header *rec);	/* LOST, LOST_SAMPLES */
	int (*context_switch)(struct perf_tool *t, const struct perf_event_header *rec);
	int (*other)(struct perf_tool *t, const struct perf_event_header *rec);
	/* Every ring buffer has been read once (perf's "round"); live input only. */
	int (*round)(struct perf_tool *t);
	/*
	 * Optional, perf.data only: a SAMPLE record of attr that .sample will
	 * get a few records from now (records are delivered in time order,
	 * not file order), so the tool can prefetch what it will look up.
	 * rec is valid until then; nothing may depend on peek being called.
	 */
	void (*peek)(struct perf_tool *t, const unsigned char *rec, const struct perf_event_attr *attr);
};

/* What perf_tool_deliver() needs besides the record. */
struct perf_tool_event {
	const struct perf_event_attr *attr;	/* the record's event */
	const char *name;			/* its name, or NULL */
	struct perf_sample_buf *buf;		/* aligned copies; NULL when records are aligned */
};

/*
 * Decode rec (SAMPLE, MMAP/MMAP2, COMM, FORK/EXIT) and route it to the
 * matching callback.  Returns the callback's answer; -1 with *why set
 * when the record is malformed (*why is NULL otherwise).
 */
int perf_tool_deliver(struct perf_tool *t, const struct perf_tool_event *ev,
		      const struct perf_event_header *rec, const char **why);

#endif
