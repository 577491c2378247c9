/*
 * maps.h - the processes and threads of a recording and their address
 * maps, rebuilt from MMAP/MMAP2, COMM, FORK and EXIT records with perf's
 * rules (util/machine.c, util/thread.c, util/maps.c): threads of one
 * process share its maps, a fork copies them, a new mapping splits or
 * replaces the parts of older ones it overlaps.
 */
#ifndef TRAIL_PERF_MAPS_H
#define TRAIL_PERF_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/hashmap.h"
#include "core/intern.h"
#include "symbols/symbols.h"

struct map {
	uint64_t start, end;	/* virtual addresses, end exclusive */
	uint64_t pgoff;		/* file offset of start, bytes */
	int identity;		/* map ip == address (anon/JIT/kernel) */
	struct dso *dso;
};

/* An address space, shared by the threads of a process (refcounted). */
struct maps {
	struct map *v;		/* sorted by start, non-overlapping */
	size_t nr, alloc;
	unsigned refs;
	uint64_t serial;	/* unique per address space, for caches */
	uint64_t gen;		/* bumped by every change, for caches */
	size_t last;		/* index of the map thread_find_map() found last: tried first */
};

struct thread {
	uint32_t tid;
	int32_t pid;		/* -1 until known */
	uint32_t comm;		/* interned id in machine->comms */
	int comm_set;
	int dead;		/* removed from the table (kept for reuse) */
	struct maps *maps;
};

struct machine {
	struct thread **threads;	/* every tid seen, in order of first sight */
	size_t nr, alloc;
	struct hashmap by_tid;		/* tid -> index in threads */
	struct intern comms;
	struct symbolizer *sym;
	int jit;		/* resolve /tmp/perf-PID.map for anon maps */
	struct thread *last;	/* what machine_thread() returned last, or NULL */
};

void machine_init(struct machine *m, struct symbolizer *sym);
void machine_release(struct machine *m);

/* perf's machine__findnew_thread(pid, tid). */
struct thread *machine_thread(struct machine *m, int32_t pid, uint32_t tid);
const char *thread_comm(const struct machine *m, const struct thread *t);

/* A user-space mapping; exec says whether it is executable (PROT_EXEC). */
void machine_mmap(struct machine *m, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *filename, int exec);
void machine_comm(struct machine *m, uint32_t pid, uint32_t tid, const char *comm);
void machine_fork(struct machine *m, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		  int synthesized);

/*
 * The map of t containing addr, or NULL.  Frames of a callchain mostly
 * fall in the map of the frame before, so that one is tried first.
 */
const struct map *thread_find_map(const struct thread *t, uint64_t addr);

/* Insert into a map set, trimming what it overlaps (exposed for tests). */
void maps_insert(struct maps *ms, const struct map *mp);

#endif
