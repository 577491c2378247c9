/*
 * suite.h - the benchmark suite of a repository: .trail at its root, in
 * git-config syntax (read by 'git config --file .trail -z --list', like
 * .gitmodules), one [bench "NAME"] section per benchmark and a
 * [defaults] section they inherit from.  The file is the repository's,
 * so it is read as untrusted text: every key and value is checked, and
 * an error names FILE:LINE and the key.
 */
#ifndef TRAIL_HISTORY_SUITE_H
#define TRAIL_HISTORY_SUITE_H

#include "history/budget.h"

#include <stddef.h>
#include <stdint.h>

#define HISTORY_SUITE_FILE ".trail"
/* a bench's name: letters, digits, '.', '_', '-', at most this long (a file name on the site) */
#define HISTORY_BENCH_NAME_MAX 64

struct history_bench {
	char *name;		/* NULL for [defaults] */
	char *build, *run;	/* shell commands (NULL: not set) */
	char *metric;		/* cpu, wall, rss, alloc, peak-heap (NULL: not set) */
	char *profiler;		/* trail or perf (NULL: not set) */
	uint64_t repeat;	/* profiled runs per commit (0: not set) */
	double min_effect;	/* percent (< 0: not set) */
	double timeout;		/* seconds per run (< 0: not set) */
	struct history_budget budget;
	int has_budget;
	unsigned line;		/* of its first key in the file */
	unsigned budget_line;	/* of its budget key (messages of guard) */
};

struct history_suite {
	char *path;			/* the file read, as named in messages */
	struct history_bench *benches;	/* in the file's order, defaults applied */
	size_t nr;
};

/*
 * Read top/.trail: 0 with s filled, 1 when there is no such file (s
 * empty), -1 on an error (printed, naming FILE:LINE and the key).
 */
int history_suite_load(struct history_suite *s, const char *top);
void history_suite_release(struct history_suite *s);
/* Whether n is a valid bench name (HISTORY_BENCH_NAME_MAX, the characters above). */
int history_suite_name_ok(const char *n);
const struct history_bench *history_suite_find(const struct history_suite *s, const char *name);

/*
 * Parse the output of 'git config -z --list' (out[0..len)) of the file
 * named path whose text is text[0..tlen) (for line numbers; may be NULL).
 * Library half of history_suite_load, without git; also the fuzz target's.
 */
int history_suite_parse(struct history_suite *s, const char *path, const char *list, size_t len,
			const char *text, size_t tlen);

/*
 * The line of each key of a git-config text, in the file's order:
 * lines[i] for the i-th "section.subsection.key" that git config --list
 * gives (sections and keys lower-cased, as git does), into *out (malloc'd;
 * names[i] malloc'd too).  Returns how many, never fails: a text git
 * would reject gives what could be read.
 */
size_t history_suite_scan_lines(const char *text, size_t len, char ***names, unsigned **lines);

#endif
