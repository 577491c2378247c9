/*
 * session.c - struct collapse_session (collapser.h): the folders of one
 * 'trail collapse' run and what its inputs report (unrecognised lines,
 * the event filter), kept across inputs so several files fold into one
 * answer.
 */
#include "collapse/collapser.h"
#include "core/alloc.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

void collapse_session_init(struct collapse_session *s, const struct fold_options *fold)
{
	memset(s, 0, sizeof(*s));
	s->fold = *fold;
	s->folders = xcalloc(1, sizeof(*s->folders));
	s->folders[0] = folder_new(&s->fold);
	s->nr_folders = 1;
}

void collapse_session_release(struct collapse_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_folders; i++)
		folder_free(s->folders[i]);
	free(s->folders);
	free(s->event_filter);
	free(s->other_event);
	string_list_clear(&s->skipped_events);
	memset(s, 0, sizeof(*s));
}

void collapse_session_add_folder(struct collapse_session *s, struct folder *f)
{
	s->folders = xreallocarray(s->folders, s->nr_folders + 1, sizeof(*s->folders));
	s->folders[s->nr_folders++] = f;
}

void collapse_session_bad_line(struct collapse_session *s, const char *name, uint64_t lineno,
			       const char *what, const char *text, size_t len)
{
	s->unrecognized++;
	if (memchr(text, '\0', len))
		s->binary++;
	if (s->warned >= COLLAPSE_MAX_WARNINGS)
		return;
	s->warned++;
	if (len > 200)
		len = 200;
	warning("%s:%llu: %s: %.*s", name, (unsigned long long)lineno, what, (int)len, text);
}

int collapse_session_write(struct collapse_session *s, FILE *out)
{
	return folder_write(s->folders, s->nr_folders, out);
}
