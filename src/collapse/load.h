/*
 * load.h - one entry point for commands that analyse a profile whatever
 * its form: folded stacks, or anything 'trail collapse' reads (perf script
 * text, perf.data, pprof, JFR, ...), read into a folded_profile with
 * 'trail collapse's default options.  The form is found from the content,
 * by the same guess as 'trail collapse'.
 */
#ifndef TRAIL_COLLAPSE_LOAD_H
#define TRAIL_COLLAPSE_LOAD_H

#include "profile/folded.h"

struct collapser;

/* What was read, for messages: "folded stacks", "perf script text", "perf.data" or the format's name. */
const char *load_format_name(const struct collapser *c);
/* Whether the format roots every stack at a process name (perf's comm). */
int load_has_process_root(const struct collapser *c);

/*
 * Add the stacks of path ("-" for standard input, any compression) to p
 * (initialised by the caller), read as named (a format the user chose with
 * --format) or, when named is NULL, as the content says.  *format (if
 * given) says what was read (NULL: an empty input).  Returns 0, -1 when the input cannot be read,
 * or LOAD_UNKNOWN_FORMAT when it is no format trail knows (error printed).
 */
#define LOAD_UNKNOWN_FORMAT (-2)
int load_profile(struct folded_profile *p, const char *path, const struct collapser *named,
		 const struct collapser **format);
/*
 * The same with the reading options that are not the content's: a format
 * the user named (NULL: the content says) and, for formats that hold
 * several (pprof, JFR), the sample type to take ('trail collapse
 * --sample-type'; NULL: the format's default).  Every "any input ->
 * profile" reader goes through here (trail flame's --profiler CMD too).
 */
struct load_options {
	const struct collapser *named;
	const char *sample_type;
};
int load_profile_with(struct folded_profile *p, const char *path, const struct load_options *o,
		      const struct collapser **format);
/*
 * For readers of folded text (flamegraph, diff): 1 when the file path
 * holds another format trail knows (pprof, speedscope, perf.data ...),
 * 0 when it is folded text, empty, not a regular file (standard input,
 * a pipe: it cannot be read twice) or unknown (the folded reader then says
 * what is wrong); -1 when it cannot be read (error printed).
 */
int load_is_foreign(const char *path);

#endif
