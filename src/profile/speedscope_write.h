/*
 * speedscope_write.h - write a folded profile as speedscope's JSON file
 * format (https://www.speedscope.app/file-format-schema.json): one
 * "sampled" profile whose samples are the stacks (frame indexes, root
 * first) and whose weights are their counts.  speedscope.app and the
 * speedscope npm package open it; so does trail collapse.
 */
#ifndef TRAIL_PROFILE_SPEEDSCOPE_WRITE_H
#define TRAIL_PROFILE_SPEEDSCOPE_WRITE_H

struct folded_profile;
struct strbuf;

/*
 * Append p (one count column) as speedscope JSON to out; name titles the
 * profile.  Returns 0, or -1 after trail_error() when p is differential.
 */
int speedscope_encode(const struct folded_profile *p, const char *name, struct strbuf *out);

#endif
