/*
 * profile_formats.h - the whole-file profile formats (pprof, speedscope,
 * Chrome .cpuprofile, 'jfr print --json'): one table of { name, detect,
 * fold }, and a reader that loads a file (gzip allowed), guesses its
 * format and folds it into a folded_profile.  Unlike perf script text,
 * these formats are read whole, not streamed.
 */
#ifndef TRAIL_COLLAPSE_PROFILE_FORMATS_H
#define TRAIL_COLLAPSE_PROFILE_FORMATS_H

#include <stddef.h>

struct folded_profile;

struct profile_format {
	const char *name;	/* as --format would spell it */
	/* 1 when data (the file's first bytes, decompressed) is this format */
	int (*detect)(const void *data, size_t len);
	/* fold data[0..len) (decompressed, except for pprof) into out; 0 or -1 */
	int (*fold)(const void *data, size_t len, const char *name, const char *sample_type,
		    struct folded_profile *out);
};

/* The table, ended by an entry with a NULL name. */
extern const struct profile_format profile_formats[];

/* The format of data[0..len) (gzip allowed), or NULL. */
const struct profile_format *profile_format_guess(const void *data, size_t len);

/*
 * Read the file at path, guess its format, fold it into out.  Returns 1
 * when folded, 0 when the file is none of these formats or cannot be
 * opened, or path is "-" (out untouched, nothing printed: the caller's
 * next reader reports), -1 after error().  sample_type picks the
 * pprof sample type or the JFR event type (NULL: the format's default).
 */
int profile_format_fold_file(const char *path, const char *sample_type, struct folded_profile *out);

/* The same for bytes already in memory (gzip allowed). */
int profile_format_fold(const void *data, size_t len, const char *name, const char *sample_type,
			struct folded_profile *out);

#endif
