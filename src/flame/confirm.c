/*
 * confirm.c - the CONFIRM step of trail flame: each end's statistic with
 * its interval and the Mann-Whitney U test for the report (the verdict is
 * the ends' paired interval, ends.c), and when CPU time did not rise, did
 * the wall time (the time went off-CPU)?
 */
#include "flame/confirm.h"
#include "flame/decide.h"
#include "stats/describe.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int flame_step_confirm(struct flame_session *s)
{
	double z = flame_z_for(s->req.confidence);
	int side, larger = 0;
	double *v[2];
	char g[32], b[32];

	for (side = 0; side < 2; side++) {
		size_t k, n = s->st.nruns[side];
		double se;

		v[side] = xcalloc(n, sizeof(double));
		for (k = 0; k < n; k++)
			v[side][k] = flame_run_metric(&s->st.runs[side][k], s->req.metric);
		/* The statistic the probes compare with the threshold. */
		flame_metric_estimate(v[side], n, s->req.percentile, &s->ans.ends.metric_med[side], &se);
		/*
		 * A median's interval from the MAD: one run slowed by a busy
		 * machine must not widen it so much that "no regression" can
		 * never be shown.
		 */
		if ((s->req.metric != FLAME_METRIC_WALL || s->req.percentile == 50) &&
		    flame_median_se(v[side], n) > 0)
			se = flame_median_se(v[side], n);
		s->ans.ends.metric_lo[side] = s->ans.ends.metric_med[side] - z * se;
		s->ans.ends.metric_hi[side] = s->ans.ends.metric_med[side] + z * se;
	}
	if (s->ans.ends.exact_counts) {
		/*
		 * Exact counts (exact.c): the change is the counts' ratio.  A rank
		 * test over 2+2 identical counts could at best say p = 0.333,
		 * which would only read as doubt where there is none.
		 */
		const char *unit = flame_metric_unit(s->req.metric);

		s->ans.ends.metric_p = s->ans.ends.metric_ks_p = NAN;
		note("confirm: %s good %.0f %s, bad %.0f %s: %+.0f %s, %+.3f%% (exact counts, "
		     "%zu+%zu runs alike; no test)", flame_metric_name(s->req.metric),
		     s->ans.ends.metric_med[0], unit, s->ans.ends.metric_med[1], unit,
		     s->ans.ends.metric_med[1] - s->ans.ends.metric_med[0], unit,
		     100 * s->ans.ends.change_iv.estimate, s->st.nruns[0], s->st.nruns[1]);
		free(v[0]);
		free(v[1]);
		return s->ans.ends.change_iv.n && s->ans.ends.change_iv.lo > 0;
	}
	s->ans.ends.metric_p = flame_mann_whitney_p(v[0], s->st.nruns[0], v[1], s->st.nruns[1], &larger);
	s->ans.ends.metric_ks_p = flame_ks_p(v[0], s->st.nruns[0], v[1], s->st.nruns[1]);
	free(v[0]);
	free(v[1]);
	note("confirm: %s good %s, bad %s (Mann-Whitney p = %.3g, Kolmogorov-Smirnov "
	     "p = %.3g, %zu+%zu runs)", flame_metric_name(s->req.metric),
	     numfmt_str(g, sizeof(g), s->ans.ends.metric_med[0], flame_metric_unit(s->req.metric), 0),
	     numfmt_str(b, sizeof(b), s->ans.ends.metric_med[1], flame_metric_unit(s->req.metric), 0),
	     s->ans.ends.metric_p, s->ans.ends.metric_ks_p, s->st.nruns[0], s->st.nruns[1]);
	if (s->req.metric == FLAME_METRIC_CPU &&
	    flame_run_too_short(s->ans.ends.metric_med[0] < s->ans.ends.metric_med[1] ? s->ans.ends.metric_med[0]
									     : s->ans.ends.metric_med[1]))
		note("confirm: a run takes only %.0f ms of CPU; under ~%.1f s start-up and sampling "
		     "noise weigh heavily: make the workload longer, or run it several times per "
		     "measurement with --loop N", s->ans.ends.metric_med[0] / 1000,
		     FLAME_SHORT_RUN_US / 1e6);
	(void)larger;
	/* The verdict is the ends' paired interval's (ends.c), not this test's. */
	return s->ans.ends.change_iv.n && s->ans.ends.change_iv.lo > 0;
}

/*
 * CPU time unchanged: did the wall time of the same (profiled) runs rise?
 * Then the time went off-CPU and the message says which metric to use.
 */
int flame_step_wall_regressed(struct flame_session *s)
{
	struct flame_metric_test w;
	const struct flame_interval *iv;
	char cpu[160], g[32], b[32];
	double *v[2];
	int side;

	for (side = 0; side < 2; side++) {
		size_t k;

		v[side] = xcalloc(s->st.nruns[side], sizeof(double));
		for (k = 0; k < s->st.nruns[side]; k++)
			v[side][k] = s->st.runs[side][k].wall;
		w.value[side] = stats_median(v[side], s->st.nruns[side]);
	}
	w.p = flame_mann_whitney_p(v[0], s->st.nruns[0], v[1], s->st.nruns[1], &w.bad_larger);
	free(v[0]);
	free(v[1]);
	if (!flame_wall_rose(&w, s->req.confidence))
		return 0;
	/* the verdict on CPU is the ends' interval's: say that, not a test it did not use */
	iv = &s->ans.ends.change_iv;
	if (iv->n)
		snprintf(cpu, sizeof(cpu), "CPU time did not rise beyond the noise (%+.1f%%, interval "
			 "[%+.1f%%, %+.1f%%])", 100 * iv->estimate, 100 * iv->lo, 100 * iv->hi);
	else
		snprintf(cpu, sizeof(cpu), "CPU time did not rise beyond the noise");
	snprintf(s->ans.message, sizeof(s->ans.message),
		 "%s but the run time rose from %s to %s (Mann-Whitney p = %.3g): the "
		 "time is spent off-CPU (sleeping, waiting for I/O or locks); rerun with --metric wall",
		 cpu, numfmt_str(g, sizeof(g), w.value[0], "s", 0), numfmt_str(b, sizeof(b), w.value[1], "s", 0), w.p);
	return 1;
}
