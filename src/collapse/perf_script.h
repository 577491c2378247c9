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

#include "profile/fold.h"

/* ---- the line grammar (exposed for unit tests and the fuzzer) ---- */

/* An event line (the regex in perf_script_grammar.c), with Perl's captures. */
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

/* ---- reading whole inputs into a collapse session (collapser.h) ---- */

struct collapse_session;
struct folder;

#define PERF_SCRIPT_MAX_EVENT_NAMES 16	/* skipped event names remembered */

/*
 * Fold one input into f, with the session's options (opts.jobs,
 * opts.chunk_size) and event filter, and its findings (unrecognised lines,
 * skipped events, threads_used) added to the session: path, or "-" for
 * standard input; plain or gzip.  A large regular file read by threads
 * goes to folders added to the session instead of f.  The state of the
 * Perl script is reset at the end of each input (a last sample without a
 * blank line after it is counted, as inferno does).
 * Returns 0, or -1 when the input cannot be read (error printed).
 */
int perf_script_read_path(struct collapse_session *s, struct folder *f, const char *path);

/* Fold a buffer of perf script text (as one input named name); for tests and fuzzing. */
void perf_script_read_buffer(struct collapse_session *s, struct folder *f, const char *name,
			     const char *buf, size_t len);

#endif
