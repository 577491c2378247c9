/*
 * measure.h - one commit measured for trail history: built in trail
 * flame's private clone (flame_build, cached), its workload run N times
 * under the same capture as trail flame (flame_capture_run), and the
 * result - the metric per run, the functions that matter and the
 * environment fingerprint - made ready to store.  Also the result of a
 * profile made elsewhere (record --profile).
 */
#ifndef TRAIL_HISTORY_MEASURE_H
#define TRAIL_HISTORY_MEASURE_H

#include "core/string_list.h"
#include "measure/capture.h"
#include "measure/repo.h"
#include "history/result.h"
#include "profile/folded.h"

struct history_measure_opts {
	const char *build_cmd;
	struct flame_capture_opts cap;	/* run_cmd, freq, discard, profiler, scratch ... */
	enum flame_metric metric;
	unsigned repeat;		/* runs, each profiled */
	double build_timeout;		/* seconds, 0 = none */
	unsigned top;			/* functions kept by self and by total share */
	const struct string_list *keep;	/* also kept: the previous result's functions */
};

/* The environment of this machine for these commands (key set). */
void history_env_collect(struct history_env *env, const char *build, const char *run,
			 const char *profiler, double freq, double discard);

/*
 * Build commit id and measure it.  Returns 0 with out filled (status
 * build-failed or run-failed when that happened) or -1 on error.
 */
int history_measure(struct flame_repo *r, const char *id, const struct history_measure_opts *o,
		    struct history_result *out);

/*
 * The same in steps, so that a caller measuring many commits can take
 * their runs round-robin: a machine whose load drifts then moves every
 * commit's runs alike instead of some commits' all.
 */
struct history_measurement {
	struct history_result res;	/* filled as runs come */
	struct folded_profile pooled;	/* every run's profile */
	struct folded_profile *each;	/* each run's profile, for its per-run counts */
	size_t nruns_each;
	char *dir;			/* the build's worktree */
	int done;			/* failed to build or run: no more runs */
};
/* Build (cached); 0, or -1 on error (m released) - a failed build is res.status, done. */
int history_measure_start(struct flame_repo *r, const char *id, const struct history_measure_opts *o,
			  struct history_measurement *m);
/* One more run; 0 or -1 (a failed run is res.status, done). */
int history_measure_run(const struct history_measure_opts *o, struct history_measurement *m);
/* Keep the functions that matter; m->res is the result.  Frees the rest. */
void history_measure_finish(const struct history_measure_opts *o, struct history_measurement *m);
void history_measurement_release(struct history_measurement *m);

/*
 * Keep the functions of p (profiles, pooled) that matter in out: the top
 * by self and by total samples, and those named in keep.  out->samples
 * gets p's total.
 */
void history_result_set_functions(struct history_result *out, const struct folded_profile *p,
				  unsigned top, const struct string_list *keep);

/*
 * Each profiled run's samples and each of out's functions' self samples
 * in it (runs[0..n)): out->run_samples and funcs[].run_self.  After
 * history_result_set_functions().
 */
void history_result_set_run_counts(struct history_result *out, const struct folded_profile *runs,
				   size_t n);

#endif
