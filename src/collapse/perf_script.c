/*
 * perf_script.c - 'perf script' text -> folding engine.
 *
 * The line grammar is stackcollapse-perf.pl's (FlameGraph, CDDL), as the
 * conformance corpus README documents it: its three regular expressions
 * are matched here by hand, reproducing Perl's leftmost/greedy/backtracking
 * choices exactly, in time linear in the line.
 *
 * Large regular files are split at blank lines (where the Perl state
 * machine is reset) and parsed by several threads, each into its own
 * folder; folder_write() merges them.  A blank line always resets the
 * state (frames are only kept without a process, which the grammar cannot
 * produce); should a piece ever end with frames pending, the file is
 * parsed again on one thread rather than risk a different answer.
 */
#include "collapse/perf_script.h"
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"
#include "core/string_list.h"
#include "core/line_reader.h"
#include "core/parse_number.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define DEFAULT_CHUNK (8u << 20)	/* bytes of input per parallel work item */
#define STREAM_READ (1u << 20)		/* bytes per read from a pipe or gzip */
#define MAX_LINE (64u << 20)		/* longest line accepted */
#define READ_BLOCK (256u << 10)		/* bytes per pread of a regular file */

/* Perl's \s, \d and \w on byte strings. */
static inline int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_word(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/*
 * ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ (written here with [/] for "\/"): the comm is the shortest prefix (at
 * least two bytes, the first not blank) followed by blanks, digits,
 * optional slashes and digits, and a blank.  For a given end of the comm
 * only the greedy reading of the rest can be followed by a blank, so each
 * run of blanks is tried once.
 */
int perf_script_match_event(const char *s, size_t len, struct perf_event_line *ev)
{
	size_t k = 2;

	if (len < 2 || is_space((unsigned char)s[0]))
		return 0;
	while (k < len) {
		size_t w, d1, sl, d2, end;

		if (!is_space((unsigned char)s[k])) {
			k++;
			continue;
		}
		for (w = k; w < len && is_space((unsigned char)s[w]); w++)
			;
		for (d1 = w; d1 < len && is_digit((unsigned char)s[d1]); d1++)
			;
		if (d1 > w) {
			for (sl = d1; sl < len && s[sl] == '/'; sl++)
				;
			for (d2 = sl; d2 < len && is_digit((unsigned char)s[d2]); d2++)
				;
			end = d2;
			if (end < len && is_space((unsigned char)s[end])) {
				ev->comm = s;
				ev->comm_len = k;
				/* Perl: "if (not $tid)": an empty or "0" TID means "only a TID" */
				if (d2 == sl || (d2 - sl == 1 && s[sl] == '0')) {
					ev->pid = NULL;
					ev->pid_len = 0;
					ev->tid = s + w;
					ev->tid_len = d1 - w;
				} else {
					ev->pid = s + w;
					ev->pid_len = d1 - w;
					ev->tid = s + sl;
					ev->tid_len = d2 - sl;
				}
				return 1;
			}
		}
		/* any end of the comm inside this run of blanks gives the same result */
		k = w > k + 1 ? w : k + 1;
	}
	return 0;
}

/*
 * The tail (\S+):\s*$ from position q: one last word ending in ':' and
 * only blanks after it.  The event name is the word without that ':'.
 */
static int match_event_name(const char *s, size_t len, size_t q, const char **event,
			    size_t *event_len)
{
	size_t t, i;

	if (q >= len || is_space((unsigned char)s[q]))
		return 0;
	for (t = q; t < len && !is_space((unsigned char)s[t]); t++)
		;
	for (i = t; i < len; i++)
		if (!is_space((unsigned char)s[i]))
			return 0;
	if (t - q < 2 || s[t - 1] != ':')
		return 0;
	*event = s + q;
	*event_len = t - 1 - q;
	return 1;
}

int perf_script_match_period(const char *s, size_t len, const char **event, size_t *event_len,
			     const char **digits, size_t *digits_len)
{
	const char *c = s, *end = s + len;

	while ((c = memchr(c, ':', (size_t)(end - c)))) {
		size_t p = (size_t)(c - s) + 1, w, d, w2;

		for (w = p; w < len && is_space((unsigned char)s[w]); w++)
			;
		/* first with a period: \s* (\d+) \s+ */
		for (d = w; d < len && is_digit((unsigned char)s[d]); d++)
			;
		if (d > w) {
			for (w2 = d; w2 < len && is_space((unsigned char)s[w2]); w2++)
				;
			if (w2 > d && match_event_name(s, len, w2, event, event_len)) {
				*digits = s + w;
				*digits_len = d - w;
				return 1;
			}
		}
		/* then without: \s* \s+ needs at least one blank */
		if (w > p && match_event_name(s, len, w, event, event_len)) {
			*digits = NULL;
			*digits_len = 0;
			return 1;
		}
		c++;
	}
	return 0;
}

/*
 * /^\s*(\w+)\s*(.+) \((.*)\)/.  The module runs from the last " (" that
 * has a ')' after it to the last ')'.  The function starts after the
 * address and its blanks, or earlier when that leaves it empty (Perl
 * backtracks into the blanks, then into the address).
 */
int perf_script_match_stack(const char *s, size_t len, struct fold_frame *fr)
{
	size_t ws, we, se, close, open, f;
	const char *rp;

	for (ws = 0; ws < len && is_space((unsigned char)s[ws]); ws++)
		;
	if (ws >= len || !is_word((unsigned char)s[ws]))
		return 0;
	for (we = ws; we < len && is_word((unsigned char)s[we]); we++)
		;
	for (se = we; se < len && is_space((unsigned char)s[se]); se++)
		;
	rp = memrchr(s, ')', len);
	if (!rp)
		return 0;
	close = (size_t)(rp - s);
	/* rightmost " (" with the '(' before the last ')' */
	for (open = close;;) {
		const char *q = open > 1 ? memrchr(s + 1, '(', open - 1) : NULL;

		if (!q)
			return 0;
		open = (size_t)(q - s);
		if (s[open - 1] == ' ')
			break;
	}
	open--;		/* position of the blank */
	f = se < open ? se : open - 1;
	if (open == 0 || f < ws + 1)
		return 0;
	fr->addr = s + ws;
	fr->addr_len = (f < we ? f : we) - ws;
	fr->func = s + f;
	fr->func_len = open - f;
	fr->module = s + open + 2;
	fr->module_len = close - (open + 2);
	return 1;
}

/* ---- one parser per thread ---- */

struct warn_line {
	uint64_t line;		/* line number within the piece parsed */
	char *text;
};

struct parser {
	struct folder *folder;
	const char *event_filter;	/* NULL: take the first event type seen */
	size_t event_filter_len;
	char *own_filter;		/* set when this parser chose the filter */
	char *other_event;		/* first event type filtered out */
	struct string_list skipped_events;	/* every type filtered out (a few) */
	uint64_t lineno;		/* lines parsed so far */
	uint64_t unrecognized;
	uint64_t binary;		/* of those, lines holding a NUL byte */
	struct warn_line warn[COLLAPSE_MAX_WARNINGS];
	unsigned nr_warn;
};

static void parser_init(struct parser *p, struct folder *f, const char *filter)
{
	memset(p, 0, sizeof(*p));
	p->folder = f;
	p->event_filter = filter;
	p->event_filter_len = filter ? strlen(filter) : 0;
}

static void parser_release(struct parser *p)
{
	unsigned i;

	for (i = 0; i < p->nr_warn; i++)
		free(p->warn[i].text);
	free(p->own_filter);
	free(p->other_event);
	string_list_clear(&p->skipped_events);
}

static void unrecognized(struct parser *p, const char *s, size_t len)
{
	if (p->nr_warn < COLLAPSE_MAX_WARNINGS) {
		size_t n = len > 160 ? 160 : len;
		char *t = xmalloc(n + 4);

		memcpy(t, s, n);
		if (n < len)
			memcpy(t + n, "...", 3), n += 3;
		t[n] = '\0';
		p->warn[p->nr_warn].line = p->lineno;
		p->warn[p->nr_warn].text = t;
		p->nr_warn++;
	}
	p->unrecognized++;
	if (memchr(s, '\0', len))
		p->binary++;
}

static uint64_t parse_period(const char *d, size_t n)
{
	uint64_t v;

	/* Perl: "if (not $period) { $period = 1 }": no period or "0" count once */
	if (!d || (n == 1 && d[0] == '0'))
		return 1;
	/* the grammar guarantees digits; only overflow can fail: saturate */
	if (parse_u64_n(d, n, &v))
		return UINT64_MAX;
	return v;
}

static void parse_event(struct parser *p, const char *s, size_t len,
			const struct perf_event_line *ev)
{
	const char *event, *digits;
	size_t event_len, digits_len;

	if (perf_script_match_period(s, len, &event, &event_len, &digits, &digits_len)) {
		if (!p->event_filter) {
			p->own_filter = xstrndup(event, event_len);
			p->event_filter = p->own_filter;
			p->event_filter_len = event_len;
		} else if (event_len != p->event_filter_len ||
			   memcmp(event, p->event_filter, event_len)) {
			if (!p->other_event)
				p->other_event = xstrndup(event, event_len);
			string_list_add_unique_n(&p->skipped_events, event, event_len,
						 PERF_SCRIPT_MAX_EVENT_NAMES);
			return;	/* the sample is skipped; the state is left as it is */
		}
	} else {
		digits = NULL;
		digits_len = 0;
	}
	folder_set_process(p->folder, ev->comm, ev->comm_len, ev->pid, ev->pid_len,
			   ev->tid, ev->tid_len, parse_period(digits, digits_len));
}

static void parse_line(struct parser *p, const char *s, size_t len)
{
	struct perf_event_line ev;
	struct fold_frame fr;

	p->lineno++;
	/*
	 * perf script text that went through Windows tools ends lines in
	 * CRLF; a blank "\r" line must still end the sample, or every
	 * sample merges into one stack.
	 */
	if (len && s[len - 1] == '\r')
		len--;
	if (!len) {
		folder_end_sample(p->folder);
		return;
	}
	if (s[0] == '#')
		return;
	if (!is_space((unsigned char)s[0]) && perf_script_match_event(s, len, &ev)) {
		parse_event(p, s, len, &ev);
		return;
	}
	if (perf_script_match_stack(s, len, &fr)) {
		/* function, " (" and module are one run of text: one cache key */
		folder_add_frame_text(p->folder, &fr, fr.func,
				      (size_t)(fr.module + fr.module_len - fr.func));
		return;
	}
	unrecognized(p, s, len);
}

/* Parse every line in buf; the last one may lack its '\n'. */
static void parse_lines(struct parser *p, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;

		parse_line(p, s, (size_t)(e - s));
		s = e + 1;
	}
}

/* ---- taking a parser's findings into the collapse session ---- */

/* Report a parser's unrecognised lines (numbered from line_base) and take over its findings. */
static void absorb(struct collapse_session *s, struct parser *p, const char *name,
		   uint64_t line_base)
{
	unsigned i;

	for (i = 0; i < p->nr_warn && s->warned < COLLAPSE_MAX_WARNINGS; i++, s->warned++) {
		struct strbuf q = STRBUF_INIT;
		const char *t = p->warn[i].text;

		warning("%s:%llu: unrecognized line: %s", name,
			(unsigned long long)(line_base + p->warn[i].line),
			escape_term_excerpt(&q, t, strlen(t), strlen(t)));
		strbuf_release(&q);
	}
	s->unrecognized += p->unrecognized;
	s->binary += p->binary;
	for (i = 0; i < p->skipped_events.nr; i++)
		string_list_add_unique_n(&s->skipped_events, p->skipped_events.items[i],
					 strlen(p->skipped_events.items[i]),
					 PERF_SCRIPT_MAX_EVENT_NAMES);
	if (!s->event_filter && p->own_filter) {
		s->event_filter = p->own_filter;
		p->own_filter = NULL;
		s->filter_defaulted = 1;
	}
	if (!s->other_event && p->other_event) {
		s->other_event = p->other_event;
		p->other_event = NULL;
	}
}

/*
 * The end of an input: count a last sample that had no blank line after
 * it (inferno does; the Perl script drops it), and start the next input
 * afresh.
 */
static void finish_input(struct folder *f)
{
	folder_end_sample(f);
	folder_reset_sample(f);
}

void perf_script_read_buffer(struct collapse_session *s, struct folder *f, const char *name,
			     const char *buf, size_t len)
{
	struct parser p;

	parser_init(&p, f, s->event_filter);
	parse_lines(&p, buf, len);
	finish_input(p.folder);
	absorb(s, &p, name, 0);
	parser_release(&p);
}

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
	parse_lines(arg, buf, len);
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

		parser_init(&c->parser, f, pool->event_filter);
		if (read_range(&rr, pool->fd, pool->name, c->start, c->end, parse_piece, &c->parser))
			c->failed = 1;
		c->lines = c->parser.lineno;
		if (i + 1 == pool->nr_chunks) {
			finish_input(f);
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

	parser_init(&p, f, s->event_filter);
	ret = read_range(&rr, fd, name, 0, len, parse_piece, &p);
	finish_input(p.folder);
	absorb(s, &p, name, 0);
	parser_release(&p);
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
			absorb(s, &pool.chunks[k].parser, name, base);
			base += pool.chunks[k].lines;
		}
	}
	for (k = 0; k < pool.nr_chunks; k++)
		parser_release(&pool.chunks[k].parser);
	free(pool.chunks);
	free(pool.folders);
	free(threads);
	free(args);
	return failed ? -1 : dirty ? 1 : 0;
}

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

int perf_script_read_source(struct collapse_session *s, struct folder *f, const char *name,
			    ssize_t (*source)(void *ctx, void *buf, size_t n), void *ctx)
{
	struct parser p;
	char *buf = NULL;
	size_t alloc = 0, have = 0;
	int ret = 0;

	parser_init(&p, f, s->event_filter);
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
			parse_lines(&p, buf, have);
			break;
		}
		have += (size_t)n;
		last = memrchr(buf, '\n', have);
		if (last) {
			size_t done = (size_t)(last - buf) + 1;

			parse_lines(&p, buf, done);
			memmove(buf, buf + done, have - done);
			have -= done;
		}
	}
	finish_input(p.folder);
	absorb(s, &p, name, 0);
	parser_release(&p);
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
	uint64_t len;
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

	len = (uint64_t)st.st_size;
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
		if (ret <= 0) {
			close(fd);
			return ret;
		}
	}
	ret = read_sequential_file(s, f, name, fd, len);
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
