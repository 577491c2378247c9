/*
 * baseline.h - the CI regression guard: read a saved benchmark (trail's or
 * hyperfine's --export-json: "results"[].command and .times), match its
 * commands with the current ones and decide, per command, whether the
 * slowdown is significant AND beyond the allowed bound with its whole
 * confidence interval, so noise alone never fails a build.
 */
#ifndef TRAIL_BENCH_BASELINE_H
#define TRAIL_BENCH_BASELINE_H

#include "bench/bench.h"

struct bench_baseline_entry {
	char *command;		/* the command line as saved */
	double *times;		/* wall seconds of every saved run */
	size_t nr_times;
	char *count_metric;	/* "instructions" or "est-cycles" when saved with --metric, or NULL */
	double *counts;		/* the saved count.values (in count_metric's unit), or NULL */
	size_t nr_counts;
};

struct bench_baseline {
	struct bench_baseline_entry *entries;
	size_t nr;
};

/* Read path; 0, or -1 after trail_error() naming path (and line:col for bad JSON). */
int bench_baseline_read(const char *path, struct bench_baseline *out);
void bench_baseline_release(struct bench_baseline *b);

struct bench_regression {
	size_t command;		/* index into the current result */
	const struct bench_baseline_entry *base;	/* matched saved command */
	struct bench_comparison cmp;	/* current against the baseline */
	int regressed;		/* slower, significant, and CI lower bound > 1 + bound */
};

/*
 * With --metric instructions / est-cycles the counts are compared (exactly
 * when both sides' counts are exact, bench_compare_exact()) and the
 * baseline must hold counts of the same metric.
 *
 * Compare every current command that has runs with its saved counterpart
 * (same command line; a single command on both sides matches regardless).
 * *out is malloc'd (free it); commands without a counterpart are skipped
 * with a warning.  Returns the number of regressions, or -1 after trail_error()
 * when no command could be matched.
 */
int bench_baseline_compare(const struct bench_baseline *b, const struct bench_result *res,
			   double max_regression, struct bench_regression **out, size_t *nr);

#endif
