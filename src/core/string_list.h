/*
 * string_list.h - a growable list of owned C strings (repeatable options,
 * argv building).  string_list_clear() frees the strings and the array.
 */
#ifndef TRAIL_CORE_STRING_LIST_H
#define TRAIL_CORE_STRING_LIST_H

#include <stddef.h>

struct string_list {
	char **items;	/* NULL-terminated once nr > 0, usable as argv */
	size_t nr, alloc;
};

#define STRING_LIST_INIT { NULL, 0, 0 }

void string_list_append(struct string_list *l, const char *s);
/* Take ownership of s instead of copying it. */
void string_list_append_nodup(struct string_list *l, char *s);
/* Split s at every sep and append each piece (empty pieces included). */
void string_list_split(struct string_list *l, const char *s, char sep);
int string_list_has(const struct string_list *l, const char *s);
/*
 * Append the first len bytes of s unless the list has them already or
 * holds max strings (a bounded set of names, e.g. the events seen).
 */
void string_list_add_unique_n(struct string_list *l, const char *s, size_t len, size_t max);
void string_list_clear(struct string_list *l);

#endif
