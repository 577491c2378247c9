/*
 * capture.h - run the user's workload in a built worktree: profiled by
 * the profile's backend (measure/backend.h: CPU samples from trail or perf
 * record or the user's profiler, off-CPU time, allocation sites, page
 * faults), folded, and, for the wall, rss and offcpu metrics, also timed
 * without the profiler so its overhead does not blur the measurement.
 */
#ifndef TRAIL_FLAME_CAPTURE_H
#define TRAIL_FLAME_CAPTURE_H

#include "measure/metric.h"
#include "profile/folded.h"

struct flame_capture_opts {
	enum flame_profile profile;
	const char *run_cmd;	/* sh -c, in the worktree */
	unsigned freq;		/* sampling frequency, Hz */
	double discard;		/* fraction of each run's samples dropped (warm-up) */
	double timeout;		/* seconds per run, 0 = none; a run past it fails */
	int timed;		/* also run it unprofiled, for wall/rss */
	const char *scratch;	/* directory for perf.data and the folded text */
	/*
	 * "trail" (trail record), "perf" (perf record), or a shell command
	 * (it has a blank or a '$') that profiles the workload itself and
	 * leaves a profile in $TRAIL_PROFILE or $TRAIL_PROFILE_DIR, in any
	 * format 'trail collapse' reads (flame_profiler_is_command()).
	 */
	const char *profiler;
	const char *trail_exe;	/* this binary: what trail record's line names */
	unsigned long long alloc_interval;	/* bytes per sampled allocation (alloc profiles) */
	int alloc_peak;		/* alloc profiles of the bytes live at the peak (peak-heap) */
	int cache_sim;		/* instruction profiles: with callgrind's cache model (est-cycles) */
};

struct flame_run {
	double wall;		/* seconds (unprofiled when timed) */
	double rss;		/* peak RSS of the workload, KiB (when timed) */
	double cpu;		/* user + sys time of the workload, seconds (when timed) */
	double cpu_us;		/* the cpu metric: user + sys of the run's process
				 * tree, us (trail's sampler: the workload's tree;
				 * a recorder program: with its own few %) */
	double samples;		/* folded total: on-CPU samples after the warm-up
				 * discard, or blocked us for an off-CPU profile */
	struct folded_profile folded;	/* after discarding */
	int timed_out;			/* killed at the timeout (a failed run) */
	double alloc_bytes;	/* bytes allocated (alloc profiles; estimated) */
	double peak_heap;	/* peak live heap, bytes (alloc profiles; estimated) */
	double counted;		/* instruction profiles: instructions (or est-cycles) of the
				 * run's processes, the profile's total */
	double instrument_wall;	/* instruction profiles: the counted run's time, s (run->wall
				 * is the native run's) */
};

/*
 * Profile (and time) one run of the workload in dir.  Returns 0, 1 when
 * the workload itself failed (status non-zero: the log path is printed),
 * -1 when the profiler failed.  run->folded is initialised either way.
 */
int flame_capture_run(const struct flame_capture_opts *o, const char *dir,
		      struct flame_run *run);
void flame_run_release(struct flame_run *run);
/* The metric's value for a run (CPU time in us for cpu). */
double flame_run_metric(const struct flame_run *run, enum flame_metric m);

/* Whether --profiler names a command of the user's rather than trail or perf. */
int flame_profiler_is_command(const char *profiler);
/* Whether --profiler is perf. */
int flame_profiler_is_perf(const char *profiler);

/* 0 when the profiler can sample here, else -1 with the reason printed. */
int flame_capture_check(const struct flame_capture_opts *o);
/*
 * 0 when trail's sampler can record -e offcpu here (in this process,
 * as trail record would), else -1 and why gets its first complaint
 * (nothing printed).
 */
int flame_capture_offcpu_check(const struct flame_capture_opts *o, char *why, size_t n);

/*
 * Fold perf.data file data with pf's options (its chosen/other event names
 * are freed) straight into p (no folded text on the way); 0 or -1 (error
 * printed).
 */
struct perfdata_fold;
int flame_fold_perfdata(const char *data, struct perfdata_fold *pf, struct folded_profile *p);
/*
 * Fold a recording (perf.data from trail record or perf record) in-process
 * into p, every sample counting 1, dropping the samples before the first
 * discard fraction of its time span (perf script --time N%-100%, N = 100 *
 * discard).  0 or -1.
 */
int flame_fold_recording(const char *data, double discard, struct folded_profile *p);

/*
 * Run the workload under a recorder (argv, e.g. from flame_record_argv();
 * env: extra "NAME=value" entries or NULL) in dir, its output to log,
 * killed after o->timeout; run->wall and run->cpu_us get its times unless
 * a timed run measures them.  0, 1 when the workload failed or timed out,
 * -1 when the recorder could not run (errors printed).
 */
int flame_record_run(const struct flame_capture_opts *o, const char *const *argv,
		     const char *const *env, const char *dir, const char *log,
		     struct flame_run *run);
/*
 * Run the workload unprofiled in dir for the wall, rss and cpu of run
 * (a log under o->scratch); 0, or 1 when it failed (said).
 */
int flame_timed_run(const struct flame_capture_opts *o, const char *dir, struct flame_run *run);
/* Run a recorder's check command line (stdio closed): its child_run() status. */
struct string_list;
int flame_record_check(const struct string_list *argv);

/* What the profiles count, for the scope note and the report. */
const char *flame_profile_describe(const struct flame_capture_opts *o, char *buf, size_t n);
/*
 * The profiler that takes them and how it samples, for the scope note:
 * "trail record -e alloc, one sampled allocation per 65536 bytes", "perf
 * record -g at 999 Hz", the user's command...  Writes buf, returns it.
 */
const char *flame_profiler_describe(const struct flame_capture_opts *o, char *buf, size_t n);
/* report.json's "profile": "cpu", "offcpu", "alloc-space", "page-faults" or "none". */
const char *flame_profile_view(const struct flame_capture_opts *o);
/* 1 when o's profiles (or metric m's, with profiler) count memory events
 * (allocation sites, page faults). */
int flame_profile_counts_memory(const struct flame_capture_opts *o);
int flame_metric_counts_memory(enum flame_metric m, const char *profiler);
/*
 * What one count of o's profiles stands for, as a folded header says it
 * (folded.h): CPU samples their nominal period (1e9 / freq ns, as trail
 * record writes it), page-fault samples and allocation intervals their
 * bytes; zeroed (samples, nothing known) for a profiler's own command.
 * A capture that names its units in run->folded.weight (off-CPU,
 * instructions) is read there instead.
 */
void flame_profile_weight(const struct flame_capture_opts *o, struct folded_weight_info *w);

#define FLAME_ALLOC_INTERVAL 65536	/* bytes: trail record -e alloc's default (docs/record.md) */

#endif
