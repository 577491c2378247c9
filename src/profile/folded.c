/*
 * folded.c - parsing folded stacks and merging them into a profile.
 */
#include "profile/folded.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/line_reader.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

#define MAX_REPORTED_MALFORMED 5

/* Take a trailing "<blanks>digits[.digits]" off s[0..*len); 0 or -1. */
static int take_count(const char *s, size_t *len, double *count)
{
	size_t end = *len, i = end, dot = 0;

	while (i > 0 && ((s[i - 1] >= '0' && s[i - 1] <= '9') || s[i - 1] == '.')) {
		if (s[i - 1] == '.')
			dot++;
		i--;
	}
	/* flamegraph.pl: \d+(?:\.\d*)? — digits first, at most one dot. */
	if (i == end || dot > 1 || s[i] == '.')
		return -1;
	if (i == 0 || (s[i - 1] != ' ' && s[i - 1] != '\t'))
		return -1;
	if (parse_double_n(s + i, end - i, count))
		return -1;
	*len = i - 1;
	return 0;
}

int folded_parse_line(const char *line, size_t len, struct folded_line *out)
{
	size_t stack_len = len;
	double c;

	if (take_count(line, &stack_len, &out->count[0]))
		return -1;
	out->columns = 1;
	out->count[1] = 0;
	{
		size_t l2 = stack_len;

		if (!take_count(line, &l2, &c)) {
			out->count[1] = out->count[0];
			out->count[0] = c;
			out->columns = 2;
			stack_len = l2;
		}
	}
	out->stack = line;
	out->stack_len = stack_len;
	return 0;
}

void folded_profile_init(struct folded_profile *p)
{
	memset(p, 0, sizeof(*p));
	intern_init(&p->stacks);
	p->columns = 1;
}

void folded_profile_release(struct folded_profile *p)
{
	intern_release(&p->stacks);
	free(p->counts[0]);
	free(p->counts[1]);
	memset(p, 0, sizeof(*p));
}

void folded_profile_add(struct folded_profile *p, const char *stack, size_t len,
			int column, double count)
{
	int is_new;
	uint32_t id = intern_add(&p->stacks, stack, len, &is_new);

	if (id >= p->counts_alloc) {
		size_t old = p->counts_alloc;

		ALLOC_GROW(p->counts[0], (size_t)id + 1, p->counts_alloc);
		p->counts[1] = xreallocarray(p->counts[1], p->counts_alloc, sizeof(double));
		memset(p->counts[0] + old, 0, (p->counts_alloc - old) * sizeof(double));
		memset(p->counts[1] + old, 0, (p->counts_alloc - old) * sizeof(double));
	}
	p->counts[column][id] += count;
	p->total[column] += count;
	if (column == 1)
		p->columns = 2;
}

int folded_profile_read(struct folded_profile *p, const char *path)
{
	struct line_reader r;
	char *line;
	size_t len;
	int ret;

	if (line_reader_open(&r, path))
		return -1;
	while ((ret = line_reader_next(&r, &line, &len)) > 0) {
		struct folded_line fl;

		p->lines++;
		if (!len)
			continue;
		if (folded_parse_line(line, len, &fl)) {
			if (++p->malformed <= MAX_REPORTED_MALFORMED)
				warning("%s:%llu: ignoring line without a sample count: '%.80s'",
					r.path, (unsigned long long)r.lineno, line);
			continue;
		}
		folded_profile_add(p, fl.stack, fl.stack_len, 0, fl.count[0]);
		if (fl.columns == 2)
			folded_profile_add(p, fl.stack, fl.stack_len, 1, fl.count[1]);
	}
	line_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

static const struct folded_profile *sort_profile;

static int cmp_stack(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct intern *t = &sort_profile->stacks;
	uint32_t lx = intern_len(t, x), ly = intern_len(t, y);
	int c = memcmp(intern_str(t, x), intern_str(t, y), lx < ly ? lx : ly);

	if (c)
		return c;
	return (lx > ly) - (lx < ly);
}

uint32_t *folded_profile_sorted(const struct folded_profile *p)
{
	size_t n = folded_profile_size(p), i;
	uint32_t *ids = xmallocarray(n ? n : 1, sizeof(*ids));

	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	sort_profile = p;
	qsort(ids, n, sizeof(*ids), cmp_stack);
	sort_profile = NULL;
	return ids;
}

void folded_format_count(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.15g", v);
}

void folded_stack_push(struct strbuf *sb, const char *name, size_t len)
{
	size_t i;

	if (sb->len)
		strbuf_addch(sb, ';');
	if (!len) {
		strbuf_addstr(sb, "[unknown]");
		return;
	}
	i = sb->len;
	strbuf_add(sb, name, len);
	for (; i < sb->len; i++)
		if (sb->buf[i] == '\n' || sb->buf[i] == '\r')
			sb->buf[i] = ' ';
}

int folded_profile_write(const struct folded_profile *p, FILE *out)
{
	uint32_t *order = folded_profile_sorted(p);
	size_t i;
	char c0[64], c1[64];

	for (i = 0; i < folded_profile_size(p); i++) {
		uint32_t id = order[i];

		fwrite(intern_str(&p->stacks, id), 1, intern_len(&p->stacks, id), out);
		folded_format_count(c0, sizeof(c0), p->counts[0][id]);
		if (p->columns == 2) {
			folded_format_count(c1, sizeof(c1), p->counts[1][id]);
			fprintf(out, " %s %s\n", c0, c1);
		} else {
			fprintf(out, " %s\n", c0);
		}
	}
	free(order);
	if (fflush(out) || ferror(out))
		return error_errno("cannot write the folded stacks");
	return 0;
}
