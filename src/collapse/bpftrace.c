/*
 * bpftrace.c - the "bpftrace" input format: maps keyed by stacks as
 * bpftrace prints them at exit, e.g. for
 *   bpftrace -e 'profile:hz:99 { @[comm, ustack] = count(); }'
 *     @[myprog,
 *             work+20
 *             main+36
 *     ]: 42
 * A key is printed "@name[" ... "]: COUNT"; stack elements are frame
 * lines, leaf first ("func+off", "0xaddr", or with ustack(perf)
 * "addr func+off (module)"); other elements (comm, pid) are text
 * separated by commas before or after the stacks.  The folded stack is the
 * text elements (in key order) as root frames, then the frames of every
 * stack element, root first (so key kernel stacks before user stacks:
 * @[kstack, ustack]).  Offsets are dropped.  Other lines are skipped.
 */
#include "collapse/collapser.h"
#include "collapse/frames.h"
#include "core/line_reader.h"

#include <string.h>

struct bt_state {
	struct frame_stack roots;	/* text elements, key order */
	struct frame_stack frames;	/* frames, print order (leaf first) */
	struct strbuf joined;
	int in_key;
};

/* "func+123" or "func+0x1f" -> "func" */
static size_t cut_offset(const char *s, size_t len)
{
	const char *plus = memrchr(s, '+', len);
	size_t i;

	if (!plus || plus == s)
		return len;
	for (i = (size_t)(plus - s) + 1; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || s[i] == 'x'))
			return len;
	return (size_t)(plus - s);
}

static void add_frame(struct bt_state *st, const char *s, size_t len)
{
	const char *sp;

	s = frames_trim(s, &len);
	if (!len)
		return;
	/* ustack(perf): "7f10a2b3 func+12 (/usr/lib/libc.so.6)" */
	sp = memchr(s, ' ', len);
	if (sp && s[len - 1] == ')') {
		const char *open = memrchr(s, '(', len);
		size_t i;

		for (i = 0; i < (size_t)(sp - s); i++)
			if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
				break;
		if (i == (size_t)(sp - s) && open && open > sp) {
			const char *fn = sp + 1;
			size_t fl = (size_t)(open - fn);

			fn = frames_trim(fn, &fl);
			s = fn;
			len = fl;
		}
	}
	frame_stack_push(&st->frames, s, cut_offset(s, len));
}

/* Text elements "a, b, " (before a stack or before "]: N"), split at commas. */
static void add_texts(struct bt_state *st, const char *s, size_t len)
{
	while (len) {
		const char *comma = memchr(s, ',', len);
		size_t n = comma ? (size_t)(comma - s) : len, tl = n;
		const char *t = frames_trim(s, &tl);

		if (tl)
			frame_stack_push(&st->roots, t, tl);
		if (!comma)
			break;
		s = comma + 1;
		len -= n + 1;
	}
}

static void finish(struct bt_state *st, struct folder *f, uint64_t count)
{
	size_t i, len;

	strbuf_setlen(&st->joined, 0);
	for (i = 0; i < st->roots.nr; i++) {
		const char *s = frame_stack_get(&st->roots, i, &len);

		if (st->joined.len)
			strbuf_addch(&st->joined, ';');
		strbuf_add(&st->joined, s, len);
	}
	for (i = st->frames.nr; i-- > 0;) {
		const char *s = frame_stack_get(&st->frames, i, &len);

		if (st->joined.len)
			strbuf_addch(&st->joined, ';');
		strbuf_add(&st->joined, s, len);
	}
	folder_add_stack_text(f, st->joined.buf, st->joined.len, count);
	frame_stack_truncate(&st->roots, 0);
	frame_stack_truncate(&st->frames, 0);
	st->in_key = 0;
}

/* "...]: N" ends a key: 1 with the text before "]" and the count, else 0. */
static int key_end(const char *s, size_t len, size_t *before, uint64_t *count)
{
	const char *close = NULL;
	size_t i;

	for (i = len; i-- > 0;)
		if (s[i] == ']' && i + 1 < len && s[i + 1] == ':') {
			close = s + i;
			break;
		}
	if (!close)
		return 0;
	{
		const char *c = close + 2;
		size_t cl = len - (size_t)(c - s);

		c = frames_trim(c, &cl);
		if (!frames_parse_u64(c, cl, count))
			return 0;
	}
	*before = (size_t)(close - s);
	return 1;
}

static int is_key_start(const char *s, size_t len, size_t *after)
{
	size_t i = 1;

	if (!len || s[0] != '@')
		return 0;
	while (i < len && (s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
			   (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
		i++;
	if (i >= len || s[i] != '[')
		return 0;
	*after = i + 1;
	return 1;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	struct line_reader r;
	struct bt_state st;
	char *line;
	size_t len;
	int got;

	memset(&st, 0, sizeof(st));
	frame_stack_init(&st.roots);
	frame_stack_init(&st.frames);
	strbuf_init(&st.joined, 256);
	collapse_input_lines(in, &r);
	while ((got = line_reader_next(&r, &line, &len)) > 0) {
		size_t after, before;
		uint64_t count;

		if (!st.in_key) {
			if (!is_key_start(line, len, &after))
				continue;	/* "Attaching 1 probe...", other maps' text */
			st.in_key = 1;
			line += after;
			len -= after;
			if (key_end(line, len, &before, &count)) {
				add_texts(&st, line, before);
				finish(&st, f, count);
			} else {
				add_texts(&st, line, len);
			}
			continue;
		}
		if (key_end(line, len, &before, &count)) {
			if (before && !frames_is_space(line[0]))
				add_texts(&st, line, before);
			else if (before)
				add_frame(&st, line, before);
			finish(&st, f, count);
		} else if (len && frames_is_space(line[0])) {
			add_frame(&st, line, len);
		} else if (len && line[0] == ',') {
			add_texts(&st, line + 1, len - 1);
		} else if (len) {
			collapse_session_bad_line(s, in->name, r.lineno,
						  "not a stack frame or the end of a map key", line, len);
			frame_stack_truncate(&st.roots, 0);
			frame_stack_truncate(&st.frames, 0);
			st.in_key = 0;
		}
	}
	frame_stack_release(&st.roots);
	frame_stack_release(&st.frames);
	strbuf_release(&st.joined);
	line_reader_close(&r);
	return got < 0 ? -1 : 0;
}

/* A map key "@...[" followed by an indented frame line. */
static int detect(const char *head, size_t n)
{
	size_t pos = 0, after;
	int key = 0;

	while (pos < n) {
		const char *s = head + pos, *nl = memchr(s, '\n', n - pos);
		size_t len = nl ? (size_t)(nl - s) : n - pos;

		if (!nl)
			break;
		pos += len + 1;
		if (key && len && frames_is_space(s[0]))
			return 80;
		key = is_key_start(s, len, &after);
	}
	return strncmp(head, "Attaching ", 10) ? 0 : 30;
}

const struct collapser collapse_bpftrace = {
	"bpftrace",
	"bpftrace maps keyed by ustack/kstack (@[comm, ustack] = count())",
	detect,
	read_input,
};
