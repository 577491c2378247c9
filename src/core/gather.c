/*
 * gather.c - writev() of referenced and copied pieces (see gather.h): the
 * copies accumulate in one buffer, which is only reused after a flush,
 * so the iovecs pointing into it stay valid.
 */
#include "core/gather.h"
#include "core/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GATHER_COPY_BELOW 256u	/* bytes: shorter referenced pieces are copied */

void gather_init(struct gather *g, int fd)
{
	g->fd = fd;
	g->err = 0;
	g->nr_iov = 0;
	g->used = 0;
	g->buf = xmalloc(GATHER_BUF);
}

/* Write out everything pending. */
static void gather_flush(struct gather *g)
{
	struct iovec *v = g->iov;
	int n = g->nr_iov;

	while (n && !g->err) {
		ssize_t w = writev(g->fd, v, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			g->err = w < 0 ? errno : EIO;
			break;
		}
		for (; n && (size_t)w >= v->iov_len; v++, n--)
			w -= (ssize_t)v->iov_len;
		if (n) {
			v->iov_base = (char *)v->iov_base + w;
			v->iov_len -= (size_t)w;
		}
	}
	g->nr_iov = 0;
	g->used = 0;
}

static void push(struct gather *g, const void *p, size_t n)
{
	if (g->nr_iov == GATHER_IOV)
		gather_flush(g);
	g->iov[g->nr_iov].iov_base = (void *)p;
	g->iov[g->nr_iov].iov_len = n;
	g->nr_iov++;
}

char *gather_space(struct gather *g, size_t n)
{
	if (GATHER_BUF - g->used < n)
		gather_flush(g);
	return g->buf + g->used;
}

void gather_commit(struct gather *g, size_t n)
{
	char *p = g->buf + g->used;
	struct iovec *last = g->nr_iov ? &g->iov[g->nr_iov - 1] : NULL;

	if (!n)
		return;
	/* the copies since the last reference are one piece */
	if (last && (char *)last->iov_base + last->iov_len == p)
		last->iov_len += n;
	else
		push(g, p, n);
	g->used += n;
}

void gather_add(struct gather *g, const void *p, size_t n)
{
	while (n) {
		size_t chunk = n < GATHER_BUF ? n : GATHER_BUF;

		memcpy(gather_space(g, chunk), p, chunk);
		gather_commit(g, chunk);
		p = (const char *)p + chunk;
		n -= chunk;
	}
}

void gather_ref(struct gather *g, const void *p, size_t n)
{
	if (n < GATHER_COPY_BELOW)
		gather_add(g, p, n);
	else if (n)
		push(g, p, n);
}

int gather_finish(struct gather *g)
{
	int err;

	gather_flush(g);
	err = g->err;
	free(g->buf);
	g->buf = NULL;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
