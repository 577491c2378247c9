/*
 * recursive.c - the "recursive" input format: folded stacks in which
 * runs of one frame repeated ("a;rec;rec;rec;b") are collapsed to one
 * ("a;rec;b"), as stackcollapse-recursive.pl and inferno's
 * collapse-recursive do, so deep recursion reads as one tower.  Never
 * guessed (the input is ordinary folded text): ask with --format recursive.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/line_reader.h"

#include <string.h>

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct strbuf out = STRBUF_INIT;
	char *line;
	size_t len;
	int got;

	collapse_input_lines(in, &r);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		const char *stack, *prev = NULL, *l = frames_trim(line, &len);
		size_t stack_len, prev_len = 0, pos = 0;
		uint64_t count;

		if (!len)
			continue;
		if (!frames_parse_folded(l, len, &stack, &stack_len, &count)) {
			collapse_session_bad_line(s, in->name, r.lineno,
						  "not a folded stack with an integer count", l, len);
			continue;
		}
		strbuf_setlen(&out, 0);
		while (pos <= stack_len) {
			const char *semi = memchr(stack + pos, ';', stack_len - pos);
			size_t end = semi ? (size_t)(semi - stack) : stack_len;
			const char *fr = stack + pos;
			size_t fl = end - pos;

			if (!prev || fl != prev_len || memcmp(fr, prev, fl)) {
				if (prev)
					strbuf_addch(&out, ';');
				strbuf_add(&out, fr, fl);
			}
			prev = fr;
			prev_len = fl;
			pos = end + 1;
		}
		folder_add_stack_text(f, out.buf, out.len, count);
	}
	strbuf_release(&out);
	line_reader_close(&r);
	return got < 0 ? -1 : 0;
}

static int detect(const char *head, size_t n)
{
	(void)head;
	(void)n;
	return 0;
}

const struct collapser collapse_recursive = {
	"recursive",
	"folded stacks with runs of a repeated frame collapsed to one (never guessed)",
	detect,
	read_input,
};
