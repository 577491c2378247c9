/*
 * file_map.h - a whole file in memory, read-only: mapped when it is a
 * regular file, read into a buffer otherwise (pipes, standard input,
 * /proc files that report size 0).  Files read whole can ask for their
 * pages up front (FILE_MAP_POPULATE): one call instead of a page fault
 * per 16 pages, which costs microseconds each on virtual machines.
 */
#ifndef TRAIL_CORE_FILE_MAP_H
#define TRAIL_CORE_FILE_MAP_H

#include <stddef.h>

enum {
	FILE_MAP_POPULATE = 1,		/* the whole file will be read */
	FILE_MAP_SEQUENTIAL = 2,	/* ... from start to end */
};

struct file_map {
	const unsigned char *data;	/* size bytes; NUL-terminated when read, not when mapped */
	size_t size;			/* bytes */
	void *mapping;			/* set when mapped */
	unsigned char *owned;		/* set when read */
};

/* From an open descriptor (not closed); name is for messages.  0 or -1 after trail_error(). */
int file_map_fd(struct file_map *m, int fd, const char *name, unsigned flags);
/* From a path. */
int file_map_path(struct file_map *m, const char *path, unsigned flags);
void file_map_release(struct file_map *m);

/*
 * open(path, O_RDONLY) for a regular file only, for paths that come from
 * input data (perf.data's MMAP file names, build-id and debug paths): a
 * FIFO or device there must not block or be read.  Returns the descriptor
 * (close-on-exec), or -1 with errno set (EINVAL: not a regular file).
 */
int open_regular(const char *path);

#endif
