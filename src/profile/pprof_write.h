/*
 * pprof_write.h - write a folded profile as pprof's profile.proto,
 * gzipped, as 'go tool pprof', Pyroscope and Grafana read it: one sample
 * type per unit of p->weight (folded.h: samples/count, cpu/nanoseconds,
 * alloc_space/bytes ...), one function and one location per distinct
 * frame name, one sample per stack (leaf first, as the format wants).
 */
#ifndef TRAIL_PROFILE_PPROF_WRITE_H
#define TRAIL_PROFILE_PPROF_WRITE_H

#include <stddef.h>

struct folded_profile;
struct strbuf;

/*
 * Encode p (one count column; counts are rounded to integers, which
 * pprof's values are) as gzipped profile.proto, appended to out.
 * Returns 0, or -1 after trail_error() when p is differential.
 */
int pprof_encode(const struct folded_profile *p, struct strbuf *out);

#endif
