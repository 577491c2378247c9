/*
 * jfr_json.c - JDK Flight Recorder events, as 'jfr print --json' prints
 * them, -> folded stacks (see json_profiles.h).  Each event of the chosen
 * type carries values.stackTrace.frames, leaf first; a frame is named
 * "package.Class.method" from method.type.name (internal form, with '/')
 * and method.name, as 'jfr print' and JDK Mission Control show it.
 */
#include "collapse/json_profiles.h"
#include "collapse/collapser.h"
#include "collapse/profile_formats.h"
#include "core/error.h"
#include "core/json.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <string.h>

int jfr_json_detect(const char *head, size_t len)
{
	size_t n;

	head = json_head(head, &len);
	n = len > 4096 ? 4096 : len;
	return len && *head == '{' && memmem(head, n, "\"recording\"", 11) &&
	       memmem(head, n, "\"events\"", 8) ? 80 : 0;
}

static const char *string_of(const struct json_value *v)
{
	return v && v->type == JSON_STRING ? v->string : NULL;
}

static void frame_name(struct strbuf *name, const struct json_value *frame)
{
	const struct json_value *method = json_get(frame, "method");
	const char *cls = string_of(json_get(json_get(method, "type"), "name"));
	const char *m = string_of(json_get(method, "name"));
	size_t i, start;

	strbuf_reset(name);
	if (cls) {
		start = name->len;
		strbuf_addstr(name, cls);
		for (i = start; i < name->len; i++)
			if (name->buf[i] == '/')
				name->buf[i] = '.';
		strbuf_addch(name, '.');
	}
	strbuf_addstr(name, m ? m : "[unknown]");
}

int jfr_json_fold(const char *text, size_t len, const char *name, const char *event,
		  struct folded_profile *out)
{
	struct json_value root;
	const struct json_value *events;
	struct strbuf sb = STRBUF_INIT, fname = STRBUF_INIT;
	size_t i, k, kept = 0;
	int ret = 0;

	if (!event)
		event = JFR_DEFAULT_EVENT;
	if (json_parse(text, len, name, &root) < 0)
		return -1;
	events = json_get(json_get(&root, "recording"), "events");
	if (!events || events->type != JSON_ARRAY) {
		json_release(&root);
		return trail_error("%s: not 'jfr print --json' output (no recording.events)", name);
	}
	for (i = 0; i < events->len; i++) {
		const struct json_value *e = &events->items[i];
		const char *type = string_of(json_get(e, "type"));
		const struct json_value *values = json_get(e, "values");
		const struct json_value *frames = json_get(json_get(values, "stackTrace"), "frames");
		const struct json_value *weight = json_get(values, "weight");
		double w = 1;

		if (!type || strcmp(type, event) || !frames || frames->type != JSON_ARRAY)
			continue;
		if (weight && weight->type == JSON_NUMBER)
			w = weight->number;
		strbuf_reset(&sb);
		for (k = frames->len; k-- > 0;) {
			frame_name(&fname, &frames->items[k]);
			folded_stack_push(&sb, fname.buf, fname.len);
		}
		kept++;
		if (sb.len && w != 0)
			folded_profile_add(out, sb.buf, sb.len, 0, w);
	}
	if (!kept && events->len)
		warning("%s: no '%s' events with stack traces; choose another with --sample-type",
			name, event);
	strbuf_release(&sb);
	strbuf_release(&fname);
	json_release(&root);
	return ret;
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	return collapse_read_whole(s, in, f, jfr_json_fold);
}

const struct collapser collapse_jfr = {
	"jfr",
	"JDK Flight Recorder events from 'jfr print --json' (--sample-type EVENT)",
	jfr_json_detect,
	read_input,
};
