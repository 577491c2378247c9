/*
 * folded.c - parsing folded stacks and merging them into a profile.
 */
#include "profile/folded.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/strbuf.h"
#include "core/line_reader.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const weight_names[] = {
	[FOLDED_WEIGHT_SAMPLES] = "samples",
	[FOLDED_WEIGHT_PERIOD] = "period",
	[FOLDED_WEIGHT_TIME] = "time",
};

const char *folded_weight_name(enum folded_weight w)
{
	return (unsigned)w < sizeof(weight_names) / sizeof(weight_names[0]) ? weight_names[w] : "?";
}

int folded_weight_parse(const char *s, enum folded_weight *out)
{
	size_t i;

	for (i = 0; i < sizeof(weight_names) / sizeof(weight_names[0]); i++)
		if (!strcmp(s, weight_names[i])) {
			*out = (enum folded_weight)i;
			return 0;
		}
	return -1;
}

static int unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == ':' || c == '/' || c == '-';
}

/* name copied with bytes outside unit_char() as '_' */
static void clean_copy(char *dst, size_t n, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < n; i++)
		dst[i] = unit_char(src[i]) ? src[i] : '_';
	if (n)
		dst[i] = 0;
}

void folded_header_format(char *buf, size_t n, const struct folded_weight_info *w)
{
	char unit[sizeof(w->unit)], type[sizeof(w->type)], punit[sizeof(w->period_unit)];
	char period[64] = "", runs[32] = "";

	if (w->weight == FOLDED_WEIGHT_SAMPLES && !w->type[0] && !(w->period > 0)) {
		if (n)
			buf[0] = 0;
		return;
	}
	clean_copy(unit, sizeof(unit), w->weight == FOLDED_WEIGHT_SAMPLES ? "samples" : w->unit);
	clean_copy(type, sizeof(type), w->type);
	clean_copy(punit, sizeof(punit), w->period_unit);
	if (w->period > 0)
		snprintf(period, sizeof(period), " period=%.15g period_unit=%s", w->period,
			 punit[0] ? punit : "unknown");
	if (w->runs > 1)
		snprintf(runs, sizeof(runs), " runs=%.15g", w->runs);
	/* "unit=" last and never empty: the line cannot end in " digits" */
	snprintf(buf, n, FOLDED_HEADER_PREFIX "weight=%s%s%s%s%s unit=%s\n",
		 folded_weight_name(w->weight), type[0] ? " type=" : "", type, period, runs,
		 unit[0] ? unit : "unknown");
}

/* Copy the value v[0..vlen) into dst[n], cut to fit. */
static void take_value(char *dst, size_t n, const char *v, size_t vlen)
{
	if (vlen >= n)
		vlen = n - 1;
	memcpy(dst, v, vlen);
	dst[vlen] = 0;
}

static void header_field(struct folded_weight_info *out, const char *key, size_t klen,
			 const char *v, size_t vlen)
{
	char tmp[64];

	if (klen == 6 && !memcmp(key, "weight", 6)) {
		enum folded_weight w;

		take_value(tmp, sizeof(tmp), v, vlen);
		if (vlen < sizeof(tmp) && !folded_weight_parse(tmp, &w))
			out->weight = w;
	} else if (klen == 4 && !memcmp(key, "unit", 4)) {
		take_value(out->unit, sizeof(out->unit), v, vlen);
	} else if (klen == 4 && !memcmp(key, "type", 4)) {
		take_value(out->type, sizeof(out->type), v, vlen);
	} else if (klen == 11 && !memcmp(key, "period_unit", 11)) {
		take_value(out->period_unit, sizeof(out->period_unit), v, vlen);
	} else if (klen == 4 && !memcmp(key, "runs", 4)) {
		double d;

		if (vlen < sizeof(tmp) && !parse_double_n(v, vlen, &d) && d >= 1 && d < 1e9)
			out->runs = d;
	} else if (klen == 6 && !memcmp(key, "period", 6)) {
		double d;

		/* a period that does not parse is unknown, never a wrong number */
		if (vlen < sizeof(tmp) && !parse_double_n(v, vlen, &d) && d > 0 && d < 1e300)
			out->period = d;
	}
}

int folded_header_parse(const char *line, size_t len, struct folded_weight_info *out)
{
	size_t plen = strlen(FOLDED_HEADER_PREFIX), i = plen;

	if (len < plen || memcmp(line, FOLDED_HEADER_PREFIX, plen))
		return 0;
	memset(out, 0, sizeof(*out));
	out->weight = FOLDED_WEIGHT_PERIOD;
	while (i < len) {
		size_t start = i, eq = 0;

		while (i < len && line[i] != ' ') {
			if (line[i] == '=' && !eq)
				eq = i;
			i++;
		}
		if (eq)
			header_field(out, line + start, eq - start, line + eq + 1, i - eq - 1);
		while (i < len && line[i] == ' ')
			i++;
	}
	if (out->weight == FOLDED_WEIGHT_SAMPLES && !strcmp(out->unit, "samples"))
		out->unit[0] = 0;
	return 1;
}

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

void folded_warn_malformed(const char *path, uint64_t lineno, uint64_t nth, const char *line,
			   size_t len)
{
	struct strbuf q = STRBUF_INIT;

	if (nth > FOLDED_MAX_REPORTED_MALFORMED)
		return;
	warning("%s:%llu: ignoring line without a sample count: '%s'", path,
		(unsigned long long)lineno, escape_term_excerpt(&q, line, len, 80));
	strbuf_release(&q);
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
		if (folded_header_parse(line, len, &p->weight))
			continue;
		if (folded_parse_line(line, len, &fl)) {
			folded_warn_malformed(r.path, r.lineno, ++p->malformed, line, len);
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

void folded_profile_add_us(struct folded_profile *p, const struct folded_profile *ns)
{
	uint32_t *order = folded_profile_sorted(ns);
	size_t i;

	for (i = 0; i < folded_profile_size(ns); i++) {
		uint32_t id = order[i];
		double us = (double)(uint64_t)(ns->counts[0][id] / 1000 + 0.5);

		if (us > 0)
			folded_profile_add(p, intern_str(&ns->stacks, id), intern_len(&ns->stacks, id),
					   0, us);
	}
	free(order);
}

void folded_format_count(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.15g", v);
}

/*
 * Whether s[0..len) ends in what take_count() would take as a count: 0 and
 * *blank = the offset of the blank before it, else -1.
 */
static int count_word_at_end(const char *s, size_t len, size_t *blank)
{
	double unused;

	if (take_count(s, &len, &unused))
		return -1;
	*blank = len;	/* take_count() leaves len at the blank */
	return 0;
}

void folded_name_guard(char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (name[i] == '\n' || name[i] == '\r' || name[i] == '\t')
			name[i] = ' ';
	/* the count grammar of take_count(): a blank, digits, at most one dot after them */
	if (!count_word_at_end(name, len, &i))
		name[i] = '_';
}

void folded_stack_push(struct strbuf *sb, const char *name, size_t len)
{
	size_t start;

	if (sb->len)
		strbuf_addch(sb, ';');
	if (!len) {
		strbuf_addstr(sb, "[unknown]");
		return;
	}
	start = sb->len;
	strbuf_add(sb, name, len);
	folded_name_guard(sb->buf + start, len);
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

void folded_profile_merge_roots(struct folded_profile *p)
{
	struct folded_profile out;
	uint32_t id;

	folded_profile_init(&out);
	out.weight = p->weight;
	out.lines = p->lines;
	out.malformed = p->malformed;
	for (id = 0; id < folded_profile_size(p); id++) {
		const char *s = intern_str(&p->stacks, id);
		size_t len = intern_len(&p->stacks, id);
		const char *semi = memchr(s, ';', len);

		if (semi) {
			len -= (size_t)(semi + 1 - s);
			s = semi + 1;
		} else {
			s = "[process]";
			len = strlen(s);
		}
		for (int c = 0; c < p->columns; c++)
			folded_profile_add(&out, s, len, c, p->counts[c][id]);
	}
	folded_profile_release(p);
	*p = out;
}
