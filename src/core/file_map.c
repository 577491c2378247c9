/*
 * file_map.c - whole files in memory, mapped or read (see file_map.h).
 */
#include "core/file_map.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int file_map_fd(struct file_map *m, int fd, const char *name, unsigned flags)
{
	struct stat st;
	struct strbuf sb = STRBUF_INIT;

	memset(m, 0, sizeof(*m));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		int mflags = MAP_PRIVATE | (flags & FILE_MAP_POPULATE ? MAP_POPULATE : 0);
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, mflags, fd, 0);

		if (p != MAP_FAILED) {
			if (flags & FILE_MAP_SEQUENTIAL)
				madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
			m->mapping = p;
			m->data = p;
			m->size = (size_t)st.st_size;
			return 0;
		}
	}
	if (strbuf_read_fd(&sb, fd, name))
		return -1;
	m->owned = (unsigned char *)strbuf_detach(&sb, &m->size);
	m->data = m->owned;
	return 0;
}

int open_regular(const char *path)
{
	struct stat st;
	int fd, fl;

	/* O_NONBLOCK: opening a FIFO without a writer would wait for one */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int file_map_path(struct file_map *m, const char *path, unsigned flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	memset(m, 0, sizeof(*m));
	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	ret = file_map_fd(m, fd, path, flags);
	close(fd);
	return ret;
}

void file_map_release(struct file_map *m)
{
	if (m->mapping)
		munmap(m->mapping, m->size);
	free(m->owned);
	memset(m, 0, sizeof(*m));
}
