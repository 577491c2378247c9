/*
 * input.c - reading folded stacks into memory (see input.h).  Lines are
 * parsed with profile/folded.h's folded_parse_line (flamegraph.pl's rules)
 * in place from a memory mapping of the file (plain regular files, the
 * common case) or copied once into an arena (gzip, pipes); whether the
 * input is already sorted is noted on the way so sorted input (what
 * 'trail collapse' writes) is not sorted again.
 */
#include "flamegraph/input.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/line_map.h"
#include "profile/folded.h"

#include <stdlib.h>
#include <string.h>

void fg_input_init(struct fg_input *in, const struct fg_input_options *opts)
{
	memset(in, 0, sizeof(*in));
	if (opts)
		in->opts = *opts;
	if (!(in->opts.factor > 0))
		in->opts.factor = 1;
	in->columns = 1;
	in->sorted = 1;
}

void fg_input_release(struct fg_input *in)
{
	for (size_t i = 0; i < in->nmaps; i++)
		line_map_close(&in->maps[i]);
	free(in->maps);
	free(in->stacks);
	free(in->lcp);
	arena_release(&in->text);
	memset(in, 0, sizeof(*in));
}

/* Offset of the first frame named base in stack, or -1. */
static long find_base(const char *stack, size_t len, const char *base)
{
	size_t blen = strlen(base), i = 0;

	while (i <= len) {
		const char *semi = memchr(stack + i, ';', len - i);
		size_t end = semi ? (size_t)(semi - stack) : len;

		if (end - i == blen && !memcmp(stack + i, base, blen))
			return (long)i;
		if (!semi)
			break;
		i = end + 1;
	}
	return -1;
}

static void reverse_into(char *out, const char *stack, size_t len)
{
	size_t end = len, pos = 0;

	while (1) {
		size_t start = end;

		while (start > 0 && stack[start - 1] != ';')
			start--;
		memcpy(out + pos, stack + start, end - start);
		pos += end - start;
		if (!start)
			break;
		out[pos++] = ';';
		end = start - 1;
	}
}

/*
 * Chain graphs (--colors chain): after the first "--" frame come the
 * waker stacks, separated by more "--" frames; flamegraph.pl marks each
 * of their frames "_[w]" for the palette.  NULL when stack has no "--".
 */
static char *mark_wakers(struct arena *a, const char *stack, size_t *len)
{
	const char *sep = memmem(stack, *len, ";--;", 4), *p, *end = stack + *len;
	char *out, *q;
	size_t frames = 0;

	if (!sep)
		return NULL;
	sep += 4;
	for (p = sep; p < end; p++)
		frames += *p == ';';
	out = arena_alloc(a, *len + 4 * (frames + 1));
	memcpy(out, stack, (size_t)(sep - stack));
	q = out + (sep - stack);
	for (p = sep; p < end;) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		size_t n = (size_t)((semi ? semi : end) - p);

		memcpy(q, p, n);
		q += n;
		if (!(n == 2 && p[0] == '-' && p[1] == '-')) {
			memcpy(q, "_[w]", 4);
			q += 4;
		}
		if (!semi)
			break;
		*q++ = ';';
		p = semi + 1;
	}
	*len = (size_t)(q - out);
	return out;
}

static void add(struct fg_input *in, const char *stack, size_t len,
		const double *count, int columns, int stable)
{
	struct fg_stack *st;
	const char *text;
	char *marked;

	if (in->opts.base) {
		long off = find_base(stack, len, in->opts.base);

		if (off < 0) {
			in->dropped++;
			return;
		}
		stack += off;
		len -= (size_t)off;
	}
	if (len > UINT32_MAX)
		return;	/* the line reader caps lines far below this */
	if (in->opts.reverse && len) {
		char *copy = arena_alloc(&in->text, len);

		reverse_into(copy, stack, len);
		text = copy;
	} else if (stable) {
		text = stack;	/* in a mapping that lives as long as in */
	} else {
		text = arena_strndup(&in->text, stack, len);
	}
	/* after --reverse, as flamegraph.pl rewrites the reversed stack */
	if (in->opts.chain && (marked = mark_wakers(&in->text, text, &len)))
		text = marked;
	ALLOC_GROW(in->stacks, in->nr + 1, in->alloc);
	st = &in->stacks[in->nr++];
	st->s = text;
	st->len = (uint32_t)len;
	st->count[0] = count[0] * in->opts.factor;
	/* a one-column line in a differential file is unchanged: before = after */
	st->count[1] = (columns == 2 ? count[1] : count[0]) * in->opts.factor;
	if (columns == 2)
		in->columns = 2;
	in->total[0] += st->count[0];
	in->total[1] += st->count[1];
	/* counted while the input still looks like a few sorted runs (byte
	 * order, as 'trail collapse' and 'trail diff' write, differs from
	 * frame order in a few places only): see fg_input_sort */
	if (in->nr > 1 && in->descents != SIZE_MAX) {
		const struct fg_stack *prev = st - 1;

		if (fg_stack_cmp(prev->s, prev->len, st->s, st->len) > 0) {
			in->sorted = 0;
			/* too many: shuffled, stop comparing */
			in->descents = in->descents < in->nr / 64 + 16 ? in->descents + 1 : SIZE_MAX;
		}
	}
}

void fg_input_add(struct fg_input *in, const char *stack, size_t len,
		  const double *count, int columns)
{
	add(in, stack, len, count, columns, 0);
}

static void add_line(struct fg_input *in, const char *line, size_t len, const char *path,
		     uint64_t lineno, int stable)
{
	struct folded_line fl;

	in->lines++;
	if (!len)
		return;
	if (folded_header_parse(line, len, &in->weight))
		return;
	if (folded_parse_line(line, len, &fl)) {
		in->malformed++;
		if (path)
			folded_warn_malformed(path, lineno, in->malformed, line, len);
		return;
	}
	add(in, fl.stack, fl.stack_len, fl.count, fl.columns, stable);
}

int fg_input_read(struct fg_input *in, const char *path)
{
	struct line_map m;
	const char *line;
	size_t len;
	int ret, stable;

	if (line_map_open(&m, path, 1)) {
		line_map_close(&m);
		return -1;
	}
	/* a mapped file's lines are parsed in place and stay until release */
	stable = line_map_stable(&m);
	while ((ret = line_map_next(&m, &line, &len)) > 0)
		add_line(in, line, len, m.path, m.lineno, stable);
	if (stable) {
		ALLOC_GROW(in->maps, in->nmaps + 1, in->maps_alloc);
		in->maps[in->nmaps++] = m;
	} else {
		line_map_close(&m);
	}
	return ret < 0 ? -1 : 0;
}

void fg_input_read_buffer(struct fg_input *in, const char *buf, size_t len)
{
	size_t pos = 0, alloc = 0;
	char *line = NULL;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len, n = end - pos;

		/* a NUL-terminated copy, as the line reader hands out */
		ALLOC_GROW(line, n + 1, alloc);
		memcpy(line, buf + pos, n);
		if (n && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		add_line(in, line, n, NULL, 0, 0);
		pos = end + 1;
	}
	free(line);
}
