/*
 * vtune.c - the "vtune" input format: Intel VTune's top-down tree exported
 * as CSV (amplxe-cl/vtune -report top-down -call-stack-mode all
 * -column="CPU Time:Self,Module" -report-out x.csv -format csv
 * -csv-delimiter comma).  After the header "Function Stack,CPU Time:Self,
 * Module", each row is a frame indented one space per depth; a row with
 * self time ends a stack weighed in milliseconds (seconds * 1000,
 * rounded).  Frames are "module`function" (--no-modules: function).
 * Follows inferno's collapse-vtune (FlameGraph's script does not run).
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/error.h"
#include "core/line_reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "Function Stack,CPU Time:Self,Module"

/* Seconds as text -> milliseconds, rounded half away from zero; -1 when not a number. */
static int parse_ms(const char *s, size_t len, uint64_t *ms)
{
	char buf[64], *end;
	double v;

	if (!len || len >= sizeof(buf) || frames_is_space(s[0]))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (memchr(buf, 'x', len) || memchr(buf, 'X', len))
		return -1;	/* strtod would take hex */
	v = strtod(buf, &end);
	if (*end)
		return -1;
	v *= 1000;
	if (!(v > 0))
		*ms = 0;
	else if (v >= 18446744073709551616.0)
		*ms = UINT64_MAX;
	else
		*ms = (uint64_t)round(v);
	return 0;
}

static int on_row(struct collapse_session *s, struct frame_stack *fs, struct strbuf *frame,
		  struct folder *f, const char *name, uint64_t lineno, const char *line, size_t len)
{
	size_t spaces = 0, depth, func_len, time_len, mod_len = 0;
	const char *p, *func, *time, *mod = NULL, *comma;
	uint64_t ms;

	while (spaces < len && line[spaces] == ' ')
		spaces++;
	if (spaces == len)
		return 0;
	depth = spaces + 1;
	if (depth <= fs->nr)
		frame_stack_truncate(fs, depth - 1);
	else if (depth > fs->nr + 1)
		return trail_error("%s:%llu: an indentation level was skipped", name,
			     (unsigned long long)lineno);
	p = line + spaces;
	len -= spaces;
	func = p;
	if (*p == '"') {
		const char *q = memmem(p + 1, len - 1, "\",", 2);

		if (!q)
			return trail_error("%s:%llu: cannot parse the stack line", name,
				     (unsigned long long)lineno);
		func = p + 1;
		func_len = (size_t)(q - func);
		p = q + 2;
	} else {
		comma = memchr(p, ',', len);
		if (!comma)
			return trail_error("%s:%llu: cannot parse the stack line", name,
				     (unsigned long long)lineno);
		func_len = (size_t)(comma - p);
		p = comma + 1;
	}
	len = (size_t)(line + spaces + len - p);
	time = p;
	comma = memchr(p, ',', len);
	time_len = comma ? (size_t)(comma - p) : len;
	if (!s->opts.no_modules) {
		if (!comma)
			return trail_error("%s:%llu: cannot parse the stack line", name,
				     (unsigned long long)lineno);
		mod = comma + 1;
		mod_len = len - time_len - 1;
	}
	if (parse_ms(time, time_len, &ms))
		return trail_error("%s:%llu: invalid 'CPU Time:Self' field '%.*s'", name,
			     (unsigned long long)lineno, (int)time_len, time);
	strbuf_setlen(frame, 0);
	if (mod_len) {
		strbuf_add(frame, mod, mod_len);
		strbuf_addch(frame, '`');
	}
	strbuf_add(frame, func, func_len);
	frame_stack_push(fs, frame->buf, frame->len);
	if (ms)
		frame_stack_fold(fs, f, 0, ms);
	return 0;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct frame_stack fs;
	struct strbuf frame = STRBUF_INIT;
	char *line;
	size_t len;
	int got, started = 0, ret = 0;

	collapse_input_lines(in, &r);
	frame_stack_init(&fs);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		if (!started) {
			started = !strncmp(line, HEADER, strlen(HEADER));
			continue;
		}
		len = frames_trim_end(line, len);
		if (len && on_row(s, &fs, &frame, f, in->name, r.lineno, line, len)) {
			ret = -1;
			break;
		}
	}
	if (got < 0)
		ret = -1;
	else if (!started)
		warning("%s: the input ended before the header line: no stacks", in->name);
	frame_stack_release(&fs);
	strbuf_release(&frame);
	line_reader_close(&r);
	return ret;
}

static int detect(const char *head, size_t n)
{
	(void)n;
	if (!strncmp(head, HEADER, strlen(HEADER)))
		return 90;
	return strstr(head, "\n" HEADER) ? 80 : 0;
}

const struct collapser collapse_vtune = {
	"vtune",
	"Intel VTune top-down CSV (CPU Time:Self, Module) (inferno's collapse-vtune)",
	detect,
	read_input,
};
