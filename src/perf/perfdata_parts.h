/*
 * perfdata_parts.h - what the two files of the perf.data reader share and
 * no one else uses: perfdata.c (opening: header, attributes, features) and
 * perfdata_records.c (the records, which may carry attributes and feature
 * sections too, in a pipe-mode file).  Calls go one way: records -> perfdata.c.
 */
#ifndef TRAIL_PERF_PERFDATA_PARTS_H
#define TRAIL_PERF_PERFDATA_PARTS_H

#include "perf/perfdata.h"
#include "core/error.h"

#include <stddef.h>
#include <stdint.h>

/* Decompressed bytes of PERF_RECORD_COMPRESSED records, kept until close. */
struct perfdata_chunk {
	struct perfdata_chunk *next;
	size_t len;		/* bytes of data[] used */
	unsigned char data[];
};

static inline int bad(const struct perfdata *pd, uint64_t off, const char *what)
{
	return trail_error("%s: offset %llu: %s", pd->path, (unsigned long long)off, what);
}

/* Append an evsel from attr bytes (attr_len of them) and ids; NULL when there are too many. */
struct perfdata_evsel *perfdata_evsel_add(struct perfdata *pd, const unsigned char *attr,
					  size_t attr_len);
/* Read feature section feat (HEADER_*) of len bytes at p into pd; -1 after trail_error(). */
int perfdata_parse_feature(struct perfdata *pd, int feat, const unsigned char *p, size_t len);

#endif
