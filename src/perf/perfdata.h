/*
 * perfdata.h - reading perf.data files (file and pipe mode) as perf record
 * writes them: header, attributes, feature sections (event names, command
 * line, build-ids) and the records a profile needs (MMAP/MMAP2, COMM, FORK,
 * EXIT, SAMPLE, zstd-COMPRESSED), delivered in timestamp order the way perf
 * script's ordered-events queue delivers them, to a struct perf_tool (the
 * interface the live sampler feeds too).
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
#include "perf/perf_tool.h"

/* One event (attribute) of the recording. */
struct perfdata_evsel {
	struct perf_event_attr attr;	/* zero-extended to our struct's size */
	char *name;			/* "cycles", "cpu-clock:ppp", ... */
	uint64_t *ids;			/* sample ids that belong to this event */
	size_t nr_ids;
	int id_pos;	/* u64 index of the id in a sample body, -1 = none */
	int is_pos;	/* u64 index from the end of sample_id_all trailers */
	size_t time_off;	/* bytes from a sample's start to its time, 0 = none */
	int sample_size;	/* bytes of the fixed part up to READ, for checks */
};

struct perfdata_build_id {
	int32_t pid;
	uint8_t size;		/* bytes of id used (20 for sha1) */
	uint8_t id[20];
	const char *filename;	/* into the file image */
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
 * Deliver the data records (SAMPLE, MMAP/MMAP2, COMM, FORK/EXIT), decoded,
 * to the tool's callbacks in timestamp order (file order for records
 * without a time); samples carry their event's attr and name.  Returns 0
 * or -1 (after trail_error() with "path: offset N: what"), or the
 * callback's -1.  The tool's .round is not called.
 */
int perfdata_process(struct perfdata *pd, struct perf_tool *tool);

/* Event name for an attr when no feature section names it. */
const char *perfdata_default_event_name(const struct perf_event_attr *attr);

/* Build-id recorded for a file name (in the BUILD_ID feature), or NULL. */
const struct perfdata_build_id *perfdata_find_build_id(const struct perfdata *pd,
							const char *filename);

#endif
