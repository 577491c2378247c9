/*
 * pprof.h - read pprof's profile.proto (gzipped or not), as written by Go's
 * runtime/pprof, pprof-rs, async-profiler -o pprof, Pyroscope and others
 * (schema: github.com/google/pprof/proto/profile.proto), into folded
 * stacks: one frame per Line of each Location, so inlined functions are
 * frames of their own, root first.  No protobuf library: core/protobuf.h.
 *
 * Which value of each sample becomes the count: the sample type named by
 * the caller (e.g. "alloc_space"), else the profile's default_sample_type,
 * else the last one (what 'go tool pprof' shows by default: "cpu" for CPU
 * profiles, "inuse_space" for heap profiles).  "unit=UNIT" asks for the
 * last type measured in UNIT (e.g. "unit=count": sample counts, which
 * 'trail flame' wants), else the last one.
 */
#ifndef TRAIL_COLLAPSE_PPROF_H
#define TRAIL_COLLAPSE_PPROF_H

#include <stddef.h>

struct folded_profile;

/* Decompressed profiles and the stacks built are limited by collapse/limits.h. */

/*
 * Whether data (the first bytes of a file, gzipped or not) looks like a
 * profile.proto: it starts with a sample_type field.  1 or 0.
 */
int pprof_detect(const void *data, size_t len);

/*
 * Fold the profile in data[0..len) into out.  sample_type: NULL for the
 * default above.  name is for messages.  Returns 0, or -1 after trail_error()
 * (malformed profile, unknown sample type: the message lists the types).
 */
int pprof_fold(const char *data, size_t len, const char *name, const char *sample_type,
	       struct folded_profile *out);

#endif
