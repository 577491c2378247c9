/*
 * exact.c - the ends of a counted metric (metric.h: instructions,
 * est-cycles), apart from ends.c's statistics: one ABBA pair of pairs
 * (each end counted twice); when each end's two counts agree within
 * FLAME_EXACT_TOLERANCE the change is the counts' ratio, a point with no
 * interval, compared with --min-effect as it is, and probes take one run.
 * When they do not, the ends say by how much and ends.c carries on with
 * repeated runs and its statistics (and probes with their usual runs).
 */
#include "flame/exact.h"
#include "stats/describe.h"
#include "flame/estimate.h"
#include "flame/ends.h"
#include "core/error.h"

#include <math.h>
#include <string.h>

double flame_exact_spread(const double *v, size_t n)
{
	return stats_spread(v, n);
}

int flame_exact_interval(const double *good, const double *bad, size_t n, double alpha,
			 struct flame_interval *iv)
{
	double g = 0, b = 0;
	size_t i;

	if (flame_exact_spread(good, n) > FLAME_EXACT_TOLERANCE ||
	    flame_exact_spread(bad, n) > FLAME_EXACT_TOLERANCE)
		return 1;
	for (i = 0; i < n; i++) {
		g += good[i];
		b += bad[i];
	}
	if (!(g > 0))
		return -1;
	memset(iv, 0, sizeof(*iv));
	iv->estimate = iv->lo = iv->hi = b / g - 1;
	iv->alpha = alpha;
	iv->n = n;
	iv->relative = 1;
	return 0;
}

/* The instrument's slowdown over the ends' native runs, for the note. */
static void say_slowdown(const struct flame_session *s)
{
	double counted = 0, native = 0;
	size_t side, k;

	for (side = 0; side < 2; side++)
		for (k = 0; k < s->st.nruns[side]; k++) {
			counted += s->st.runs[side][k].instrument_wall;
			native += s->st.runs[side][k].wall;
		}
	if (native > 0 && counted > 0)
		note("capture: callgrind: %.0fx the native run (%.2f s counted, %.3f s native, per run)",
		     counted / native, counted / (double)(s->st.nruns[0] + s->st.nruns[1]),
		     native / (double)(s->st.nruns[0] + s->st.nruns[1]));
}

int flame_exact_ends(struct flame_session *s, const struct flame_capture_opts *o, char *dirs[2])
{
	double v[2][2];
	struct flame_interval iv;
	size_t side, k;
	int rc;

	for (k = 0; k < 2; k++)
		if (flame_ends_run_pair(s, o, dirs, NULL))
			return -1;
	say_slowdown(s);
	for (side = 0; side < 2; side++)
		for (k = 0; k < 2; k++)
			v[side][k] = flame_run_metric(&s->st.runs[side][k], s->req.metric);
	rc = flame_exact_interval(v[0], v[1], 2, 1 - s->req.confidence, &iv);
	if (rc < 0)
		return trail_error("the good end counts no %s", flame_metric_unit(s->req.metric));
	if (rc) {
		warning("capture: two runs of one build differ by more than %g%% (good %.0f and %.0f, "
			"bad %.0f and %.0f %s): counting is not exact here; repeated runs and "
			"statistics decide instead", 100 * FLAME_EXACT_TOLERANCE, v[0][0], v[0][1],
			v[1][0], v[1][1], flame_metric_unit(s->req.metric));
		if (s->req.exact_defaults) {
			s->req.probe_runs = FLAME_PROBE_RUNS;
			s->req.probe_max_runs = FLAME_PROBE_MAX_RUNS;
		}
		return 1;
	}
	s->ans.ends.looks = 1;
	s->ans.ends.exact_counts = 1;
	s->ans.ends.alpha_look = 1 - s->req.confidence;
	s->ans.ends.change_iv = iv;
	s->ans.ends.ends_outcome = flame_outcome_decide(&iv, s->req.min_effect, 1);
	note("capture: exact: each end counted twice alike; %s %+.3f%% (--min-effect %g%%)",
	     flame_metric_name(s->req.metric), 100 * iv.estimate, 100 * s->req.min_effect);
	return 0;
}
