/*
 * line_reader.c - buffered line input through zlib's gzread, which passes
 * plain files through untouched (and reads large requests straight into
 * our buffer), so one path serves both .gz and plain text.
 */
#include "core/line_reader.h"
#include "core/alloc.h"
#include "core/error.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define READ_CHUNK (1u << 20)	/* bytes per gzread */

int line_reader_open_fd(struct line_reader *r, int fd, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->path = name;
	r->gz = gzdopen(fd, "rb");
	if (!r->gz) {
		close(fd);
		return error("cannot read '%s'", name);
	}
	gzbuffer(r->gz, READ_CHUNK);
	return 0;
}

int line_reader_open(struct line_reader *r, const char *path)
{
	int fd;

	if (!path || !strcmp(path, "-"))
		return line_reader_open_fd(r, dup(0), "<stdin>");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		memset(r, 0, sizeof(*r));
		return error_errno("cannot open '%s'", path);
	}
	return line_reader_open_fd(r, fd, path);
}

static int fill(struct line_reader *r)
{
	int n;

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->alloc - r->end < READ_CHUNK + 1) {
		if (r->alloc > LINE_READER_MAX + 2 * (size_t)READ_CHUNK)
			return error("%s:%llu: line longer than %u bytes",
				     r->path, (unsigned long long)r->lineno + 1, LINE_READER_MAX);
		r->alloc = r->alloc ? r->alloc * 2 : 4 * (size_t)READ_CHUNK;
		r->buf = xrealloc(r->buf, r->alloc);
	}
	n = gzread(r->gz, r->buf + r->end, READ_CHUNK);
	if (n < 0) {
		int errnum;
		const char *msg = gzerror(r->gz, &errnum);

		return error("cannot read '%s': %s", r->path, msg);
	}
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return 0;
}

int line_reader_next(struct line_reader *r, char **line, size_t *len)
{
	size_t scanned = 0;

	for (;;) {
		char *s = r->buf + r->start + scanned;
		char *nl = r->end > r->start + scanned
			? memchr(s, '\n', r->end - r->start - scanned) : NULL;

		if (nl || (r->eof && r->end > r->start)) {
			char *begin = r->buf + r->start;
			size_t l = nl ? (size_t)(nl - begin) : r->end - r->start;

			r->missing_newline = !nl;
			r->start += l + (nl ? 1 : 0);
			if (l && begin[l - 1] == '\r')
				l--;
			if (l > LINE_READER_MAX)
				return error("%s:%llu: line longer than %u bytes",
					     r->path, (unsigned long long)r->lineno + 1, LINE_READER_MAX);
			begin[l] = '\0';
			r->lineno++;
			*line = begin;
			*len = l;
			return 1;
		}
		if (r->eof)
			return 0;
		scanned = r->end - r->start;
		if (fill(r))
			return -1;
	}
}

void line_reader_close(struct line_reader *r)
{
	if (r->gz)
		gzclose(r->gz);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
