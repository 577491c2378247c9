/*
 * perf_script.c - 'perf script' text -> folding engine: opening an input
 * (a path, standard input, a pipe or gzip read as a stream; a plain
 * regular file by perf_script_file.c) and the "perf" input format of
 * trail collapse.  The grammar is in perf_script_grammar.c, the parser in
 * perf_script_parse.c.
 */
#include "collapse/perf_script.h"
#include "collapse/perf_script_parts.h"
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct gz_source {
	gzFile gz;
	const char *name;
};

static ssize_t gz_read(void *ctx, void *buf, size_t n)
{
	struct gz_source *g = ctx;
	int got = gzread(g->gz, buf, (unsigned)(n > INT32_MAX ? INT32_MAX : n));

	if (got < 0) {
		int errnum;
		const char *msg = gzerror(g->gz, &errnum);

		return errnum == Z_ERRNO ? error_errno("cannot read '%s'", g->name)
					 : trail_error("cannot read '%s': %s", g->name, msg);
	}
	return got;
}

/* Fold perf script text from a source of bytes (returns up to n, 0 at the end, -1 after trail_error()). */
static int perf_script_read_source(struct collapse_session *s, struct folder *f, const char *name,
			    ssize_t (*source)(void *ctx, void *buf, size_t n), void *ctx)
{
	struct parser p;
	char *buf = NULL;
	size_t alloc = 0, have = 0;
	int ret = 0;

	script_parser_init(&p, f, s->event_filter);
	for (;;) {
		ssize_t n;
		const char *last;

		if (alloc - have < STREAM_READ) {
			if (alloc > MAX_LINE) {
				ret = trail_error("%s:%llu: line longer than %u bytes", name,
					    (unsigned long long)p.lineno + 1, MAX_LINE);
				break;
			}
			alloc = alloc ? alloc * 2 : 4 * (size_t)STREAM_READ;
			buf = xrealloc(buf, alloc);
		}
		n = source(ctx, buf + have, STREAM_READ);
		if (n < 0) {
			ret = -1;
			break;
		}
		if (n == 0) {
			script_parse_lines(&p, buf, have);
			break;
		}
		have += (size_t)n;
		last = memrchr(buf, '\n', have);
		if (last) {
			size_t done = (size_t)(last - buf) + 1;

			script_parse_lines(&p, buf, done);
			memmove(buf, buf + done, have - done);
			have -= done;
		}
	}
	script_finish_input(p.folder);
	script_parser_absorb(s, &p, name, 0);
	script_parser_release(&p);
	free(buf);
	if (!s->threads_used)
		s->threads_used = 1;
	return ret;
}

static int read_stream(struct collapse_session *s, struct folder *f, const char *name, int fd)
{
	struct gz_source g = { gzdopen(fd, "rb"), name };
	int ret;

	if (!g.gz) {
		close(fd);
		return trail_error("cannot read '%s'", name);
	}
	gzbuffer(g.gz, 256 * 1024);
	ret = perf_script_read_source(s, f, name, gz_read, &g);
	gzclose(g.gz);
	return ret;
}

int perf_script_read_path(struct collapse_session *s, struct folder *f, const char *path)
{
	const char *name = path;
	struct stat st;
	size_t chunk = s->opts.chunk_size ? s->opts.chunk_size : DEFAULT_CHUNK;
	int fd, ret;

	if (!strcmp(path, "-")) {
		name = "<stdin>";
		fd = dup(0);
		if (fd < 0)
			return error_errno("cannot read standard input");
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return error_errno("cannot open '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		close(fd);
		return error_errno("cannot stat '%s'", name);
	}
	/* pipes and gzip are read as a stream, on one thread */
	if (!S_ISREG(st.st_mode) || st.st_size < 2 || line_reader_gzip_at(fd, 0) != 0)
		return read_stream(s, f, name, fd);

	ret = perf_script_read_file(s, f, name, fd, (uint64_t)st.st_size, chunk);
	close(fd);
	return ret;
}

/* ---- the "perf" input format (collapser.h) ---- */

/*
 * perf script text: after any '#' header lines, an event line followed by
 * a stack line (or, without -g, by the next event line with its frame).
 * An input of header lines only is perf script's too: it folds to nothing.
 */
static int detect(const char *head, size_t n)
{
	struct perf_event_line ev;
	struct fold_frame fr;
	size_t pos = 0, len = 0;
	const char *line = NULL;
	int more;

	while ((more = frames_head_line(head, n, &pos, &line, &len, FRAMES_HEAD_CUT)) &&
	       (!len || line[0] == '#'))
		;
	if (!more)
		return pos ? 5 : 0;	/* headers only (or nothing at all) */
	/* indented event lines are perf script's too, if not the Perl script's */
	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (!perf_script_match_event(line, len, &ev))
		return 0;
	if (!frames_head_line(head, n, &pos, &line, &len, FRAMES_HEAD_CUT))
		return 40;	/* one event line: the head ended */
	if (perf_script_match_stack(line, len, &fr) || perf_script_match_event(line, len, &ev))
		return 80;
	return 0;
}

static ssize_t input_source(void *ctx, void *buf, size_t n)
{
	return collapse_input_read(ctx, buf, n);
}

/*
 * An uncompressed regular file is read by path (threads for large ones);
 * anything else as a stream.  The event filter lives in the collapse
 * session, so the first event seen in one file filters the next.
 */
static int read_input(struct collapse_session *cs, struct collapse_input *in, struct folder *f)
{
	if (in->plain_path)
		return perf_script_read_path(cs, f, in->plain_path);
	return perf_script_read_source(cs, f, in->name, input_source, in);
}

const struct collapser collapse_perf_script = {
	"perf",
	"'perf script' text (stackcollapse-perf.pl's input)",
	detect,
	read_input,
};

