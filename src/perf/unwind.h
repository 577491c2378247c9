/*
 * unwind.h - DWARF unwinding of the user stack copies of --call-graph dwarf
 * samples (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER) with libdw's
 * dwfl unwinder: one Dwfl per process, modules reported from our address
 * maps, memory reads served from the sampled stack copy and the modules'
 * files.  x86-64 only (perf's register numbering).
 */
#ifndef TRAIL_PERF_UNWIND_H
#define TRAIL_PERF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct machine;
struct thread;
struct perf_sample;
struct unwinder;

struct unwinder *unwinder_new(struct machine *m);
void unwinder_free(struct unwinder *u);

/*
 * Unwind the user stack of s (thread t) into ips[0..max), leaf first: the
 * first entry is the sampled user IP.  Frames at address 0 are left out,
 * as perf leaves them out.  Returns the number of frames (0 when the
 * sample has no usable registers).
 */
size_t unwinder_unwind(struct unwinder *u, struct thread *t, const struct perf_sample *s,
		       uint64_t *ips, size_t max);

#endif
