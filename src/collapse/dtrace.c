/*
 * dtrace.c - the "dtrace" input format: the aggregation dtrace prints for
 * @[stack()] = count() or ustack()/jstack() (stackcollapse.pl's input).
 * A header ends at the first blank line; then each stack is one frame per
 * line, leaf first ("module`func+0x1f"), closed by a line holding only
 * its count.  Frames lose their "+offset" (unless --includeoffset), C++
 * argument lists after a "::" scope, and Java inlined frames "a->b" split
 * into "a;b_[i]".  Behaviour follows stackcollapse.pl (FlameGraph, CDDL)
 * and inferno where they differ in docs/collapse-deviations.tsv.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <string.h>

/* everything from the last plus sign (the Perl script: s/\+[^+]*$//) */
static size_t cut_offset(const char *s, size_t len)
{
	const char *plus = memrchr(s, '+', len);

	return plus ? (size_t)(plus - s) : len;
}

/* after the first "::", cut at the last ( or < */
static size_t cut_cpp_args(const char *s, size_t len)
{
	const char *scope = memmem(s, len, "::", 2);
	size_t i;

	if (!scope)
		return len;
	for (i = len; i-- > (size_t)(scope - s) + 2;)
		if (s[i] == '(' || s[i] == '<')
			return i;
	return len;
}

/*
 * With --includeoffset the leaf (the first frame pushed) still loses its
 * offset: inferno's fix of FlameGraph issue #202, where the Perl script
 * cut the joined stack at its last '+' instead.
 */
static void push_piece(struct collapse_session *s_, struct frame_stack *fs, struct strbuf *tmp,
		       const char *s, size_t len, int inlined, int strip_l)
{
	size_t i;

	strbuf_setlen(tmp, 0);
	if (strip_l && len && s[0] == 'L') {
		s++;
		len--;
	}
	strbuf_add(tmp, s, len);
	for (i = 0; i < tmp->len; i++)
		if (tmp->buf[i] == ';')
			tmp->buf[i] = ':';
	if (inlined)
		strbuf_add(tmp, "_[i]", 4);
	if (s_->opts.include_offset && !fs->nr)
		strbuf_setlen(tmp, cut_offset(tmp->buf, tmp->len));
	frame_stack_push(fs, tmp->buf, tmp->len);
}

/*
 * One frame line (trimmed).  Frames arrive leaf first and are folded
 * reversed, so the pieces of "a->b" (b inlined into a) are pushed b first.
 */
static void on_frame(struct collapse_session *s, struct frame_stack *fs, struct strbuf *tmp,
		     const char *line, size_t len)
{
	const char *arrow;

	if (!s->opts.include_offset)
		len = cut_offset(line, len);
	len = cut_cpp_args(line, len);
	if (!len) {
		frame_stack_push(fs, "-", 1);
		return;
	}
	arrow = memmem(line, len, "->", 2);
	if (!arrow) {
		push_piece(s, fs, tmp, line, len, 0, 0);
		return;
	}
	{
		/* the pieces in order, then pushed last to first */
		size_t starts[64], lens[64], n = 0, pos = 0, k;

		while (n < 64) {
			const char *a = memmem(line + pos, len - pos, "->", 2);
			size_t end = a ? (size_t)(a - line) : len;

			starts[n] = pos;
			lens[n++] = end - pos;
			if (!a)
				break;
			pos = end + 2;
		}
		for (k = n; k-- > 0;)
			push_piece(s, fs, tmp, line + starts[k], lens[k], k > 0, 1);
	}
}

static void on_count(struct frame_stack *fs, struct folder *f, uint64_t count)
{
	frame_stack_fold(fs, f, 1, count);
	frame_stack_truncate(fs, 0);
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct frame_stack fs;
	struct strbuf tmp = STRBUF_INIT;
	char *line;
	size_t len;
	int got, in_header = 1, ret = 0;

	collapse_input_lines(in, &r);
	frame_stack_init(&fs);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		const char *t = frames_trim(line, &len);
		uint64_t count;

		if (in_header) {
			in_header = len != 0;
			continue;
		}
		if (!len)
			continue;
		if (frames_parse_u64(t, len, &count))
			on_count(&fs, f, count);
		else
			on_frame(s, &fs, &tmp, t, len);
	}
	if (got < 0)
		ret = -1;
	else if (in_header)
		warning("%s: the input ended in its header: no stacks", in->name);
	else if (fs.nr)
		collapse_session_bad_line(s, in->name, r.lineno, "the input ends inside a stack",
					  "(no count line)", 15);
	frame_stack_release(&fs);
	strbuf_release(&tmp);
	line_reader_close(&r);
	return ret;
}

/*
 * After the header's blank line, frame lines ("module`func" or "0x<hex>")
 * up to a count line: what inferno's guesser also checks.
 */
static int detect(const char *head, size_t n)
{
	size_t pos = 0, len;
	const char *s;
	int blank = 0, frames = 0;

	while (frames_head_line(head, n, &pos, &s, &len, FRAMES_HEAD_WHOLE)) {
		const char *t = frames_trim(s, &len);
		uint64_t v;

		if (!len) {
			blank = 1;
			continue;
		}
		if (!blank)
			continue;
		if (frames_parse_u64(t, len, &v))
			return frames ? 70 : 0;
		if (memchr(t, '`', len) || (len > 2 && t[0] == '0' && t[1] == 'x'))
			frames++;
		else
			return 0;
	}
	return 0;
}

const struct collapser collapse_dtrace = {
	"dtrace",
	"dtrace aggregations of stack(), ustack() or jstack() (stackcollapse.pl)",
	detect,
	read_input,
};
