/*
 * sampler_ring.h - reading one perf_event_open ring buffer: the kernel
 * writes records at data_head, we consume from data_tail.  data_head is
 * loaded with acquire semantics (so record bytes are read after it) and
 * data_tail stored with release semantics (so the kernel overwrites
 * nothing we still read), as include/uapi/linux/perf_event.h prescribes.
 * A record that wraps around the end of the buffer is copied into a
 * scratch buffer so callbacks always see it contiguous.
 */
#ifndef TRAIL_PERF_SAMPLER_RING_H
#define TRAIL_PERF_SAMPLER_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct sampler_ring {
	void *base;			/* the mapping: control page, then data */
	size_t map_len;			/* bytes mapped (0 when not ours to unmap) */
	unsigned char *data;		/* first data byte */
	uint64_t size;			/* bytes of data, a power of two */
	unsigned char *scratch;		/* a wrapped record, made contiguous */
	size_t scratch_alloc;		/* bytes */
};

/* Callback for each record; return 0 to go on, -1 to stop reading. */
typedef int (*sampler_ring_fn)(void *ctx, const struct perf_event_header *rec);

/* mmap fd's ring with data_pages pages of data (a power of two).  0 or -1. */
int sampler_ring_map(struct sampler_ring *r, int fd, size_t data_pages);
/*
 * Use memory laid out like a mapping (one control page, then size bytes of
 * data, size a power of two) - for tests.
 */
void sampler_ring_init_mem(struct sampler_ring *r, void *mem, size_t page, uint64_t size);
/*
 * Hand every complete record to fn, then release the space to the kernel.
 * Returns the number of records read, or -1 when fn failed or a record is
 * malformed (error printed); what was read before stays consumed.
 */
long sampler_ring_read(struct sampler_ring *r, sampler_ring_fn fn, void *ctx);
void sampler_ring_release(struct sampler_ring *r);

#endif
