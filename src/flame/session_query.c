/*
 * session_query.c - questions every step and every report writer asks of
 * a session (declared in steps.h and report.h): where a commit is in the
 * range, which function the answer names, and the options of a probe of
 * the narrowing's measure.  Kept apart so the steps
 * and the writers need not call back into the driver (session.c) or the
 * report (report.c).
 */
#include "flame/report.h"
#include "flame/steps.h"
#include "flame/probe.h"

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

struct flame_probe_opts flame_session_probe_opts(struct flame_session *s)
{
	struct flame_probe_opts o;

	memset(&o, 0, sizeof(o));
	o.build_cmd = s->req.build_cmd;
	o.build_timeout = s->req.build_timeout;
	o.cap = flame_session_capture_opts(s);
	o.metric = s->req.metric;
	o.function = s->ans.function;
	o.share = s->ans.measure_share;
	o.total = s->ans.measure_total;
	o.exclude = &s->st.exclude;
	o.runs = s->req.probe_runs;
	o.max_runs = s->req.probe_max_runs;
	o.alpha = 1 - s->req.confidence;
	o.percentile = s->req.percentile;
	return o;
}
