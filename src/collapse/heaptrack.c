/*
 * heaptrack.c - the "heaptrack" input format: the flame-graph stacks that
 * heaptrack_print writes with --print-flamegraph (-F), one
 * "frame (file);frame (file); COUNT" line per call stack, root first,
 * each stack ending in ';', weighed by --flamegraph-cost-type
 * (allocations, temporary, leaked or peak bytes).  The " (file)" heaptrack
 * puts after each function (its source file) is dropped, so the frames are
 * the function names trail's own allocation profiles (record -e alloc)
 * show, and the two fold to comparable stacks.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/line_reader.h"

#include <string.h>

/* The frame without a trailing " (file)" annotation. */
static size_t frame_name_len(const char *s, size_t len)
{
	size_t i;

	if (len < 4 || s[len - 1] != ')')
		return len;
	for (i = len - 1; i-- > 1;) {
		if (s[i] == '(' && s[i - 1] == ' ')
			return memchr(s + i, ';', len - i) ? len : i - 1;
		if (s[i] == ')' || s[i] == '(')
			return len;	/* nested: part of the name, not a file */
	}
	return len;
}

/* "stack; COUNT": the stack (trailing ';' dropped) and the count. */
static int parse_line(const char *line, size_t len, const char **stack, size_t *stack_len,
		      uint64_t *count)
{
	if (!frames_parse_folded(line, len, stack, stack_len, count) || !*stack_len ||
	    (*stack)[*stack_len - 1] != ';')
		return 0;
	(*stack_len)--;
	return 1;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct frame_stack fs;
	char *line;
	size_t len;
	int got;

	frame_stack_init(&fs);
	collapse_input_lines(in, &r);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		const char *stack, *p, *end;
		size_t stack_len, blank = len;
		uint64_t count;

		frames_trim(line, &blank);
		if (!blank)
			continue;
		if (!parse_line(line, len, &stack, &stack_len, &count)) {
			collapse_session_bad_line(s, in->name, r.lineno,
						  "not a heaptrack stack (\"frame;frame; COUNT\")", line, len);
			continue;
		}
		frame_stack_truncate(&fs, 0);
		for (p = stack, end = stack + stack_len; p < end;) {
			const char *semi = memchr(p, ';', (size_t)(end - p));
			size_t n = semi ? (size_t)(semi - p) : (size_t)(end - p);

			if (n)
				frame_stack_push(&fs, p, frame_name_len(p, n));
			p += n + 1;
		}
		frame_stack_fold(&fs, f, 0, count);
	}
	line_reader_close(&r);
	frame_stack_release(&fs);
	return got < 0 ? -1 : 0;
}

/* Every complete line of the head is "stack; COUNT": the stack ends in ';'. */
static int detect(const char *head, size_t n)
{
	size_t pos = 0, lines = 0, len;
	const char *s;

	while (frames_head_line(head, n, &pos, &s, &len, FRAMES_HEAD_WHOLE)) {
		const char *stack;
		size_t stack_len;
		uint64_t count;

		if (!len)
			continue;
		if (frames_is_space(s[0]) || !parse_line(s, len, &stack, &stack_len, &count))
			return 0;
		lines++;
	}
	return lines ? 70 : 0;
}

const struct collapser collapse_heaptrack = {
	"heaptrack",
	"heaptrack_print --print-flamegraph stacks (\"frame (file);...; COUNT\"): source files dropped",
	detect,
	read_input,
};
