/*
 * session_query.c - questions every step and every report writer asks of
 * a session (declared in session_query.h): where a commit is in the
 * range, which function the answer names, and the one request of a probe
 * of the narrowing's measure (probe_request.h), which the ends' capture
 * options come from too.  Kept apart so the steps
 * and the writers need not call back into the driver (session.c) or the
 * report (report.c).
 */
#include "flame/report.h"
#include "flame/session_query.h"
#include "flame/probe.h"

#include <math.h>
#include <string.h>

int flame_session_range_index(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->st.range.nr; i++)
		if (!strcmp(s->st.range.items[i], id))
			return (int)i;
	return -1;
}

int flame_session_has_suspect(const struct flame_session *s)
{
	return s->ans.narrow.culprit_info.subject && s->ans.outcome == VERDICT_REGRESSION;
}

int flame_session_candidate(const struct flame_session *s)
{
	return s->ans.narrow.culprit_info.subject && s->ans.outcome != VERDICT_REGRESSION;
}

const char *flame_session_named_function(const struct flame_session *s)
{
	if (s->ans.target.function)
		return s->ans.target.function;
	return s->ans.target.blocked_function ? s->ans.target.blocked_function : s->ans.suspects.changed_function;
}

struct flame_probe_request flame_session_probe_request(const struct flame_session *s)
{
	struct flame_probe_request r;

	flame_probe_request_init(&r);
	r.rev = "BISECT_HEAD";	/* git bisect run --no-checkout's commit */
	r.build_cmd = s->req.build_cmd;
	r.run_cmd = s->req.run_cmd;
	r.profiler = s->req.profiler;
	r.function = s->ans.target.function;
	r.exclude = &s->st.exclude;
	r.threshold = s->ans.target.threshold;
	r.discard = s->req.discard;
	r.confidence = s->req.confidence;
	r.percentile = s->req.percentile;
	r.run_timeout = s->req.run_timeout;
	r.build_timeout = s->req.build_timeout;
	r.alloc_interval = s->req.alloc_interval;
	r.runs = s->req.probe_runs;
	r.max_runs = s->req.probe_max_runs;
	r.freq = s->req.freq;
	r.metric = s->req.metric;
	r.measure = flame_measure_of(0, s->ans.target.measure_share, s->ans.target.measure_time,
				     s->ans.target.measure_lib);
	r.offcpu = s->ans.ends.offcpu_profile;
	r.scratch = s->st.scratch;
	r.trail_exe = s->req.trail_exe;
	return r;
}

struct flame_capture_opts flame_session_capture_opts(const struct flame_session *s)
{
	struct flame_probe_request r = flame_session_probe_request(s);
	struct flame_capture_opts o;

	flame_probe_request_capture(&r, &o);
	return o;
}

unsigned flame_session_pair_max_runs(const struct flame_session *s, double effect,
				     double se_good, double se_bad, int *short_of)
{
	unsigned floor = s->req.probe_max_runs > 3 ? s->req.probe_max_runs : 3;
	unsigned cap = s->req.max_repeat ? s->req.max_repeat : 40, want;
	size_t ng = s->st.nruns[0] ? s->st.nruns[0] : 1, nb = s->st.nruns[1] ? s->st.nruns[1] : 1;
	struct flame_power_plan p = {
		.effect = fabs(effect), .effect_se = hypot(se_good, se_bad),
		.sd_slow = se_bad * sqrt((double)nb), .sd_fast = se_good * sqrt((double)ng),
		.sd_df = (double)(ng < nb ? ng : nb) - 1, .alpha = 1 - s->req.confidence,
		.power = 0.95,
	};

	if (cap < floor)
		cap = floor;
	want = flame_pair_runs_for_power(&p, floor, cap);
	*short_of = want > cap;
	return want > cap ? cap : want;
}
