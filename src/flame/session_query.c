/*
 * session_query.c - questions every step and every report writer asks of
 * a session (declared in steps.h and report.h): where a commit is in the
 * range, and which function the answer names.  Kept apart so the steps
 * and the writers need not call back into the driver (session.c) or the
 * report (report.c).
 */
#include "flame/report.h"
#include "flame/steps.h"

#include <string.h>

int flame_session_range_index(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->st.range.nr; i++)
		if (!strcmp(s->st.range.items[i], id))
			return (int)i;
	return -1;
}

const char *flame_session_named_function(const struct flame_session *s)
{
	if (s->ans.function)
		return s->ans.function;
	return s->ans.blocked_function ? s->ans.blocked_function : s->ans.changed_function;
}
