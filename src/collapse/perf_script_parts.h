/*
 * perf_script_parts.h - what the files reading 'perf script' text share,
 * and no one else uses: the parser state of perf_script_parse.c, the
 * large-file reader of perf_script_file.c, Perl's character classes and
 * the buffer sizes.  Calls go one way: perf_script.c -> perf_script_file.c
 * -> perf_script_parse.c -> perf_script_grammar.c.
 */
#ifndef TRAIL_COLLAPSE_PERF_SCRIPT_PARTS_H
#define TRAIL_COLLAPSE_PERF_SCRIPT_PARTS_H

#include "collapse/collapser.h"
#include "collapse/perf_script.h"
#include "core/string_list.h"

#include <stddef.h>
#include <stdint.h>

#define DEFAULT_CHUNK (8u << 20)	/* bytes of input per parallel work item */
#define STREAM_READ (1u << 20)		/* bytes per read from a pipe or gzip */
#define MAX_LINE (64u << 20)		/* longest line accepted */
#define READ_BLOCK (256u << 10)		/* bytes per pread of a regular file */

/* Perl's \s, \d and \w on byte strings. */
static inline int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_word(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* ---- perf_script_parse.c: one parser per thread ---- */

struct warn_line {
	uint64_t line;		/* line number within the piece parsed */
	char *text;
};

struct parser {
	struct folder *folder;
	const char *event_filter;	/* NULL: take the first event type seen */
	size_t event_filter_len;
	char *own_filter;		/* set when this parser chose the filter */
	char *other_event;		/* first event type filtered out */
	struct string_list skipped_events;	/* every type filtered out (a few) */
	uint64_t lineno;		/* lines parsed so far */
	uint64_t unrecognized;
	uint64_t binary;		/* of those, lines holding a NUL byte */
	struct warn_line warn[COLLAPSE_MAX_WARNINGS];
	unsigned nr_warn;
};

void script_parser_init(struct parser *p, struct folder *f, const char *filter);
void script_parser_release(struct parser *p);
/* Parse whole lines (a last line without '\n' included). */
void script_parse_lines(struct parser *p, const char *buf, size_t len);
/* Report a parser's unrecognised lines (numbered from line_base) and take over its findings. */
void script_parser_absorb(struct collapse_session *s, struct parser *p, const char *name,
			  uint64_t line_base);
/* The end of an input: count a last sample without a blank line after it. */
void script_finish_input(struct folder *f);

/* ---- perf_script_file.c: a plain regular file, by threads when large ---- */

/* Returns 0, or -1 after trail_error(); fd stays open. */
int perf_script_read_file(struct collapse_session *s, struct folder *f, const char *name, int fd,
			  uint64_t len, size_t chunk);

#endif
