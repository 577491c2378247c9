/*
 * line_map.c - lines in place from a mapped file, else from the line
 * reader (see line_map.h).  The whole file is mapped with its pages
 * populated in one call: every line will be read, and a fault per 16
 * pages costs microseconds each on virtual machines.
 */
#include "core/line_map.h"
#include "core/error.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Map fd when it is a plain regular file read from its start: 1 mapped,
 * 0 not (the line reader takes it).
 */
static int map_plain(struct line_map *m, int fd)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX / 2 || lseek(fd, 0, SEEK_CUR) != 0 ||
	    line_reader_gzip_at(fd, 0) > 0)
		return 0;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (p == MAP_FAILED)
		return 0;
	madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
	m->mapping = p;
	m->data = p;
	m->size = (size_t)st.st_size;
	return 1;
}

int line_map_open(struct line_map *m, const char *path, int map)
{
	int is_stdin = !path || !strcmp(path, "-");
	int fd;

	memset(m, 0, sizeof(*m));
	m->r.fd = -1;
	m->path = is_stdin ? "<stdin>" : path;
	fd = is_stdin ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(is_stdin ? "cannot read '%s'" : "cannot open '%s'", m->path);
	if (map && map_plain(m, fd)) {
		close(fd);
		return 0;
	}
	/* takes fd over */
	return line_reader_open_fd(&m->r, fd, m->path);
}

int line_map_next(struct line_map *m, const char **line, size_t *len)
{
	const char *begin, *nl;
	size_t n;

	if (!m->mapping) {
		char *l;
		int ret = line_reader_next(&m->r, &l, len);

		m->lineno = m->r.lineno;
		*line = l;
		return ret;
	}
	if (m->pos >= m->size)
		return 0;
	begin = m->data + m->pos;
	nl = memchr(begin, '\n', m->size - m->pos);
	n = nl ? (size_t)(nl - begin) : m->size - m->pos;
	m->pos += n + (nl ? 1 : 0);
	if (n && begin[n - 1] == '\r')
		n--;
	if (n > LINE_READER_MAX)
		return trail_error("%s:%llu: line longer than %u bytes",
				   m->path, (unsigned long long)m->lineno + 1, LINE_READER_MAX);
	m->lineno++;
	*line = begin;
	*len = n;
	return 1;
}

void line_map_close(struct line_map *m)
{
	if (m->mapping)
		munmap(m->mapping, m->size);
	else
		line_reader_close(&m->r);
	memset(m, 0, sizeof(*m));
	m->r.fd = -1;
}
