/*
 * frames.c - the helpers of frames.h.  The Rust clean-up follows the
 * legacy symbol mangling of rustc (symbol_names/legacy.rs: "$LT$" for
 * '<', "$u20$" for ' ', ".." for "::", a trailing "::h<16 hex>" hash),
 * as applied by inferno to the names dtrace and sample print.
 */
#include "collapse/frames.h"
#include "profile/fold.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

void frame_stack_init(struct frame_stack *fs)
{
	memset(fs, 0, sizeof(*fs));
	strbuf_init(&fs->text, 256);
	strbuf_init(&fs->joined, 256);
}

void frame_stack_release(struct frame_stack *fs)
{
	strbuf_release(&fs->text);
	strbuf_release(&fs->joined);
	free(fs->end);
	memset(fs, 0, sizeof(*fs));
}

void frame_stack_push(struct frame_stack *fs, const char *s, size_t len)
{
	strbuf_add(&fs->text, s, len);
	ALLOC_GROW(fs->end, fs->nr + 1, fs->alloc);
	fs->end[fs->nr++] = fs->text.len;
}

void frame_stack_truncate(struct frame_stack *fs, size_t nr)
{
	if (nr >= fs->nr)
		return;
	fs->nr = nr;
	strbuf_setlen(&fs->text, nr ? fs->end[nr - 1] : 0);
}

const char *frame_stack_get(const struct frame_stack *fs, size_t i, size_t *len)
{
	size_t start = i ? fs->end[i - 1] : 0;

	*len = fs->end[i] - start;
	return fs->text.buf + start;
}

void frame_stack_fold(struct frame_stack *fs, struct folder *f, int leaf_first, uint64_t count)
{
	size_t i, len;

	if (!fs->nr)
		return;
	if (!leaf_first) {
		/* frames are contiguous: join them in place with ';' */
		strbuf_setlen(&fs->joined, 0);
		for (i = 0; i < fs->nr; i++) {
			const char *s = frame_stack_get(fs, i, &len);

			if (i)
				strbuf_addch(&fs->joined, ';');
			strbuf_add(&fs->joined, s, len);
		}
	} else {
		strbuf_setlen(&fs->joined, 0);
		for (i = fs->nr; i-- > 0;) {
			const char *s = frame_stack_get(fs, i, &len);

			strbuf_add(&fs->joined, s, len);
			if (i)
				strbuf_addch(&fs->joined, ';');
		}
	}
	folder_add_stack_text(f, fs->joined.buf, fs->joined.len, count);
}

int frames_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

size_t frames_trim_end(const char *s, size_t len)
{
	while (len && frames_is_space(s[len - 1]))
		len--;
	return len;
}

const char *frames_trim(const char *s, size_t *len)
{
	size_t n = *len;

	while (n && frames_is_space(*s)) {
		s++;
		n--;
	}
	*len = frames_trim_end(s, n);
	return s;
}

int frames_parse_u64(const char *s, size_t len, uint64_t *value)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return 0;
		v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
	}
	*value = v;
	return 1;
}

int frames_head_line(const char *head, size_t n, size_t *pos, const char **line, size_t *len,
		     enum frames_head_mode mode)
{
	const char *s = head + *pos, *nl;

	if (*pos >= n)
		return 0;
	nl = memchr(s, '\n', n - *pos);
	if (!nl && mode == FRAMES_HEAD_WHOLE)
		return 0;
	*line = s;
	*len = nl ? (size_t)(nl - s) : n - *pos;
	*pos += *len + (nl ? 1 : 0);
	if (*len && s[*len - 1] == '\r')
		(*len)--;
	return 1;
}

int frames_parse_folded(const char *line, size_t len, const char **stack, size_t *stack_len,
			uint64_t *count)
{
	size_t end = frames_trim_end(line, len), start;

	start = end;
	while (start && !frames_is_space(line[start - 1]))
		start--;
	if (!start || !frames_parse_u64(line + start, end - start, count))
		return 0;
	start = frames_trim_end(line, start);
	if (!start)
		return 0;
	*stack = line;
	*stack_len = start;
	return 1;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

#define RUST_HASH_LEN 17	/* "h" and 16 hex digits */

int frames_fix_rust_name(const char *s, size_t len, struct strbuf *out)
{
	static const struct {
		const char *from, *to;
	} escapes[] = {
		{ "$SP$", "@" }, { "$BP$", "*" }, { "$RF$", "&" }, { "$LT$", "<" },
		{ "$GT$", ">" }, { "$LP$", "(" }, { "$RP$", ")" }, { "$C$", "," },
		{ "$u7e$", "~" }, { "$u20$", " " }, { "$u27$", "'" }, { "$u3d$", "=" },
		{ "$u5b$", "[" }, { "$u5d$", "]" }, { "$u7b$", "{" }, { "$u7d$", "}" },
		{ "$u3b$", ";" }, { "$u2b$", "+" }, { "$u21$", "!" }, { "$u22$", "\"" },
	};
	const char *h = s + len - RUST_HASH_LEN;
	size_t i, n;

	strbuf_setlen(out, 0);
	if (len < RUST_HASH_LEN || h[0] != 'h') {
		strbuf_add(out, s, len);
		return 0;
	}
	for (i = 1; i < RUST_HASH_LEN; i++)
		if (!is_hex(h[i])) {
			strbuf_add(out, s, len);
			return 0;
		}
	n = len - RUST_HASH_LEN;
	if (n >= 2 && s[n - 2] == ':' && s[n - 1] == ':')
		n -= 2;
	if (n >= 2 && s[0] == '_' && s[1] == '$') {
		s++;
		n--;
	}
	while (n) {
		if (*s == '.') {
			if (n >= 2 && s[1] == '.') {
				strbuf_add(out, "::", 2);
				s += 2;
				n -= 2;
			} else {
				strbuf_addch(out, '.');
				s++;
				n--;
			}
		} else if (*s == '$') {
			size_t k, el = 0;

			for (k = 0; k < sizeof(escapes) / sizeof(escapes[0]); k++) {
				el = strlen(escapes[k].from);
				if (el <= n && !memcmp(s, escapes[k].from, el))
					break;
			}
			if (k == sizeof(escapes) / sizeof(escapes[0])) {
				/* an unknown escape: keep the rest as it is */
				strbuf_add(out, s, n);
				break;
			}
			strbuf_addstr(out, escapes[k].to);
			s += el;
			n -= el;
		} else {
			size_t run = 0;

			while (run < n && s[run] != '$' && s[run] != '.')
				run++;
			strbuf_add(out, s, run);
			s += run;
			n -= run;
		}
	}
	return 1;
}
