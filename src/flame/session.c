/*
 * session.c - one trail flame investigation (see session.h): open the
 * private clone, resolve the range, then the steps in order (each step's header),
 * each announcing itself on stderr; stdout gets only the command's answer
 * lines.  The user's repository is read, never written.
 */
#include "flame/session.h"
#include "core/verdict.h"
#include "measure/source_name.h"
#include "flame/decide.h"
#include "flame/estimate.h"
#include "flame/report.h"
#include "flame/report_facts.h"
#include "flame/confirm.h"
#include "flame/culprits.h"
#include "flame/ends.h"
#include "flame/hotdiff.h"
#include "flame/fleet.h"
#include "flame/narrow.h"
#include "flame/session_query.h"
#include "flame/suspects.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/strbuf.h"

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
	s->req.measure_time = 1;
	s->req.profiler = "trail";
	s->req.remote_trail = "trail";
}

void flame_session_set_outcome(struct flame_session *s, enum trail_verdict o)
{
	s->ans.outcome = o;
}

int flame_outcome_exit(enum trail_verdict o)
{
	switch (o) {
	case VERDICT_REGRESSION: return FLAME_EXIT_FOUND;
	case VERDICT_SMALL_REGRESSION: return FLAME_EXIT_SMALL_REGRESSION;
	case VERDICT_NO_REGRESSION: return FLAME_EXIT_NO_REGRESSION;
	default: return FLAME_EXIT_INCONCLUSIVE;
	}
}

/* The message of a verdict on the total that ends the session. */
static void describe_total(struct flame_session *s)
{
	const struct flame_interval *iv = &s->ans.ends.change_iv;
	const char *metric = flame_metric_name(s->req.metric);
	char stat[32];
	double level = 100 * (1 - iv->alpha);

	if (s->req.percentile != 50)
		snprintf(stat, sizeof(stat), "p%g ", s->req.percentile);
	else
		snprintf(stat, sizeof(stat), "%s", "");
	switch (s->ans.outcome) {
	case VERDICT_SMALL_REGRESSION:
		snprintf(s->ans.message, sizeof(s->ans.message),
			 "%s%s regression of %+.1f%% [%+.1f%%, %+.1f%%] (%.1f%% interval, %zu ABBA "
			 "pairs), below the %g%% minimum: reported, not narrowed (--force-narrow "
			 "narrows it)", stat, metric, 100 * iv->estimate, 100 * iv->lo, 100 * iv->hi,
			 level, iv->n, 100 * s->req.min_effect);
		break;
	case VERDICT_NO_REGRESSION:
		snprintf(s->ans.message, sizeof(s->ans.message),
			 "no %s%s regression of %.0f%% or more between %.12s and %.12s: the change is "
			 "%+.1f%% [%+.1f%%, %+.1f%%] (%.1f%% interval, %zu ABBA pairs)", stat, metric,
			 100 * s->req.min_effect, s->ans.ends.good, s->ans.ends.bad, 100 * iv->estimate,
			 100 * iv->lo, 100 * iv->hi, level, iv->n);
		break;
	default:
		if (!iv->n) {
			snprintf(s->ans.message, sizeof(s->ans.message), "undecided: the runs give "
				 "no %s ratio (a zero or missing value)", metric);
			break;
		}
		snprintf(s->ans.message, sizeof(s->ans.message),
			 "undecided: the %s%s changed by %+.1f%% [%+.1f%%, %+.1f%%] (%.1f%% interval, "
			 "%zu ABBA pairs), neither above 0 nor wholly below the %.0f%% minimum; these "
			 "runs detect %+.1f%% (80%% power), about %zu pairs would detect %.0f%%: raise "
			 "--max-repeat or --budget, use a quieter machine or a longer workload "
			 "(--loop N)%s", stat, metric, 100 * iv->estimate, 100 * iv->lo, 100 * iv->hi,
			 level, iv->n, 100 * s->req.min_effect, 100 * flame_min_detectable(iv, 0.8),
			 flame_pairs_needed(iv, s->req.min_effect, 0.8), 100 * s->req.min_effect,
			 iv->n < flame_percentile_min_runs(s->req.percentile) ?
			 "; too few runs for this percentile to decide either way" : "");
		/* The middle did not move, the distribution did: a tail change. */
		if (s->req.percentile == 50 && s->ans.ends.metric_ks_p < iv->alpha) {
			size_t len = strlen(s->ans.message);

			snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
				 "; the distributions differ (Kolmogorov-Smirnov p = %.3g): a change "
				 "in the tail? try --percentile 99 --max-repeat 100",
				 s->ans.ends.metric_ks_p);
		}
		break;
	}
}

/*
 * Open the repository, resolve good and bad (good must be an ancestor),
 * list the range and make the scratch directory: 0, or an exit status.
 */
static int session_open(struct flame_session *s)
{
	char token[64];
	int is_anc;

	/*
	 * Every child (builds, trail record, the workload, git bisect run and
	 * its probes) in one process group, killed when this process is
	 * signalled or exits: nothing of this run outlives it.
	 */
	if (child_group_begin())
		return FLAME_EXIT_FAILURE;
	/* Build failures are remembered for this run only (measure/repo.h). */
	snprintf(token, sizeof(token), "%ld.%.0f", (long)getpid(), 1e6 * clock_monotonic());
	setenv(FLAME_RUN_ENV, token, 1);
	if (flame_repo_open(&s->st.repo, s->req.dir, s->req.cache_root))
		return FLAME_EXIT_FAILURE;
	if (flame_repo_resolve(&s->st.repo, "--good", s->req.good_rev, s->ans.ends.good) ||
	    flame_repo_resolve(&s->st.repo, "--bad", s->req.bad_rev, s->ans.ends.bad))
		return FLAME_EXIT_FAILURE;
	is_anc = flame_repo_is_ancestor(&s->st.repo, s->ans.ends.good, s->ans.ends.bad);
	if (is_anc < 0)
		return FLAME_EXIT_FAILURE;
	if (!is_anc || !strcmp(s->ans.ends.good, s->ans.ends.bad)) {
		trail_error("the good revision %.12s is not an ancestor of the bad revision %.12s",
		      s->ans.ends.good, s->ans.ends.bad);
		return FLAME_EXIT_USAGE;
	}
	if (flame_repo_range(&s->st.repo, s->ans.ends.good, s->ans.ends.bad, &s->st.range))
		return FLAME_EXIT_FAILURE;
	s->ans.ends.commits_in_range = s->st.range.nr;
	s->st.scratch = tempdir_create("trail-flame");
	if (!s->st.scratch)
		return FLAME_EXIT_FAILURE;
	return 0;
}

/*
 * Which profiles (off-CPU ones when asked and possible), whether their
 * profiler can sample here, and the scope note: 0, or -1 when it cannot.
 */
static int session_scope(struct flame_session *s)
{
	struct flame_capture_opts o;
	char what[300], prof[400];

	if (s->req.metric == FLAME_METRIC_OFFCPU) {
		/* Off-CPU profiles show where the time went; without them, CPU ones. */
		char why[200];

		o = flame_session_capture_opts(s);
		if (!flame_capture_offcpu_check(&o, why, sizeof(why)))
			s->ans.ends.offcpu_profile = 1;
		else
			note("scope: off-CPU profiles are not available here ('trail record -e "
			     "offcpu': %s); capturing CPU profiles instead, and the report names "
			     "the function the suspect commit changed", why);
	}
	o = flame_session_capture_opts(s);
	if (!s->ans.ends.offcpu_profile) {
		if (flame_capture_check(&o))
			return -1;
		if (flame_profile_counts_memory(&o))
			note("scope: profiles of %s; the diff and the bisection use their shares "
			     "as CPU shares are used", flame_profile_describe(&o, what, sizeof(what)));
	}
	flame_profiler_describe(&o, prof, sizeof(prof));
	note("scope: metric %s%s, profiler %s, %zu commits in %.12s..%.12s",
	     flame_metric_name(s->req.metric),
	     s->req.metric == FLAME_METRIC_WALL && s->req.percentile != 50 ? " (percentile)" : "",
	     prof, s->st.range.nr, s->ans.ends.good, s->ans.ends.bad);
	return 0;
}

/* What follows the verdict on the total. */
enum after_total {
	NARROW,		/* a regression: diff the ends and narrow */
	NARROW_ON_SHARE,	/* undecided, --force-narrow on a share that moved: narrow */
	REPORT,		/* the verdict stands: report it */
};

/*
 * The ends' verdict on the total (and, for the cpu metric, whether only
 * the wall time rose): anything but a regression is the session's answer,
 * reported with the profiles and hotspots (*ret its exit status), unless
 * --force-narrow asks to narrow a small regression or a share that moved.
 */
static enum after_total decide_total(struct flame_session *s, int *ret)
{
	const struct flame_interval *iv = &s->ans.ends.change_iv;
	enum trail_verdict v;

	if (!flame_step_confirm(s) && s->req.metric == FLAME_METRIC_CPU &&
	    flame_step_wall_regressed(s)) {
		flame_session_set_outcome(s, VERDICT_INCONCLUSIVE);
		flame_step_write_profiles(s);
		flame_step_rank_hotspots(s);
		*ret = FLAME_EXIT_INCONCLUSIVE;
		return REPORT;
	}
	v = s->ans.ends.ends_outcome;
	s->ans.ends.change = iv->estimate;
	s->ans.ends.change_hi = iv->hi;
	if (v == VERDICT_SMALL_REGRESSION && s->req.force_narrow) {
		note("confirm: the %s rose %+.1f%% [%+.1f%%, %+.1f%%], below the %.0f%% "
		     "minimum; --force-narrow: narrowing it", flame_metric_name(s->req.metric),
		     100 * iv->estimate, 100 * iv->lo, 100 * iv->hi, 100 * s->req.min_effect);
		v = VERDICT_REGRESSION;
	}
	if (v == VERDICT_REGRESSION) {
		struct strbuf sb = STRBUF_INIT;

		/* narrowed on the estimate; the minimum claimed only by the interval */
		flame_report_min_effect_text(s, &sb);
		note("confirm: the %s changed by %s", flame_metric_name(s->req.metric), sb.buf);
		strbuf_release(&sb);
		return NARROW;
	}
	flame_session_set_outcome(s, v);
	describe_total(s);
	flame_step_write_profiles(s);
	flame_step_rank_hotspots(s);
	/*
	 * The total is undecided but one repository function's share moved
	 * far beyond its noise: say so, and with --force-narrow bisect on it.
	 */
	if (v == VERDICT_INCONCLUSIVE && s->ans.target.hot.nr &&
	    flame_share_shift_notable(s->ans.target.hot.items[0].delta_self,
				      s->ans.target.hot.items[0].se_self)) {
		const struct flame_hotspot *h = &s->ans.target.hot.items[0];
		size_t len = strlen(s->ans.message);

		note("confirm: the total is undecided, but %s's share rose %.1f%% -> "
		     "%.1f%% (%+.1f pp, z = %.1f)%s", h->name, 100 * h->good_self.mean,
		     100 * h->bad_self.mean, 100 * h->delta_self,
		     h->delta_self / h->se_self, s->req.force_narrow ?
		     "; --force-narrow: bisecting on it" :
		     "; --force-narrow bisects on it");
		if (s->req.force_narrow) {
			flame_session_set_outcome(s, VERDICT_NONE);
			s->ans.message[0] = '\0';
			return NARROW_ON_SHARE;
		}
		snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
			 "; %s's share rose %+.1f pp (z = %.0f): --force-narrow "
			 "bisects on it", h->name, 100 * h->delta_self,
			 h->delta_self / h->se_self);
	}
	*ret = flame_outcome_exit(v);
	return REPORT;
}

/* The answer's message once the suspect is confirmed: what it made slower, and how. */
static void describe_culprit(struct flame_session *s)
{
	if (!s->ans.target.function && s->ans.target.blocked_function)
		snprintf(s->ans.message, sizeof(s->ans.message), "%.12s made the workload "
			 "spend more time off-CPU, in %s", s->ans.narrow.culprit,
			 s->ans.target.blocked_function);
	else
		snprintf(s->ans.message, sizeof(s->ans.message), "%.12s made %s slower",
			 s->ans.narrow.culprit, s->ans.target.function ? s->ans.target.function :
			 flame_metric_name(s->req.metric));
	flame_culprits_message(s);
	if (s->ans.narrow.reverted.nr) {
		size_t len = strlen(s->ans.message);

		snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
			 " (it relands %.12s, which a later commit reverted)",
			 s->ans.narrow.reverted.items[s->ans.narrow.reverted.nr - 1]);
	}
	if (s->ans.fix.is_merge) {
		size_t len = strlen(s->ans.message), i;

		if (s->ans.fix.merged_file)
			snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
				 " (a merge of %zu commits; %zu changed the function's lines%s",
				 s->ans.fix.merged_total, s->ans.fix.merged.nr, s->ans.fix.merged.nr ? ":" : "");
		else if (flame_session_named_function(s))
			snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
				 " (a merge of %zu commits; the function is not the repository's",
				 s->ans.fix.merged_total);
		else
			snprintf(s->ans.message + len, sizeof(s->ans.message) - len,
				 " (a merge of %zu commits%s", s->ans.fix.merged_total,
				 s->ans.fix.merged.nr ? ":" : "");
		for (i = 0; i < s->ans.fix.merged.nr && i < 5; i++) {
			len = strlen(s->ans.message);
			snprintf(s->ans.message + len, sizeof(s->ans.message) - len, " %.12s",
				 s->ans.fix.merged.items[i]);
		}
		len = strlen(s->ans.message);
		snprintf(s->ans.message + len, sizeof(s->ans.message) - len, "%s)",
			 s->ans.fix.merged.nr > 5 ? " ..." : "");
	}
}

/*
 * From the ranked hotspots to the answer: the target, the narrowing, the
 * culprits, the function the suspect changed, merges and the
 * recommendation.  The exit status to report, or -1 when a step failed
 * (nothing to report).
 */
static int narrow_to_culprit(struct flame_session *s)
{
	char ex[FLAME_EXPLAINS_TEXT];

	if (flame_step_target(s)) {
		flame_session_set_outcome(s, VERDICT_INCONCLUSIVE);
		return FLAME_EXIT_INCONCLUSIVE;
	}
	switch (flame_step_narrow(s)) {
	case 0:
		break;
	case 1:
		flame_session_set_outcome(s, VERDICT_INCONCLUSIVE);
		return FLAME_EXIT_INCONCLUSIVE;
	default:
		return -1;
	}
	if (flame_step_culprits(s))
		return -1;
	if (flame_repo_commit(&s->st.repo, s->ans.narrow.culprit, &s->ans.narrow.culprit_info))
		return -1;
	flame_step_changed_function(s);
	if (s->ans.target.function && s->ans.suspects.changed_function &&
	    !flame_same_source_name(s->ans.target.function, s->ans.suspects.changed_function))
		note("narrow: time rose in %s%s%s%s; the suspect commit changed %s, not %s itself "
		     "(a function it calls, or data it works on)", s->ans.target.function,
		     s->ans.target.frame ? " (" : "", s->ans.target.frame ? s->ans.target.frame : "", s->ans.target.frame ? ")" : "",
		     s->ans.suspects.changed_function, s->ans.target.function);
	flame_step_merge(s);
	flame_step_recommend(s);
	if (flame_split_confirmed(&s->ans.narrow.pair) || s->ans.culprits.split) {
		flame_session_set_outcome(s, VERDICT_REGRESSION);
		describe_culprit(s);
		return FLAME_EXIT_FOUND;
	}
	flame_session_set_outcome(s, VERDICT_INCONCLUSIVE);
	/* no commit in the headline: the range and what would decide it */
	flame_explains_format(&s->ans.narrow.pair.step, ex, sizeof(ex));
	snprintf(s->ans.message, sizeof(s->ans.message),
		 "the change is real; the search ended at %.12s, but beside its parent it did "
		 "not show a step explaining at least half of the change (%s): no commit is "
		 "named; more runs per probe (--probe-max-runs), a quieter machine or a longer "
		 "workload would decide", s->ans.narrow.culprit, ex);
	return FLAME_EXIT_INCONCLUSIVE;
}

int flame_session_run(struct flame_session *s)
{
	char *dirs[2] = { NULL, NULL };
	double t0 = clock_monotonic();
	int ret = session_open(s);

	if (ret)
		return ret;
	if (session_scope(s))
		return FLAME_EXIT_FAILURE;
	ret = FLAME_EXIT_FAILURE;
	if (flame_step_build(s, dirs) || flame_step_capture(s, dirs))
		goto out;
	switch (decide_total(s, &ret)) {
	case REPORT:
		goto report;
	case NARROW:
		if (flame_step_write_profiles(s))
			goto out;
		flame_step_rank_hotspots(s);
		break;
	case NARROW_ON_SHARE:
		break;
	}
	ret = narrow_to_culprit(s);
	if (ret < 0) {
		ret = FLAME_EXIT_FAILURE;
		goto out;
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
	flame_hotspots_release(&s->ans.target.hot);
	for (i = 0; i < s->ans.suspects.count; i++)
		flame_commit_release(&s->ans.suspects.list[i].commit);
	free(s->ans.suspects.list);
	free(s->ans.narrow.probes);
	flame_culprits_release(&s->ans.culprits);
	free(s->ans.target.function);
	free(s->ans.target.frame);
	free(s->ans.suspects.def_file);
	free(s->ans.suspects.def_macro_file);
	free(s->ans.fix.merged_file);
	flame_revert_check_release(&s->ans.fix.revert);
	flame_revert_check_release(&s->ans.fix.revert_all);
	flame_revert_check_release(&s->ans.fix.revert_later);
	free(s->ans.suspects.changed_function);
	free(s->ans.target.blocked_function);
	flame_commit_release(&s->ans.narrow.culprit_info);
	string_list_clear(&s->st.range);
	string_list_clear(&s->ans.narrow.ambiguous);
	string_list_clear(&s->ans.narrow.reverted);
	string_list_clear(&s->ans.fix.merged);
	string_list_clear(&s->st.exclude);
	string_list_clear(&s->st.touching);
	flame_defs_release(&s->st.defs);
	flame_fleet_release(s);
	if (s->st.scratch && s->req.keep)
		tempdir_keep(s->st.scratch);	/* or the exit-time cleanup removes it */
	else if (s->st.scratch)
		tempdir_remove(s->st.scratch);
	free(s->st.scratch);
	flame_repo_release(&s->st.repo);
}
