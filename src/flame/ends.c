/*
 * ends.c - the CAPTURE step of trail flame: build the good and the bad
 * revision (cached) and run the workload at both in ABBA pairs, adding
 * pairs while the change is undecided, up to --max-repeat, with alpha
 * spent across the looks (estimate.h).
 */
#include "flame/ends.h"
#include "flame/session_query.h"
#include "core/verdict.h"
#include "flame/decide.h"
#include "flame/estimate.h"
#include "flame/exact.h"
#include "core/keep_log.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int build_end(struct flame_session *s, const char *id, const char *name, char **dir)
{
	int cached, code = flame_build(&s->st.repo, id, s->req.build_cmd, s->req.build_timeout,
				       dir, &cached);

	if (code < 0)
		return -1;
	s->ans.ends.builds++;
	s->ans.ends.cached_builds += cached;
	if (code) {
		char *log = flame_build_log(&s->st.repo, id, s->req.build_cmd), *kept = keep_log(log);

		trail_error("cannot build the %s revision %.12s (log: %s)", name, id, kept);
		free(kept);
		free(log);
		return -1;
	}
	note("capture: built %s %.12s%s", name, id, cached ? " (cached)" : "");
	return 0;
}

int flame_step_build(struct flame_session *s, char *dirs[2])
{
	if (build_end(s, s->ans.ends.good, "good", &dirs[0]) ||
	    build_end(s, s->ans.ends.bad, "bad", &dirs[1]))
		return -1;
	flame_defs_release(&s->st.defs);
	flame_defs_init(&s->st.defs, dirs[1]);	/* where the bad end's functions are defined */
	return 0;
}

/*
 * The change between the ends from the first n pairs, at alpha: the
 * paired log ratio of the metric, or with --percentile the paired
 * bootstrap of that percentile's ratio (estimate.h), no narrower than the
 * metric's resolution (metric.h).  0, or -1 when the
 * runs give no ratio (a zero metric).
 */
int flame_ends_interval(const struct flame_session *s, size_t n, double alpha,
			struct flame_interval *iv)
{
	double *v[2];
	int side, rc;

	for (side = 0; side < 2; side++) {
		size_t k;

		v[side] = xcalloc(n ? n : 1, sizeof(double));
		for (k = 0; k < n; k++)
			v[side][k] = flame_run_metric(&s->st.runs[side][k], s->req.metric);
	}
	if (s->req.percentile == 50)
		rc = flame_paired_log_ratio(v[0], v[1], n, alpha, iv);
	else
		rc = flame_paired_quantile_ratio(v[0], v[1], n, s->req.percentile, alpha,
						 FLAME_BOOTSTRAP_RESAMPLES, FLAME_BOOTSTRAP_SEED, iv);
	/* never narrower than the values' own step (two pairs that round alike) */
	if (!rc)
		flame_interval_resolution_floor(v[0], v[1], n,
						flame_metric_resolution(s->req.metric), iv);
	free(v[0]);
	free(v[1]);
	return rc;
}

int flame_step_capture(struct flame_session *s, char *dirs[2])
{
	struct flame_capture_opts o = flame_session_capture_opts(s);
	struct progress pr;
	/* Even numbers of ABBA pairs, about eight looks up to the ceiling. */
	unsigned target = flame_even_pairs(s->req.repeat ? s->req.repeat : 6), i;
	unsigned max = flame_even_pairs(s->req.max_repeat ? s->req.max_repeat :
					target > 40 ? target : 40);
	double t0 = clock_monotonic(), alpha = 1 - s->req.confidence;
	size_t prev = 0, need = flame_percentile_min_runs(s->req.percentile);
	unsigned first;
	int side;

	/*
	 * A counted metric whose counts repeat is decided by exact.c on two
	 * runs an end; a count needs no warm-up (caches change time, not it).
	 */
	if (flame_metric_deterministic(s->req.metric) && !s->req.repeat) {
		int rc = flame_exact_ends(s, &o, dirs);

		if (rc <= 0)
			return rc;
	}
	if (max < target)
		max = target;
	first = target;
	if (need > max)
		warning("the p%g of %u runs is no more than their largest: it needs %zu runs or more "
			"(--max-repeat %zu); with fewer the verdict stays inconclusive",
			s->req.percentile, max, need, need);
	for (i = 0; i < s->req.warmup_runs; i++)
		for (side = 0; side < 2; side++) {
			struct flame_run w;
			int code = flame_capture_run(&o, dirs[side], &w);

			flame_run_release(&w);
			if (code)
				return trail_error("the workload fails at the %s revision", side ? "bad" : "good");
		}
	progress_start(&pr, "capture", (uint64_t)target * 2);
	for (;;) {
		struct flame_interval iv;
		int last;
		size_t n;

		while (s->st.nruns[0] < target)
			if (flame_ends_run_pair(s, &o, dirs, &pr)) {
				progress_stop(&pr);
				return -1;
			}
		n = s->st.nruns[0];
		/*
		 * A look: alpha spent so far by the Pocock-type function
		 * (estimate.h); the last look, at the ceiling or when the
		 * --budget of seconds is gone, spends what is left.  The
		 * verdict is the one the session gives (a significant rise, or
		 * the change shown below --min-effect), so stopping here keeps
		 * its error rates at most alpha over all looks.
		 */
		last = target >= max || clock_monotonic() - t0 > s->req.budget;
		s->ans.ends.looks++;
		s->ans.ends.alpha_look = flame_alpha_look(alpha, prev, n, max, last);
		if (flame_ends_interval(s, n, s->ans.ends.alpha_look, &iv)) {
			memset(&s->ans.ends.change_iv, 0, sizeof(s->ans.ends.change_iv));
			s->ans.ends.ends_outcome = VERDICT_INCONCLUSIVE;
			break;
		}
		s->ans.ends.change_iv = iv;
		s->ans.ends.ends_outcome = flame_outcome_decide(&iv, s->req.min_effect, n >= need);
		if (s->ans.ends.ends_outcome != VERDICT_INCONCLUSIVE || last)
			break;
		prev = n;
		target += flame_look_step(first, max);
		if (target > max)
			target = max;
		pr.total = (uint64_t)target * 2;
	}
	progress_stop(&pr);
	return 0;
}
