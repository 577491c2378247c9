/*
 * recorder.h - one sampling run written as a perf.data file: a struct
 * sampler (sampler.h) feeding, through the off-CPU filter for -e offcpu,
 * the perf.data writer, with the build ids of the modules sampled and
 * what a report says of the run (samples, frame-pointer breaks).  What
 * 'trail record' runs, and what trail flame calls in-process.
 *
 * Lifetime: recorder_init() -> start r->s (sampler_prepare_command(),
 * sampler_launch_command() or sampler_attach(), then sampler_open()) ->
 * recorder_write() -> recorder_release().
 */
#ifndef TRAIL_PERF_RECORDER_H
#define TRAIL_PERF_RECORDER_H

#include "perf/dso_hits.h"
#include "perf/offcpu.h"
#include "perf/perf_tool.h"
#include "perf/perfdata_write.h"
#include "perf/record_hints.h"
#include "perf/sampler.h"

struct recorder {
	struct sampler s;
	struct perf_tool tool;		/* the writer: last in the chain */
	struct perfdata_writer w;
	struct dso_hits hits;		/* modules that get a BUILD_ID entry */
	struct offcpu oc;		/* -e offcpu: switch-outs to blocked time */
	struct fp_check fp;		/* where frame-pointer walks stopped */
	uint64_t samples;		/* samples written */
	uint64_t since_round;		/* records written since the last FINISHED_ROUND */
	int hits_ready, offcpu_ready;
	int opened;			/* path was created */
	int finished;			/* ... and holds a complete recording */
};

void recorder_init(struct recorder *r, const struct sampler_opts *so);
/*
 * Run the started and opened sampler r->s to its end, writing path (a
 * perf.data with argv cmdline of nr words in its header).  0 or -1
 * (error printed); r->opened and r->finished say how far the file got.
 * r->s says how the run ended (exit_code, stopped, rusage).
 */
int recorder_write(struct recorder *r, const char *path, int nr, const char *const *cmdline);
/* Stop and reap the command (sampler_release()), free everything. */
void recorder_release(struct recorder *r);

#endif
