/*
 * perfdata.h - reading perf.data files (file and pipe mode) as perf record
 * writes them: header, attributes, feature sections (event names, command
 * line, build-ids) and the records a profile needs (MMAP/MMAP2, COMM, FORK,
 * EXIT, SAMPLE, zstd-COMPRESSED), delivered in timestamp order the way perf
 * script's ordered-events queue delivers them.
 *
 * The file is mmapped (pipe input is read into memory); records handed to
 * the callbacks point into that memory and are valid only during the call.
 * Every size and offset is bounds-checked: bad input yields an error naming
 * the file and byte offset, never a crash.
 */
#ifndef TRAIL_PERF_PERFDATA_H
#define TRAIL_PERF_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "core/file_map.h"

#include "perf/perf_file.h"

/* One event (attribute) of the recording. */
struct perfdata_evsel {
	struct perf_event_attr attr;	/* zero-extended to our struct's size */
	char *name;			/* "cycles", "cpu-clock:ppp", ... */
	uint64_t *ids;			/* sample ids that belong to this event */
	size_t nr_ids;
	int id_pos;	/* u64 index of the id in a sample body, -1 = none */
	int is_pos;	/* u64 index from the end of sample_id_all trailers */
	int sample_size;	/* bytes of the fixed part up to READ, for checks */
};

struct perfdata_build_id {
	int32_t pid;
	uint8_t size;		/* bytes of id used (20 for sha1) */
	uint8_t id[20];
	const char *filename;	/* into the file image */
};

/* A parsed sample; pointers refer into the record. */
struct perfdata_sample {
	const struct perfdata_evsel *evsel;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;		/* ns, perf clock */
	uint64_t id;
	uint32_t cpu;
	uint64_t period;	/* events (or ns for cpu-clock) */
	uint16_t cpumode;	/* PERF_RECORD_MISC_CPUMODE_MASK bits of misc */
	uint64_t nr_callchain;
	const uint64_t *callchain;	/* may be unaligned-safe: see perfdata.c */
	uint64_t regs_abi;		/* PERF_SAMPLE_REGS_ABI_*, 0 = no regs */
	uint64_t regs_mask;		/* attr.sample_regs_user */
	const uint64_t *regs;		/* one per set bit of regs_mask */
	uint64_t stack_size;		/* bytes valid in stack (dyn_size) */
	const unsigned char *stack;	/* copy of the user stack from SP up */
};

struct perfdata_mmap {
	uint32_t pid, tid;	/* pid == UINT32_MAX for the kernel */
	uint64_t start, len, pgoff;	/* bytes */
	uint32_t prot, flags;	/* MMAP2 only (0 for MMAP) */
	uint16_t misc;
	const uint8_t *build_id;	/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint8_t build_id_size;
	const char *filename;	/* NUL-terminated (checked) */
};

struct perfdata_comm {
	uint32_t pid, tid;
	int exec;		/* PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;	/* NUL-terminated (checked) */
};

struct perfdata_fork {
	uint32_t pid, ppid, tid, ptid;
	int is_exit;		/* PERF_RECORD_EXIT rather than FORK */
	int synthesized;	/* perf record made it up for a running task */
};

/* Callbacks; any may be NULL.  Returning -1 stops processing with -1. */
struct perfdata_ops {
	int (*sample)(void *ctx, const struct perfdata_sample *s);
	int (*mmap)(void *ctx, const struct perfdata_mmap *m);
	int (*comm)(void *ctx, const struct perfdata_comm *c);
	int (*fork)(void *ctx, const struct perfdata_fork *f);
};

struct perfdata_chunk;

struct perfdata {
	char *path;			/* for messages */
	const unsigned char *buf;	/* whole file image */
	size_t size;			/* bytes */
	struct file_map file;		/* the image, when opened from a file or pipe */
	unsigned char *owned;		/* an aligned copy of a caller's buffer, or NULL */
	int pipe_mode;
	uint64_t data_offset, data_size;	/* the data section, bytes */
	struct perfdata_evsel *evsel;
	size_t nr_evsel;
	struct perfdata_build_id *build_ids;
	size_t nr_build_ids, alloc_build_ids;
	char *cmdline;			/* space-joined, or NULL */
	char *hostname, *os_release;
	/* statistics of the last perfdata_process() */
	uint64_t nr_samples, nr_records, nr_compressed, nr_unknown;
	uint64_t nr_lost;		/* PERF_RECORD_LOST counts */
	struct perfdata_chunk *chunks;	/* decompressed data */
	/* HEADER_SAMPLE_TIME (perf record --timestamp-boundary, trail record):
	 * times of the first and last sample, ns; both 0 when absent */
	uint64_t first_sample_time, last_sample_time;
};

/* True when the first bytes of a file are the PERFILE2 magic. */
int perfdata_is_magic(const void *buf, size_t len);
/*
 * Open path ("-" for stdin, which may be pipe-mode output) and parse the
 * header, attributes and feature sections.  Returns 0, or -1 after trail_error().
 */
int perfdata_open(struct perfdata *pd, const char *path);
/* Same on an in-memory image (not copied; must outlive pd).  For fuzzing. */
int perfdata_open_buffer(struct perfdata *pd, const void *buf, size_t size,
			 const char *name);
void perfdata_close(struct perfdata *pd);

/*
 * Deliver the data records to ops in timestamp order (file order for
 * records without a time).  Returns 0 or -1 (after trail_error() with
 * "path: offset N: what"), or the callback's -1.
 */
int perfdata_process(struct perfdata *pd, const struct perfdata_ops *ops, void *ctx);

/* Event name for an attr when no feature section names it. */
const char *perfdata_default_event_name(const struct perf_event_attr *attr);

/* Build-id recorded for a file name (in the BUILD_ID feature), or NULL. */
const struct perfdata_build_id *perfdata_find_build_id(const struct perfdata *pd,
							const char *filename);

#endif
