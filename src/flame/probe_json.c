/*
 * probe_json.c - a probe's result to and from one line of JSON (see
 * probe_json.h); written with core/json_writer, read with core/json's
 * strict parser, so a host that prints junk is an error, not a verdict.
 */
#include "flame/probe_json.h"
#include "core/verdict.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_writer.h"

#include <stdlib.h>
#include <string.h>

#define BUILD_FAILED "build failed"	/* probe.c's why for a failed build */

int flame_probe_build_failed(const struct flame_probe_result *r)
{
	return r->verdict == PROBE_SKIP && !strncmp(r->why, BUILD_FAILED, strlen(BUILD_FAILED));
}

void flame_probe_json_write(struct strbuf *sb, const struct flame_probe_result *r)
{
	struct json_writer w;

	json_writer_init(&w, sb, JSON_WRITER_COMPACT);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "commit", r->id);
	json_writer_key_string(&w, "verdict", trail_probe_verdict_name(r->verdict));
	json_writer_key_number(&w, "value", r->value);
	json_writer_key_number(&w, "share", r->share);
	json_writer_key_number(&w, "se", r->se);
	json_writer_key_int(&w, "runs", r->runs);
	json_writer_key(&w, "cached_build");
	json_writer_bool(&w, r->build_cached);
	json_writer_key_number(&w, "seconds", r->seconds);
	json_writer_key_string(&w, "why", r->why);
	json_writer_key(&w, "build_failed");
	json_writer_bool(&w, flame_probe_build_failed(r));
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(sb, '\n');
}

static int get_number(const struct json_value *o, const char *key, double *v)
{
	const struct json_value *m = json_get(o, key);

	if (!m || m->type != JSON_NUMBER)
		return -1;
	*v = m->number;
	return 0;
}

static int from_object(const struct json_value *o, struct flame_probe_result *r)
{
	const struct json_value *id = json_get(o, "commit"), *verdict = json_get(o, "verdict");
	const struct json_value *why = json_get(o, "why"), *cached = json_get(o, "cached_build");
	double runs;

	memset(r, 0, sizeof(*r));
	if (!id || id->type != JSON_STRING || id->len != 40 ||
	    strspn(id->string, "0123456789abcdef") != 40 || !verdict ||
	    verdict->type != JSON_STRING || get_number(o, "value", &r->value) ||
	    get_number(o, "share", &r->share) || get_number(o, "se", &r->se) ||
	    get_number(o, "seconds", &r->seconds) || get_number(o, "runs", &runs) ||
	    runs < 0 || runs > 1e6)
		return -1;
	memcpy(r->id, id->string, 41);
	if (trail_probe_verdict_parse(verdict->string, &r->verdict))
		return -1;
	r->runs = (unsigned)runs;
	r->build_cached = cached && cached->type == JSON_TRUE;
	if (why && why->type == JSON_STRING)
		snprintf(r->why, sizeof(r->why), "%s", why->string);
	return 0;
}

int flame_probe_json_read(const char *text, size_t len, const char *name,
			  struct flame_probe_result **out, size_t *nr)
{
	size_t pos = 0, alloc = 0;
	unsigned lineno = 0;

	*out = NULL;
	*nr = 0;
	while (pos < len) {
		const char *start = text + pos, *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		struct json_value v;
		int bad;

		pos += n + (nl != NULL);
		lineno++;
		if (!n || *start != '{')
			continue;
		if (json_parse(start, n, name, &v))
			return trail_error("%s:%u: not a probe result", name, lineno);
		ALLOC_GROW(*out, *nr + 1, alloc);
		bad = v.type != JSON_OBJECT || from_object(&v, &(*out)[*nr]);
		json_release(&v);
		if (bad)
			return trail_error("%s:%u: not a probe result (commit, verdict, value, "
					   "share, se, runs, seconds)", name, lineno);
		(*nr)++;
	}
	return 0;
}
