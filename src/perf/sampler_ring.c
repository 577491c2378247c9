/*
 * sampler_ring.c - consuming a perf ring buffer with the barriers the
 * kernel's documentation asks for (see sampler_ring.h).
 */
#include "perf/sampler_ring.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int sampler_ring_map(struct sampler_ring *r, int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = st_mult(st_add(data_pages, 1), page);
	void *p;

	memset(r, 0, sizeof(*r));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return error_errno("cannot map a %zu KiB perf ring buffer", len >> 10);
	r->base = p;
	r->map_len = len;
	r->data = (unsigned char *)p + page;
	r->size = (uint64_t)data_pages * page;
	return 0;
}

void sampler_ring_init_mem(struct sampler_ring *r, void *mem, size_t page, uint64_t size)
{
	memset(r, 0, sizeof(*r));
	r->base = mem;
	r->data = (unsigned char *)mem + page;
	r->size = size;
}

long sampler_ring_read(struct sampler_ring *r, sampler_ring_fn fn, void *ctx)
{
	struct perf_event_mmap_page *pc = r->base;
	uint64_t head, tail, mask = r->size - 1;
	long n = 0;
	int ret = 0;

	/* Pairs with the kernel's smp_wmb() before it publishes data_head. */
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;	/* only we write it */
	while (tail != head) {
		struct perf_event_header h;
		uint64_t off = tail & mask, avail = head - tail;
		const struct perf_event_header *rec;

		/* The kernel keeps every record 8-byte aligned and sized. */
		if (avail < sizeof(h) || avail > r->size || (tail & 7)) {
			ret = trail_error("perf ring buffer is inconsistent (head %llu, tail %llu)",
				    (unsigned long long)head, (unsigned long long)tail);
			break;
		}
		/* Records are 8-byte aligned, but copy the header bytewise anyway. */
		if (off + sizeof(h) <= r->size) {
			memcpy(&h, r->data + off, sizeof(h));
		} else {
			size_t first = (size_t)(r->size - off);

			memcpy(&h, r->data + off, first);
			memcpy((char *)&h + first, r->data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > avail || (h.size & 7)) {
			ret = trail_error("perf ring buffer holds a record of bad size %u", (unsigned)h.size);
			break;
		}
		if (off + h.size <= r->size) {
			rec = (const void *)(r->data + off);
		} else {
			size_t first = (size_t)(r->size - off);

			if (r->scratch_alloc < h.size) {
				free(r->scratch);
				r->scratch = xmalloc(h.size);
				r->scratch_alloc = h.size;
			}
			memcpy(r->scratch, r->data + off, first);
			memcpy(r->scratch + first, r->data, h.size - first);
			rec = (const void *)r->scratch;
		}
		if (fn(ctx, rec)) {
			ret = -1;
			tail += h.size;
			break;
		}
		tail += h.size;
		n++;
	}
	/* Our reads of the records happen before the kernel may reuse them. */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return ret ? -1 : n;
}

void sampler_ring_release(struct sampler_ring *r)
{
	if (r->map_len)
		munmap(r->base, r->map_len);
	free(r->scratch);
	memset(r, 0, sizeof(*r));
}
