/*
 * json.c - the strict JSON reader of json.h: recursive descent over the
 * RFC 8259 grammar with a depth limit, positions tracked as line:col.
 */
#include "core/json.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/parse_number.h"
#include "core/strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct json_parser {
	const char *s, *end, *name;
	const char *line_start;
	size_t line;
	int depth;
};

static int fail(struct json_parser *p, const char *what)
{
	return trail_error("%s:%zu:%zu: malformed JSON: %s", p->name, p->line,
		     (size_t)(p->s - p->line_start) + 1, what);
}

static void skip_ws(struct json_parser *p)
{
	while (p->s < p->end) {
		char c = *p->s;

		if (c == '\n') {
			p->line++;
			p->line_start = p->s + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		p->s++;
	}
}

static int literal(struct json_parser *p, const char *word, enum json_type t, struct json_value *v)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return fail(p, "unexpected character");
	p->s += n;
	v->type = t;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number_(struct json_parser *p, struct json_value *v)
{
	const char *start = p->s, *q = p->s;

	if (q < p->end && *q == '-')
		q++;
	if (q >= p->end || !is_digit(*q))
		return fail(p, "a number needs digits");
	if (*q == '0') {
		q++;
		if (q < p->end && is_digit(*q))
			return fail(p, "numbers must not have leading zeros");
	} else {
		while (q < p->end && is_digit(*q))
			q++;
	}
	if (q < p->end && *q == '.') {
		q++;
		if (q >= p->end || !is_digit(*q))
			return fail(p, "a decimal point needs digits after it");
		while (q < p->end && is_digit(*q))
			q++;
	}
	if (q < p->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < p->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= p->end || !is_digit(*q))
			return fail(p, "an exponent needs digits");
		while (q < p->end && is_digit(*q))
			q++;
	}
	if (parse_double_n(start, (size_t)(q - start), &v->number))
		return fail(p, "number out of range or too long");
	v->type = JSON_NUMBER;
	p->s = q;
	return 0;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (int)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

static int parse_string_(struct json_parser *p, char **out, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	p->s++;	/* opening quote */
	for (;;) {
		unsigned char c;

		if (p->s >= p->end) {
			strbuf_release(&sb);
			return fail(p, "unterminated string");
		}
		c = (unsigned char)*p->s;
		if (c == '"') {
			p->s++;
			break;
		}
		if (c < 0x20) {
			strbuf_release(&sb);
			return fail(p, "control character in a string (escape it)");
		}
		if (c != '\\') {
			strbuf_addch(&sb, c);
			p->s++;
			continue;
		}
		if (p->end - p->s < 2) {
			strbuf_release(&sb);
			return fail(p, "unterminated escape");
		}
		switch (p->s[1]) {
		case '"': strbuf_addch(&sb, '"'); break;
		case '\\': strbuf_addch(&sb, '\\'); break;
		case '/': strbuf_addch(&sb, '/'); break;
		case 'b': strbuf_addch(&sb, '\b'); break;
		case 'f': strbuf_addch(&sb, '\f'); break;
		case 'n': strbuf_addch(&sb, '\n'); break;
		case 'r': strbuf_addch(&sb, '\r'); break;
		case 't': strbuf_addch(&sb, '\t'); break;
		case 'u': {
			unsigned cp, lo;

			if (p->end - p->s < 6 || hex4(p->s + 2, &cp)) {
				strbuf_release(&sb);
				return fail(p, "\\u needs four hex digits");
			}
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				strbuf_release(&sb);
				return fail(p, "unpaired low surrogate");
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (p->end - p->s < 12 || p->s[6] != '\\' || p->s[7] != 'u' ||
				    hex4(p->s + 8, &lo) || lo < 0xdc00 || lo > 0xdfff) {
					strbuf_release(&sb);
					return fail(p, "unpaired high surrogate");
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p->s += 6;
			}
			add_utf8(&sb, cp);
			p->s += 4;
			break;
		}
		default:
			strbuf_release(&sb);
			return fail(p, "unknown escape");
		}
		p->s += 2;
	}
	*len = sb.len;
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

static int parse_value(struct json_parser *p, struct json_value *v);

static int parse_container(struct json_parser *p, struct json_value *v, int is_object)
{
	char close = is_object ? '}' : ']';
	size_t alloc = 0, kalloc = 0;

	if (++p->depth > JSON_MAX_DEPTH)
		return fail(p, "nesting deeper than 64 levels");
	v->type = is_object ? JSON_OBJECT : JSON_ARRAY;
	p->s++;
	skip_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		struct json_value item;

		skip_ws(p);
		if (is_object) {
			char *key;
			size_t klen;

			if (p->s >= p->end || *p->s != '"')
				return fail(p, "expected a string key");
			if (parse_string_(p, &key, &klen))
				return -1;
			ALLOC_GROW(v->keys, v->len + 1, kalloc);
			v->keys[v->len] = key;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				/* count the key so it is freed with the container */
				memset(&item, 0, sizeof(item));
				ALLOC_GROW(v->items, v->len + 1, alloc);
				v->items[v->len++] = item;
				return fail(p, "expected ':' after a key");
			}
			p->s++;
		}
		memset(&item, 0, sizeof(item));
		if (parse_value(p, &item)) {
			json_release(&item);
			if (is_object) {
				ALLOC_GROW(v->items, v->len + 1, alloc);
				memset(&v->items[v->len++], 0, sizeof(item));
			}
			return -1;
		}
		ALLOC_GROW(v->items, v->len + 1, alloc);
		v->items[v->len++] = item;
		skip_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			skip_ws(p);
			if (p->s < p->end && *p->s == close)
				return fail(p, "trailing comma");
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			p->depth--;
			return 0;
		}
		return fail(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_value(struct json_parser *p, struct json_value *v)
{
	skip_ws(p);
	if (p->s >= p->end)
		return fail(p, "unexpected end of input");
	switch (*p->s) {
	case '{':
		return parse_container(p, v, 1);
	case '[':
		return parse_container(p, v, 0);
	case '"':
		v->type = JSON_STRING;
		return parse_string_(p, &v->string, &v->len);
	case 't':
		return literal(p, "true", JSON_TRUE, v);
	case 'f':
		return literal(p, "false", JSON_FALSE, v);
	case 'n':
		return literal(p, "null", JSON_NULL, v);
	default:
		if (*p->s == '-' || is_digit(*p->s))
			return parse_number_(p, v);
		return fail(p, "unexpected character");
	}
}

int json_parse(const char *text, size_t len, const char *name, struct json_value *out)
{
	struct json_parser p = { text, text + len, name, text, 1, 0 };

	memset(out, 0, sizeof(*out));
	if (parse_value(&p, out))
		goto fail;
	skip_ws(&p);
	if (p.s != p.end) {
		fail(&p, "trailing characters after the document");
		goto fail;
	}
	return 0;
fail:
	json_release(out);
	return -1;
}

void json_release(struct json_value *v)
{
	size_t i;

	if (v->type == JSON_ARRAY || v->type == JSON_OBJECT) {
		for (i = 0; i < v->len; i++) {
			if (v->items)
				json_release(&v->items[i]);
			if (v->type == JSON_OBJECT && v->keys)
				free(v->keys[i]);
		}
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	memset(v, 0, sizeof(*v));
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	size_t i;

	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->len; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = { "null", "false", "true", "number", "string",
					     "array", "object" };

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}
