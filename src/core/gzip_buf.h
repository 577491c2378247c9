/*
 * gzip_buf.h - gzip a buffer in memory, or gunzip one with a size limit
 * (a few kilobytes can inflate to gigabytes: the limit turns such a file
 * into an error, not an out-of-memory kill).  For binary formats that are
 * read whole, such as pprof's gzipped profile.proto; text input streams
 * through core/line_reader.h instead.
 */
#ifndef TRAIL_CORE_GZIP_BUF_H
#define TRAIL_CORE_GZIP_BUF_H

#include <stddef.h>

struct strbuf;

/* Whether data starts with gzip's magic bytes (1f 8b). */
int gzip_buf_is_gzip(const void *data, size_t len);

/*
 * Append the inflated contents of the gzip data to out, reading every
 * member of a multi-member file.  More than max bytes of output is an
 * error.  name is for messages.  Returns 0, or -1 after trail_error().
 */
int gzip_buf_inflate(const void *data, size_t len, size_t max, struct strbuf *out,
		     const char *name);

/*
 * Inflate at most want bytes of the start of the gzip data into out, for
 * format detection: returns the bytes produced (a truncated or corrupt
 * stream just gives fewer), never an error message.
 */
size_t gzip_buf_peek(const void *data, size_t len, void *out, size_t want);

/* Append data, gzip-compressed (default level), to out. */
void gzip_buf_deflate(const void *data, size_t len, struct strbuf *out);

#endif
