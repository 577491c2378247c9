/*
 * bench.h - the benchmark runner that trail bench and trail flame share:
 * a configuration (commands, run counts, hooks), bench_run_commands() that
 * schedules and measures the runs, and the result with every run's raw
 * values, per-command statistics and comparisons with the reference.
 *
 * Ownership: the caller owns the config and everything it points to; the
 * result owns its arrays and is freed with bench_result_release().
 */
#ifndef TRAIL_BENCH_BENCH_H
#define TRAIL_BENCH_BENCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/executor.h"
#include "stats/describe.h"
#include "bench/compare.h"

/* One command to benchmark (after parameter substitution). */
struct bench_command {
	const char *name;	/* how reports name it (usually the command line) */
	const char *cmdline;	/* what runs, through the shell or split into words */
	const char *param_names[4];	/* parameter names for this instance, or NULL */
	const char *param_values[4];	/* their values */
};

struct bench_config {
	const struct bench_command *commands;
	size_t nr_commands;
	uint64_t warmup;	/* unmeasured runs per command */
	uint64_t runs;		/* exact runs per command, or 0 for adaptive */
	uint64_t min_runs;	/* adaptive: at least this many (default 10) */
	uint64_t max_runs;	/* adaptive: at most this many, 0 for no limit */
	double min_time;	/* adaptive: seconds of measured time per command (default 3) */
	const char *prepare;	/* run before every run (timed separately, not measured), or NULL */
	const char *setup;	/* once per command before its first run, or NULL */
	const char *cleanup;	/* once per command after its last run, or NULL */
	const char *shell;	/* e.g. "sh"; NULL runs commands without a shell */
	int ignore_failure;	/* measure commands that exit non-zero */
	double timeout;		/* seconds per run, 0 for none */
	const char *input;	/* stdin of the commands, or NULL for /dev/null */
	enum bench_output output;
	const char *output_path;	/* for BENCH_OUTPUT_FILE */
	int interleave;		/* alternate commands run by run (default with 2+) */
	uint64_t seed;		/* for the shuffled round order */
	int until_significant;	/* keep running until every comparison is decided */
	double confidence;	/* e.g. 0.95 */
	size_t reference;	/* index of the command others are compared with */
	int count_perf;		/* read perf software counters per run */
	/*
	 * --metric instructions / est-cycles: every run counted under callgrind.
	 * Unless runs is set, each command runs twice; when the two counts agree
	 * within STATS_EXACT_TOLERANCE the counts are exact and the comparison
	 * is their ratio, else the command falls back to the adaptive plan and
	 * the Mann-Whitney statistics.
	 */
	enum bench_count count;
	int show_progress;	/* draw the progress line on stderr */
	struct bench_executor *executor;	/* NULL for bench_executor_process */
	volatile sig_atomic_t *stop;	/* set (e.g. by SIGINT) to stop after the current run */
};

/* Defaults as hyperfine: >= 10 runs and >= 3 s, 95% confidence, interleaved. */
void bench_config_init(struct bench_config *cfg);

/* Statistics of one metric over a command's runs (wall, user, sys...). */
struct bench_command_result {
	const struct bench_command *command;
	struct bench_measurement *runs;	/* measured runs, in the order they ran */
	size_t nr_runs, alloc_runs;
	double *wall;			/* seconds, shell spawn subtracted; nr_runs values */
	struct stats_summary wall_stats;	/* seconds */
	struct stats_summary user_stats;	/* seconds */
	struct stats_summary sys_stats;	/* seconds */
	struct stats_summary rss_stats;	/* KiB */
	double *count;			/* counted runs: instructions or cycles per run, shell's
					 * subtracted; nr_runs values, or NULL without a count */
	struct stats_summary count_stats;	/* instructions or cycles */
	double count_spread;		/* (max - min) / max of the counts, 0 when identical */
	int count_exact;		/* the counts agree within STATS_EXACT_TOLERANCE */
	size_t failed_runs;		/* runs with a non-zero exit status */
	int has_comparison;		/* comparison is valid (not the reference) */
	struct bench_comparison comparison;	/* this command against the reference */
};

struct bench_result {
	struct bench_command_result *commands;	/* one per config command */
	size_t nr_commands;
	size_t reference;		/* index of the reference command */
	double confidence;		/* confidence used for verdicts and intervals */
	double shell_wall, shell_user, shell_sys;	/* seconds subtracted per run (0 without a shell) */
	size_t shell_probes;		/* empty-shell runs behind that estimate */
	enum bench_count count;		/* what the runs counted, as cfg->count */
	double shell_count;		/* the empty shell's count, subtracted from every run's */
	int interrupted;		/* stopped by cfg->stop before the plan was done */
	int perf_available;		/* perf counters were read */
	const char *perf_note;		/* what perf_event_open supports, or NULL */
	int interleaved;		/* runs were interleaved */
	size_t looks;			/* --until-significant: number of interim tests */
};

/*
 * Run the benchmark described by cfg and fill *res (which the caller later
 * releases).  Returns 0, or -1 after trail_error() when a command could not be
 * started, failed without ignore_failure, or a hook failed; *res then
 * holds what was measured so far (so a report can still be printed).
 */
int bench_run_commands(const struct bench_config *cfg, struct bench_result *res);

/* (Re)compute the statistics and comparisons from the raw runs. */
int bench_result_analyze(struct bench_result *res, const struct bench_config *cfg);

void bench_result_release(struct bench_result *res);

#endif
