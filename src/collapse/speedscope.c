/*
 * speedscope.c - speedscope's JSON file format -> folded stacks (see
 * json_profiles.h).  Sampled profiles: each stack (frame indexes, root
 * first) counts its weight, or 1.  Evented profiles: the time between two
 * events counts for the frames open in between, as speedscope itself
 * draws them; times in seconds or milliseconds become microseconds, so
 * the integer counts of folded output keep sub-millisecond detail.
 */
#include "collapse/json_profiles.h"
#include "collapse/collapser.h"
#include "collapse/limits.h"
#include "collapse/profile_formats.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/strbuf.h"
#include "profile/folded.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int speedscope_detect(const char *head, size_t len)
{
	head = json_head(head, &len);
	return len && *head == '{' &&
	       memmem(head, len > 4096 ? 4096 : len, "speedscope.app/file-format-schema", 33) ? 100 : 0;
}

struct frames {
	const struct json_value *v;	/* shared.frames */
	const char *name;
	struct input_budget *budget;	/* the stack text built (collapse/limits.h) */
};

/* Frame index v as a size_t; -1 (after error) unless a valid index. */
static int frame_index(const struct frames *fr, const struct json_value *v, size_t *out)
{
	if (!v || v->type != JSON_NUMBER || !(v->number >= 0) || v->number != floor(v->number) ||
	    v->number >= (double)fr->v->len)
		return trail_error("%s: frame index is not one of the %zu frames", fr->name, fr->v->len);
	*out = (size_t)v->number;
	return 0;
}

/* 0, or -1 when the stack outgrows the budget. */
static int push_frame(const struct frames *fr, struct strbuf *sb, size_t i)
{
	const struct json_value *n = json_get(&fr->v->items[i], "name");
	size_t before = sb->len;

	if (n && n->type == JSON_STRING)
		folded_stack_push(sb, n->string, n->len);
	else
		folded_stack_push(sb, "", 0);
	return input_budget_charge(fr->budget, sb->len, sb->len - before);
}

static int fold_sampled(const struct frames *fr, const struct json_value *p,
			struct folded_profile *out)
{
	const struct json_value *samples = json_get(p, "samples"), *weights = json_get(p, "weights");
	struct strbuf sb = STRBUF_INIT;
	size_t i, k, idx;
	int ret = 0;

	if (!samples || samples->type != JSON_ARRAY)
		return trail_error("%s: a sampled profile without a \"samples\" array", fr->name);
	if (weights && (weights->type != JSON_ARRAY || weights->len != samples->len))
		return trail_error("%s: \"weights\" does not match \"samples\"", fr->name);
	for (i = 0; i < samples->len && !ret; i++) {
		const struct json_value *s = &samples->items[i];
		double w = 1;

		if (s->type != JSON_ARRAY) {
			ret = trail_error("%s: a sample is not an array of frame indexes", fr->name);
			break;
		}
		if (weights) {
			if (weights->items[i].type != JSON_NUMBER) {
				ret = trail_error("%s: a weight is not a number", fr->name);
				break;
			}
			w = weights->items[i].number;
		}
		strbuf_reset(&sb);
		for (k = 0; k < s->len; k++) {
			if (frame_index(fr, &s->items[k], &idx) < 0 ||
			    push_frame(fr, &sb, idx) < 0) {
				ret = -1;
				break;
			}
		}
		if (!ret && sb.len && w != 0)
			folded_profile_add(out, sb.buf, sb.len, 0, w);
	}
	strbuf_release(&sb);
	return ret;
}

static int fold_evented(const struct frames *fr, const struct json_value *p,
			struct folded_profile *out)
{
	const struct json_value *events = json_get(p, "events"), *unit = json_get(p, "unit");
	struct strbuf sb = STRBUF_INIT;
	double scale = 1;
	size_t *open = NULL, *lens = NULL, depth = 0, i;
	double last = 0;
	int ret = 0;

	if (!events || events->type != JSON_ARRAY)
		return trail_error("%s: an evented profile without an \"events\" array", fr->name);
	if (unit && unit->type == JSON_STRING && !strcmp(unit->string, "milliseconds"))
		scale = 1e3;
	else if (unit && unit->type == JSON_STRING && !strcmp(unit->string, "seconds"))
		scale = 1e6;
	open = xcalloc(events->len + 1, sizeof(*open));
	lens = xcalloc(events->len + 1, sizeof(*lens));
	for (i = 0; i < events->len; i++) {
		const struct json_value *e = &events->items[i];
		const struct json_value *type = json_get(e, "type"), *at = json_get(e, "at");
		size_t idx;

		if (!type || type->type != JSON_STRING || !at || at->type != JSON_NUMBER ||
		    frame_index(fr, json_get(e, "frame"), &idx) < 0) {
			ret = trail_error("%s: event %zu needs \"type\", \"frame\" and \"at\"", fr->name, i);
			break;
		}
		if (i && at->number < last) {
			ret = trail_error("%s: event %zu goes back in time", fr->name, i);
			break;
		}
		if (depth && at->number > last) {
			/* each span adds the whole open stack again */
			if ((ret = input_budget_charge(fr->budget, sb.len, sb.len)) < 0)
				break;
			folded_profile_add(out, sb.buf, sb.len, 0, (at->number - last) * scale);
		}
		last = at->number;
		if (!strcmp(type->string, "O")) {
			lens[depth] = sb.len;
			open[depth++] = idx;
			if ((ret = push_frame(fr, &sb, idx)) < 0)
				break;
		} else if (!strcmp(type->string, "C")) {
			if (!depth || open[depth - 1] != idx) {
				ret = trail_error("%s: event %zu closes a frame that is not the innermost open one",
					    fr->name, i);
				break;
			}
			strbuf_setlen(&sb, lens[--depth]);
		} else {
			ret = trail_error("%s: event %zu has type '%s', not \"O\" or \"C\"", fr->name, i,
				    type->string);
			break;
		}
	}
	free(open);
	free(lens);
	strbuf_release(&sb);
	return ret;
}

/* A sampled profile's "unit" into the profile model (samples for "none"). */
static int sampled_units(const struct json_value *p, struct folded_profile *out)
{
	const struct json_value *unit = json_get(p, "unit");

	if (unit && unit->type == JSON_STRING &&
	    folded_weight_from_words(&out->weight, "", unit->string) < 0)
		memset(&out->weight, 0, sizeof(out->weight));
	return 0;
}

int speedscope_fold(const char *text, size_t len, const char *name, struct folded_profile *out)
{
	struct json_value root;
	const struct json_value *profiles;
	struct input_budget budget = INPUT_BUDGET_INIT(name);
	struct frames fr;
	size_t i;
	int ret = 0;

	if (json_parse(text, len, name, &root) < 0)
		return -1;
	fr.name = name;
	fr.budget = &budget;
	fr.v = json_get(json_get(&root, "shared"), "frames");
	profiles = json_get(&root, "profiles");
	if (!fr.v || fr.v->type != JSON_ARRAY || !profiles || profiles->type != JSON_ARRAY) {
		json_release(&root);
		return trail_error("%s: not a speedscope file (no shared.frames or profiles)", name);
	}
	for (i = 0; i < profiles->len && !ret; i++) {
		const struct json_value *p = &profiles->items[i];
		const struct json_value *type = json_get(p, "type");

		if (!type || type->type != JSON_STRING)
			ret = trail_error("%s: profile %zu has no type", name, i);
		else if (!strcmp(type->string, "sampled"))
			ret = fold_sampled(&fr, p, out) < 0 ? -1 : sampled_units(p, out);
		else if (!strcmp(type->string, "evented"))
			ret = fold_evented(&fr, p, out);
		else
			ret = trail_error("%s: profile %zu has type '%s', not sampled or evented", name, i,
				    type->string);
	}
	json_release(&root);
	return ret;
}

static int fold(const char *data, size_t len, const char *name, const char *sample_type,
		struct folded_profile *out)
{
	return speedscope_fold(data, len, name, out);
}

static int read_input(struct collapse_session *s, struct collapse_input *in, struct folder *f)
{
	return collapse_read_whole(s, in, f, fold);
}

const struct collapser collapse_speedscope = {
	"speedscope",
	"speedscope JSON (sampled and evented profiles)",
	speedscope_detect,
	read_input,
};
