/*
 * perfdata_write.h - writing perf.data files that perf report and perf
 * script read: the file header, the attrs section with each event's ids,
 * the data section (records appended as they come) and the feature
 * sections perf expects after it (build-ids, hostname, os release, arch,
 * cpus, memory, command line, event names, sample times).
 *
 * Layout written (offsets in bytes from the start of the file):
 *	header | ids of every event | attrs | data ... | feature index | features
 * as perf record does (tools/perf/Documentation/perf.data-file-format.txt).
 * The header is rewritten by perfdata_writer_finish(), so a file whose
 * writer never finished says data.size == 0 and perf refuses it cleanly.
 */
#ifndef TRAIL_PERF_PERFDATA_WRITE_H
#define TRAIL_PERF_PERFDATA_WRITE_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

struct perfdata_event {
	struct perf_event_attr attr;	/* as opened (attr.size may be larger than written) */
	char *name;			/* "cpu-clock", "offcpu-time" ... (owned) */
	uint64_t *ids;			/* PERF_EVENT_IOC_ID of every fd (owned) */
	size_t nr_ids;
};

struct perfdata_writer {
	char *path;			/* owned */
	int fd;
	struct strbuf buf;		/* records not yet written to fd */
	uint64_t data_offset;		/* bytes: where the data section starts */
	uint64_t data_size;		/* bytes appended to the data section */
	struct perfdata_event *events;
	size_t nr_events, alloc_events;
	int started;			/* header, ids and attrs are written */
	uint64_t first_time, last_time;	/* ns, of samples; 0 when none */
	uint64_t nr_records;
	struct strbuf build_ids;	/* HEADER_BUILD_ID body: build_id_event records */
	size_t nr_build_ids;
};

/* Create (truncate) path for writing.  0 or -1 (error printed). */
int perfdata_writer_open(struct perfdata_writer *w, const char *path);
/*
 * Describe one event of the file before perfdata_writer_start(); attr and
 * ids are copied.  Samples of every event must use the same sample_type
 * (perf needs PERF_SAMPLE_IDENTIFIER otherwise, which trail does not use).
 */
void perfdata_writer_add_event(struct perfdata_writer *w, const struct perf_event_attr *attr,
			       const char *name, const uint64_t *ids, size_t nr_ids);
/* Write the placeholder header, the ids and the attrs.  0 or -1. */
int perfdata_writer_start(struct perfdata_writer *w);
/*
 * Append one whole record (header.size bytes, a multiple of 8) to the data
 * section.  sample_time is the record's time in ns when it is a sample
 * (for HEADER_SAMPLE_TIME), else 0.  0 or -1 (error printed).
 */
int perfdata_writer_add(struct perfdata_writer *w, const struct perf_event_header *rec,
			uint64_t sample_time);
/*
 * Add one entry to the BUILD_ID feature section (written by finish):
 * perf's struct build_id_event - header (type 0, misc, size), pid, the id
 * zero-padded to 20 bytes then its length and 3 reserved bytes, and the
 * file name NUL-padded to a multiple of 64 bytes.  misc is the cpumode
 * (PERF_RECORD_MISC_KERNEL for [kernel.kallsyms] and kernel modules,
 * PERF_RECORD_MISC_USER otherwise); PERF_RECORD_MISC_BUILD_ID_SIZE is
 * added, as perf does, so readers use the length.  pid is -1 for the
 * host.  0, or -1 (error printed) when the name is too long for a record.
 */
int perfdata_writer_add_build_id(struct perfdata_writer *w, int32_t pid, uint16_t misc,
				 const uint8_t *id, size_t size, const char *filename);
/* Append a PERF_RECORD_FINISHED_ROUND marker. */
int perfdata_writer_round(struct perfdata_writer *w);
/*
 * Write the feature sections (argv is the command line for HEADER_CMDLINE)
 * and the final header; close the file.  0 or -1 (error printed).
 */
int perfdata_writer_finish(struct perfdata_writer *w, int argc, const char *const *argv);
/* Free everything (closing the file if still open; it is left incomplete). */
void perfdata_writer_release(struct perfdata_writer *w);

/* The size of the attr written to files: what perf 6.1 reads (VER7). */
#define PERFDATA_ATTR_SIZE PERF_ATTR_SIZE_VER7

#endif
