/*
 * collapser.h - the one interface every input format of 'trail collapse'
 * implements, the table of formats, and the guesser that picks one from
 * the first bytes of an input.  A format reads one input and hands its
 * stacks to the folding engine (profile/fold.h), which merges, sorts and
 * writes them, so every format gets the same output rules for free.
 *
 * How to add a format (one file + one table line):
 *   1. write src/collapse/<name>.c defining
 *        const struct collapser collapse_<name> = { "<name>", "one line", detect, read };
 *      with a file-top comment naming the format's documentation;
 *   2. add X(<name>) to COLLAPSE_FORMATS in src/collapse/formats.c (the order
 *      there breaks ties between equally confident detectors), and the object
 *      to src/collapse/module.mk;
 *   3. a fuzz target tests/fuzz/fuzz_<name>.c, tests, a line in docs/collapse.md.
 * Format-specific options go in struct collapse_options below (and the
 * option table of src/cmd/collapse.c).
 *
 * This interface is stable: other branches register readers against it.
 */
#ifndef TRAIL_COLLAPSE_COLLAPSER_H
#define TRAIL_COLLAPSE_COLLAPSER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/string_list.h"
#include "profile/fold.h"
#include "profile/folded.h"

struct line_reader;
struct decompress;

/* ---- one input ---- */

#define COLLAPSE_HEAD_MAX (64u << 10)	/* bytes of decompressed input shown to detect() */

/*
 * An input opened for reading: a file or standard input, gzip, zstd or xz
 * undone transparently.  Its first bytes (head) are read ahead for
 * guessing and replayed: every way of reading below starts at byte 0.
 */
struct collapse_input {
	const char *path;	/* as given: a path, or "-" for standard input */
	const char *name;	/* for messages: the path, or "<stdin>" */
	/*
	 * The path when the input is an uncompressed regular file that a
	 * reader may open itself (mmap, threads, perf.data); NULL otherwise.
	 * A reader that does so must not also read through the stream.
	 */
	const char *plain_path;
	const char *head;	/* the first head_len decompressed bytes, NUL-terminated */
	size_t head_len;	/* bytes; < COLLAPSE_HEAD_MAX only for shorter inputs */
	const char *compression;	/* "plain", "gzip", "zstd" or "xz" */

	/* private to input.c */
	struct decompress *stream;
	char *head_buf;
	size_t replayed;	/* bytes of head already handed out by collapse_input_read */
};

/* Open path ("-": standard input) and read its head.  0, or -1 after trail_error(). */
int collapse_input_open(struct collapse_input *in, const char *path);
/* An input over a buffer (not copied; must outlive in).  For tests and fuzzing. */
void collapse_input_from_buffer(struct collapse_input *in, const char *name,
				const char *buf, size_t len);
/* Up to n decompressed bytes: the count, 0 at the end, or -1 after trail_error(). */
ssize_t collapse_input_read(struct collapse_input *in, void *buf, size_t n);
/* A line reader (core/line_reader.h) over the input: 0, or -1 after trail_error(). */
int collapse_input_lines(struct collapse_input *in, struct line_reader *r);
/* The whole input in one NUL-terminated malloc'd buffer (*len bytes): 0 or -1. */
int collapse_input_slurp(struct collapse_input *in, char **data, size_t *len);
void collapse_input_close(struct collapse_input *in);

/* ---- the session: options and state shared by every input of one run ---- */

enum ghc_cost {
	GHC_COST_TIME,		/* the "individual %time" column (default) */
	GHC_COST_TICKS,		/* "ticks" */
	GHC_COST_BYTES,		/* "bytes" (allocation) */
};

/* Options of particular formats; zero means the format's default. */
struct collapse_options {
	/* perf script, perf.data */
	unsigned jobs;			/* threads for large perf script files (0: 1) */
	size_t chunk_size;		/* bytes per parallel work item (0: default) */
	double skip_fraction;		/* perf.data: drop this first part of the time span */
	int count_samples;		/* perf.data: weigh every sample 1, not its period */
	int inlines;			/* perf.data: 0 perf script's default, 1 --inline, -1 none */
	/* dtrace */
	int include_offset;		/* keep "+0x1f" offsets on function names */
	/* sample, vtune */
	int no_modules;			/* drop "module`" from frame names */
	/* ghcprof */
	enum ghc_cost ghc_cost;
	/* formats with several sample types (pprof, JFR): NULL = the format's default */
	const char *sample_type;
};

#define COLLAPSE_MAX_WARNINGS 10	/* bad lines reported one by one, per session */

struct collapse_session {
	struct fold_options fold;	/* folder options (copied by collapse_session_init) */
	struct collapse_options opts;	/* set by the caller before the first read */

	/* shared across inputs */
	char *event_filter;		/* owned; NULL: the first event type seen */
	int filter_defaulted;		/* event_filter came from the input */
	char *other_event;		/* owned; first event type that was filtered out */
	uint64_t unrecognized;		/* input lines or records not understood */
	uint64_t binary;		/* of those, lines holding a NUL byte */
	unsigned warned;		/* of those, reported one by one */
	struct string_list skipped_events;	/* names of events filtered out (a few) */
	unsigned threads_used;		/* perf script: most threads that read one file */
	/* what the counts are: set by readers that know (a trail-folded header,
	 * pprof's sample type, speedscope's unit); samples otherwise */
	struct folded_weight_info weight;

	/* folders[0] is what read() gets; readers may add more (threads) */
	struct folder **folders;
	size_t nr_folders;
};

void collapse_session_init(struct collapse_session *s, const struct fold_options *fold);
void collapse_session_release(struct collapse_session *s);
/* Take over a folder filled by a reader (e.g. one per thread); written with the others. */
void collapse_session_add_folder(struct collapse_session *s, struct folder *f);
/*
 * Count one input line that was not understood, and warn about it
 * ("name:lineno: what: text") while fewer than COLLAPSE_MAX_WARNINGS were.
 */
void collapse_session_bad_line(struct collapse_session *s, const char *name, uint64_t lineno,
			       const char *what, const char *text, size_t len);
/* Write every folder's stacks, merged and sorted.  0, or -1 after trail_error(). */
int collapse_session_write(struct collapse_session *s, FILE *out);

/* ---- a format ---- */

struct collapser {
	const char *name;		/* --format NAME: lower case, no blanks */
	const char *description;	/* one line for --format list */
	/*
	 * How sure the format is that an input starting with head (len bytes,
	 * NUL-terminated, possibly cut in the middle of a line) is its own:
	 * 0 = not mine, 1..100 = more and more sure (100: a magic number).
	 * Pure: no I/O, no state.
	 */
	int (*detect)(const char *head, size_t len);
	/*
	 * Read the whole input into f (and the session's counters).  Bad
	 * lines that can be skipped go to collapse_session_bad_line(); input
	 * that cannot be understood at all returns -1 after trail_error("name:line:
	 * ...").  Returns 0 otherwise.
	 */
	int (*read)(struct collapse_session *s, struct collapse_input *in, struct folder *f);
};

/* The formats, in tie-breaking order, ending with NULL. */
extern const struct collapser *const collapsers[];

/* The format called name, or NULL. */
const struct collapser *collapser_find(const char *name);
/*
 * The format most confident about head (ties: the earlier in the table),
 * or NULL when none claims it.  *confidence gets its answer (may be NULL).
 */
const struct collapser *collapse_guess(const char *head, size_t len, int *confidence);

#endif
