/*
 * metric.h - trail flame's metrics (--metric): the one table that maps
 * each metric's name to its enum, its unit, the profile (and so the
 * backend, measure/backend.h) its runs record and how its value is taken.
 * The command-line parsers, the capture options of ends, probes and
 * history, and the probe's command line all go through it.
 */
#ifndef TRAIL_FLAME_METRIC_H
#define TRAIL_FLAME_METRIC_H

enum flame_metric {
	FLAME_METRIC_CPU,	/* CPU time (user + sys) per run, us */
	FLAME_METRIC_WALL,	/* run time, seconds */
	FLAME_METRIC_RSS,	/* peak resident set, KiB */
	FLAME_METRIC_OFFCPU,	/* wall - (user + sys) CPU time: sleeping, blocked, waiting */
	FLAME_METRIC_ALLOC,	/* bytes allocated per run (the interposer's estimate) */
	FLAME_METRIC_PEAK_HEAP,	/* peak live heap bytes per run (the interposer's estimate) */
	FLAME_METRIC_INSTRUCTIONS,	/* user-space instructions executed per run (callgrind Ir) */
	FLAME_METRIC_EST_CYCLES,	/* Ir + 10 x L1 misses + 100 x LL misses (callgrind's cache model) */
};

/* What the profiled run records. */
enum flame_profile {
	FLAME_PROFILE_CPU,	/* on-CPU samples; counts are samples */
	FLAME_PROFILE_OFFCPU,	/* where threads block (trail record -e offcpu); counts are us */
	FLAME_PROFILE_NONE,	/* no profiled run: the timed run only (a metric probe) */
	FLAME_PROFILE_ALLOC,	/* allocation sites (trail record -e alloc, backend_memory.c);
				 * counts are sampled allocations */
	FLAME_PROFILE_FAULTS,	/* page faults (-e page-faults, backend_memory.c); counts are faults */
	FLAME_PROFILE_INSTRUCTIONS,	/* instructions (or est-cycles) per function, counted
					 * (backend_valgrind.c); counts are instructions */
};

struct flame_metric_def {
	enum flame_metric metric;
	const char *name;		/* --metric's word */
	const char *unit;		/* of its values */
	enum flame_profile profile;	/* what its runs record: CPU means on-CPU samples,
					 * or off-CPU ones once the session asks for them */
	int own_profiler_cpu;		/* with the user's --profiler command: CPU profiles */
	int from_profile;		/* its value comes from the profiled run itself */
	int timed;			/* its value comes from an unprofiled timed run */
	int peak;			/* allocation profiles of the bytes live at the peak */
	double resolution;		/* the step one run's value is read in, in unit */
	int history;			/* trail history can store it */
	const char *help;		/* what it is, for --metric's help (flame's default first) */
	int deterministic;		/* counted, not timed: the same build gives the same
					 * value run after run (checked at the ends) */
	double min_effect;		/* the default --min-effect, fraction; 0: flame's */
};

/* The metric's row (the cpu row for a value outside the enum). */
const struct flame_metric_def *flame_metric_def(enum flame_metric m);
/* The row called name, or NULL (nothing printed). */
const struct flame_metric_def *flame_metric_find(const char *name);
/* The metric's default --min-effect (fraction): its row's, else 3 %. */
double flame_metric_min_effect(const struct flame_metric_def *d);
/*
 * The metrics' names separated by sep ("cpu|wall|..."), only those trail
 * history stores when history_only: the one list --metric's help, the
 * probe's hint and completion print.  A static buffer.
 */
const char *flame_metric_names(const char *sep, int history_only);
/* --metric's help text: each name with its row's help. A static buffer. */
const char *flame_metric_help(int history_only);
/* --metric NAME among those trail history stores: 0, or -1 naming them. */
int flame_metric_parse_history(const char *name, enum flame_metric *m);
/* --metric NAME: 0, or -1 with the names it knows in the error. */
int flame_metric_parse(const char *name, enum flame_metric *m);
const char *flame_metric_name(enum flame_metric m);
const char *flame_metric_unit(enum flame_metric m);
/*
 * The step a run's value of m is read in, in its unit: CPU time from
 * rusage in us (Linux sums the task's scheduler clock, so user + sys is
 * exact to the us, not to a tick), wall time from CLOCK_MONOTONIC in ns,
 * peak RSS in pages, bytes in bytes.  The ends' interval is never
 * narrower than it (flame_interval_resolution_floor).
 */
double flame_metric_resolution(enum flame_metric m);
/* 1 when m counts rather than times: one run per probe once the ends agree. */
int flame_metric_deterministic(enum flame_metric m);
/*
 * What a function's share of a profile of metric `name` is a share of, for
 * "self share 1.0% -> 2.0% of ...": the unit for counted profiles
 * ("instructions", "cycles"), else "samples" (also for an unknown name).
 */
const char *flame_metric_share_of(const char *name);
/* A function's own weight per run in m's profile: "instructions/run" for counted metrics, else "samples/run". */
const char *flame_metric_per_run(enum flame_metric m);
/*
 * An allocation profile's step, in words: "bytes live at the peak per
 * run" for peak-heap, else "bytes allocated per run".
 */
const char *flame_metric_bytes_per_run(enum flame_metric m);

/*
 * The profile a metric's runs record (alloc and peak-heap: allocation
 * sites; rss: page faults unless profiler is the user's command; else
 * CPU, or off-CPU when offcpu is set), and whether the metric itself comes
 * from that profiled run rather than from an unprofiled timed one.
 */
enum flame_profile flame_metric_profile(enum flame_metric m, int offcpu, const char *profiler);
int flame_metric_from_profile(enum flame_metric m);

/*
 * Set what o records and times for metric m (profile, timed, alloc_peak),
 * offcpu and profiler as for flame_metric_profile().  Called by
 * flame_probe_request_capture() alone: the ends, the probes and history
 * all capture through a probe request (probe_request.h).
 */
struct flame_capture_opts;
void flame_metric_capture(enum flame_metric m, int offcpu, const char *profiler,
			  struct flame_capture_opts *o);

#endif
