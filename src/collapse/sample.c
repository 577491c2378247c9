/*
 * sample.c - the "sample" input format: the call graph macOS's sample(1)
 * (and Activity Monitor's "Sample Process") prints.  After "Call graph:",
 * every line is "    " + two indent characters (from " +!:|") per depth
 * + "COUNT function  (in module) + off  [addr]", up to "Total number in
 * stack".  Each leaf of the tree is one stack weighed with its own count;
 * threads waiting in a kernel wait (the idle list below) are left out.
 * Frames are "module`function" (module without ".dylib"; --no-modules:
 * function only), half-demangled Rust names cleaned up.  The output
 * follows inferno's collapse-sample; see docs/collapse.md.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <string.h>

#define START_LINE "Call graph:"
#define END_LINE "Total number in stack"

/* Leaf functions of threads that are waiting, not running: left out. */
static const char *const idle_functions[] = {
	"__psynch_cvwait", "__select", "__semwait_signal", "__ulock_wait", "__wait4",
	"__workq_kernreturn", "kevent", "mach_msg_trap", "read", "semaphore_wait_trap",
};

struct sample_state {
	struct frame_stack fs;
	struct strbuf frame, fixed;
	uint64_t leaf_count;	/* samples of the frame on top of the stack */
};

static int has_suffix(const char *s, size_t len, const char *suf)
{
	size_t n = strlen(suf);

	return len >= n && !memcmp(s + len - n, suf, n);
}

static void write_leaf(struct sample_state *st, struct folder *f)
{
	size_t len, i;
	const char *leaf;

	if (!st->fs.nr)
		return;
	leaf = frame_stack_get(&st->fs, st->fs.nr - 1, &len);
	for (i = 0; i < sizeof(idle_functions) / sizeof(idle_functions[0]); i++)
		if (has_suffix(leaf, len, idle_functions[i]))
			return;
	frame_stack_fold(&st->fs, f, 0, st->leaf_count);
}

static int is_indent(char c)
{
	return c == ' ' || c == '+' || c == '|' || c == ':' || c == '!';
}

/* "COUNT function  (in module) + off  [addr]" -> frame text; 0, or -1 (error printed) */
static int parse_frame(struct collapse_session *s, struct sample_state *st, const char *name,
		       uint64_t lineno, const char *p, size_t len)
{
	const char *sp, *rest, *paren, *func, *mod = "", *in;
	size_t rest_len, func_len, mod_len = 0, count_len;

	while (len && *p == ' ') {
		p++;
		len--;
	}
	sp = memchr(p, ' ', len);
	if (!sp)
		return trail_error("%s:%llu: cannot parse the stack line", name,
			     (unsigned long long)lineno);
	count_len = (size_t)(sp - p);
	count_len = frames_trim_end(p, count_len);
	if (!frames_parse_u64(p, count_len, &st->leaf_count))
		return trail_error("%s:%llu: invalid samples field '%.*s'", name,
			     (unsigned long long)lineno, (int)count_len, p);
	rest = sp + 1;
	rest_len = len - (size_t)(rest - p);
	paren = memchr(rest, '(', rest_len);
	func = rest;
	func_len = paren ? (size_t)(paren - rest) : rest_len;
	func_len = frames_trim_end(func, func_len);
	if (!s->opts.no_modules) {
		/* the text after the last "(in ", up to its first ')' */
		const char *after = rest;
		size_t after_len = rest_len, k;
		const char *close;

		for (k = rest_len; k >= 4; k--)
			if (!memcmp(rest + k - 4, "(in ", 4)) {
				after = rest + k;
				after_len = rest_len - k;
				break;
			}
		in = after;
		close = memchr(in, ')', after_len);
		if (close) {
			mod = in;
			mod_len = (size_t)(close - in);
			if (has_suffix(mod, mod_len, ".dylib"))
				mod_len -= 6;
		}
	}
	frames_fix_rust_name(func, func_len, &st->fixed);
	strbuf_setlen(&st->frame, 0);
	if (mod_len) {
		strbuf_add(&st->frame, mod, mod_len);
		strbuf_addch(&st->frame, '`');
	}
	strbuf_add(&st->frame, st->fixed.buf, st->fixed.len);
	frame_stack_push(&st->fs, st->frame.buf, st->frame.len);
	(void)s;
	return 0;
}

static int on_line(struct collapse_session *s, struct sample_state *st, struct folder *f,
		   const char *name, uint64_t lineno, const char *line, size_t len)
{
	size_t indent = 0, depth, prev = st->fs.nr;

	while (4 + indent < len && is_indent(line[4 + indent]))
		indent++;
	if (4 + indent >= len)
		return trail_error("%s:%llu: a stack line with only indent characters", name,
			     (unsigned long long)lineno);
	if (indent % 2)
		return trail_error("%s:%llu: odd number of indent characters", name,
			     (unsigned long long)lineno);
	depth = indent / 2 + 1;
	if (depth <= prev) {
		/* the previous line was a leaf */
		write_leaf(st, f);
		frame_stack_truncate(&st->fs, depth - 1);
	} else if (depth > prev + 1) {
		return trail_error("%s:%llu: an indentation level was skipped", name,
			     (unsigned long long)lineno);
	}
	return parse_frame(s, st, name, lineno, line + 4 + indent, len - 4 - indent);
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct sample_state st;
	char *line;
	size_t len;
	int got, started = 0, ended = 0, ret = 0;

	collapse_input_lines(in, &r);
	frame_stack_init(&st.fs);
	strbuf_init(&st.frame, 256);
	strbuf_init(&st.fixed, 256);
	st.leaf_count = 0;
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		if (!started) {
			started = !strncmp(line, START_LINE, strlen(START_LINE));
			continue;
		}
		len = frames_trim_end(line, len);
		if (!len)
			continue;
		if (len >= 4 && !memcmp(line, "    ", 4)) {
			if (on_line(s, &st, f, in->name, r.lineno, line, len)) {
				ret = -1;
				break;
			}
		} else if (!strncmp(line, END_LINE, strlen(END_LINE))) {
			write_leaf(&st, f);
			ended = 1;
			break;
		} else {
			ret = trail_error("%s:%llu: a stack line that does not start with 4 spaces",
				    in->name, (unsigned long long)r.lineno);
			break;
		}
	}
	if (got < 0)
		ret = -1;
	else if (!ret && !started)
		warning("%s: the input ended before the call graph began: no stacks", in->name);
	else if (!ret && !ended)
		ret = trail_error("%s: the input ended inside the call graph", in->name);
	frame_stack_release(&st.fs);
	strbuf_release(&st.frame);
	strbuf_release(&st.fixed);
	line_reader_close(&r);
	return ret;
}

/* "Call graph:" and, after it, the line that ends the call graph. */
static int detect(const char *head, size_t n)
{
	const char *start = strstr(head, "\n" START_LINE);

	if (!strncmp(head, START_LINE, strlen(START_LINE)))
		start = head;
	if (!start)
		return 0;
	if (strstr(start, "\n" END_LINE))
		return 90;
	/* the call graph may be longer than the head: its first line must fit */
	start = strchr(start + 1, '\n');
	return start && !strncmp(start + 1, "    ", 4) ? 60 : 0;
	(void)n;
}

const struct collapser collapse_sample = {
	"sample",
	"macOS sample(1) / Activity Monitor call graphs (inferno's collapse-sample)",
	detect,
	read_input,
};
