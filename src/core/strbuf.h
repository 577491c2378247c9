/*
 * strbuf.h - growable byte strings.
 *
 * Invariants (as in git): buf is never NULL; buf[len] == '\0' always, so
 * buf can be handed to C string functions; alloc > len unless alloc == 0,
 * in which case buf points to a shared static empty string.
 */
#ifndef TRAIL_CORE_STRBUF_H
#define TRAIL_CORE_STRBUF_H

#include <stddef.h>
#include <stdio.h>

struct strbuf {
	size_t alloc;	/* bytes allocated, 0 while buf is the static "" */
	size_t len;	/* bytes used, not counting the terminating NUL */
	char *buf;
};

extern char strbuf_empty_[];
#define STRBUF_INIT { 0, 0, strbuf_empty_ }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the buffer and return to the STRBUF_INIT state. */
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (who frees it); sb is reset. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_rtrim(struct strbuf *sb);

/* strbuf_io.c: read all of fd/path into sb; return 0 or -1 (with trail_error() printed). */
int strbuf_read_fd(struct strbuf *sb, int fd, const char *name);
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Write all of sb; return 0 or -1 (with trail_error() printed). */
int strbuf_write_file(const struct strbuf *sb, const char *path);

#endif
