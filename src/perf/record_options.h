/*
 * record_options.h - trail record's command line: its option table and
 * usage text, the checks of what combines, and the sampler options the
 * words mean.  The one reader of that line, for the words typed after
 * 'trail record' (cmd/record.c) and for the line trail flame writes for
 * a recording it makes in its own process (measure/sample_run.c), so what
 * the sampler does is what the line that describes it says.
 */
#ifndef TRAIL_PERF_RECORD_OPTIONS_H
#define TRAIL_PERF_RECORD_OPTIONS_H

#include "core/options.h"
#include "perf/sampler.h"

#include <stdint.h>

/* The options as typed; strings are borrowed from the words. */
struct record_options {
	const char *output;		/* -o FILE, or NULL */
	const char *pid;		/* -p PID as typed, or NULL */
	const char *event;		/* -e EVENT, or NULL: the default */
	const char *callgraph;		/* -g MODE, or NULL: fp */
	uint64_t freq;			/* -F, samples per second; 0: not given */
	uint64_t count;			/* -c, events per sample; 0: not given */
	uint64_t mmap_pages;		/* -m, data pages per CPU ring; 0: default */
	double duration;		/* --duration, seconds; 0: none */
	int folded;			/* --folded */
	const char *weight;		/* --weight as typed, or NULL */
	uint64_t alloc_interval;	/* --alloc-interval, bytes; 0: default */
	const char *view;		/* --view as typed, or NULL */
};

/* trail record's synopsis and description, for parse_options(). */
extern const char *const record_usage[];

/* Entries of record_options_table(), OPT_END included. */
#define RECORD_OPTIONS_NR 13
/* trail record's option table, writing into o (which it must not outlive). */
void record_options_table(struct record_options *o, struct option opts[RECORD_OPTIONS_NR]);

/*
 * What does not combine, n being the words left after the options (the
 * command): NULL with *pid set (0 without -p), or the usage error.  The
 * folded output's options (--weight) are the command's to check.
 */
const char *record_options_check(const struct record_options *o, int n, uint64_t *pid);

/*
 * The sampler options of o: -e, -F, -c, -g, -m, --duration.  0, or -1
 * after an error (an unknown -g mode).  so's strings are o's.
 */
int record_options_sampler(const struct record_options *o, struct sampler_opts *so);

/*
 * A whole 'trail record' line as a recording in this process reads it:
 * argv[0] the program, argv[1] "record", then options, "--" and the
 * command.  After record_words_read() returns 0, w->o holds the options,
 * w->so the sampler's, w->command the command's words (NULL-terminated);
 * all borrow from argv, which must outlive w.
 */
struct record_words {
	struct record_options o;
	struct sampler_opts so;
	const char **command;
	const char **words_;		/* the parser's copy of argv */
};
/*
 * 0, or -1 with what is wrong: a word the parser rejects, options that do
 * not combine, no command or -o, or what a recording into a perf.data
 * of a command does not do (-p, folded output, -e alloc and its options).
 * record_words_release() after either.
 */
int record_words_read(struct record_words *w, int argc, const char *const *argv);
void record_words_release(struct record_words *w);

#endif
