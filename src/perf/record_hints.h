/*
 * record_hints.h - what a recording says about itself, for 'trail
 * record' to tell the user: whether frame-pointer walks stopped after the
 * sampled function, and in which module (a library such as Debian's libc
 * has no frame pointers even when the program has them); and whether the
 * process was a CPython too old for perf support, so that Python frames
 * are missing.  Messages are composed here and printed by the command.
 */
#ifndef TRAIL_PERF_RECORD_HINTS_H
#define TRAIL_PERF_RECORD_HINTS_H

#include <stdint.h>

struct machine;
struct perf_sample;
struct strbuf;
struct symbolizer;

#define FP_CHECK_MODULES 8	/* modules told apart where walks stop */

struct fp_check {
	uint64_t user_stacks;		/* samples with a user call chain */
	uint64_t shallow_stacks;	/* ... of at most one frame: the walk failed */
	struct {
		char *path;		/* the module of the sampled user frame */
		uint64_t n;		/* shallow stacks that stopped there */
	} breaks[FP_CHECK_MODULES];	/* the first modules seen */
};

/* Count one sample (m: the recording's maps, already updated by it). */
void fp_check_sample(struct fp_check *c, struct machine *m, const struct perf_sample *smp);
/* The warning when most chains are shallow (1, appended to out), else 0. */
int fp_check_message(const struct fp_check *c, struct strbuf *out);
void fp_check_release(struct fp_check *c);

/*
 * When the recorded process ran CPython: 1 with the advice appended to
 * out (Python < 3.12 has no perf support: only the interpreter's frames;
 * >= 3.12 without a perf map: run with -X perf), else 0.  perf_map says
 * whether a /tmp/perf-PID.map was read.
 */
int python_hint(const struct symbolizer *sym, int perf_map, struct strbuf *out);

#endif
