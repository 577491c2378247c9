/*
 * suite_lines.c - the line of each key of a git-config file.  git config
 * --list gives keys and values but no line numbers, and an error in
 * .trail must name its line: this scanner follows git's config syntax
 * (config.c: [section "sub"] and [section.sub] headers, a key on the
 * header's line, quotes, backslash escapes and continuation lines,
 * # and ; comments) only far enough to say where each key starts.
 */
#include "history/suite.h"

#include "core/alloc.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const char *p, *end;
	unsigned line;
	struct strbuf section;	/* "bench.name" as git prints it */
	char **names;
	unsigned *lines;
	size_t nr;
};

static int peek(const struct scan *s)
{
	return s->p < s->end ? (unsigned char)*s->p : -1;
}

static int next(struct scan *s)
{
	int c = peek(s);

	if (c >= 0) {
		s->p++;
		if (c == '\n')
			s->line++;
	}
	return c;
}

/* [name "sub"] or [name.sub] or [name]; 0, or -1 when git would reject it. */
static int scan_header(struct scan *s)
{
	int c;

	strbuf_reset(&s->section);
	while ((c = next(s)) >= 0 && (isalnum(c) || c == '-' || c == '.'))
		strbuf_addch(&s->section, (char)tolower(c));
	if (c == ']')
		return s->section.len ? 0 : -1;
	if (c != ' ' && c != '\t')
		return -1;
	while ((c = next(s)) == ' ' || c == '\t')
		;
	if (c != '"')
		return -1;
	strbuf_addch(&s->section, '.');
	while ((c = next(s)) >= 0 && c != '"' && c != '\n') {
		if (c == '\\' && (c = next(s)) < 0)
			return -1;
		strbuf_addch(&s->section, (char)c);
	}
	return c == '"' && next(s) == ']' ? 0 : -1;
}

/* The rest of a key's line: its value, with quotes, escapes and continuations. */
static void skip_value(struct scan *s)
{
	int c, quoted = 0;

	while ((c = next(s)) >= 0) {
		if (c == '\n')
			return;
		if (c == '\\')
			next(s);	/* an escape, or a continuation line */
		else if (c == '"')
			quoted = !quoted;
		else if ((c == '#' || c == ';') && !quoted) {
			while ((c = peek(s)) >= 0 && c != '\n')
				next(s);
		}
	}
}

static void add_key(struct scan *s, const char *key, size_t n, unsigned line)
{
	s->names = xreallocarray(s->names, s->nr + 1, sizeof(*s->names));
	s->lines = xreallocarray(s->lines, s->nr + 1, sizeof(*s->lines));
	s->names[s->nr] = xstrfmt("%s.%.*s", s->section.buf, (int)n, key);
	s->lines[s->nr++] = line;
}

size_t history_suite_scan_lines(const char *text, size_t len, char ***names, unsigned **lines)
{
	struct scan s = { text, text + len, 1, STRBUF_INIT, NULL, NULL, 0 };
	struct strbuf key = STRBUF_INIT;
	int c;

	while ((c = peek(&s)) >= 0) {
		unsigned line = s.line;

		if (c == '\n' || isspace(c)) {
			next(&s);
		} else if (c == '#' || c == ';') {
			while ((c = peek(&s)) >= 0 && c != '\n')
				next(&s);
		} else if (c == '[') {
			next(&s);
			if (scan_header(&s))
				break;
		} else if (isalpha(c) && s.section.len) {
			strbuf_reset(&key);
			while ((c = peek(&s)) >= 0 && (isalnum(c) || c == '-')) {
				strbuf_addch(&key, (char)tolower(c));
				next(&s);
			}
			add_key(&s, key.buf, key.len, line);
			while ((c = peek(&s)) == ' ' || c == '\t')
				next(&s);
			if (c == '=') {
				next(&s);
				skip_value(&s);
			} else if (c >= 0 && c != '\n' && c != '#' && c != ';') {
				break;
			}
		} else {
			break;	/* git rejects the file; its error says where */
		}
	}
	strbuf_release(&key);
	strbuf_release(&s.section);
	*names = s.names;
	*lines = s.lines;
	return s.nr;
}
