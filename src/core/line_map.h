/*
 * line_map.h - the lines of an input file read in place: a plain (not
 * gzip) regular file is mapped, and its lines point into the mapping until
 * line_map_close(), so a reader that keeps them copies nothing; any other
 * input (gzip, pipes, standard input from a pipe) goes through
 * core/line_reader, whose lines last until the next call.  Same lines as
 * the line reader: no '\n', no trailing '\r', path:line in messages.
 */
#ifndef TRAIL_CORE_LINE_MAP_H
#define TRAIL_CORE_LINE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "core/line_reader.h"

struct line_map {
	const char *path;	/* as shown in messages */
	uint64_t lineno;	/* number of the line last returned, from 1 */
	/* mapped: */
	const char *data;	/* size bytes (not NUL-terminated) */
	size_t size, pos;	/* bytes; the next line starts at pos */
	void *mapping;		/* NULL: reading through r */
	struct line_reader r;
};

/*
 * Open path ("-" or NULL: standard input).  With map, a plain regular file
 * is mapped (its lines last until close; the whole file counts in the
 * RSS); without, every input streams through the line reader's bounded
 * buffer.  0, or -1 (error printed).
 */
int line_map_open(struct line_map *m, const char *path, int map);

/*
 * 1: a line is in *line and *len (not NUL-terminated); 0: end of input;
 * -1: error (printed).
 */
int line_map_next(struct line_map *m, const char **line, size_t *len);

/* Whether lines stay valid until line_map_close() (else: until the next call). */
static inline int line_map_stable(const struct line_map *m)
{
	return m->mapping != NULL;
}

void line_map_close(struct line_map *m);

#endif
