/*
 * perf_event.h - trail's one decoder of perf_event records (perf's
 * evsel__parse_sample and the event structs of util/event.h): samples of
 * any sample_type, the sample_id trailer of other records, MMAP/MMAP2,
 * COMM and FORK/EXIT.  perf.data files (perfdata.c) and the live sampler
 * (sampler.c) both decode through it.  Layout source:
 * include/uapi/linux/perf_event.h.  Decoded pointers refer into the record.
 */
#ifndef TRAIL_PERF_PERF_EVENT_H
#define TRAIL_PERF_PERF_EVENT_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Longest callchain accepted (perf caps it at 127 by default; 2^16 leaves room). */
#define PERF_SAMPLE_MAX_CALLCHAIN (1u << 16)

/* A decoded PERF_RECORD_SAMPLE. */
struct perf_sample {
	const struct perf_event_attr *attr;	/* the event it belongs to */
	const char *event;		/* its name ("cpu-clock", ...), or NULL */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;		/* ns, perf clock */
	uint64_t id;
	uint32_t cpu;
	uint64_t period;	/* events (or ns for cpu-clock); 1 when not sampled */
	uint16_t cpumode;	/* PERF_RECORD_MISC_CPUMODE_MASK bits of misc */
	uint64_t nr_callchain;
	const uint64_t *callchain;	/* 8-byte aligned (copied when the record is not) */
	uint64_t regs_abi;		/* PERF_SAMPLE_REGS_ABI_*, 0 = no regs */
	uint64_t regs_mask;		/* attr.sample_regs_user */
	const uint64_t *regs;		/* one per set bit of regs_mask, aligned */
	uint64_t stack_size;		/* bytes valid in stack (dyn_size) */
	const unsigned char *stack;	/* copy of the user stack from SP up */
};

/*
 * Where a sample in a record that is not 8-byte aligned gets aligned
 * copies of its callchain and registers (records inside a pipe or a
 * decompressed chunk can be).  Zero-initialise; perf_sample_buf_release().
 */
struct perf_sample_buf {
	uint64_t *words[2];
	size_t alloc[2];
};
void perf_sample_buf_release(struct perf_sample_buf *b);

struct perf_mmap {
	uint32_t pid, tid;	/* pid == UINT32_MAX for the kernel */
	uint64_t start, len, pgoff;	/* bytes */
	uint32_t prot, flags;	/* MMAP2 only (0 for MMAP) */
	uint16_t misc;
	const uint8_t *build_id;	/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint8_t build_id_size;
	const char *filename;	/* NUL-terminated (checked) */
};

struct perf_comm {
	uint32_t pid, tid;
	int exec;		/* PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;	/* NUL-terminated (checked) */
};

struct perf_fork {
	uint32_t pid, ppid, tid, ptid;
	int is_exit;		/* PERF_RECORD_EXIT rather than FORK */
	int synthesized;	/* perf record made it up for a running task */
};

/*
 * Decode rec (a PERF_RECORD_SAMPLE of attr, rec->size bytes) into s.  buf
 * may be NULL when rec is 8-byte aligned.  0, or -1 with *why saying what
 * is wrong ("truncated sample record", ...).
 */
int perf_sample_parse(const struct perf_event_attr *attr, const struct perf_event_header *rec,
		      struct perf_sample_buf *buf, struct perf_sample *s, const char **why);
/* Byte offset of the period (and of the time: perf_sample_time_offset) in a sample of attr. */
size_t perf_sample_period_offset(const struct perf_event_attr *attr);
size_t perf_sample_time_offset(const struct perf_event_attr *attr);
/*
 * A quick look at sample records before they are decoded (to prefetch
 * what decoding them will need).  perf_sample_peek_layout() works out, once
 * per attr, where the pid/tid word and the callchain lie: 0, or -1 when
 * the records have no TID or CALLCHAIN, or READ values before the
 * callchain.  perf_sample_peek_callchain() then gives a record's pid/tid
 * word (pid << 32 | tid) in *pid_tid and its callchain, *nr entries, or
 * NULL when the record is unaligned or too short for it.  A hint only:
 * perf_sample_parse() still checks the record.
 */
struct perf_peek_layout {
	size_t tid_off, chain_off;	/* bytes from the record's start */
};
int perf_sample_peek_layout(const struct perf_event_attr *attr, struct perf_peek_layout *l);
static inline const uint64_t *perf_sample_peek_callchain(const struct perf_peek_layout *l,
							 const unsigned char *rec, size_t size,
							 uint64_t *pid_tid, size_t *nr)
{
	uint64_t n;
	uint32_t pid, tid;

	if ((uintptr_t)rec % 8 || size < l->chain_off + 8)
		return NULL;
	memcpy(&n, rec + l->chain_off, 8);
	if (n > (size - l->chain_off - 8) / 8)
		return NULL;
	memcpy(&pid, rec + l->tid_off, 4);
	memcpy(&tid, rec + l->tid_off + 4, 4);
	*pid_tid = (uint64_t)pid << 32 | tid;
	*nr = (size_t)n;
	return (const uint64_t *)(const void *)(rec + l->chain_off + 8);
}
/* Bytes of the sample_id trailer of non-sample records for this attr. */
size_t perf_sample_id_size(const struct perf_event_attr *attr);
/* pid, tid and time from the sample_id trailer of a non-sample record.  0 or -1. */
int perf_sample_parse_id(const struct perf_event_attr *attr, const struct perf_event_header *rec,
			 uint32_t *pid, uint32_t *tid, uint64_t *time);

/* MMAP or MMAP2, COMM, FORK or EXIT.  0, or -1 with *why. */
int perf_mmap_parse(const struct perf_event_header *rec, struct perf_mmap *m, const char **why);
int perf_comm_parse(const struct perf_event_header *rec, struct perf_comm *c, const char **why);
int perf_fork_parse(const struct perf_event_header *rec, struct perf_fork *f, const char **why);

#endif
