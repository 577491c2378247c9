/*
 * time_order.h - putting queued perf.data records in time order, as perf's
 * ordered_events does between FINISHED_ROUND records.  The queue holds a
 * few runs that are already in order (each CPU's ring buffer is written in
 * time order, and what a round left over is sorted), so a natural merge
 * sort does it in one pass per doubling of runs instead of a full sort.
 */
#ifndef TRAIL_PERF_TIME_ORDER_H
#define TRAIL_PERF_TIME_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* A record waiting for its turn. */
struct pending {
	uint64_t time;		/* ns, the sample's or the record's trailer's */
	uint64_t seq;		/* order of arrival: breaks ties, so the order is total */
	const unsigned char *rec;
	uint64_t off;		/* file offset (of the COMPRESSED record if inside one) */
};

/*
 * Sort q[0..n) by (time, seq).  *tmp (*tmp_alloc entries) is scratch space
 * kept between calls, grown as needed; free it when done.
 */
void time_order_sort(struct pending *q, size_t n, struct pending **tmp, size_t *tmp_alloc);

#endif
