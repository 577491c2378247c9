/*
 * perf_script_file.c - a plain regular file of 'perf script' text, read
 * with pread by byte ranges: large files are split at blank lines (where
 * the Perl state machine is reset) and parsed by several threads, each into
 * its own folder; folder_write() merges them.  A blank line always resets
 * the state (frames are only kept without a process, which the grammar
 * cannot produce); should a piece ever end with frames pending, the file
 * is parsed again on one thread rather than risk a different answer.
 */
#include "collapse/perf_script.h"
#include "collapse/perf_script_parts.h"
#include "core/alloc.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Reading a byte range of a regular file with pread into one reused
 * buffer: cheaper than mmap (no page faults, the buffer stays in cache)
 * and the resident memory does not grow with the file.
 */
struct range_reader {
	char *buf;
	size_t alloc;		/* bytes in buf */
};

static void range_reader_release(struct range_reader *rr)
{
	free(rr->buf);
	rr->buf = NULL;
	rr->alloc = 0;
}

/*
 * Call fn(arg, text, len) on [start, end) of fd in pieces that end after a
 * '\n' (the last piece ends at end).  Returns 0 or -1 (error printed).
 */
static int read_range(struct range_reader *rr, int fd, const char *name, uint64_t start,
		      uint64_t end, void (*fn)(void *, const char *, size_t), void *arg)
{
	size_t have = 0;
	uint64_t pos = start;

	if (!rr->alloc) {
		rr->alloc = READ_BLOCK;
		rr->buf = xmalloc(rr->alloc);
	}
	while (pos < end || have) {
		size_t want = rr->alloc - have;
		ssize_t n = 0;
		const char *last;

		if (want > end - pos)
			want = (size_t)(end - pos);
		if (want) {
			n = pread(fd, rr->buf + have, want, (off_t)pos);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				return error_errno("cannot read '%s'", name);
			}
			if (n == 0)	/* the file shrank */
				end = pos;
		}
		pos += (uint64_t)n;
		have += (size_t)n;
		if (pos >= end) {
			fn(arg, rr->buf, have);
			return 0;
		}
		last = memrchr(rr->buf, '\n', have);
		if (last) {
			size_t done = (size_t)(last - rr->buf) + 1;

			fn(arg, rr->buf, done);
			memmove(rr->buf, rr->buf + done, have - done);
			have -= done;
		} else if (have == rr->alloc) {
			if (rr->alloc >= MAX_LINE)
				return trail_error("%s: line longer than %u bytes", name, MAX_LINE);
			rr->alloc *= 2;
			rr->buf = xrealloc(rr->buf, rr->alloc);
		}
	}
	return 0;
}

static void parse_piece(void *arg, const char *buf, size_t len)
{
	script_parse_lines(arg, buf, len);
}

struct first_event {
	char *event;
	int done;
};

/*
 * Perl decides the event type from the first event line that names one.
 * Find it before splitting the input, so every thread filters alike.
 */
static void find_first_event(void *arg, const char *buf, size_t len)
{
	struct first_event *fe = arg;
	const char *s = buf, *end = buf + len;

	while (!fe->done && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		size_t n = (size_t)(e - s);
		struct perf_event_line ev;
		const char *event, *digits;
		size_t event_len, digits_len;

		if (n && s[0] != '#' && !is_space((unsigned char)s[0]) &&
		    perf_script_match_event(s, n, &ev) &&
		    perf_script_match_period(s, n, &event, &event_len, &digits, &digits_len)) {
			fe->event = xstrndup(event, event_len);
			fe->done = 1;
		}
		s = e + 1;
	}
}

struct chunk {
	uint64_t start, end;	/* byte range; starts right after a blank line */
	uint64_t lines;
	int dirty;		/* ended with frames a blank line did not reset */
	int failed;		/* reading failed (error printed) */
	struct parser parser;
};

struct pool {
	int fd;
	const char *name;
	struct chunk *chunks;
	size_t nr_chunks;
	struct folder **folders;	/* one per thread */
	atomic_size_t next;
	const char *event_filter;	/* chosen before the threads start */
};

struct worker_arg {
	struct pool *pool;
	unsigned index;
};

static void *worker_main(void *arg)
{
	struct worker_arg *wa = arg;
	struct pool *pool = wa->pool;
	struct folder *f = pool->folders[wa->index];
	struct range_reader rr = { NULL, 0 };
	size_t i;

	while ((i = atomic_fetch_add(&pool->next, 1)) < pool->nr_chunks) {
		struct chunk *c = &pool->chunks[i];

		script_parser_init(&c->parser, f, pool->event_filter);
		if (read_range(&rr, pool->fd, pool->name, c->start, c->end, parse_piece, &c->parser))
			c->failed = 1;
		c->lines = c->parser.lineno;
		if (i + 1 == pool->nr_chunks) {
			script_finish_input(f);
		} else if (folder_pending_frames(f)) {
			c->dirty = 1;
			folder_reset_sample(f);
		}
	}
	range_reader_release(&rr);
	return NULL;
}

/*
 * The first position at or after from that follows a blank line ("\n\n"),
 * or len when there is none.
 */
static uint64_t next_boundary(int fd, uint64_t from, uint64_t len)
{
	char buf[65536];
	uint64_t pos = from > 0 ? from - 1 : 0;

	while (pos < len) {
		ssize_t n = pread(fd, buf, sizeof(buf), (off_t)pos);
		const char *nn;

		if (n <= 1)
			return len;
		nn = memmem(buf, (size_t)n, "\n\n", 2);
		if (nn)
			return pos + (uint64_t)(nn - buf) + 2;
		pos += (uint64_t)n - 1;
	}
	return len;
}

/* Split [0, len) into pieces of about chunk bytes, each starting after a blank line. */
static size_t split_chunks(int fd, uint64_t len, size_t chunk, struct chunk **out)
{
	struct chunk *c = NULL;
	size_t nr = 0, alloc = 0;
	uint64_t start = 0;

	while (start < len) {
		uint64_t end = len;

		if (len - start > chunk + chunk / 2)
			end = next_boundary(fd, start + chunk, len);
		ALLOC_GROW(c, nr + 1, alloc);
		memset(&c[nr], 0, sizeof(c[nr]));
		c[nr].start = start;
		c[nr].end = end;
		nr++;
		start = end;
	}
	*out = c;
	return nr;
}

static int read_sequential_file(struct collapse_session *s, struct folder *f, const char *name,
				int fd, uint64_t len)
{
	struct parser p;
	struct range_reader rr = { NULL, 0 };
	int ret;

	script_parser_init(&p, f, s->event_filter);
	ret = read_range(&rr, fd, name, 0, len, parse_piece, &p);
	script_finish_input(p.folder);
	script_parser_absorb(s, &p, name, 0);
	script_parser_release(&p);
	range_reader_release(&rr);
	if (!s->threads_used)
		s->threads_used = 1;
	return ret;
}

/* Returns 0, -1 on a read error, 1 when the sequential parse must be used. */
static int read_parallel_file(struct collapse_session *s, const char *name, int fd,
			      uint64_t len, size_t chunk)
{
	struct pool pool;
	pthread_t *threads;
	struct worker_arg *args;
	unsigned n = s->opts.jobs ? s->opts.jobs : 1, started = 0, i;
	uint64_t base = 0;
	size_t k;
	int dirty = 0, failed = 0;

	memset(&pool, 0, sizeof(pool));
	pool.fd = fd;
	pool.name = name;
	pool.event_filter = s->event_filter;
	pool.nr_chunks = split_chunks(fd, len, chunk, &pool.chunks);
	atomic_init(&pool.next, 0);
	if (n > pool.nr_chunks)
		n = (unsigned)pool.nr_chunks;
	pool.folders = xcalloc(n, sizeof(*pool.folders));
	for (i = 0; i < n; i++)
		pool.folders[i] = folder_new(&s->fold);
	threads = xcalloc(n, sizeof(*threads));
	args = xcalloc(n, sizeof(*args));
	for (i = 1; i < n; i++) {
		args[i].pool = &pool;
		args[i].index = i;
		if (pthread_create(&threads[i], NULL, worker_main, &args[i]))
			break;
		started++;
	}
	args[0].pool = &pool;
	args[0].index = 0;
	worker_main(&args[0]);
	for (i = 1; i <= started; i++)
		pthread_join(threads[i], NULL);
	if (started + 1 > s->threads_used)
		s->threads_used = started + 1;

	for (k = 0; k < pool.nr_chunks; k++) {
		failed |= pool.chunks[k].failed;
		if (k + 1 < pool.nr_chunks)
			dirty |= pool.chunks[k].dirty;
	}
	if (dirty || failed) {
		/* a piece ended with frames pending: only one thread is sure to be right */
		for (i = 0; i < n; i++)
			folder_free(pool.folders[i]);
	} else {
		/* the threads' folders hold this input; the reader's own stays empty */
		for (i = 0; i < n; i++)
			collapse_session_add_folder(s, pool.folders[i]);
		for (k = 0; k < pool.nr_chunks; k++) {
			script_parser_absorb(s, &pool.chunks[k].parser, name, base);
			base += pool.chunks[k].lines;
		}
	}
	for (k = 0; k < pool.nr_chunks; k++)
		script_parser_release(&pool.chunks[k].parser);
	free(pool.chunks);
	free(pool.folders);
	free(threads);
	free(args);
	return failed ? -1 : dirty ? 1 : 0;
}

/*
 * A regular file, plain: by threads when it is large and jobs > 1 (the
 * event filter found first, so every thread filters alike), else, or when
 * a piece ended with frames pending, on this thread.  fd stays open.
 */
int perf_script_read_file(struct collapse_session *s, struct folder *f, const char *name, int fd,
			  uint64_t len, size_t chunk)
{
	int ret;

	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (s->opts.jobs > 1 && len > chunk + chunk / 2) {
		if (!s->event_filter) {
			struct range_reader rr = { NULL, 0 };
			struct first_event fe = { NULL, 0 };

			/* usually found on the first line; read on only if not */
			for (uint64_t pos = 0; pos < len && !fe.done; pos += chunk)
				if (read_range(&rr, fd, name, pos, pos + chunk < len ? pos + chunk : len,
					       find_first_event, &fe))
					break;
			range_reader_release(&rr);
			s->event_filter = fe.event;
			s->filter_defaulted = s->event_filter != NULL;
		}
		ret = read_parallel_file(s, name, fd, len, chunk);
		if (ret <= 0)
			return ret;
	}
	return read_sequential_file(s, f, name, fd, len);
}
