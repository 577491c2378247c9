/*
 * session_query.h - the questions every step asks of the session: how the workload
 * is captured, where a commit sits in the range, the probe request of the
 * narrowing's measure and how many runs a re-probe may take.
 */
#ifndef TRAIL_FLAME_SESSION_QUERY_H
#define TRAIL_FLAME_SESSION_QUERY_H

#include "flame/investigation.h"

/* How the workload is captured: the probe request's capture (session_query.c). */
struct flame_capture_opts flame_session_capture_opts(const struct flame_session *s);
/* Position of commit id in the range (oldest first), -1 when outside. */
int flame_session_range_index(const struct flame_session *s, const char *id);
/*
 * The request of a probe of the measure the narrowing uses (its function's
 * share or samples, else the metric at --percentile) against ans.target.threshold,
 * on BISECT_HEAD: what git bisect run, the hosts and the reproduce line
 * write (flame_probe_request_argv()) and the in-process probes run.  The
 * one builder of a probe request besides the probe's reader.
 */
struct flame_probe_request flame_session_probe_request(const struct flame_session *s);
/*
 * Runs per side a suspect/parent re-probe may take: --probe-max-runs, or
 * more when the ends' run-to-run spread (se_good, se_bad: standard errors
 * of the ends' means) needs more for a full culprit's step (effect) to be
 * found with 95% power (estimate.h, flame_pair_runs_for_power()), up to
 * --max-repeat (40); *short_of set when even that falls short.
 */
unsigned flame_session_pair_max_runs(const struct flame_session *s, double effect,
				     double se_good, double se_bad, int *short_of);

#endif
