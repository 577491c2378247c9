/*
 * gather.h - buffered output to a file descriptor that can point at memory
 * instead of copying it: long pieces that stay valid until the output is
 * flushed (stack text in an arena) go to the kernel from where they are,
 * through writev(); short ones are copied into a buffer.  That saves a
 * pass over the data when the output is mostly such pieces ('trail diff'
 * writes 20 MB of stacks).
 *
 * The first failed write is remembered (errno) and later output is
 * dropped; gather_finish() reports it.
 */
#ifndef TRAIL_CORE_GATHER_H
#define TRAIL_CORE_GATHER_H

#include <stddef.h>
#include <sys/uio.h>

#define GATHER_IOV 1024			/* iovecs per writev(): IOV_MAX on Linux */
#define GATHER_BUF (64u << 10)		/* bytes of copied output buffered */

struct gather {
	int fd;
	int err;			/* errno of the first failed write, or 0 */
	int nr_iov;			/* iovecs waiting in iov */
	size_t used;			/* bytes of buf the iovecs hold */
	char *buf;			/* GATHER_BUF bytes */
	struct iovec iov[GATHER_IOV];
};

void gather_init(struct gather *g, int fd);
/* Copy n bytes of p. */
void gather_add(struct gather *g, const void *p, size_t n);
/* Write p[0..n) later, from where it is: it must stay valid until the next
 * flush (a full buffer) or gather_finish().  Short pieces are copied. */
void gather_ref(struct gather *g, const void *p, size_t n);
/* Room for at most n bytes (n <= GATHER_BUF) to be formatted in place and
 * then added with gather_commit(). */
char *gather_space(struct gather *g, size_t n);
void gather_commit(struct gather *g, size_t n);
/* Flush and free: 0, or -1 with errno set when a write failed. */
int gather_finish(struct gather *g);

#endif
