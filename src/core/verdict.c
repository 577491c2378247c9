/*
 * verdict.c - the words of trail's answers (verdict.h): one place for
 * report.json's "verdict", the probe's JSON line and git bisect's terms,
 * trail bench's and trail history's directions.
 */
#include "core/verdict.h"

#include <stddef.h>
#include <string.h>

const char *trail_verdict_name(enum trail_verdict v)
{
	switch (v) {
	case VERDICT_REGRESSION:
	case VERDICT_SMALL_REGRESSION:
		return "regression";
	case VERDICT_NO_REGRESSION:
		return "no-regression";
	case VERDICT_INCONCLUSIVE:
		return "inconclusive";
	default:
		return NULL;
	}
}

static const struct {
	enum trail_probe_verdict v;
	const char *name;
} probe_verdicts[] = { { PROBE_FAST, "fast" }, { PROBE_SLOW, "slow" }, { PROBE_SKIP, "skip" } };

const char *trail_probe_verdict_name(enum trail_probe_verdict v)
{
	size_t i;

	for (i = 0; i < sizeof(probe_verdicts) / sizeof(probe_verdicts[0]); i++)
		if (probe_verdicts[i].v == v)
			return probe_verdicts[i].name;
	return "skip";
}

int trail_probe_verdict_parse(const char *name, enum trail_probe_verdict *v)
{
	size_t i;

	for (i = 0; i < sizeof(probe_verdicts) / sizeof(probe_verdicts[0]); i++)
		if (!strcmp(probe_verdicts[i].name, name)) {
			*v = probe_verdicts[i].v;
			return 0;
		}
	return -1;
}

const char *trail_direction_name(enum trail_direction d)
{
	switch (d) {
	case DIRECTION_FASTER:
		return "faster";
	case DIRECTION_SLOWER:
		return "slower";
	default:
		return "no significant difference";
	}
}
