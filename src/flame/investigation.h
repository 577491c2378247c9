/*
 * investigation.h - the data of one trail flame investigation: what the
 * user asked (the request, read-only once running), the steps' working
 * state, and the answer (results.h).  The steps (ends.h, confirm.h,
 * hotdiff.h, suspects.h, narrow.h, culprits.h) read and write it;
 * session.h runs them in order.
 */
#ifndef TRAIL_FLAME_INVESTIGATION_H
#define TRAIL_FLAME_INVESTIGATION_H

#include "core/string_list.h"
#include "measure/capture.h"
#include "measure/definition.h"
#include "measure/metric.h"
#include "measure/repo.h"
#include "flame/results.h"

struct flame_hosts;
struct flame_fleet;

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

struct flame_session {
	struct flame_request req;
	struct flame_state st;
	struct flame_answer ans;
};

#endif
