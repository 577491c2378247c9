/*
 * writers.h - the output formats of a profile, behind one interface as
 * the input formats are behind struct collapser: folded text (with trail's
 * header when the counts are not plain samples), pprof and speedscope.
 * Every writer keeps the profile's units (folded_profile.weight).  Adding
 * a format is one entry in writers.c.
 */
#ifndef TRAIL_PROFILE_WRITERS_H
#define TRAIL_PROFILE_WRITERS_H

struct folded_profile;
struct strbuf;

struct profile_writer {
	const char *name;		/* --output NAME */
	const char *description;	/* one line for help and completion */
	int binary;			/* refuses a terminal */
	/* Append p as this format to out; title names the profile (speedscope). */
	int (*write)(const struct folded_profile *p, const char *title, struct strbuf *out);
};

extern const struct profile_writer *const profile_writers[];	/* NULL-terminated */

const struct profile_writer *profile_writer_find(const char *name);
/* "folded, pprof or speedscope": for messages. */
const char *profile_writer_names(void);

#endif
