/*
 * session.h - one 'trail flame' investigation, from good/bad revisions to
 * a suspect commit: SCOPE (metric), CAPTURE (build + profile both ends),
 * CONFIRM and DIFF (significance, hotspots, flame graphs), NARROW
 * (suspects, then bisect or direct probing) and REPORT.  The command file
 * fills the request, calls flame_session_run() and prints from the answer;
 * the steps live in ends.c, confirm.c, hotdiff.c, suspects.c, narrow.c
 * (declared in steps.h) and their decisions in decide.c.
 */
#ifndef TRAIL_FLAME_SESSION_H
#define TRAIL_FLAME_SESSION_H

#include "core/exit_codes.h"
#include "core/verdict.h"
#include "core/string_list.h"
#include "measure/capture.h"
#include "measure/definition.h"
#include "flame/estimate.h"
#include "flame/fleet.h"
#include "flame/probe.h"
#include "measure/repo.h"
#include "measure/revert_check.h"
#include "flame/shares.h"

/* Exit statuses of 'trail flame': the program's table (core/exit_codes.h). */
enum flame_exit {
	FLAME_EXIT_FOUND = EXIT_OK,
	FLAME_EXIT_FAILURE = EXIT_FAILURE_,
	FLAME_EXIT_USAGE = EXIT_USAGE,
	FLAME_EXIT_NO_REGRESSION = EXIT_NO_REGRESSION,
	FLAME_EXIT_INCONCLUSIVE = EXIT_INCONCLUSIVE,
	FLAME_EXIT_SMALL_REGRESSION = EXIT_SMALL_REGRESSION,
};

/* One commit that explains a real part of the change (culprits.c). */
struct flame_culprit {
	char id[41];
	char *function;			/* its measure's function; NULL: the session's */
	char *frame;			/* where its time is spent; NULL: the session's */
	char *subject;			/* NULL for the suspect (culprit_info has it) */
	struct flame_step_assessment step;	/* beside its parent, against its measure's change */
	double confidence;		/* P(step > 0) */
	double unit_ms;			/* ms of CPU time per run per unit of step; 0: not a time */
};

struct flame_suspect {
	struct flame_commit commit;
	int touches_function;	/* git log -L of the hot function names it */
};

/* What the user asked: the command line, parsed; read-only once running. */
struct flame_request {
	const char *dir;		/* inside the user's repository */
	const char *good_rev, *bad_rev;
	const char *build_cmd, *run_cmd;
	const char *out_dir;		/* report directory */
	const char *cache_root;		/* NULL: default */
	const char *strategy;		/* "auto", "bisect" or "suspects" */
	const char *trail_exe;		/* this binary, for git bisect run */
	const char *profiler;		/* "trail" (trail record) or "perf" */
	const char *command_line;	/* as typed, for "reproduce" */
	enum flame_metric metric;
	double percentile;		/* wall: 50 or 99 ... */
	unsigned repeat;		/* first runs per end; 0 = 5 */
	unsigned max_repeat;		/* runs per end at most while undecided; 0 = max(15, repeat) */
	unsigned warmup_runs;
	unsigned freq;			/* Hz */
	unsigned long long alloc_interval;	/* bytes per sampled allocation, 0 = default */
	unsigned probe_runs, probe_max_runs;
	int exact_defaults;		/* probe runs and --min-effect are a counted metric's
					 * defaults (exact.c puts the runs back if counts vary) */
	double discard;			/* fraction */
	double min_delta, confirm;	/* fractions (1 and 2 points by default) */
	double min_effect;		/* smallest change of the metric that counts, fraction */
	double budget;			/* seconds the ends' runs may take while undecided */
	double confidence;		/* e.g. 0.95 */
	double build_timeout;		/* seconds per build, 0 = none */
	double run_timeout;		/* seconds per run of the workload, 0 = none */
	int keep;
	int force_narrow;		/* bisect on a notable share shift when the total is undecided */
	int measure_share;		/* bisect on the (relative) share, not samples per run */
	int measure_time;		/* bisect on the function's CPU time (default; shares.h) */
	const struct flame_hosts *hosts;	/* probe slots (--hosts, --jobs), or NULL */
	const char *remote_trail;	/* trail on the hosts ("trail": on their PATH) */
	const char *remote_repo;	/* hosts fetch from this URL, NULL: a git bundle */
};

/* Working data of the steps; not shown in the report as such. */
struct flame_state {
	struct flame_repo repo;
	char *scratch;
	struct flame_run *runs[2];	/* [0] good, [1] bad */
	size_t nruns[2], runs_alloc[2];
	struct string_list exclude;	/* other changed functions, left out of the share */
	struct string_list range;	/* good..bad, oldest first */
	unsigned confirmations_planned;	/* suspect/parent re-probes that may run (alpha split) */
	struct flame_fleet *fleet;	/* the hosts' state once set up (fleet.c) */
	struct flame_defs defs;		/* the bad build's functions (definition.h) */
	struct string_list touching;	/* commits in good..bad whose diff touches the
					 * function's definition range (git log -L) */
};

/* What the report (report.h) and the command's three lines show. */
struct flame_answer {
	char good[41], bad[41];
	size_t commits_in_range;
	double metric_p;		/* Mann-Whitney p-value good vs bad */
	double metric_ks_p;		/* Kolmogorov-Smirnov p-value: the whole distribution */
	double metric_med[2], metric_lo[2], metric_hi[2];
	double change, change_hi;	/* bad/good - 1 and its interval's upper end */
	struct flame_interval change_iv;	/* the change and its interval (estimate.h) */
	enum trail_verdict outcome;	/* the session's verdict (trail_verdict_name());
					 * NONE until flame_session_set_outcome() */
	enum trail_verdict ends_outcome;	/* the ends' interval's verdict on the total (ends.c) */
	unsigned looks;			/* looks the ends' sequential design took */
	double alpha_look;		/* two-sided alpha of the last look */
	double share_se[2];		/* standard error of share[], good and bad */
	struct flame_hotspots hot;
	char *function;			/* what was bisected on, NULL = the metric */
	char *frame;			/* where its extra time is spent: a library or
					 * kernel frame under it, or NULL (function itself) */
	int measure_total;		/* function's inclusive share is bisected on */
	int measure_share;		/* its share (1) or its samples per run (0) */
	int measure_time;		/* its CPU time per run, ms (wins over share) */
	double time_unit_ms;		/* ms of CPU time per run per unit of the measure:
					 * 1 for a time, 0 for a share or samples */
	char *changed_function;		/* flat profile: the function the suspect changed */
	int offcpu_profile;		/* the profiles are off-CPU ones (--metric offcpu) */
	char *blocked_function;		/* offcpu: the function whose blocked share rose most */
	double blocked_ms[2];		/* its blocked time per run, good and bad, ms */
	char *def_file;			/* where function is defined (may be NULL) */
	unsigned def_line, def_end;	/* its lines, inclusive (definition.h) */
	int def_from_dwarf;		/* found in the bad build's DWARF */
	double share[2];		/* what is bisected on, at good and bad */
	double threshold;
	struct flame_suspect *suspects;
	size_t nsuspects;
	const char *strategy_used;
	char strategy_reason[200];
	struct flame_probe_result *probes;
	size_t nprobes, probes_alloc;
	char culprit[41];
	int narrow_lo, narrow_hi;	/* undecided probes: the culprit lies in (lo, hi] of the range */
	struct flame_commit culprit_info;
	struct flame_probe_result confirm_slow, confirm_fast;
	double suspect_confidence;	/* P(step > 0): 1 - p of the pair's t test */
	struct flame_pair_result pair;	/* the suspect/parent re-probe (probe.h) */
	struct flame_culprit *culprits;	/* every culprit, the suspect first (culprits.c) */
	size_t nculprits, culprits_alloc;
	double cpu_ms[2];		/* the ends' mean CPU time per profiled run, ms */
	double cpu_change_se_ms;	/* the standard error of cpu_ms[1] - cpu_ms[0] */
	int culprits_split;		/* the culprits of the measure bisected on together
					 * explain at least half of its change */
	char confidence_how[800];
	struct string_list ambiguous;	/* untestable commits that could be it too */
	struct string_list reverted;	/* confirmed culprits reverted later in the range */
	int culprit_is_merge;		/* the culprit has two or more parents */
	struct string_list merged;	/* then: the commits it merged whose diff touches the
					 * function's definition lines (all, without a function) */
	size_t merged_total;		/* commits the merge brought in */
	char *merged_file;		/* the definition merged was read against; NULL: */
	unsigned merged_line, merged_end;	/* no function, or no definition found */
	struct flame_revert_check revert;	/* the suspect's revert, tried on top of bad */
	struct flame_revert_check revert_later;	/* when revert conflicts: with the later commits
						 * that touched the conflicting files */
	struct flame_revert_check revert_all;	/* every culprit's together (two or more) */
	const char *recommendation;
	char recommendation_reason[300];
	char message[400];		/* the one-line explanation of the verdict */
	int builds, cached_builds;
	double seconds;
	struct flame_fleet_report fleet;	/* rounds, slots, hosts (fleet.h) */
};

struct flame_session {
	struct flame_request req;
	struct flame_state st;
	struct flame_answer ans;
};

void flame_session_init(struct flame_session *s);
/* Set the session's verdict, ans.outcome. */
void flame_session_set_outcome(struct flame_session *s, enum trail_verdict o);
/* The exit status of a verdict (core/exit_codes.h). */
int flame_outcome_exit(enum trail_verdict o);
/* Run the investigation; returns an enum flame_exit value. */
int flame_session_run(struct flame_session *s);
void flame_session_release(struct flame_session *s);

#endif
