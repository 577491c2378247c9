/*
 * perfdata_fold.h - fold a perf.data file with the collapse engine: each
 * symbolized sample goes to folder_add_sample() exactly as the perf script
 * parser would hand it over, so 'trail collapse perf.data' and
 * 'perf script | trail collapse' share every option's semantics.
 */
#ifndef TRAIL_COLLAPSE_PERFDATA_FOLD_H
#define TRAIL_COLLAPSE_PERFDATA_FOLD_H

#include <stddef.h>
#include <stdint.h>

struct string_list;

struct folder;
struct perfdata_frame;

struct perfdata_fold {
	const char *event_filter;	/* in: keep only this event; NULL = first seen */
	/*
	 * in: drop samples older than first + skip_fraction * (last - first),
	 * first and last being the recording's first and last sample times
	 * (ns; HEADER_SAMPLE_TIME, else a pass over the samples) -- what perf
	 * script --time N%-100% keeps with N = 100 * skip_fraction.  0 = all.
	 */
	double skip_fraction;
	int count_samples;	/* in: weigh every sample 1, not its period */
	/*
	 * in: inline frames from DWARF.  0 = as perf script 6.1 (added to
	 * --call-graph dwarf frames only), 1 = to frame-pointer callchains
	 * too (--inline), -1 = none (--no-inline, as perf script --no-inline).
	 */
	int inlines;
	uint64_t skipped;	/* out: samples dropped by skip_fraction */
	char *chosen_event;	/* out: the event kept when it was defaulted (free) */
	char *other_event;	/* out: first event type skipped (free), or NULL */
	struct string_list *skipped_events;	/* in, optional: names of skipped events go here */
	uint64_t samples, kept;	/* out */
	uint64_t frames, unknown_frames, unwind_failed;	/* out */
	/* in, optional: called for every frame of every kept sample (per-module statistics) */
	void (*frame_hook)(void *ctx, const struct perfdata_frame *fr);
	void *hook_ctx;
};

/*
 * Read path (a perf.data file, or "-" for pipe-mode data on stdin) into f.
 * Returns 0, or -1 after an error naming the file and byte offset.
 */
int perfdata_fold_file(const char *path, struct folder *f, struct perfdata_fold *pf);

#endif
