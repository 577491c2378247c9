/*
 * perf_script.h - reading 'perf script' text into the folding engine
 * (fold.h): the line grammar of stackcollapse-perf.pl, a streaming reader
 * for files, pipes and gzip, and a multi-threaded path for large files
 * whose result is identical to the single-threaded one.
 */
#ifndef TRAIL_COLLAPSE_PERF_SCRIPT_H
#define TRAIL_COLLAPSE_PERF_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/string_list.h"
#include "profile/fold.h"

/* ---- the line grammar (exposed for unit tests and the fuzzer) ---- */

/* An event line (the regex in perf_script.c), with Perl's captures. */
struct perf_event_line {
	const char *comm;
	size_t comm_len;
	const char *pid;	/* NULL when the line has only one number (a TID) */
	size_t pid_len;
	const char *tid;
	size_t tid_len;
};

/* 1 when the line is an event line (fields point into s), else 0. */
int perf_script_match_event(const char *s, size_t len, struct perf_event_line *ev);

/*
 * The period and event name of an event line, /:\s*(\d+)*\s+(\S+):\s*$/.
 * Returns 1 on a match; *digits is NULL when there was no period.
 */
int perf_script_match_period(const char *s, size_t len, const char **event, size_t *event_len,
			     const char **digits, size_t *digits_len);

/* A stack line, /^\s*(\w+)\s*(.+) \((.*)\)/: address, function, module. */
int perf_script_match_stack(const char *s, size_t len, struct fold_frame *fr);

/* ---- reading whole inputs ---- */

#define PERF_SCRIPT_MAX_WARNINGS 10	/* unrecognised lines reported one by one */
#define PERF_SCRIPT_MAX_EVENT_NAMES 16	/* skipped event names remembered */

struct perf_script_session {
	/* set by the caller */
	const struct fold_options *fold_opts;
	unsigned jobs;			/* threads for large regular files (>= 1) */
	size_t chunk_size;		/* bytes per parallel work item (0: default) */
	char *event_filter;		/* owned; NULL: the first event type seen */

	/* results */
	struct folder **folders;	/* nr_folders of them; hand to folder_write() */
	unsigned nr_folders;
	int filter_defaulted;		/* event_filter came from the input */
	char *other_event;		/* first event type that was filtered out */
	uint64_t unrecognized;		/* lines that matched no pattern */
	uint64_t binary;		/* unrecognized lines holding a NUL byte */
	uint64_t samples;		/* event lines kept by the event filter */
	struct string_list skipped_events;	/* event names filtered out (a few) */
	unsigned warned;		/* of those, reported one by one */
	unsigned threads_used;		/* largest number of threads used for a file */
};

void perf_script_session_init(struct perf_script_session *s, const struct fold_options *opts,
			      unsigned jobs);
void perf_script_session_release(struct perf_script_session *s);

/*
 * Fold one input: path, or "-" for standard input; plain or gzip.  The
 * state of the Perl script is reset at the end of each input (a last
 * sample without a blank line after it is counted, as inferno does).
 * Returns 0, or -1 when the input cannot be read (error printed).
 */
int perf_script_session_read(struct perf_script_session *s, const char *path);

/* The same from a source of bytes (returns up to n, 0 at the end, -1 after trail_error()). */
int perf_script_session_read_source(struct perf_script_session *s, const char *name,
				    ssize_t (*source)(void *ctx, void *buf, size_t n), void *ctx);

/* Fold a buffer of perf script text (as one input named name); for tests and fuzzing. */
void perf_script_session_read_buffer(struct perf_script_session *s, const char *name,
				     const char *buf, size_t len);

#endif
