/*
 * executor.h - running one timed instance of a benchmarked command.
 *
 * The scheduler never forks itself: it hands a struct bench_job to an
 * executor, a small struct of function pointers.  The real one
 * (bench_executor_process) forks and execs with wait4() rusage and
 * clock_gettime() around the child; tests plug in a mock executor that
 * returns made-up timings instantly, so nothing in them sleeps.
 */
#ifndef TRAIL_BENCH_EXECUTOR_H
#define TRAIL_BENCH_EXECUTOR_H

#include <signal.h>
#include <stdint.h>

/*
 * What a run counts besides its times (trail bench --metric): nothing, or
 * the user-space instructions (or callgrind's estimated cycles) of every
 * process of the command, counted under valgrind --tool=callgrind with
 * address-space randomisation off and a fixed environment (as flame's
 * measure/backend_valgrind.c does), so a build gives the same count on
 * every run.
 */
enum bench_count {
	BENCH_COUNT_NONE,
	BENCH_COUNT_INSTRUCTIONS,	/* callgrind Ir */
	BENCH_COUNT_EST_CYCLES,		/* Ir + 10 x L1 misses + 100 x LL misses */
};

enum bench_output {
	BENCH_OUTPUT_NULL,	/* stdout and stderr to /dev/null (default) */
	BENCH_OUTPUT_PIPE,	/* stdout into a pipe that trail drains and discards */
	BENCH_OUTPUT_INHERIT,	/* trail's own stdout and stderr */
	BENCH_OUTPUT_FILE,	/* stdout and stderr appended to a file */
};

/* What to run, once. */
struct bench_job {
	const char *const *argv;	/* NULL-terminated; argv[0] searched in PATH */
	const char *input_path;		/* stdin from this file, or NULL for /dev/null */
	enum bench_output output;
	int output_fd;			/* for BENCH_OUTPUT_FILE: an open descriptor */
	double timeout;			/* seconds; 0 for none */
	int count_perf;			/* also read perf_event_open software counters */
	enum bench_count count;		/* count under callgrind (the times are then the instrumented run's) */
	const char *count_dir;		/* an empty directory for callgrind's out files, when counting */
	volatile sig_atomic_t *stop;	/* when set while waiting: SIGTERM the command, or NULL */
};

#define BENCH_COUNTER_NONE (-1)

/* What one run measured. */
struct bench_measurement {
	double wall;		/* seconds, clock_gettime(CLOCK_MONOTONIC) around spawn..wait */
	double user, sys;	/* seconds of CPU, from wait4() rusage */
	int64_t max_rss;	/* peak resident set, KiB (ru_maxrss) */
	int64_t minor_faults, major_faults;	/* rusage ru_minflt, ru_majflt */
	int64_t vol_csw, invol_csw;	/* rusage voluntary / involuntary context switches */
	int64_t perf_csw;	/* perf software counters, or BENCH_COUNTER_NONE */
	int64_t perf_faults;
	int64_t perf_migrations;
	int64_t count;		/* job->count's instructions or cycles, or BENCH_COUNTER_NONE */
	int exit_code;		/* 0-255, 128+N when killed by signal N */
	int timed_out;		/* killed after job->timeout */
};

struct bench_executor {
	const char *name;
	/*
	 * Run job once and fill *m.  Returns 0 when the command ran (whatever
	 * its exit status), -1 after trail_error() when it could not be started or
	 * waited for.
	 */
	int (*run)(struct bench_executor *ex, const struct bench_job *job,
		   struct bench_measurement *m);
	void *data;		/* the executor's own state */
};

/* The real executor: fork/exec (posix_spawn), wait4, perf_event_open. */
extern struct bench_executor bench_executor_process;

/*
 * Probe perf_event_open once: 1 when software counters work for children,
 * 0 otherwise; *why says why not or, when they work, whether hardware
 * counters are available ("hardware counters are not supported ...").
 */
int bench_perf_probe(const char **why);

/*
 * The sum over every callgrind.out.* file in dir (one per process) of the
 * count's events from its totals:/summary: line, into *out; the files are
 * removed.  0, or -1 after trail_error() (no file, or events missing).
 */
int bench_count_read_dir(const char *dir, enum bench_count count, int64_t *out);

/* "instructions" or "est-cycles" (the --metric names), or "time". */
const char *bench_count_name(enum bench_count count);
/* The unit of a count: "instructions" or "cycles". */
const char *bench_count_unit(enum bench_count count);

/*
 * Look name up in $PATH once, so each run execs directly instead of trying
 * every PATH entry: a malloc'd path, or NULL when name contains '/' or is
 * not found (then exec reports the error as usual).
 */
char *bench_resolve_program(const char *name);

/*
 * Split a command line into words for running without a shell (-N):
 * blanks separate words; '...' and "..." quote; a backslash escapes the
 * next character.  Returns a NULL-terminated malloc'd argv (free with
 * bench_words_free) or NULL after trail_error() on an unterminated quote or an
 * empty command.
 */
char **bench_split_words(const char *cmdline);
void bench_words_free(char **words);

#endif
