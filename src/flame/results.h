/*
 * results.h - what each step of a trail flame investigation found, one
 * struct per step, and the answer that holds them: ends (ends.c, exact.c,
 * confirm.c), target (hotdiff.c), suspects (suspects.c), narrow (narrow.c,
 * fleet.c), culprits (culprits.c), fix (suspects.c: merge, revert,
 * recommendation) and fleet (fleet.c).  A step writes its own result and
 * reads the earlier ones; the report (report*.c) reads them all as const.
 */
#ifndef TRAIL_FLAME_RESULTS_H
#define TRAIL_FLAME_RESULTS_H

#include <stddef.h>

#include "core/string_list.h"
#include "core/verdict.h"
#include "flame/estimate.h"
#include "flame/probe.h"
#include "flame/shares.h"
#include "measure/repo.h"
#include "measure/revert_check.h"

/* The ends: the metric at good and bad, and the change between them. */
struct flame_ends_result {
	char good[41], bad[41];
	size_t commits_in_range;
	double metric_p;		/* Mann-Whitney p-value good vs bad */
	double metric_ks_p;		/* Kolmogorov-Smirnov p-value: the whole distribution */
	int exact_counts;		/* a counted metric whose ends repeated (exact.c): the
					 * change is a point and no test was made, so
					 * metric_p and metric_ks_p are NAN */
	double metric_med[2], metric_lo[2], metric_hi[2];
	double change, change_hi;	/* bad/good - 1 and its interval's upper end */
	struct flame_interval change_iv;	/* the change and its interval (estimate.h) */
	enum trail_verdict ends_outcome;	/* the ends' interval's verdict on the total */
	unsigned looks;			/* looks the ends' sequential design took */
	double alpha_look;		/* two-sided alpha of the last look */
	int offcpu_profile;		/* the profiles are off-CPU ones (--metric offcpu) */
	int builds, cached_builds;
};

/* The target: what the narrowing measures, and why (hotdiff.c). */
struct flame_target_result {
	struct flame_hotspots hot;
	char *function;			/* what was bisected on, NULL = the metric */
	char *frame;			/* where its extra time is spent: a library or
					 * kernel frame under it, or NULL (function itself) */
	int measure_lib;		/* function with the library and kernel code under it
					 * (stacks cut at the repository's frames) is bisected on */
	int measure_share;		/* its share (1) or its samples per run (0) */
	int measure_time;		/* its CPU time per run, ms (wins over share) */
	double time_unit_ms;		/* ms of CPU time per run per unit of the measure:
					 * 1 for a time, 0 for a share or samples */
	double share[2];		/* what is bisected on, at good and bad */
	double share_se[2];		/* standard error of share[], good and bad */
	double threshold;		/* the probes' fast/slow line (decide.h) */
	int log_scale;			/* the measure scales with the machine's load (a
					 * time, samples per run): threshold and the part a
					 * step explains are taken on the log scale */
	int diff_by_time;		/* diff.svg compares time per run (else shares) */
	char *blocked_function;		/* offcpu: the function whose blocked share rose most */
	double blocked_ms[2];		/* its blocked time per run, good and bad, ms */
};

struct flame_suspect {
	struct flame_commit commit;
	int touches_function;	/* git log -L of the hot function names it */
};

/* The suspects: the commits that touched the function (suspects.c). */
struct flame_suspects_result {
	struct flame_suspect *list;
	size_t count;
	char *def_file;			/* where the function is defined (may be NULL) */
	unsigned def_line, def_end;	/* its lines, inclusive (definition.h) */
	int def_from_dwarf;		/* found in the bad build's DWARF */
	int def_by_macro;		/* made by a macro: the lines are its invocation */
	char *def_macro_file;		/* ... and that macro's #define (NULL: not found) */
	unsigned def_macro_line, def_macro_end;	/* its lines: the suspects follow them too */
	char *changed_function;		/* flat profile: the function the suspect changed */
};

/* The narrowing: probes, the culprit and how sure (narrow.c, fleet.c). */
struct flame_narrow_result {
	const char *strategy_used;
	char strategy_reason[200];
	struct flame_probe_result *probes;
	size_t nprobes, probes_alloc;
	char culprit[41];
	int narrow_lo, narrow_hi;	/* undecided probes: the culprit lies in (lo, hi] of the range */
	struct flame_commit culprit_info;
	struct flame_probe_result confirm_slow, confirm_fast;
	double suspect_confidence;	/* 1 - p of the pair's t test, adjusted for the looks */
	struct flame_pair_result pair;	/* the suspect/parent re-probe (probe.h) */
	char confidence_how[1024];
	struct string_list ambiguous;	/* untestable commits that could be it too */
	struct string_list reverted;	/* confirmed culprits reverted later in the range */
};

/* One commit that explains a real part of the change (culprits.c). */
struct flame_culprit {
	char id[41];
	char *function;			/* its measure's function; NULL: the session's */
	char *frame;			/* where its time is spent; NULL: the session's */
	char *subject;			/* NULL for the suspect (culprit_info has it) */
	struct flame_step_assessment step;	/* beside its parent, against its measure's change */
	double confidence;		/* 1 - p of its step, adjusted for the looks */
	double unit_ms;			/* ms of CPU time per run per unit of step; 0: not a time */
	double unit_bytes;		/* bytes per run per unit of step (an allocation
					 * profile's samples per run); 0: not bytes */
	int share;			/* the step is in points of a share */
};

/* Every culprit, the suspect first (culprits.c). */
struct flame_culprits_result {
	struct flame_culprit *list;
	size_t count, alloc;
	double cpu_ms[2];		/* the ends' mean CPU time per profiled run, ms */
	double cpu_change_se_ms;	/* the standard error of cpu_ms[1] - cpu_ms[0] */
	double bytes[2];		/* an allocation profile's ends: mean bytes allocated
					 * (or live at the peak) per run; 0: not one */
	double bytes_change_se;		/* the standard error of bytes[1] - bytes[0] */
	int split;			/* the culprits of the measure bisected on together
					 * explain at least half of its change */
};

/* What to do about the culprit: its merge, its reverts, the advice (suspects.c). */
struct flame_fix_result {
	int is_merge;			/* the culprit has two or more parents */
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
};

struct flame_fleet_host_report {
	char *name;		/* hosts.h's name, "local" for this machine */
	unsigned slots;		/* probes at once */
	unsigned probes;	/* probes it answered */
	double good, bad;	/* the ends' values it measured (this machine: the capture's) */
	double threshold;	/* their midpoint: its probes are judged against it */
	char *dropped;		/* why it was given up, or NULL */
};

/* The hosts' part (fleet.c): what report.json's "fleet" shows. */
struct flame_fleet_report {
	int used;
	unsigned slots;			/* probe slots over all hosts */
	unsigned rounds;		/* k-ary rounds */
	unsigned probes;		/* probes of the rounds (the hosts' ends not counted) */
	unsigned sequential_probes;	/* probes binary search on one slot would take (log2) */
	double seconds;			/* wall time of the search, hosts' setup and ends included */
	double setup_seconds;		/* of which setting the hosts up and measuring their ends */
	double probe_seconds;		/* the rounds' probes' own times, summed */
	struct flame_fleet_host_report *hosts;
	size_t nhosts;
};

/* What the report (report.h) and the command's three lines show. */
struct flame_answer {
	struct flame_ends_result ends;
	struct flame_target_result target;
	struct flame_suspects_result suspects;
	struct flame_narrow_result narrow;
	struct flame_culprits_result culprits;
	struct flame_fix_result fix;
	struct flame_fleet_report fleet;
	enum trail_verdict outcome;	/* the session's verdict (trail_verdict_name());
					 * NONE until flame_session_set_outcome() */
	char message[400];		/* the one-line explanation of the verdict */
	double seconds;
};

#endif
