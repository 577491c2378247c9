/*
 * result.h - what trail history keeps for one commit: the metric's runs,
 * the profile's per-function counts and the environment it was measured
 * in, and its form in a git note - one compact JSON object per line, so
 * that 'git notes merge -s cat_sort_uniq' joins two machines' notes of a
 * commit line by line (docs/history.md, "Sharing notes").
 */
#ifndef TRAIL_HISTORY_RESULT_H
#define TRAIL_HISTORY_RESULT_H

#include <stddef.h>

#include "core/strbuf.h"

#define HISTORY_NOTE_VERSION 1

/* Where and how a result was measured; results with different keys never share a series. */
struct history_env {
	char key[17];		/* hex FNV-1a 64 of every field but trail */
	char *kernel;		/* uname -r */
	char *cpu;		/* /proc/cpuinfo model name */
	char *compiler;		/* first line of $CC --version ("" unknown) */
	char *cflags;		/* $CFLAGS */
	char *trail;		/* trail's version (stored, not part of the key) */
	char *build, *run;	/* the commands ("" for --profile results) */
	char *profiler;		/* "trail record -g at 999 Hz", "external" ... */
	double freq;		/* sampling frequency, Hz (0 unknown) */
	double discard;		/* fraction of each run's samples dropped */
	char *bench;		/* the .trail bench measured, "" for none; in the key when
				 * set, so a bench's results are a series of their own */
};

struct history_func {
	char *name;
	double self, total;	/* samples summed over the profiled runs */
	double *run_self;	/* self samples of each profiled run (the result's
				 * nrun_samples of them), or NULL when not stored */
};

enum history_status {
	HISTORY_OK,
	HISTORY_BUILD_FAILED,	/* the commit does not build: stored as such */
	HISTORY_RUN_FAILED,	/* the workload fails at it */
};

struct history_result {
	enum history_status status;
	double time;		/* when recorded, Unix seconds */
	char *metric;		/* "cpu", "wall", "rss", "alloc" or a --unit's metric */
	char *unit;		/* "us", "s", "KiB", "B" ... */
	double *runs;		/* the metric of each run, in unit */
	size_t nruns;
	double samples;		/* all samples of the profiled runs */
	double profiles;	/* profiled runs those samples come from */
	struct history_func *funcs;	/* top functions plus any that moved, by name */
	size_t nfuncs;
	double *run_samples;	/* all samples of each profiled run, or NULL (notes
				 * written before trail kept them, --profile results) */
	size_t nrun_samples;
	struct history_env env;
};

void history_result_init(struct history_result *r);
void history_result_release(struct history_result *r);
void history_env_release(struct history_env *e);
/* Deep copy of src into dst (dst uninitialised). */
void history_result_copy(struct history_result *dst, const struct history_result *src);

/* Fill env's key from its fields. */
void history_env_set_key(struct history_env *e);
/* Set env's bench (NULL or "": none) and its key. */
void history_env_set_bench(struct history_env *e, const char *bench);

/* Append r as one line of JSON (no newline). */
void history_result_write(const struct history_result *r, struct strbuf *out);
/* Parse one line; name (e.g. "note of abc123:2") prefixes errors.  0 or -1. */
int history_result_parse(const char *line, size_t len, const char *name, struct history_result *r);

const char *history_status_name(enum history_status s);
/* self or total samples of func, 0 when not kept */
double history_result_count(const struct history_result *r, const char *func, int total);
/* median of the runs and a 95 % interval of it (order statistics); 0 or -1 without runs */
int history_result_median(const struct history_result *r, double *med, double *lo, double *hi);

#endif
