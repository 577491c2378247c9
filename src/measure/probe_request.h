/*
 * probe_request.h - what trail flame asks a probe to do at one commit, and
 * its one serialised form: the 'trail flame probe' command line.  One
 * table of fields (option name, kind, offset) is both the writer (request
 * -> argv: git bisect run, the hosts' ssh commands, the report's reproduce
 * line) and the reader ('trail flame probe' argv -> request), so the two
 * cannot disagree; read(write(r)) == r field by field (test_flame_probe_request).
 */
#ifndef TRAIL_FLAME_PROBE_REQUEST_H
#define TRAIL_FLAME_PROBE_REQUEST_H

#include "core/options.h"
#include "core/string_list.h"
#include "measure/capture.h"
#include "measure/metric.h"

#include <stddef.h>

/* What a function's value is: its share or its samples, self or inclusive. */
enum flame_measure {
	FLAME_MEASURE_SHARE,		/* self share among samples outside exclude */
	FLAME_MEASURE_SAMPLES,		/* self samples per run */
	FLAME_MEASURE_TOTAL_SHARE,	/* inclusive share */
	FLAME_MEASURE_TOTAL_SAMPLES,	/* inclusive samples per run */
	FLAME_MEASURE_TIME,		/* self share times the run's CPU time, ms (shares.h) */
	FLAME_MEASURE_TOTAL_TIME,	/* inclusive share times the run's CPU time, ms */
	/*
	 * The function's self share with the library and kernel code under
	 * it: stacks cut after their innermost frame the repository defines
	 * (at the probed commit), so a library frame's time counts to its
	 * program caller and no other program function's does.
	 */
	FLAME_MEASURE_LIB_SHARE,
	FLAME_MEASURE_LIB_SAMPLES,	/* the same, samples per run */
	FLAME_MEASURE_LIB_TIME,		/* the same share times the run's CPU time, ms */
};

/*
 * Pointers are borrowed (from the session, or from argv and the reader).
 * Every field is written and read through the table in probe_request.c but
 * scratch and trail_exe, which belong to the process that runs the probe;
 * the fields are ordered so that the struct has no padding (the test
 * checks that every byte belongs to exactly one of them).
 */
struct flame_probe_request {
	/* which commit, where, and where the answer goes */
	const char *rev;		/* --rev: commit to probe (HEAD; BISECT_HEAD for git bisect) */
	const char *clone;		/* -C: the trail flame clone; NULL = current directory */
	const char *log;		/* --log: append the result to this file; NULL = none */
	/* what to build and run, and how to profile it */
	const char *build_cmd;		/* --build: sh -c in the worktree */
	const char *run_cmd;		/* --run: sh -c in the worktree */
	const char *profiler;		/* --profiler: "trail", "perf" or the user's command */
	const char *function;		/* --function: its share is measured; NULL = the metric */
	const struct string_list *exclude;	/* --exclude: leaves left out of the share; may be NULL */
	double threshold;		/* --threshold: slow above it (share fraction or metric unit) */
	double discard;			/* --discard (percent): fraction of each run's samples dropped */
	double confidence;		/* --confidence: each probe errs with 1 - confidence at most */
	double percentile;		/* --percentile: metric statistic compared, 50 = median */
	double run_timeout;		/* --timeout: seconds per run, 0 = none */
	double build_timeout;		/* --build-timeout: seconds per build, 0 = none */
	unsigned long long alloc_interval;	/* --alloc-interval: bytes per sampled allocation, 0 = default */
	unsigned runs;			/* --runs: runs in the first window */
	unsigned max_runs;		/* --max-runs: budget of runs before answering skip */
	unsigned freq;			/* -F: sampling frequency, Hz */
	enum flame_metric metric;	/* --metric: measured when function is NULL */
	enum flame_measure measure;	/* --measure: what function's value is */
	int offcpu;			/* --offcpu-profile: off-CPU profiles (--metric offcpu) */
	int json;			/* --json: the result as one line of JSON on stdout */
	int pad_;			/* keeps the struct free of padding; always 0, never written */
	/* this process's own, never written */
	const char *scratch;		/* directory for the runs' recordings */
	const char *trail_exe;		/* this binary, for trail record */
};

/* The defaults of 'trail flame probe' (HEAD, 3 runs, 9 at most, 999 Hz ...). */
void flame_probe_request_init(struct flame_probe_request *r);

/*
 * --measure's word: share, samples, total-share, total-samples, time,
 * total-time, lib-share, lib-samples or lib-time.
 */
const char *flame_measure_name(enum flame_measure m);
/*
 * Whether the measure is inclusive (total), a share (not samples per run)
 * and a time (a share times the run's CPU time: flame_time_over_runs()).
 */
int flame_measure_total(enum flame_measure m);
int flame_measure_share(enum flame_measure m);
int flame_measure_time(enum flame_measure m);
/* Whether it is one of the lib- measures (self with the library code under it). */
int flame_measure_lib(enum flame_measure m);
/* The measure of these (time wins over share; lib over total). */
enum flame_measure flame_measure_of(int total, int share, int time, int lib);

/*
 * --profiler NAME: auto or trail -> "trail", perf -> "perf", a command
 * (a blank or a '$') -> itself; 0, or -1 with an error.
 */
int flame_profiler_parse(const char *name, const char **out);

/*
 * The writer: append exe (argv[0]), "flame", "probe" and r's options to
 * out, in the order of the reproduce line; strings and lists unset (NULL,
 * empty) and the flags and alloc_interval at 0 are left out.  Numbers are
 * the shortest text that reads back as the very value.
 */
void flame_probe_request_argv(const struct flame_probe_request *r, const char *exe,
			      struct string_list *out);

/*
 * The reader: an option table (core/options.h) over raw storage, filled
 * with r's defaults; parse argv with it, then finish() checks the words
 * and numbers and sets req.  req borrows from argv and from the reader.
 */
struct flame_probe_reader {
	struct flame_probe_request req;
	struct string_list exclude;	/* storage of req.exclude */
	struct option *opts;		/* for parse_options(), in --help order */
	void *raw;			/* one value per field, as parse_options() writes it */
};
void flame_probe_reader_init(struct flame_probe_reader *rd);
/* After parse_options(): 0, or -1 with an error (a required option missing, a bad word). */
int flame_probe_reader_finish(struct flame_probe_reader *rd);
void flame_probe_reader_release(struct flame_probe_reader *rd);
/* parse_options() and finish() in one: 0, or -1 (an error said). */
int flame_probe_request_read(int argc, const char **argv, const char *const *usage,
			     struct flame_probe_reader *rd);

/*
 * How r's runs are captured: the workload, sampling, timeouts, and what
 * the metric records (flame_metric_capture(): the one metric -> backend
 * mapping, for the ends and the probes alike).
 */
void flame_probe_request_capture(const struct flame_probe_request *r,
				 struct flame_capture_opts *cap);

/*
 * The table itself, for the round-trip test: field i's long and short
 * option (none for the local fields and pad_), offset and size.
 */
struct flame_probe_field_info {
	const char *name;
	int short_name;
	size_t offset, size;
	int kind;	/* enum in probe_request.c; FLAME_PROBE_FIELD_* below for tests */
};
enum {
	FLAME_PROBE_FIELD_STRING,
	FLAME_PROBE_FIELD_PROFILER,
	FLAME_PROBE_FIELD_LIST,
	FLAME_PROBE_FIELD_DOUBLE,
	FLAME_PROBE_FIELD_PERCENT,
	FLAME_PROBE_FIELD_ULL,
	FLAME_PROBE_FIELD_UINT,
	FLAME_PROBE_FIELD_METRIC,
	FLAME_PROBE_FIELD_MEASURE,
	FLAME_PROBE_FIELD_FLAG,
	FLAME_PROBE_FIELD_LOCAL,
};
size_t flame_probe_fields(const struct flame_probe_field_info **fields);

#endif
