/*
 * json.h - a minimal strict JSON reader (RFC 8259): bench baselines and the
 * JSON profile formats (speedscope, Chrome .cpuprofile, jfr print --json).
 *
 * Parses a whole document into a tree of struct json_value; rejects
 * anything RFC 8259 does not allow (trailing commas, comments, leading
 * zeros, bare control characters, unpaired surrogates, trailing junk) and
 * bounds nesting, so malformed input is an error with "path:line:col: ",
 * never a crash.
 */
#ifndef TRAIL_CORE_JSON_H
#define TRAIL_CORE_JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH 64

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_value {
	enum json_type type;
	double number;			/* JSON_NUMBER */
	char *string;			/* JSON_STRING: UTF-8, NUL-terminated (may contain NULs) */
	size_t len;			/* JSON_STRING: bytes; ARRAY/OBJECT: members */
	struct json_value *items;	/* ARRAY/OBJECT: len values */
	char **keys;			/* OBJECT: len keys, NUL-terminated */
};

/*
 * Parse text[0..len-1]; name (a path) prefixes error messages.  On success
 * *out owns its tree (json_release it); on error -1 and *out is empty.
 */
int json_parse(const char *text, size_t len, const char *name, struct json_value *out);
void json_release(struct json_value *v);

/* Member key of an object, or NULL (also when v is not an object). */
const struct json_value *json_get(const struct json_value *v, const char *key);
const char *json_type_name(enum json_type t);

#endif
