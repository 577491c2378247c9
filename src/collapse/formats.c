/*
 * formats.c - the table of input formats (collapser.h) and the guesser:
 * every detector is asked, the most confident wins, ties go to the one
 * listed first.  Adding a format is one X(name) line here.
 */
#include "collapse/collapser.h"

#include <string.h>

/* Most specific first: a format that can recognise another's text goes after it. */
#define COLLAPSE_FORMATS(X) \
	X(perf_data) \
	X(pprof) \
	X(speedscope) \
	X(cpuprofile) \
	X(jfr) \
	X(perf_script) \
	X(dtrace) \
	X(sample) \
	X(vtune) \
	X(vsprof) \
	X(xctrace) \
	X(ghcprof) \
	X(bpftrace) \
	X(massif) \
	X(callgrind) \
	X(heaptrack) \
	X(folded) \
	X(recursive)

#define DECLARE(name) extern const struct collapser collapse_##name;
#define ENTRY(name) &collapse_##name,
COLLAPSE_FORMATS(DECLARE)

const struct collapser *const collapsers[] = {
	COLLAPSE_FORMATS(ENTRY)
	NULL
};

const struct collapser *collapser_find(const char *name)
{
	size_t i;

	for (i = 0; collapsers[i]; i++)
		if (!strcmp(collapsers[i]->name, name))
			return collapsers[i];
	return NULL;
}

const struct collapser *collapse_guess(const char *head, size_t len, int *confidence)
{
	const struct collapser *best = NULL;
	int best_score = 0;
	size_t i;

	for (i = 0; collapsers[i]; i++) {
		int score = collapsers[i]->detect(head, len);

		if (score > 100)
			score = 100;
		if (score > best_score) {
			best = collapsers[i];
			best_score = score;
		}
	}
	if (confidence)
		*confidence = best_score;
	return best;
}
