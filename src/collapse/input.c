/*
 * input.c - struct collapse_input (collapser.h): one input file or
 * standard input, decompressed (core/decompress.h), with its first
 * COLLAPSE_HEAD_MAX bytes read ahead for the guesser and replayed, so
 * standard input can be guessed without being seekable.
 */
#include "collapse/collapser.h"
#include "collapse/limits.h"
#include "core/alloc.h"
#include "core/decompress.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * decompress_read() within the budget: a compressed stream that expands
 * beyond --max-expansion (a zip bomb) is an error before it fills memory
 * or takes minutes to stream through.
 */
static ssize_t checked_read(struct collapse_input *in, void *buf, size_t n)
{
	ssize_t got = decompress_read(in->stream, buf, n);
	uint64_t bytes_in, bytes_out;

	if (got <= 0 || decompress_kind(in->stream) == DECOMPRESS_PLAIN)
		return got;
	decompress_counts(in->stream, &bytes_in, &bytes_out);
	if (!input_limits_expansion_ok(bytes_in, bytes_out))
		return input_limit_error(in->name, "max-expansion", "decompressed, it grows more "
					 "than %llu times its compressed size (a zip bomb?)",
					 (unsigned long long)input_limits.max_expansion);
	return got;
}

/* Read from the stream until buf is full or the input ends. */
static ssize_t read_full(struct collapse_input *in, char *buf, size_t n)
{
	size_t have = 0;

	while (have < n) {
		ssize_t got = checked_read(in, buf + have, n - have);

		if (got < 0)
			return -1;
		if (!got)
			break;
		have += (size_t)got;
	}
	return (ssize_t)have;
}

/*
 * Whether buf[0..len) holds its first line that is neither blank nor a
 * '#' comment or header (trail's "# trail-folded ..." first) whole, or is
 * JSON ('{' or '[' first), which is known from its start: then the head
 * is enough to tell the format.  *pos (0 at first) is where the scan
 * resumes: the start of the first line not yet seen whole.
 */
static int head_enough(const char *buf, size_t len, size_t *pos)
{
	while (*pos < len) {
		const char *nl = memchr(buf + *pos, '\n', len - *pos);
		size_t start = *pos + strspn(buf + *pos, " \t\r");

		if (start < len && (buf[start] == '{' || buf[start] == '['))
			return 1;
		if (!nl)
			return 0;
		if (start < (size_t)(nl - buf) && buf[start] != '#')
			return 1;
		*pos = (size_t)(nl - buf) + 1;
	}
	return 0;
}

/*
 * A first stack line longer than the head (folded stacks of C++ template
 * names) could not be recognised from a piece of it: a full head without
 * a whole first data line is read on to that line's end (up to the line
 * reader's limit; binary data, with a NUL, stops it), and the head grows
 * to hold it.
 */
static ssize_t extend_head(struct collapse_input *in, size_t have)
{
	size_t alloc = COLLAPSE_HEAD_MAX, pos = 0;
	ssize_t got;

	in->head_buf[have] = '\0';	/* head_enough's strspn stops here */
	if (have < COLLAPSE_HEAD_MAX || memchr(in->head_buf, '\0', have) ||
	    head_enough(in->head_buf, have, &pos))
		return (ssize_t)have;
	while (have < LINE_READER_MAX) {
		const char *nl;

		if (have == alloc) {
			alloc *= 2;
			in->head_buf = xrealloc(in->head_buf, alloc + 1);
		}
		got = checked_read(in, in->head_buf + have, alloc - have);
		if (got <= 0)
			return got < 0 ? got : (ssize_t)have;
		if (memchr(in->head_buf + have, '\0', (size_t)got))
			return (ssize_t)(have + (size_t)got);
		nl = memchr(in->head_buf + have, '\n', (size_t)got);
		have += (size_t)got;
		in->head_buf[have] = '\0';
		if (nl && head_enough(in->head_buf, have, &pos))
			return (ssize_t)have;
	}
	return (ssize_t)have;
}

int collapse_input_open(struct collapse_input *in, const char *path)
{
	int stdin_path = !strcmp(path, "-");
	struct stat st;
	ssize_t got;
	int fd;

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->name = stdin_path ? "<stdin>" : path;
	fd = stdin_path ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return stdin_path ? error_errno("cannot read standard input")
				  : error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return trail_error("'%s' is a directory", path);
	}
	in->stream = decompress_open(fd, in->name);
	if (!in->stream)
		return -1;
	in->compression = decompress_kind_name(decompress_kind(in->stream));
	if (!stdin_path && S_ISREG(st.st_mode) && decompress_kind(in->stream) == DECOMPRESS_PLAIN)
		in->plain_path = path;
	in->head_buf = xmalloc(COLLAPSE_HEAD_MAX + 1);
	got = read_full(in, in->head_buf, COLLAPSE_HEAD_MAX);
	if (got >= 0)
		got = extend_head(in, (size_t)got);
	if (got < 0) {
		collapse_input_close(in);
		return -1;
	}
	in->head_buf[got] = 0;
	in->head = in->head_buf;
	in->head_len = (size_t)got;
	/*
	 * A UTF-8 byte order mark (editors on Windows write one) is no part of
	 * any format: skipped, so JSON is still recognised by its '{'.  The
	 * bytes are then no longer the file's, so no reader may reopen it.
	 */
	if (in->head_len >= 3 && !memcmp(in->head, "\xef\xbb\xbf", 3)) {
		in->head += 3;
		in->head_len -= 3;
		in->plain_path = NULL;
	}
	return 0;
}

void collapse_input_from_buffer(struct collapse_input *in, const char *name, const char *buf,
				size_t len)
{
	memset(in, 0, sizeof(*in));
	in->path = in->name = name;
	in->compression = "plain";
	/* the head must be NUL-terminated: a copy of at most COLLAPSE_HEAD_MAX bytes */
	in->head_len = len;
	in->head_buf = xmalloc(len + 1);
	memcpy(in->head_buf, buf, len);
	in->head_buf[len] = 0;
	in->head = in->head_buf;
}

ssize_t collapse_input_read(struct collapse_input *in, void *buf, size_t n)
{
	if (in->replayed < in->head_len) {
		size_t left = in->head_len - in->replayed;

		if (n > left)
			n = left;
		memcpy(buf, in->head + in->replayed, n);
		in->replayed += n;
		return (ssize_t)n;
	}
	if (!in->stream)
		return 0;
	return checked_read(in, buf, n);
}

static ssize_t source(void *ctx, void *buf, size_t n)
{
	return collapse_input_read(ctx, buf, n);
}

int collapse_input_lines(struct collapse_input *in, struct line_reader *r)
{
	line_reader_open_source(r, source, in, in->name);
	return 0;
}

int collapse_input_slurp(struct collapse_input *in, char **data, size_t *len)
{
	size_t have = 0, alloc = in->head_len + (64u << 10);
	char *buf = xmalloc(alloc + 1);

	for (;;) {
		ssize_t got;

		if (alloc - have < (16u << 10)) {
			if (alloc > SIZE_MAX / 4)
				die("input too large");
			alloc *= 2;
			buf = xrealloc(buf, alloc + 1);
		}
		got = collapse_input_read(in, buf + have, alloc - have);
		if (got < 0) {
			free(buf);
			return -1;
		}
		if (!got)
			break;
		have += (size_t)got;
		if (have > input_limits.max_input_size) {
			free(buf);
			return input_limit_error(in->name, "max-input-size", "more than %llu bytes "
						 "(after decompression) to read whole",
						 (unsigned long long)input_limits.max_input_size);
		}
	}
	buf[have] = 0;
	*data = buf;
	*len = have;
	return 0;
}

void collapse_input_close(struct collapse_input *in)
{
	decompress_close(in->stream);
	free(in->head_buf);
	memset(in, 0, sizeof(*in));
}
