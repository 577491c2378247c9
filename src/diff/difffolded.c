/*
 * difffolded.c - difffolded.pl's merge of two folded profiles into
 * "stack before after" lines, reimplemented from the script's documented
 * behaviour (its line regex, -n and -s), with sorted output.
 */
#include "diff/difffolded.h"
#include "core/alloc.h"
#include "core/line_map.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* Perl's \s: space, \t, \n, \v, \f, \r. */
static int perl_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int parse_count(const char *s, size_t len, double *out)
{
	uint64_t v = 0;
	size_t i;
	char *copy, *end;

	if (len <= 19) {
		for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			v = v * 10 + (uint64_t)(s[i] - '0');
		if (i == len) {
			*out = (double)v;
			return 0;
		}
	}
	if (len < 64)
		return parse_double_n(s, len, out);
	/* Perl accepts any number of digits; so do we. */
	copy = xstrndup(s, len);
	*out = strtod(copy, &end);
	i = (size_t)(end - copy);
	free(copy);
	return i == len && isfinite(*out) ? 0 : -1;
}

int difffolded_parse_line(const char *line, size_t len, const char **stack,
			  size_t *stack_len, double *count)
{
	size_t i = len, dots = 0;

	while (i > 0 && ((line[i - 1] >= '0' && line[i - 1] <= '9') || line[i - 1] == '.')) {
		dots += line[i - 1] == '.';
		i--;
	}
	/* \d+(?:\.\d*)? after exactly the last blank */
	if (i == len || i == 0 || !perl_space(line[i - 1]) || line[i] == '.' || dots > 1)
		return -1;
	if (parse_count(line + i, len - i, count))
		return -1;
	*stack = line;
	*stack_len = i - 1;
	return 0;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

size_t difffolded_strip_hex(char *dst, const char *src, size_t len)
{
	size_t i = 0, o = 0;

	/* Look for the 'x' (rarer than '0' in symbol names), then check its
	 * neighbours; matches never overlap, as with s///g. */
	while (i < len) {
		const char *x = len - i > 1 ? memchr(src + i + 1, 'x', len - i - 1) : NULL;
		size_t j, end;

		if (!x) {
			memcpy(dst + o, src + i, len - i);
			o += len - i;
			break;
		}
		j = (size_t)(x - src);	/* j > i */
		end = j + 1;
		if (src[j - 1] != '0' || end >= len || !is_hex(src[end])) {
			memcpy(dst + o, src + i, end - i);
			o += end - i;
			i = end;
			continue;
		}
		memcpy(dst + o, src + i, j - 1 - i);
		o += j - 1 - i;
		memcpy(dst + o, "0x...", 5);
		o += 5;
		while (end < len && is_hex(src[end]))
			end++;
		i = end;
	}
	return o;
}

/* -s into a scratch buffer (grown as needed): the stripped s[0..*len). */
static const char *strip_into(char **buf, size_t *alloc, const char *s, size_t *len)
{
	if (*alloc < 2 * *len + 1) {
		*alloc = st_add(st_mult(*len, 2), 1);
		free(*buf);
		*buf = xmalloc(*alloc);
	}
	*len = difffolded_strip_hex(*buf, s, *len);
	return *buf;
}

int difffolded_read_map(struct line_map *lm, int column, unsigned flags,
			struct difffolded_stats *stats, difffolded_add_fn *add, void *data)
{
	unsigned long long malformed = 0;
	const char *line;
	char *strip = NULL;
	size_t len, strip_alloc = 0;
	struct folded_weight_info w;
	int ret;

	while ((ret = line_map_next(lm, &line, &len)) > 0) {
		const char *stack;
		size_t slen;
		double count;

		if (stats)
			stats->lines++;
		if (len && line[0] == '#' && folded_header_parse(line, len, &w)) {
			if (stats)
				stats->weight = w;
			continue;
		}
		if (difffolded_parse_line(line, len, &stack, &slen, &count)) {
			/* the script adds undef to $Folded{undef}: a zero for "" */
			add(data, column, "", 0, 0);
			if (!len)
				continue;
			if (stats)
				stats->malformed++;
			folded_warn_malformed(lm->path, lm->lineno, ++malformed, line, len);
			continue;
		}
		if (stats)
			stats->stacks++;
		if (flags & DIFFFOLDED_STRIP_HEX)
			stack = strip_into(&strip, &strip_alloc, stack, &slen);
		if (flags & DIFFFOLDED_MERGE_PROCESSES) {
			const char *semi = memchr(stack, ';', slen);

			slen = semi ? slen - (size_t)(semi + 1 - stack) : strlen("[process]");
			stack = semi ? semi + 1 : "[process]";
		}
		add(data, column, stack, slen, count);
	}
	free(strip);
	return ret < 0 ? -1 : 0;
}

int difffolded_read_lines(const char *path, int column, unsigned flags,
			  struct difffolded_stats *stats, difffolded_add_fn *add, void *data)
{
	struct line_map lm;
	int ret;

	if (line_map_open(&lm, path, 0)) {
		line_map_close(&lm);
		return -1;
	}
	ret = difffolded_read_map(&lm, column, flags, stats, add, data);
	line_map_close(&lm);
	return ret;
}

static void add_to_profile(void *data, int column, const char *stack, size_t len,
			   double count)
{
	folded_profile_add(data, stack, len, column, count);
}

int difffolded_read(struct folded_profile *p, int column, const char *path,
		    unsigned flags, struct difffolded_stats *stats)
{
	return difffolded_read_lines(path, column, flags, stats, add_to_profile, p);
}

void difffolded_merge(struct folded_profile *out,
		      const struct folded_profile *before, int bcol,
		      const struct folded_profile *after, int acol, unsigned flags)
{
	const struct folded_profile *in[2] = { before, after };
	int col[2] = { bcol, acol }, side;
	char *strip = NULL;
	size_t strip_alloc = 0;

	for (side = 0; side < 2; side++) {
		const struct folded_profile *p = in[side];
		size_t i, n = folded_profile_size(p);

		for (i = 0; i < n && p->counts[col[side]]; i++) {
			const char *s = intern_str(&p->stacks, (uint32_t)i);
			size_t len = intern_len(&p->stacks, (uint32_t)i);

			if (flags & DIFFFOLDED_STRIP_HEX)
				s = strip_into(&strip, &strip_alloc, s, &len);
			folded_profile_add(out, s, len, side, p->counts[col[side]][i]);
		}
	}
	free(strip);
	out->columns = 2;
	if (flags & DIFFFOLDED_NORMALIZE)
		difffolded_normalize(out);
}

/*
 * A number Perl would keep as an integer (IV): integral and in range.
 * Perl turns integral floating-point values into integers before
 * multiplying and dividing, so this decides which arithmetic it uses.
 */
static int perl_integral(double v)
{
	return v >= 0 && v < 9223372036854775808.0 && v == floor(v);
}

/* int($c * $t2 / $t1) as perl 5 computes it (pp_multiply, pp_divide, pp_int). */
double difffolded_scale(double c, double t1, double t2)
{
	double q;

	if (perl_integral(c) && perl_integral(t1) && perl_integral(t2)) {
		uint64_t a = (uint64_t)c, b = (uint64_t)t2, d = (uint64_t)t1, prod;

		if (!__builtin_mul_overflow(a, b, &prod)) {
			/* integer division only when the product exceeds 2^53
			 * and the quotient is exact; otherwise floating point */
			if (prod > (UINT64_C(1) << 53) && prod >= d && prod % d == 0)
				return (double)(prod / d);
			q = (double)prod / (double)d;
			return trunc(q);
		}
	}
	q = c * t2 / t1;
	return trunc(q);
}

int difffolded_normalize(struct folded_profile *p)
{
	size_t i, n = folded_profile_size(p);
	double t1 = p->total[0], t2 = p->total[1], sum = 0;

	if (t1 == t2 || !p->counts[0])
		return 0;
	if (t1 == 0)
		return -1;
	for (i = 0; i < n; i++) {
		p->counts[0][i] = difffolded_scale(p->counts[0][i], t1, t2);
		sum += p->counts[0][i];
	}
	p->total[0] = sum;
	return 0;
}

size_t difffolded_format_count(char *buf, size_t n, double v)
{
	if (perl_integral(v)) {
		char tmp[24];
		uint64_t u = (uint64_t)v;
		size_t len = 0, i;

		do {
			tmp[len++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (len + 1 > n)
			len = n - 1;
		for (i = 0; i < len; i++)
			buf[i] = tmp[len - 1 - i];
		buf[len] = '\0';
		return len;
	}
	folded_format_count(buf, n, v);
	return strlen(buf);
}

static void format_line(struct strbuf *sb, const struct folded_profile *p, uint32_t id)
{
	char num[64];
	int c;

	strbuf_reset(sb);
	strbuf_add(sb, intern_str(&p->stacks, id), intern_len(&p->stacks, id));
	for (c = 0; c < 2; c++) {
		strbuf_addch(sb, ' ');
		strbuf_add(sb, num, difffolded_format_count(num, sizeof(num),
				p->counts[c] ? p->counts[c][id] : 0));
	}
}

/* Order of the output lines under LC_ALL=C sort (byte order of the lines). */
static int cmp_lines(const void *a, const void *b, void *data)
{
	const struct folded_profile *p = data;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const char *sx = intern_str(&p->stacks, x), *sy = intern_str(&p->stacks, y);
	uint32_t lx = intern_len(&p->stacks, x), ly = intern_len(&p->stacks, y);
	int c = memcmp(sx, sy, lx < ly ? lx : ly);
	unsigned char nx, ny;

	if (c || lx == ly)
		return c;
	/* One stack is a prefix of the other: the shorter line goes on with ' '. */
	nx = lx < ly ? ' ' : (unsigned char)sx[ly];
	ny = ly < lx ? ' ' : (unsigned char)sy[lx];
	if (nx != ny)
		return (nx > ny) - (nx < ny);
	{
		struct strbuf bx = STRBUF_INIT, by = STRBUF_INIT;

		format_line(&bx, p, x);
		format_line(&by, p, y);
		/* not strcmp: a stack may hold a NUL byte */
		c = memcmp(bx.buf, by.buf, bx.len < by.len ? bx.len : by.len);
		if (!c)
			c = (bx.len > by.len) - (bx.len < by.len);
		strbuf_release(&bx);
		strbuf_release(&by);
		return c;
	}
}

int difffolded_write(const struct folded_profile *p, FILE *f)
{
	size_t n = folded_profile_size(p), i;
	uint32_t *ids = xmallocarray(n ? n : 1, sizeof(*ids));
	struct strbuf out = STRBUF_INIT;
	int ret = 0;

	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	qsort_r(ids, n, sizeof(*ids), cmp_lines, (void *)p);
	strbuf_grow(&out, 1 << 20);
	for (i = 0; i < n; i++) {
		uint32_t id = ids[i];
		char num[64];
		int c;

		strbuf_add(&out, intern_str(&p->stacks, id), intern_len(&p->stacks, id));
		for (c = 0; c < 2; c++) {
			strbuf_addch(&out, ' ');
			strbuf_add(&out, num, difffolded_format_count(num, sizeof(num),
					p->counts[c] ? p->counts[c][id] : 0));
		}
		strbuf_addch(&out, '\n');
		if (out.len >= (1 << 20) || i + 1 == n) {
			if (fwrite(out.buf, 1, out.len, f) != out.len) {
				ret = -1;
				break;
			}
			strbuf_reset(&out);
		}
	}
	strbuf_release(&out);
	free(ids);
	return ret;
}
