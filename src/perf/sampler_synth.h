/*
 * sampler_synth.h - the records the kernel does not emit by itself
 * (sampler_synth.c), for the live sampler to feed its tool before the
 * first real record.  Knows nothing of the sampler's run: it gets the
 * target described.
 */
#ifndef TRAIL_PERF_SAMPLER_SYNTH_H
#define TRAIL_PERF_SAMPLER_SYNTH_H

#include <sys/types.h>

#include "perf/perf_tool.h"

struct sampler_synth_target {
	const struct perf_event_attr *attr;	/* the attr every record carries a trailer for */
	const char *event;			/* its name */
	pid_t pid;				/* the process attached to */
	const pid_t *tids;			/* its threads */
	size_t nr_tids;
	int attached;				/* 0: a command trail started (kernel map only) */
};

/*
 * Feed the tool what the kernel will not emit itself: the kernel's mmap
 * and, when attached, the process's threads (COMM) and executable
 * mappings (MMAP2) read from /proc.  0 or -1.  sampler_run() calls it
 * once the target runs (reading /proc/kallsyms takes a while; the ring
 * buffers hold the first samples meanwhile and are read after it).
 */
int sampler_synthesize(const struct sampler_synth_target *t, struct perf_tool *tool);

#endif
