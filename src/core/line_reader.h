/*
 * line_reader.h - read text input line by line, from a file or stdin ("-"),
 * gzip-compressed or plain (detected by content), keeping the path and line
 * number for messages ("perf.txt:1234: unrecognised line").
 *
 * Lines are returned without their newline (and without a trailing '\r'),
 * NUL-terminated, pointing into the reader's buffer: valid until the next
 * call.  A line longer than LINE_READER_MAX bytes is an error, so hostile
 * input cannot make memory grow without bound.
 */
#ifndef TRAIL_CORE_LINE_READER_H
#define TRAIL_CORE_LINE_READER_H

#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>

#define LINE_READER_MAX (64u << 20)	/* bytes */

struct line_reader {
	const char *path;	/* as shown in messages */
	void *gz;		/* zlib gzFile, or NULL when fd is read directly */
	int fd;			/* a plain regular file, read(); -1 otherwise */
	size_t chunk;		/* bytes per read */
	char *buf;
	size_t alloc;		/* bytes allocated in buf */
	size_t start, end;	/* unread bytes are buf[start..end) */
	uint64_t lineno;	/* number of the line last returned, from 1 */
	int eof;
	int missing_newline;	/* the last line returned had no '\n' */
	/* a source of bytes instead of fd/gz (line_reader_open_source) */
	ssize_t (*source)(void *ctx, void *buf, size_t n);
	void *source_ctx;
};

/* Open path ("-" or NULL for stdin). Returns 0 or -1 (error printed). */
int line_reader_open(struct line_reader *r, const char *path);
/* Use an already open descriptor (taken over: closed by line_reader_close). */
int line_reader_open_fd(struct line_reader *r, int fd, const char *name);
/*
 * Read lines from source (a function returning up to n bytes, 0 at the
 * end, -1 after printing an error); ctx is passed to it and not freed.
 */
void line_reader_open_source(struct line_reader *r, ssize_t (*source)(void *ctx, void *buf,
								     size_t n),
			     void *ctx, const char *name);
/* 1: a line is in *line and *len; 0: end of input; -1: error (printed). */
int line_reader_next(struct line_reader *r, char **line, size_t *len);
void line_reader_close(struct line_reader *r);

/*
 * Whether the bytes of fd at offset at begin with gzip's magic (read with
 * pread: the file position stays): 1 yes, 0 no, -1 fewer than 2 bytes
 * could be read.
 */
int line_reader_gzip_at(int fd, off_t at);

#endif
