/*
 * session.c - one trail flame investigation (see session.h): open the
 * private clone, resolve the range, then the steps in order (steps.h),
 * each announcing itself on stderr; stdout gets only the command's answer
 * lines.  The user's repository is read, never written.
 */
#include "flame/session.h"
#include "flame/decide.h"
#include "flame/report.h"
#include "flame/steps.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void flame_session_init(struct flame_session *s)
{
	memset(s, 0, sizeof(*s));
	s->req.dir = ".";
	s->req.out_dir = "trail-flame-report";
	s->req.strategy = "auto";
	s->req.metric = FLAME_METRIC_CPU;
	s->req.percentile = 50;
	s->req.warmup_runs = 1;
	s->req.freq = 999;
	s->req.probe_runs = 3;
	s->req.probe_max_runs = 9;
	s->req.discard = 0.10;
	s->req.min_delta = 0.01;
	s->req.min_effect = 0.03;
	s->req.budget = 180;
	s->req.confirm = 0.02;
	s->req.confidence = 0.95;
	s->req.build_timeout = 600;
	s->req.run_timeout = 300;
	s->st.repo.lock_fd = -1;
	s->req.measure_share = 1;
	s->req.profiler = "trail";
}

int flame_session_range_index(const struct flame_session *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->st.range.nr; i++)
		if (!strcmp(s->st.range.items[i], id))
			return (int)i;
	return -1;
}

int flame_session_run(struct flame_session *s)
{
	char *dirs[2] = { NULL, NULL };
	double t0 = clock_monotonic();
	int ret = FLAME_EXIT_FAILURE, is_anc;

	/*
	 * Every child (builds, trail record, the workload, git bisect run and
	 * its probes) in one process group, killed when this process is
	 * signalled or exits: nothing of this run outlives it.
	 */
	if (child_group_begin())
		return FLAME_EXIT_FAILURE;
	/* Build failures are remembered for this run only (flame/repo.h). */
	{
		char token[64];

		snprintf(token, sizeof(token), "%ld.%.0f", (long)getpid(), 1e6 * clock_monotonic());
		setenv(FLAME_RUN_ENV, token, 1);
	}
	if (flame_repo_open(&s->st.repo, s->req.dir, s->req.cache_root))
		return FLAME_EXIT_FAILURE;
	if (flame_repo_resolve(&s->st.repo, s->req.good_rev, s->ans.good) ||
	    flame_repo_resolve(&s->st.repo, s->req.bad_rev, s->ans.bad))
		return FLAME_EXIT_FAILURE;
	is_anc = flame_repo_is_ancestor(&s->st.repo, s->ans.good, s->ans.bad);
	if (is_anc < 0)
		return FLAME_EXIT_FAILURE;
	if (!is_anc || !strcmp(s->ans.good, s->ans.bad)) {
		trail_error("the good revision %.12s is not an ancestor of the bad revision %.12s",
		      s->ans.good, s->ans.bad);
		return FLAME_EXIT_USAGE;
	}
	if (flame_repo_range(&s->st.repo, s->ans.good, s->ans.bad, &s->st.range))
		return FLAME_EXIT_FAILURE;
	s->ans.commits_in_range = s->st.range.nr;
	s->st.scratch = tempdir_create("trail-flame");
	if (!s->st.scratch)
		return FLAME_EXIT_FAILURE;
	if (s->req.metric == FLAME_METRIC_OFFCPU) {
		/* Off-CPU profiles show where the time went; without them, CPU ones. */
		struct flame_capture_opts o = flame_session_capture_opts(s);
		char why[200];

		if (!flame_capture_offcpu_check(&o, why, sizeof(why)))
			s->ans.offcpu_profile = 1;
		else
			note("scope: off-CPU profiles are not available here ('trail record -e "
			     "offcpu': %s); capturing CPU profiles instead, and the report names "
			     "the function the suspect commit changed", why);
	}
	if (!s->ans.offcpu_profile) {
		struct flame_capture_opts o = flame_session_capture_opts(s);
		char what[300];

		if (flame_capture_check(&o))
			return FLAME_EXIT_FAILURE;
		if (o.profile == FLAME_PROFILE_ALLOC || o.profile == FLAME_PROFILE_FAULTS)
			note("scope: profiles of %s; the diff and the bisection use their shares "
			     "as CPU shares are used", flame_profile_describe(&o, what, sizeof(what)));
	}
	{
		struct flame_capture_opts o = flame_session_capture_opts(s);
		char prof[400];

		flame_profiler_describe(&o, prof, sizeof(prof));
		note("scope: metric %s%s, profiler %s, %zu commits in %.12s..%.12s",
		     flame_metric_name(s->req.metric),
		     s->req.metric == FLAME_METRIC_WALL && s->req.percentile != 50 ? " (percentile)" : "",
		     prof, s->st.range.nr, s->ans.good, s->ans.bad);
	}

	if (flame_step_build(s, dirs) || flame_step_capture(s, dirs))
		goto out;
	if (!flame_step_confirm(s) && s->req.metric == FLAME_METRIC_CPU &&
	    flame_step_wall_regressed(s)) {
		s->ans.verdict = "inconclusive";
		flame_step_write_profiles(s);
		flame_step_rank_hotspots(s);
		ret = FLAME_EXIT_INCONCLUSIVE;
		goto report;
	}
	{
		struct flame_metric_test t;
		double g = s->ans.metric_med[0], change, change_hi;
		const char *v;

		t.p = s->ans.metric_p;
		t.bad_larger = 1;	/* the medians say which end is slower */
		t.value[0] = g;
		t.value[1] = s->ans.metric_med[1];
		/* The change's interval: from the ends' median +/- z se. */
		change = g > 0 ? s->ans.metric_med[1] / g - 1 : 0;
		{
			double z = flame_z_for(s->req.confidence);

			change_hi = flame_change_hi(g, (s->ans.metric_hi[0] - s->ans.metric_lo[0]) / (2 * z),
						    s->ans.metric_med[1],
						    (s->ans.metric_hi[1] - s->ans.metric_lo[1]) / (2 * z), z);
		}
		/* Better, when there are pairs: good and bad ran alternately. */
		{
			size_t n = s->st.nruns[0] < s->st.nruns[1] ? s->st.nruns[0] : s->st.nruns[1], k;
			double *gv = xcalloc(n ? n : 1, sizeof(*gv)), *bv = xcalloc(n ? n : 1, sizeof(*bv));

			for (k = 0; k < n; k++) {
				gv[k] = flame_run_metric(&s->st.runs[0][k], s->req.metric);
				bv[k] = flame_run_metric(&s->st.runs[1][k], s->req.metric);
			}
			flame_paired_change(gv, bv, n, flame_z_for(s->req.confidence), &change,
					    &change_hi);
			free(gv);
			free(bv);
		}
		s->ans.change = change;
		s->ans.change_hi = change_hi;
		v = flame_total_verdict(flame_metric_regressed(&t, s->req.confidence), change,
					change_hi, s->req.min_effect);
		if (strcmp(v, "regression")) {
			s->ans.verdict = v;
			if (!strcmp(v, "no-regression"))
				snprintf(s->ans.message, sizeof(s->ans.message),
					 "no %s regression of %.0f%% or more between %.12s and %.12s: "
					 "the change is %+.1f%%, at most %+.1f%% (%.0f%% confidence; "
					 "median %.4g -> %.4g %s, Mann-Whitney p = %.3g)",
					 flame_metric_name(s->req.metric), 100 * s->req.min_effect,
					 s->ans.good, s->ans.bad, 100 * change, 100 * change_hi,
					 100 * s->req.confidence, g, s->ans.metric_med[1],
					 flame_metric_unit(s->req.metric), s->ans.metric_p);
			else
				snprintf(s->ans.message, sizeof(s->ans.message),
					 "undecided: the %s changed by %+.1f%% (up to %+.1f%% at %.0f%% "
					 "confidence, Mann-Whitney p = %.3g), neither a significant "
					 "change of %.0f%% or more nor shown to be below it; measure "
					 "more runs (--repeat, --max-repeat), on a quieter machine, or a "
					 "longer workload (--loop N)", flame_metric_name(s->req.metric),
					 100 * change, 100 * change_hi, 100 * s->req.confidence,
					 s->ans.metric_p, 100 * s->req.min_effect);
			flame_step_write_profiles(s);
			flame_step_rank_hotspots(s);
			/*
			 * The total is undecided but one repository function's
			 * share moved far beyond its noise: say so, and with
			 * --force-narrow bisect on it.
			 */
			if (!strcmp(v, "inconclusive") && s->ans.hot.nr &&
			    flame_share_shift_notable(s->ans.hot.items[0].delta_self,
						      s->ans.hot.items[0].se_self)) {
				const struct flame_hotspot *h = &s->ans.hot.items[0];
				size_t len = strlen(s->ans.message);

				note("confirm: the total is undecided, but %s's share rose %.1f%% -> "
				     "%.1f%% (%+.1f pp, z = %.1f)%s", h->name, 100 * h->good_self.mean,
				     100 * h->bad_self.mean, 100 * h->delta_self,
				     h->delta_self / h->se_self, s->req.force_narrow ?
				     "; --force-narrow: bisecting on it" :
				     "; --force-narrow bisects on it");
				if (s->req.force_narrow) {
					s->ans.verdict = NULL;
					s->ans.message[0] = '\0';
					goto target;
				}
				snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
					 "; %s's share rose %+.1f pp (z = %.0f): --force-narrow "
					 "bisects on it", h->name, 100 * h->delta_self,
					 h->delta_self / h->se_self);
			}
			ret = strcmp(v, "no-regression") ? FLAME_EXIT_INCONCLUSIVE : FLAME_EXIT_NO_REGRESSION;
			goto report;
		}
	}
	if (flame_step_write_profiles(s))
		goto out;
	flame_step_rank_hotspots(s);
target:
	if (flame_step_target(s)) {
		ret = FLAME_EXIT_INCONCLUSIVE;
		goto report;
	}
	if (flame_step_narrow(s))
		goto out;
	if (flame_repo_commit(&s->st.repo, s->ans.culprit, &s->ans.culprit_info))
		goto out;
	flame_step_changed_function(s);
	if (s->ans.function && s->ans.changed_function &&
	    strcmp(s->ans.function, s->ans.changed_function))
		note("narrow: time rose in %s%s%s%s; the suspect commit changed %s, not %s itself "
		     "(a function it calls, or data it works on)", s->ans.function,
		     s->ans.frame ? " (" : "", s->ans.frame ? s->ans.frame : "", s->ans.frame ? ")" : "",
		     s->ans.changed_function, s->ans.function);
	flame_step_merge(s);
	flame_step_recommend(s);
	if (flame_split_confirmed(&s->ans.confirm_slow, &s->ans.confirm_fast,
				  s->ans.suspect_confidence)) {
		s->ans.verdict = "regression";
		if (!s->ans.function && s->ans.blocked_function)
			snprintf(s->ans.message, sizeof(s->ans.message), "%.12s made the workload "
				 "spend more time off-CPU, in %s", s->ans.culprit,
				 s->ans.blocked_function);
		else
			snprintf(s->ans.message, sizeof(s->ans.message), "%.12s made %s slower",
				 s->ans.culprit, s->ans.function ? s->ans.function :
				 flame_metric_name(s->req.metric));
		if (s->ans.culprit_is_merge) {
			size_t len = strlen(s->ans.message), i;

			snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
				 " (a merge; of the commits it merged, %zu touched the function%s",
				 s->ans.merged.nr, s->ans.merged.nr ? ":" : "");
			for (i = 0; i < s->ans.merged.nr && i < 5; i++) {
				len = strlen(s->ans.message);
				snprintf(s->ans.message + len, sizeof(s->ans.message) - len, " %.12s",
					 s->ans.merged.items[i]);
			}
			len = strlen(s->ans.message);
			snprintf(s->ans.message + len, sizeof(s->ans.message) - len, "%s)",
				 s->ans.merged.nr > 5 ? " ..." : "");
		}
		ret = FLAME_EXIT_FOUND;
	} else {
		s->ans.verdict = "inconclusive";
		snprintf(s->ans.message, sizeof(s->ans.message),
			 "re-probing %.12s and its parent did not reproduce the fast/slow split",
			 s->ans.culprit);
		ret = FLAME_EXIT_INCONCLUSIVE;
	}
report:
	s->ans.seconds = clock_monotonic() - t0;
	if (flame_report_write(s))
		ret = FLAME_EXIT_FAILURE;
out:
	free(dirs[0]);
	free(dirs[1]);
	return ret;
}

void flame_session_release(struct flame_session *s)
{
	size_t i, k;
	int side;

	for (side = 0; side < 2; side++) {
		for (k = 0; k < s->st.nruns[side]; k++)
			flame_run_release(&s->st.runs[side][k]);
		free(s->st.runs[side]);
	}
	flame_hotspots_release(&s->ans.hot);
	for (i = 0; i < s->ans.nsuspects; i++)
		flame_commit_release(&s->ans.suspects[i].commit);
	free(s->ans.suspects);
	free(s->ans.probes);
	free(s->ans.function);
	free(s->ans.frame);
	free(s->ans.def_file);
	free(s->ans.changed_function);
	free(s->ans.blocked_function);
	flame_commit_release(&s->ans.culprit_info);
	string_list_clear(&s->st.range);
	string_list_clear(&s->ans.ambiguous);
	string_list_clear(&s->ans.merged);
	string_list_clear(&s->st.exclude);
	if (s->st.scratch && s->req.keep)
		tempdir_keep(s->st.scratch);	/* or the exit-time cleanup removes it */
	else if (s->st.scratch)
		tempdir_remove(s->st.scratch);
	free(s->st.scratch);
	flame_repo_release(&s->st.repo);
}
