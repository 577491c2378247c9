/*
 * ghcprof.c - the "ghcprof" input format: the .prof report of a Haskell
 * program built with profiling and run with +RTS -p (or -P for ticks and
 * bytes).  The cost-centre tree starts after the header line "COST CENTRE
 * MODULE SRC no. entries %time %alloc %time %alloc ..."; each row is
 * indented one space per depth and becomes the stack of "Module.centre"
 * frames down to it, weighed by its individual cost: %time * 10 (the
 * default, --ghc-cost time), ticks or bytes.  Columns are found by the
 * header's positions, counted in characters.  Follows inferno's
 * collapse-ghcprof (there is no FlameGraph script).
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <stdlib.h>
#include <string.h>

static const char *const header_words[] = {
	"COST", "CENTRE", "MODULE", "SRC", "no.", "entries", "%time", "%alloc", "%time", "%alloc",
};
#define NR_HEADER_WORDS (sizeof(header_words) / sizeof(header_words[0]))

/* The line's first ten blank-separated words are the tree's header. */
static int is_header(const char *s, size_t len)
{
	size_t pos = 0, w;

	for (w = 0; w < NR_HEADER_WORDS; w++) {
		size_t start, n = strlen(header_words[w]);

		while (pos < len && frames_is_space(s[pos]))
			pos++;
		start = pos;
		while (pos < len && !frames_is_space(s[pos]))
			pos++;
		if (pos - start != n || memcmp(s + start, header_words[w], n))
			return 0;
	}
	return 1;
}

struct columns {
	size_t module, cost;	/* character positions */
};

static const char *find(const char *s, size_t len, const char *what)
{
	return memmem(s, len, what, strlen(what));
}

/* Where the column before the one named col ends (the cost of right-aligned columns). */
static int end_of_column_before(const char *s, size_t len, const char *col, size_t *out)
{
	const char *c = find(s, len, col);
	size_t i;

	if (!c)
		return -1;
	for (i = (size_t)(c - s); i > 0; i--)
		if (!frames_is_space(s[i - 1])) {
			*out = i;
			return 0;
		}
	return -1;
}

static int columns_of(struct collapse_session *s, const char *name, uint64_t lineno,
		      const char *h, size_t len, struct columns *c)
{
	const char *m = find(h, len, "MODULE"), *t;

	c->module = m ? (size_t)(m - h) : 0;
	switch (s->opts.ghc_cost) {
	case GHC_COST_TIME:
		t = find(h, len, "%time");
		c->cost = (size_t)(t - h);
		return 0;
	case GHC_COST_TICKS:
		if (end_of_column_before(h, len, "ticks", &c->cost))
			return trail_error("%s:%llu: no 'ticks' column (run the program with +RTS -P)",
				     name, (unsigned long long)lineno);
		return 0;
	case GHC_COST_BYTES:
		if (end_of_column_before(h, len, "bytes", &c->cost))
			return trail_error("%s:%llu: no 'bytes' column (run the program with +RTS -P)",
				     name, (unsigned long long)lineno);
		return 0;
	}
	return 0;
}

/* The word at or after character position col (UTF-8 characters counted). */
static const char *word_at(const char *s, size_t len, size_t col, size_t *n)
{
	size_t i = 0, start;

	while (i < len && col) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		col--;
	}
	while (i < len && frames_is_space(s[i]))
		i++;
	start = i;
	while (i < len && !frames_is_space(s[i]))
		i++;
	*n = i - start;
	return s + start;
}

static int on_row(struct collapse_session *s, struct frame_stack *fs, struct strbuf *frame,
		  struct folder *f, const char *name, uint64_t lineno, const char *line, size_t len,
		  const struct columns *c)
{
	size_t depth = 0, n, fn, mn;
	const char *cost = NULL, *func, *mod;
	char buf[64], *end;
	double v;
	uint64_t weight;

	while (depth < len && line[depth] == ' ')
		depth++;
	if (depth == len)
		return 0;
	if (depth < fs->nr)
		frame_stack_truncate(fs, depth);
	else if (depth != fs->nr)
		return trail_error("%s:%llu: an indentation level was skipped", name,
			     (unsigned long long)lineno);
	cost = word_at(line, len, c->cost, &n);
	if (!n || n >= sizeof(buf))
		goto bad;
	memcpy(buf, cost, n);
	buf[n] = 0;
	if (frames_is_space(buf[0]) || strpbrk(buf, "xX"))
		goto bad;
	v = strtod(buf, &end);
	if (*end)
		goto bad;
	if (s->opts.ghc_cost == GHC_COST_TIME)
		v *= 10;
	/* a float to integer cast that saturates, as Rust's 'as u64' */
	weight = !(v > 0) ? 0 : v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
	func = word_at(line, len, 0, &fn);
	mod = word_at(line, len, c->module, &mn);
	strbuf_setlen(frame, 0);
	strbuf_add(frame, mod, mn);
	strbuf_addch(frame, '.');
	strbuf_add(frame, func, fn);
	frame_stack_push(fs, frame->buf, frame->len);
	frame_stack_fold(fs, f, 0, weight);
	return 0;
bad:
	return trail_error("%s:%llu: invalid cost field '%.*s'", name, (unsigned long long)lineno,
		     (int)(n < 64 ? n : 64), cost);
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct frame_stack fs;
	struct strbuf frame = STRBUF_INIT;
	struct columns cols = { 0, 0 };
	char *line;
	size_t len;
	int got, started = 0, ret = 0;

	collapse_input_lines(in, &r);
	frame_stack_init(&fs);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		if (!started) {
			if (!is_header(line, len))
				continue;
			if (columns_of(s, in->name, r.lineno, line, len, &cols)) {
				ret = -1;
				break;
			}
			started = 1;
			/* the line after the header is blank */
			got = line_reader_next(&r, &line, &len);
			if (got <= 0)
				break;
			continue;
		}
		len = frames_trim_end(line, len);
		if (!len)
			break;	/* the tree ends at a blank line */
		if (on_row(s, &fs, &frame, f, in->name, r.lineno, line, len, &cols)) {
			ret = -1;
			break;
		}
	}
	if (got < 0)
		ret = -1;
	else if (!ret && !started)
		warning("%s: the input ended before the cost-centre tree: no stacks", in->name);
	frame_stack_release(&fs);
	strbuf_release(&frame);
	line_reader_close(&r);
	return ret;
}

static int detect(const char *head, size_t n)
{
	size_t pos = 0;

	while (pos < n) {
		const char *s = head + pos, *nl = memchr(s, '\n', n - pos);
		size_t len = nl ? (size_t)(nl - s) : n - pos;

		if (is_header(s, len))
			return 90;
		pos += len + 1;
	}
	/* the tree's header may lie beyond the head: the report's title line */
	return strstr(head, "Time and Allocation Profiling Report") ? 60 : 0;
}

const struct collapser collapse_ghcprof = {
	"ghcprof",
	"GHC profiling reports (.prof from +RTS -p or -P) (inferno's collapse-ghcprof)",
	detect,
	read_input,
};
