/*
 * string_list.c - see string_list.h.
 */
#include "core/string_list.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

void string_list_append_nodup(struct string_list *l, char *s)
{
	ALLOC_GROW(l->items, l->nr + 2, l->alloc);
	l->items[l->nr++] = s;
	l->items[l->nr] = NULL;
}

void string_list_append(struct string_list *l, const char *s)
{
	string_list_append_nodup(l, xstrdup(s));
}

void string_list_split(struct string_list *l, const char *s, char sep)
{
	for (;;) {
		const char *end = strchr(s, sep);

		if (!end) {
			string_list_append(l, s);
			return;
		}
		string_list_append_nodup(l, xstrndup(s, (size_t)(end - s)));
		s = end + 1;
	}
}

int string_list_has(const struct string_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return 1;
	return 0;
}

void string_list_add_unique_n(struct string_list *l, const char *s, size_t len, size_t max)
{
	size_t i;

	if (l->nr >= max)
		return;
	/* lengths first: s may hold a NUL, so strncmp could stop early */
	for (i = 0; i < l->nr; i++)
		if (strlen(l->items[i]) == len && !memcmp(l->items[i], s, len))
			return;
	string_list_append_nodup(l, xstrndup(s, len));
}

void string_list_clear(struct string_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}
