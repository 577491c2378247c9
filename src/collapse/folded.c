/*
 * folded.c - the "folded" input format: stacks already folded by the
 * profiler ("frame;frame;frame COUNT" per line), as py-spy record -f raw,
 * async-profiler -o collapsed, bcc's profile -f and stackcollapse-* write.
 * Lines are passed through, with equal stacks merged and the result
 * sorted like every other format, so 'trail collapse' can normalise them.
 * Counts must be integers; other lines are reported and skipped.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/line_reader.h"
#include "profile/folded.h"

#include <string.h>

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	char *line;
	size_t len;
	int got;

	collapse_input_lines(in, &r);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		const char *stack;
		size_t stack_len, blank = len;
		uint64_t count;

		frames_trim(line, &blank);
		if (!blank)
			continue;
		/* trail's own header: what the counts are, kept for the output */
		if (r.lineno == 1 && folded_header_parse(line, len, &s->weight))
			continue;
		if (frames_parse_folded(line, len, &stack, &stack_len, &count))
			folder_add_stack_text(f, stack, stack_len, count);
		else
			collapse_session_bad_line(s, in->name, r.lineno,
						  "not a folded stack with an integer count", line, len);
	}
	line_reader_close(&r);
	return got < 0 ? -1 : 0;
}

/*
 * Every complete line of the head (blank ones aside) is "stack COUNT"
 * with a stack that starts with a non-blank; more sure with ';' in it.
 * A head shorter than COLLAPSE_HEAD_MAX is the whole input, so its last
 * line is complete even without a newline.
 */
static int detect(const char *head, size_t n)
{
	size_t pos = 0, lines = 0, len;
	const char *s;
	int semicolons = 0, first = 1;	/* first: a trail-folded header may open it */
	struct folded_weight_info wi;
	enum frames_head_mode mode = n < COLLAPSE_HEAD_MAX ? FRAMES_HEAD_CUT : FRAMES_HEAD_WHOLE;

	while (frames_head_line(head, n, &pos, &s, &len, mode)) {
		const char *stack;
		size_t stack_len;
		uint64_t count;

		if (!len || (first && folded_header_parse(s, len, &wi))) {
			first = 0;
			continue;
		}
		first = 0;
		if (frames_is_space(s[0]) || s[0] == '#' ||
		    !frames_parse_folded(s, len, &stack, &stack_len, &count))
			return 0;
		semicolons |= memchr(stack, ';', stack_len) != NULL;
		lines++;
	}
	if (!lines)
		return 0;
	return semicolons ? 50 : 20;
}

const struct collapser collapse_folded = {
	"folded",
	"already folded stacks (py-spy, async-profiler collapsed, bcc profile -f): merged, sorted",
	detect,
	read_input,
};
