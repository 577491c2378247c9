/*
 * profile_formats.h - what the formats that are read whole share (pprof,
 * speedscope, Chrome .cpuprofile, 'jfr print --json', folded stacks):
 * each parses the whole input into a folded_profile (frames root first,
 * counts as doubles), and collapse_read_whole() hands those stacks to the
 * folder of the collapse session (collapser.h).
 */
#ifndef TRAIL_COLLAPSE_PROFILE_FORMATS_H
#define TRAIL_COLLAPSE_PROFILE_FORMATS_H

#include <stddef.h>

struct collapse_input;
struct collapse_session;
struct folded_profile;
struct folder;

/* Parse data[0..len) (NUL-terminated) into out; 0, or -1 after trail_error(). */
typedef int profile_fold_fn(const char *data, size_t len, const char *name,
			    const char *sample_type, struct folded_profile *out);

/*
 * A collapser's read(): slurp the input, fold it with fold (given the
 * session's --sample-type), add every stack to f.  Counts are rounded to
 * integers, which the folder keeps (a warning says how many were not
 * already); stacks with counts <= 0 are left out.  0, or -1 after trail_error().
 */
int collapse_read_whole(struct collapse_session *s, struct collapse_input *in, struct folder *f,
			profile_fold_fn *fold);

/* The head with leading JSON whitespace skipped (*len adjusted). */
const char *json_head(const char *head, size_t *len);

#endif
