/*
 * vsprof.c - the "vsprof" input format: the CallTreeSummary.csv that
 * Visual Studio's profiler (VSPerf / VSPerfReport /summary:calltree)
 * writes.  Rows are "Level,"Function",Number of Calls,...": a call tree
 * in depth-first order, numbers with thousands separators ("2,893,824").
 * A stack is written, weighed by its leaf's number of calls, whenever the
 * walk leaves a leaf; a parent's count loses what its children took.
 * The rules follow inferno's collapse-vsprof, whose output FlameGraph's
 * stackcollapse-vsprof.pl only differs from in order and merging.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <stdlib.h>
#include <string.h>

#define START_LINE "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,Elapsed " \
	"Exclusive Time %,Avg Elapsed Inclusive Time,Avg Elapsed Exclusive Time,Module Name,"

struct vsprof_state {
	struct frame_stack fs;
	uint64_t *calls;	/* per frame of fs */
	size_t alloc_calls;
	struct folder *f;
	const char *name;
	uint64_t lineno;
};

static void write_top(struct vsprof_state *st)
{
	if (st->fs.nr && st->calls[st->fs.nr - 1] > 0)
		frame_stack_fold(&st->fs, st->f, 0, st->calls[st->fs.nr - 1]);
}

static void push(struct vsprof_state *st, const char *s, size_t len, uint64_t calls)
{
	ALLOC_GROW(st->calls, st->fs.nr + 1, st->alloc_calls);
	st->calls[st->fs.nr] = calls;
	frame_stack_push(&st->fs, s, len);
}

static uint64_t pop(struct vsprof_state *st)
{
	uint64_t c = st->calls[st->fs.nr - 1];

	frame_stack_truncate(&st->fs, st->fs.nr - 1);
	return c;
}

/*
 * The next number field of *p (n bytes): quoted or up to a comma, digits
 * in groups of three after the first, one separator kind (, . or blank).
 * Moves *p past the field and its comma.  0, or -1 after trail_error().
 */
static int next_number(struct vsprof_state *st, const char **p, size_t *n, uint64_t *out)
{
	const char *s = *p, *num, *rest;
	size_t len = *n, num_len, i, group = 0;
	int initial = 1;
	char sep = 0;
	uint64_t v = 0;

	if (len && *s == ',') {
		s++;
		len--;
	}
	if (len && *s == '"') {
		const char *q = memchr(s + 1, '"', len - 1);

		if (!q)
			return trail_error("%s:%llu: an unterminated number", st->name,
				     (unsigned long long)st->lineno);
		num = s + 1;
		num_len = (size_t)(q - num);
		rest = q + 1;
		if (rest < s + len && *rest == ',')
			rest++;
	} else {
		const char *c = memchr(s, ',', len);

		num = s;
		num_len = c ? (size_t)(c - s) : len;
		rest = c ? c + 1 : s + len;
	}
	for (i = 0; i < num_len; i++) {
		char c = num[i];

		if (c >= '0' && c <= '9') {
			if (group > 2)
				return trail_error("%s:%llu: a thousands separator is missing in '%.*s'",
					     st->name, (unsigned long long)st->lineno,
					     (int)num_len, num);
			v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(c - '0');
			group++;
			continue;
		}
		if (c == ',' || c == '.' || c == ' ') {
			if ((!initial && group < 3) || (sep && sep != c))
				return trail_error("%s:%llu: cannot parse the number '%.*s'", st->name,
					     (unsigned long long)st->lineno, (int)num_len, num);
			sep = c;
			initial = 0;
			group = 0;
			continue;
		}
		return trail_error("%s:%llu: cannot parse the number '%.*s'", st->name,
			     (unsigned long long)st->lineno, (int)num_len, num);
	}
	*n = (size_t)(s + len - rest);
	*p = rest;
	*out = v;
	return 0;
}

static int on_row(struct vsprof_state *st, const char *line, size_t len)
{
	const char *p = line, *func, *q;
	size_t n = len, func_len, prev;
	uint64_t depth, calls;

	if (next_number(st, &p, &n, &depth))
		return -1;
	if (!n)
		return trail_error("%s:%llu: the function name is missing", st->name,
			     (unsigned long long)st->lineno);
	if (*p != '"' || !(q = memchr(p + 1, '"', n - 1)))
		return trail_error("%s:%llu: cannot parse the function name", st->name,
			     (unsigned long long)st->lineno);
	func = p + 1;
	func_len = (size_t)(q - func);
	n -= (size_t)(q + 1 - p);
	p = q + 1;
	if (next_number(st, &p, &n, &calls))
		return -1;
	prev = st->fs.nr;
	if (prev < depth) {
		if (prev + 1 != depth)
			return trail_error("%s:%llu: a call tree level was skipped", st->name,
				     (unsigned long long)st->lineno);
	} else if (prev == depth) {
		write_top(st);
		if (st->fs.nr)
			pop(st);
	} else {
		uint64_t k, prev_calls = 0;

		for (k = 0; k < prev - depth + 1; k++) {
			if (prev_calls != st->calls[st->fs.nr - 1])
				write_top(st);
			prev_calls = pop(st);
			if (!st->fs.nr)
				break;
			if (prev_calls < st->calls[st->fs.nr - 1])
				st->calls[st->fs.nr - 1] -= prev_calls;
		}
	}
	push(st, func, func_len, calls);
	return 0;
}

static int is_start_line(const char *line, size_t len)
{
	line = frames_trim(line, &len);
	while (len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) {
		line += 3;
		len -= 3;
	}
	return len >= strlen(START_LINE) && !memcmp(line, START_LINE, strlen(START_LINE));
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct vsprof_state st;
	char *line;
	size_t len;
	int got, ret = 0;

	(void)s;
	memset(&st, 0, sizeof(st));
	frame_stack_init(&st.fs);
	st.f = f;
	st.name = in->name;
	collapse_input_lines(in, &r);
	got = line_reader_next(&r, &line, &len);
	if (got == 0) {
		warning("%s: the input ended before the call tree began: no stacks", in->name);
	} else if (got > 0 && !is_start_line(line, len)) {
		ret = trail_error("%s:1: the first line is not the CallTreeSummary header ('%s')",
			    in->name, START_LINE);
	} else if (got > 0) {
		while ((got = line_reader_next(&r, &line, &len)) > 0) {
			len = frames_trim_end(line, len);
			st.lineno = r.lineno;
			if (len && on_row(&st, line, len)) {
				ret = -1;
				break;
			}
		}
		if (!ret && got >= 0)
			write_top(&st);
	}
	if (got < 0)
		ret = -1;
	frame_stack_release(&st.fs);
	free(st.calls);
	line_reader_close(&r);
	return ret;
}

static int detect(const char *head, size_t n)
{
	const char *nl = memchr(head, '\n', n);

	return is_start_line(head, nl ? (size_t)(nl - head) : n) ? 95 : 0;
}

const struct collapser collapse_vsprof = {
	"vsprof",
	"Visual Studio profiler CallTreeSummary.csv (inferno's collapse-vsprof)",
	detect,
	read_input,
};
