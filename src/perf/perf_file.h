/*
 * perf_file.h - the on-disk layout of perf.data files, as written by
 * perf record (tools/perf/util/header.h and session docs in the kernel tree:
 * tools/perf/Documentation/perf.data-file-format.txt).  Shared by the
 * reader and the writer; all fields are in the recording host's byte order.
 */
#ifndef TRAIL_PERF_PERF_FILE_H
#define TRAIL_PERF_PERF_FILE_H

#include <linux/perf_event.h>
#include <stdint.h>

#define PERF_FILE_MAGIC 0x32454c4946524550ULL	/* "PERFILE2" */

struct perf_file_section {
	uint64_t offset;	/* bytes from the start of the file */
	uint64_t size;		/* bytes */
};

struct perf_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct perf_file_header) */
	uint64_t attr_size;		/* size of one entry in the attrs section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	uint64_t adds_features[4];	/* bitmap of feature sections after data */
};

/* In pipe mode only magic and size (16) are written. */
struct perf_pipe_file_header {
	uint64_t magic;
	uint64_t size;
};

/* Feature bits in adds_features; their sections follow the data section. */
enum perf_header_feature {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
};

/*
 * header.misc bit of a build_id_event: the byte after the 20-byte id holds
 * the id's length (perf 5.11+ sets it; without it readers assume 20).
 */
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

/* Record types perf itself adds after the kernel's (PERF_RECORD_MAX). */
enum perf_user_record_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
};

#endif
