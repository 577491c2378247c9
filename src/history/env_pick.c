/*
 * env_pick.c - the environment of a spread backfill and what differs in
 * a left-out host's (see env_pick.h).
 */
#include "history/env_pick.h"

#include <stdio.h>
#include <string.h>

size_t history_env_pick(const char *const *keys, size_t n, const char *want)
{
	size_t i, j, best = n, best_count = 0;

	for (i = 0; i < n; i++) {
		size_t count = 0;

		if (!keys[i] || (want && strcmp(keys[i], want)))
			continue;
		for (j = 0; j < n; j++)
			count += keys[j] && !strcmp(keys[j], keys[i]);
		if (count > best_count) {	/* strictly more: ties stay with the earlier */
			best = i;
			best_count = count;
		}
	}
	return best;
}

void history_env_difference(const char *a, const char *b, char *buf, size_t n)
{
	static const char *const names[] = { "kernel", "CPU model", "compiler", "CFLAGS" };
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t la = strcspn(a, "\t"), lb = strcspn(b, "\t");

		if ((la != lb || strncmp(a, b, la)) && len + 20 < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "", names[i]);
		a += la + (a[la] == '\t');
		b += lb + (b[lb] == '\t');
	}
	if (!len)
		snprintf(buf, n, "the profiler or trail's sampling setup");
}
