/*
 * strbuf_io.c - reading a descriptor or a file into a strbuf and writing
 * one out (declared in strbuf.h), the strbuf functions that report
 * errors through core/error.h.
 */
#include "core/strbuf.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int strbuf_read_fd(struct strbuf *sb, int fd, const char *name)
{
	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error_errno("cannot read '%s'", name);
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
	}
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	ret = strbuf_read_fd(sb, fd, path);
	close(fd);
	return ret;
}

int strbuf_write_file(const struct strbuf *sb, const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return error_errno("cannot create '%s'", path);
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len) {
		fclose(f);
		return error_errno("cannot write '%s'", path);
	}
	if (fclose(f))
		return error_errno("cannot write '%s'", path);
	return 0;
}
