/*
 * parse_number.c - strict parsers (see parse_number.h).
 */
#include "core/parse_number.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int parse_u64_n(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int parse_hex_u64_n(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (i == len)
		return -1;
	for (; i < len; i++) {
		int c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		if (v >> 60)
			return -1;
		v = (v << 4) | (uint64_t)d;
	}
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	return parse_u64_n(s, strlen(s), out);
}

int parse_i64(const char *s, int64_t *out)
{
	uint64_t v;
	int neg = s[0] == '-';

	if (parse_u64(s + neg, &v))
		return -1;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)v;
	}
	return 0;
}

int parse_double_n(const char *s, size_t len, double *out)
{
	char buf[64], *end;
	double v;
	size_t i;

	if (!len || len >= sizeof(buf))
		return -1;
	/*
	 * Whole numbers (folded counts, nearly always): below 10^19 they fit
	 * a uint64_t, and its conversion rounds to nearest as strtod does,
	 * so the value is the same without strtod's cost (a tenth of
	 * reading a folded file).
	 */
	if (len <= 19) {
		uint64_t u = 0;

		for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			u = u * 10 + (uint64_t)(s[i] - '0');
		if (i == len) {
			*out = (double)u;
			return 0;
		}
	}
	/* strtod accepts blanks, hex, inf and nan: allow only plain decimals. */
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' ||
		      c == 'e' || c == 'E'))
			return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (end != buf + len || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	return parse_double_n(s, strlen(s), out);
}

int parse_amount_or_percent(const char *s, double *out, int *is_percent)
{
	size_t len = strlen(s);

	*is_percent = len && s[len - 1] == '%';
	if (parse_double_n(s, len - (size_t)*is_percent, out) || *out < 0)
		return -1;
	return 0;
}

int parse_seconds(const char *s, double *seconds)
{
	size_t len = strlen(s);
	double scale = 1, v;

	if (len > 2 && !strcmp(s + len - 2, "ms")) {
		scale = 1e-3;
		len -= 2;
	} else if (len > 2 && !strcmp(s + len - 2, "us")) {
		scale = 1e-6;
		len -= 2;
	} else if (len > 1 && s[len - 1] == 's') {
		len -= 1;
	} else if (len > 1 && s[len - 1] == 'm') {
		scale = 60;
		len -= 1;
	}
	if (parse_double_n(s, len, &v) || v < 0)
		return -1;
	*seconds = v * scale;
	return 0;
}
