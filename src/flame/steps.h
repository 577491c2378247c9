/*
 * steps.h - the steps of one trail flame session, each in its own file and
 * each reading the request and state and filling the answer of struct
 * flame_session (session.h).  flame_session_run() calls them in this order;
 * their decisions are the pure functions of decide.h.
 */
#ifndef TRAIL_FLAME_STEPS_H
#define TRAIL_FLAME_STEPS_H

#include "flame/session.h"

/* How the workload is captured: the probe request's capture (session_query.c). */
struct flame_capture_opts flame_session_capture_opts(const struct flame_session *s);
/* Position of commit id in the range (oldest first), -1 when outside. */
int flame_session_range_index(const struct flame_session *s, const char *id);
/*
 * The request of a probe of the measure the narrowing uses (its function's
 * share or samples, else the metric at --percentile) against ans.threshold,
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

/* ends.c: build both ends (dirs[0] good, dirs[1] bad; caller frees); 0 or -1. */
int flame_step_build(struct flame_session *s, char *dirs[2]);
/* ends.c: run the workload at both ends until decided or at --max-repeat. */
int flame_step_capture(struct flame_session *s, char *dirs[2]);
/* ends.c: one ABBA pair of runs into s->st.runs (pr: progress, or NULL); 0 or -1. */
struct flame_capture_opts;
struct progress;
int flame_ends_run_pair(struct flame_session *s, const struct flame_capture_opts *o, char *dirs[2],
			struct progress *pr);

/*
 * ends.c: the change between the ends from their first n pairs at alpha
 * (the paired log ratio, or the --percentile's bootstrap); 0 or -1.
 */
int flame_ends_interval(const struct flame_session *s, size_t n, double alpha,
			struct flame_interval *iv);
#define FLAME_BOOTSTRAP_RESAMPLES 2000
#define FLAME_BOOTSTRAP_SEED 0x666c616d65ULL

/* confirm.c: fill the metric's statistics; 1 when the bad end is significantly worse. */
int flame_step_confirm(struct flame_session *s);
/* confirm.c: CPU unchanged but wall time rose: 1 and the message says so. */
int flame_step_wall_regressed(struct flame_session *s);

/* hotdiff.c: folded profiles and flame graphs into the report directory. */
int flame_step_write_profiles(struct flame_session *s);
/* hotdiff.c: rank the functions whose share rose (off-CPU: blocked longer). */
void flame_step_rank_hotspots(struct flame_session *s);
/*
 * hotdiff.c: choose what to bisect on (the hot function's share, or the
 * metric) and the threshold; 0, or 1 when there is nothing to bisect on
 * (the verdict and message are then set).
 */
int flame_step_target(struct flame_session *s);

/* suspects.c: the commits of the range that touched func or its callees. */
void flame_step_find_suspects(struct flame_session *s, const char *func);
/* suspects.c: the function the culprit commit changed (flat profiles). */
void flame_step_changed_function(struct flame_session *s);
/*
 * suspects.c: a culprit that is a merge: list the commits it brought in
 * that touched the named function (the change itself may not build alone).
 */
void flame_step_merge(struct flame_session *s);
/* suspects.c: revert or patch the culprit. */
void flame_step_recommend(struct flame_session *s);

/*
 * narrow.c: the suspects did not explain the change: forget their culprit
 * and bisect the whole range on the same measure and threshold.
 */
void flame_step_narrow_restart(struct flame_session *s);
/*
 * narrow.c: was ans.culprit reverted later in the range?  git revert's own
 * words ("This reverts commit <id>.") or its subject (Revert "<subject>")
 * in a commit of culprit..bad: its level then does not persist to the bad
 * end (landed, reverted, relanded).  revert gets the newest such commit;
 * 1 found, 0 not, -1 error.
 */
int flame_find_revert(struct flame_session *s, char revert[41]);
/*
 * narrow.c: find the culprit and the confidence of its split; 0, -1 on
 * error, 1 when the probes could not decide (the message gives the
 * narrowest range they established).
 */
int flame_step_narrow(struct flame_session *s);

/*
 * culprits.c: every culprit: segment the measure on both sides of the
 * confirmed suspect and each other function whose time rose along the
 * range (segment.h); fills ans.culprits (the suspect first) and
 * ans.culprits_split.  0, -1 on error.
 */
int flame_step_culprits(struct flame_session *s);
/* culprits.c: append the culprits besides the suspect to ans.message. */
void flame_culprits_message(struct flame_session *s);
void flame_culprits_release(struct flame_answer *a);

#endif
