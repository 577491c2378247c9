/*
 * backend.h - trail flame's profiler backends: how one run of the
 * workload is profiled and folded for each kind of profile (CPU samples
 * from trail or perf record, the user's own profiler command, off-CPU
 * time, allocation sites, page faults).  A new profiler is one more
 * struct flame_backend in its own backend_*.c and one line in
 * flame_backend_of(); nothing else switches on the profile kind.
 */
#ifndef TRAIL_FLAME_BACKEND_H
#define TRAIL_FLAME_BACKEND_H

#include "core/string_list.h"
#include "measure/capture.h"
#include "measure/record_cmd.h"

#include <stddef.h>

struct flame_backend {
	const char *view;	/* report.json's "profile": what the counts are */
	int memory;		/* counts memory events (allocation sites, page faults) */
	/* What its profiles count, for the scope note and the report. */
	void (*counts)(const struct flame_capture_opts *o, char *buf, size_t n);
	/* The profiler and how it samples ("perf record -g at 999 Hz"). */
	void (*profiler)(const struct flame_capture_opts *o, char *buf, size_t n);
	/*
	 * The recorder's command line around the workload (or around 'true'
	 * when check is set), writing to out; see flame_record_argv().  For
	 * trail record's own line it is also all trail's sampler in this
	 * process is told: its options are read back from these words by
	 * trail record's parser (perf/record_options.h), never set beside them.
	 */
	flame_record_argv_fn *record_argv;
	/* 0 when it can profile here, else -1 with the reason printed. */
	int (*check)(const struct flame_capture_opts *o);
	/*
	 * One profiled run of the workload in dir, its output to log and its
	 * scratch files under o->scratch: run->folded filled; 0, 1 when the
	 * workload failed, -1 when the profiler did.
	 */
	int (*capture)(const struct flame_capture_opts *o, const char *dir, const char *log,
		       struct flame_run *run);
};

extern const struct flame_backend flame_backend_cpu;		/* backend_cpu.c */
extern const struct flame_backend flame_backend_command;	/* backend_command.c */
extern const struct flame_backend flame_backend_offcpu;		/* backend_offcpu.c */
extern const struct flame_backend flame_backend_alloc;		/* backend_memory.c */
extern const struct flame_backend flame_backend_faults;		/* backend_memory.c */
extern const struct flame_backend flame_backend_valgrind;	/* backend_valgrind.c */

/*
 * 1 when this machine counts user-space instructions in hardware
 * (perf_event_open PERF_COUNT_HW_INSTRUCTIONS opens), else 0; why gets
 * the answer for the report either way.  In backend_valgrind.c.
 */
int flame_hw_instructions(char *why, size_t n);

/* Page faults per page-fault sample (backend_memory.c). */
unsigned flame_faults_per_sample(void);

/* The backend of o's profile and profiler; NULL for FLAME_PROFILE_NONE. */
const struct flame_backend *flame_backend_of(const struct flame_capture_opts *o);

#endif
