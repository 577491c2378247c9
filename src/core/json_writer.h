/*
 * json_writer.h - writes JSON into a strbuf: one place that owns string
 * escaping, the commas between members, nesting and indentation, and how
 * numbers, booleans and null are spelled, so every exporter agrees.
 *
 * Usage:
 *	struct json_writer w;
 *	json_writer_init(&w, &sb, JSON_WRITER_PRETTY);
 *	json_writer_begin_object(&w);
 *	json_writer_key(&w, "runs"); json_writer_uint(&w, 3);
 *	json_writer_key(&w, "times"); json_writer_begin_array(&w); ... json_writer_end(&w);
 *	json_writer_end(&w);
 *	json_writer_release(&w);
 *
 * Values inside an object must each follow json_writer_key(); the writer
 * does not check the grammar beyond that (calls in a wrong order produce
 * invalid JSON, a programming error).  Nothing is written after the top
 * value, not even a newline: the caller decides.
 */
#ifndef TRAIL_CORE_JSON_WRITER_H
#define TRAIL_CORE_JSON_WRITER_H

#include "core/strbuf.h"

#include <stddef.h>
#include <stdint.h>

enum json_writer_style {
	JSON_WRITER_COMPACT,	/* {"a":[1,2]} */
	JSON_WRITER_PRETTY,	/* one member per line, 2-space indentation */
};

struct json_writer {
	struct strbuf *out;	/* appended to, not owned */
	int pretty;
	int after_key;		/* a key was written; its value comes next */
	struct strbuf stack;	/* one byte per open container, see json_writer.c */
};

/* out is borrowed until json_writer_release(). */
void json_writer_init(struct json_writer *w, struct strbuf *out, enum json_writer_style style);
/* Free the writer's own memory (not out). */
void json_writer_release(struct json_writer *w);

void json_writer_begin_object(struct json_writer *w);
void json_writer_begin_array(struct json_writer *w);
/* Close the innermost open object or array. */
void json_writer_end(struct json_writer *w);

/* A member name in the current object; NUL-terminated or with a length. */
void json_writer_key(struct json_writer *w, const char *k);
void json_writer_key_len(struct json_writer *w, const char *k, size_t len);

/* A string value; NULL writes null. */
void json_writer_string(struct json_writer *w, const char *s);
void json_writer_string_len(struct json_writer *w, const char *s, size_t len);
/*
 * A double in the shortest form that reads back to the same value
 * (deterministic: at most 17 significant digits); NaN and infinities,
 * which JSON cannot spell, are written as null.
 */
void json_writer_number(struct json_writer *w, double v);
void json_writer_int(struct json_writer *w, int64_t v);
void json_writer_uint(struct json_writer *w, uint64_t v);
void json_writer_bool(struct json_writer *w, int v);
void json_writer_null(struct json_writer *w);

/* Shorthands for a key followed by one value. */
void json_writer_key_string(struct json_writer *w, const char *k, const char *s);
void json_writer_key_number(struct json_writer *w, const char *k, double v);
void json_writer_key_int(struct json_writer *w, const char *k, int64_t v);
void json_writer_key_uint(struct json_writer *w, const char *k, uint64_t v);
void json_writer_key_bool(struct json_writer *w, const char *k, int v);
/* "k": [a, b] - an interval's two ends, a pair of numbers. */
void json_writer_key_pair(struct json_writer *w, const char *k, double a, double b);

#endif
