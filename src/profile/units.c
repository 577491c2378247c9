/*
 * units.c - the words of the profile model's units (folded.h): trail's
 * short units ("ns", "bytes") against the words pprof and speedscope use
 * ("nanoseconds", "bytes"), and how many nanoseconds one count is.
 */
#include "profile/folded.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *unit, *word;
	double ns;
} unit_words[] = {
	{ "ns", "nanoseconds", 1 },
	{ "us", "microseconds", 1e3 },
	{ "ms", "milliseconds", 1e6 },
	{ "s", "seconds", 1e9 },
	{ "bytes", "bytes", 0 },
	{ "objects", "objects", 0 },
	{ "faults", "page faults", 0 },
	{ "page-faults", "page faults", 0 },
	{ "instructions", "instructions", 0 },	/* callgrind's Ir, PERF_COUNT_HW_INSTRUCTIONS */
	{ "cycles", "cycles", 0 },		/* est-cycles: a model, not time */
};

static int unit_index(const char *unit)
{
	size_t i;

	for (i = 0; i < sizeof(unit_words) / sizeof(unit_words[0]); i++)
		if (!strcmp(unit, unit_words[i].unit) || !strcmp(unit, unit_words[i].word))
			return (int)i;
	return -1;
}

const char *folded_unit_word(const struct folded_weight_info *w)
{
	int k;

	if (w->weight == FOLDED_WEIGHT_SAMPLES || !w->unit[0])
		return w->weight == FOLDED_WEIGHT_SAMPLES ? "samples" : "events";
	k = unit_index(w->unit);
	return k < 0 ? w->unit : unit_words[k].word;
}

double folded_ns_per_count(const struct folded_weight_info *w)
{
	int k;

	if (w->weight == FOLDED_WEIGHT_SAMPLES) {
		if (!(w->period > 0))
			return 0;
		k = unit_index(w->period_unit);
		return k < 0 ? 0 : w->period * unit_words[k].ns;
	}
	k = unit_index(w->unit);
	return k < 0 ? 0 : unit_words[k].ns;
}

double folded_bytes_per_sample(const struct folded_weight_info *w)
{
	return w->weight == FOLDED_WEIGHT_SAMPLES && w->period > 0 &&
	       !strcmp(w->period_unit, "bytes") ? w->period : 0;
}

const char *folded_weight_describe(char *buf, size_t n, const struct folded_weight_info *w)
{
	if (w->weight == FOLDED_WEIGHT_SAMPLES || !w->unit[0])
		snprintf(buf, n, "%s", folded_weight_name(w->weight));
	else
		snprintf(buf, n, "%s (%s)", folded_weight_name(w->weight), w->unit);
	return buf;
}


int folded_weight_from_words(struct folded_weight_info *w, const char *type, const char *unit)
{
	int k = unit_index(unit);

	memset(w, 0, sizeof(*w));
	snprintf(w->type, sizeof(w->type), "%.*s", (int)sizeof(w->type) - 1, type);
	if (!strcmp(unit, "count") || !strcmp(unit, "samples") || !strcmp(unit, "none") ||
	    !unit[0]) {
		if (!type[0] || !strcmp(type, "samples")) {
			w->weight = FOLDED_WEIGHT_SAMPLES;
			w->type[0] = 0;	/* plain counts: no header, as before */
			return 0;
		}
		/* counted things that are not samples: allocations, faults ... */
		w->weight = FOLDED_WEIGHT_PERIOD;
		snprintf(w->unit, sizeof(w->unit), "%s",
			 strstr(type, "objects") ? "objects" : "count");
		return 0;
	}
	if (k < 0)
		return -1;
	w->weight = unit_words[k].ns > 0 ? FOLDED_WEIGHT_TIME : FOLDED_WEIGHT_PERIOD;
	snprintf(w->unit, sizeof(w->unit), "%s", unit_words[k].unit);
	return 0;
}
