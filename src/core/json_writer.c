/*
 * json_writer.c - the JSON writer behind every exporter: separators,
 * indentation and the spelling of values (see json_writer.h).  The stack
 * keeps one byte per open container: CONTAINER_ARRAY when it is an array,
 * CONTAINER_HAS_MEMBERS once something was written into it.
 */
#include "core/json_writer.h"
#include "core/escape.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	CONTAINER_ARRAY = 1,
	CONTAINER_HAS_MEMBERS = 2,
};

void json_writer_init(struct json_writer *w, struct strbuf *out, enum json_writer_style style)
{
	w->out = out;
	w->pretty = style == JSON_WRITER_PRETTY;
	w->after_key = 0;
	strbuf_init(&w->stack, 0);
}

void json_writer_release(struct json_writer *w)
{
	strbuf_release(&w->stack);
}

static void newline_indent(struct json_writer *w, size_t depth)
{
	size_t i;

	strbuf_addch(w->out, '\n');
	for (i = 0; i < depth; i++)
		strbuf_addstr(w->out, "  ");
}

/* Whatever must come before a value or a key at the current position. */
static void separate(struct json_writer *w)
{
	char *top;

	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (!w->stack.len)
		return;
	top = &w->stack.buf[w->stack.len - 1];
	if (*top & CONTAINER_HAS_MEMBERS)
		strbuf_addch(w->out, ',');
	*top |= CONTAINER_HAS_MEMBERS;
	if (w->pretty)
		newline_indent(w, w->stack.len);
}

static void begin(struct json_writer *w, int open, int flags)
{
	separate(w);
	strbuf_addch(w->out, open);
	strbuf_addch(&w->stack, flags);
}

void json_writer_begin_object(struct json_writer *w)
{
	begin(w, '{', 0);
}

void json_writer_begin_array(struct json_writer *w)
{
	begin(w, '[', CONTAINER_ARRAY);
}

void json_writer_end(struct json_writer *w)
{
	int top;

	if (!w->stack.len)
		return;	/* unbalanced: a caller bug; write nothing rather than crash */
	top = w->stack.buf[w->stack.len - 1];
	strbuf_setlen(&w->stack, w->stack.len - 1);
	if (w->pretty && (top & CONTAINER_HAS_MEMBERS))
		newline_indent(w, w->stack.len);
	strbuf_addch(w->out, top & CONTAINER_ARRAY ? ']' : '}');
}

static void add_quoted(struct strbuf *sb, const char *s, size_t len)
{
	strbuf_addch(sb, '"');
	escape_json(sb, s, len);
	strbuf_addch(sb, '"');
}

void json_writer_key_len(struct json_writer *w, const char *k, size_t len)
{
	separate(w);
	add_quoted(w->out, k, len);
	strbuf_addstr(w->out, w->pretty ? ": " : ":");
	w->after_key = 1;
}

void json_writer_key(struct json_writer *w, const char *k)
{
	json_writer_key_len(w, k, strlen(k));
}

void json_writer_string_len(struct json_writer *w, const char *s, size_t len)
{
	if (!s) {
		json_writer_null(w);
		return;
	}
	separate(w);
	add_quoted(w->out, s, len);
}

void json_writer_string(struct json_writer *w, const char *s)
{
	json_writer_string_len(w, s, s ? strlen(s) : 0);
}

/*
 * Shortest round-trip: any decimal of at most DBL_DIG (15) significant
 * digits survives decimal -> double -> decimal, so if the shortest form
 * that reads back has 15 digits or fewer, %.15g prints exactly it (%g drops
 * trailing zeros); otherwise 16 or 17 digits are needed, and 17 always
 * suffice (IEEE 754 binary64).  Subnormals carry fewer bits, so the
 * DBL_DIG argument does not hold for them: they try every precision.
 */
void json_writer_number(struct json_writer *w, double v)
{
	char buf[32];
	int prec;

	if (!isfinite(v)) {
		json_writer_null(w);
		return;
	}
	if (v == 0)
		v = 0;	/* -0 as 0: JSON readers disagree about "-0" */
	for (prec = fabs(v) < DBL_MIN ? 1 : DBL_DIG; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.17g", v);
	separate(w);
	strbuf_addstr(w->out, buf);
}

void json_writer_int(struct json_writer *w, int64_t v)
{
	separate(w);
	strbuf_addf(w->out, "%" PRId64, v);
}

void json_writer_uint(struct json_writer *w, uint64_t v)
{
	separate(w);
	strbuf_addf(w->out, "%" PRIu64, v);
}

void json_writer_bool(struct json_writer *w, int v)
{
	separate(w);
	strbuf_addstr(w->out, v ? "true" : "false");
}

void json_writer_null(struct json_writer *w)
{
	separate(w);
	strbuf_addstr(w->out, "null");
}

/* The shorthands: a key, then one value of the given writer. */
#define KEY_THEN(suffix, type) \
	void json_writer_key_##suffix(struct json_writer *w, const char *k, type v) \
	{ \
		json_writer_key(w, k); \
		json_writer_##suffix(w, v); \
	}

KEY_THEN(string, const char *)
KEY_THEN(number, double)
KEY_THEN(int, int64_t)
KEY_THEN(uint, uint64_t)
KEY_THEN(bool, int)

void json_writer_key_pair(struct json_writer *w, const char *k, double a, double b)
{
	json_writer_key(w, k);
	json_writer_begin_array(w);
	json_writer_number(w, a);
	json_writer_number(w, b);
	json_writer_end(w);
}
