/*
 * ends.c - the CAPTURE step of trail flame: build the good and the bad
 * revision (cached) and run the workload at both, alternating, adding runs
 * while the metric is undecided up to --max-repeat.
 */
#include "flame/steps.h"
#include "flame/decide.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/progress.h"

#include <stdlib.h>
#include <string.h>

struct flame_capture_opts flame_session_capture_opts(const struct flame_session *s)
{
	struct flame_capture_opts o;

	memset(&o, 0, sizeof(o));
	o.run_cmd = s->req.run_cmd;
	o.freq = s->req.freq;
	o.discard = s->req.discard;
	o.timeout = s->req.run_timeout;
	o.timed = s->req.metric != FLAME_METRIC_CPU && !flame_metric_from_profile(s->req.metric);
	o.profile = flame_metric_profile(s->req.metric, s->ans.offcpu_profile, s->req.profiler);
	o.alloc_interval = s->req.alloc_interval;
	o.alloc_peak = s->req.metric == FLAME_METRIC_PEAK_HEAP;
	o.scratch = s->st.scratch;
	o.profiler = s->req.profiler;
	o.trail_exe = s->req.trail_exe;
	return o;
}

static int build_end(struct flame_session *s, const char *id, const char *name, char **dir)
{
	int cached, code = flame_build(&s->st.repo, id, s->req.build_cmd, s->req.build_timeout,
				       dir, &cached);

	if (code < 0)
		return -1;
	s->ans.builds++;
	s->ans.cached_builds += cached;
	if (code) {
		char *log = flame_build_log(&s->st.repo, id, s->req.build_cmd);

		trail_error("cannot build the %s revision %.12s (log: %s)", name, id, log);
		free(log);
		return -1;
	}
	note("capture: built %s %.12s%s", name, id, cached ? " (cached)" : "");
	return 0;
}

int flame_step_build(struct flame_session *s, char *dirs[2])
{
	return build_end(s, s->ans.good, "good", &dirs[0]) ||
	       build_end(s, s->ans.bad, "bad", &dirs[1]) ? -1 : 0;
}

int flame_step_capture(struct flame_session *s, char *dirs[2])
{
	struct flame_capture_opts o = flame_session_capture_opts(s);
	struct progress pr;
	unsigned target = s->req.repeat ? s->req.repeat : 5, i;
	/* Undecided after the first runs: add more, up to the ceiling, rather
	 * than call a real but noisy slowdown "no regression". */
	unsigned max = s->req.max_repeat ? s->req.max_repeat : target > 40 ? target : 40;
	double t0 = clock_monotonic();
	int side;

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
		/* Alternate good and bad so a drifting machine hits both alike. */
		while (s->st.nruns[0] < target) {
			for (side = 0; side < 2; side++) {
				struct flame_run *r;

				ALLOC_GROW(s->st.runs[side], s->st.nruns[side] + 1, s->st.runs_alloc[side]);
				r = &s->st.runs[side][s->st.nruns[side]];
				if (flame_capture_run(&o, dirs[side], r)) {
					flame_run_release(r);
					progress_stop(&pr);
					return trail_error("the workload fails at the %s revision",
						     side ? "bad" : "good");
				}
				s->st.nruns[side]++;
				progress_update(&pr, s->st.nruns[0] + s->st.nruns[1], side ? "bad" : "good");
			}
		}
		{
			double *v[2];
			int larger;

			for (side = 0; side < 2; side++) {
				size_t k;

				v[side] = xcalloc(s->st.nruns[side], sizeof(double));
				for (k = 0; k < s->st.nruns[side]; k++)
					v[side][k] = flame_run_metric(&s->st.runs[side][k], s->req.metric);
			}
			s->ans.metric_p = flame_mann_whitney_p(v[0], s->st.nruns[0], v[1], s->st.nruns[1], &larger);
			/*
			 * Decided when the verdict the session will give is
			 * (decide.h: a significant rise of --min-effect or
			 * more, or the change shown to be below it, from the
			 * paired runs); else more runs, within --max-repeat and
			 * the --budget of seconds.  Significance alone does not
			 * stop it: a significant speed-up, or a rise smaller
			 * than --min-effect, is not yet "no regression".
			 */
			{
				double ch = 0, hi = 1e300, se;
				struct flame_metric_test t;

				/* the statistic the verdict compares (confirm.c) */
				t.p = s->ans.metric_p;
				t.bad_larger = larger;
				flame_metric_estimate(v[0], s->st.nruns[0], s->req.percentile, &t.value[0], &se);
				flame_metric_estimate(v[1], s->st.nruns[1], s->req.percentile, &t.value[1], &se);
				flame_paired_change(v[0], v[1], s->st.nruns[0], flame_z_for(s->req.confidence),
						    &ch, &hi);
				free(v[0]);
				free(v[1]);
				if (flame_ends_decided(&t, s->req.confidence, ch, hi, s->req.min_effect) ||
				    target >= max || clock_monotonic() - t0 > s->req.budget)
					break;
			}
		}
		target += 5;
		if (target > max)
			target = max;
		pr.total = (uint64_t)target * 2;
	}
	progress_stop(&pr);
	return 0;
}
