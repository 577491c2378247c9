/*
 * load.h - one entry point for commands that analyse a profile whatever
 * its form: folded stacks, 'perf script' text or a perf.data file (file or
 * pipe mode, plain or gzip text), read into a folded_profile with
 * 'trail collapse's default options.  The form is found from the content.
 */
#ifndef TRAIL_COLLAPSE_LOAD_H
#define TRAIL_COLLAPSE_LOAD_H

#include "profile/folded.h"

enum load_format { LOAD_FOLDED, LOAD_PERF_SCRIPT, LOAD_PERF_DATA };

/* "folded stacks", "perf script text", "perf.data" */
const char *load_format_name(enum load_format f);

/*
 * Add the stacks of path ("-" for standard input) to p (initialised by the
 * caller).  *format (if given) says what was read; perf script text and
 * perf.data were folded with a process-name root frame.  Returns 0, or -1
 * when the input cannot be read (error printed).
 */
int load_profile(struct folded_profile *p, const char *path, enum load_format *format);

#endif
