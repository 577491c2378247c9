/*
 * speedscope_write.c - folded profile -> speedscope JSON
 * (speedscope_write.h), through core/json_writer.h.  Frames are interned
 * in order of first appearance over the stacks sorted in byte order, so
 * the output is deterministic.
 */
#include "profile/speedscope_write.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/intern.h"
#include "core/json_writer.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

/* Intern each frame of stack s, or (with w) write each one's id. */
static void each_frame(const char *s, size_t len, struct intern *names, struct json_writer *w)
{
	for (;;) {
		const char *semi = memchr(s, ';', len);
		size_t flen = semi ? (size_t)(semi - s) : len;

		if (w)
			json_writer_uint(w, intern_find(names, s, flen));
		else
			intern_add(names, s, flen, NULL);
		if (!semi)
			break;
		s += flen + 1;
		len -= flen + 1;
	}
}

static int skipped(const struct folded_profile *p, uint32_t id)
{
	return !intern_len(&p->stacks, id) || p->counts[0][id] == 0;
}

/*
 * speedscope's unit (its schema: none, nanoseconds, microseconds,
 * milliseconds, seconds, bytes) and the factor from counts to it: sample
 * counts with a known period go out as nanoseconds.
 */
static const char *unit_of(const struct folded_weight_info *w, double *scale)
{
	const char *word = folded_unit_word(w);
	double ns = folded_ns_per_count(w);
	static const char *const known[] = {
		"nanoseconds", "microseconds", "milliseconds", "seconds", "bytes",
	};
	size_t i;

	*scale = 1;
	if (w->weight == FOLDED_WEIGHT_SAMPLES) {
		if (!(ns > 0))
			return "none";
		*scale = ns;
		return "nanoseconds";
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(word, known[i]))
			return known[i];
	return "none";
}

int speedscope_encode(const struct folded_profile *p, const char *name, struct strbuf *out)
{
	struct intern names;
	struct json_writer w;
	uint32_t *order, id;
	size_t i, n;
	double scale;
	const char *unit = unit_of(&p->weight, &scale);

	if (p->columns != 1)
		return trail_error("differential (two-count) input cannot be written as speedscope; "
			     "write each side on its own");
	intern_init(&names);
	order = folded_profile_sorted(p);
	n = folded_profile_size(p);
	/* frame ids in order of first appearance */
	for (i = 0; i < n; i++)
		if (!skipped(p, order[i]))
			each_frame(intern_str(&p->stacks, order[i]), intern_len(&p->stacks, order[i]),
				   &names, NULL);

	json_writer_init(&w, out, JSON_WRITER_COMPACT);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "$schema", SPEEDSCOPE_SCHEMA);
	json_writer_key(&w, "shared");
	json_writer_begin_object(&w);
	json_writer_key(&w, "frames");
	json_writer_begin_array(&w);
	for (id = 0; id < names.nr; id++) {
		json_writer_begin_object(&w);
		json_writer_key(&w, "name");
		json_writer_string_len(&w, intern_str(&names, id), intern_len(&names, id));
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_end(&w);
	json_writer_key(&w, "profiles");
	json_writer_begin_array(&w);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "type", "sampled");
	json_writer_key_string(&w, "name", name);
	json_writer_key_string(&w, "unit", unit);
	json_writer_key_number(&w, "startValue", 0);
	json_writer_key_number(&w, "endValue", p->total[0] * scale);
	json_writer_key(&w, "samples");
	json_writer_begin_array(&w);
	for (i = 0; i < n; i++) {
		if (skipped(p, order[i]))
			continue;
		json_writer_begin_array(&w);
		each_frame(intern_str(&p->stacks, order[i]), intern_len(&p->stacks, order[i]),
			   &names, &w);
		json_writer_end(&w);
	}
	json_writer_end(&w);
	json_writer_key(&w, "weights");
	json_writer_begin_array(&w);
	for (i = 0; i < n; i++)
		if (!skipped(p, order[i]))
			json_writer_number(&w, p->counts[0][order[i]] * scale);
	json_writer_end(&w);
	json_writer_end(&w);
	json_writer_end(&w);
	json_writer_key_string(&w, "name", name);
	json_writer_key_int(&w, "activeProfileIndex", 0);
	json_writer_key_string(&w, "exporter", "trail " TRAIL_VERSION);
	json_writer_end(&w);
	strbuf_addch(out, '\n');
	json_writer_release(&w);
	free(order);
	intern_release(&names);
	return 0;
}
