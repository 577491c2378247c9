/*
 * params.h - parameter scans of trail bench: "-P threads 1 8 [-D 2]" and
 * "-L compiler gcc,clang" expand each command template into one command
 * per combination of values, with every "{name}" replaced.
 */
#ifndef TRAIL_BENCH_PARAMS_H
#define TRAIL_BENCH_PARAMS_H

#include "bench/bench.h"
#include "core/string_list.h"

#define BENCH_MAX_PARAMS 4		/* as many as struct bench_command holds */
#define BENCH_MAX_SCAN_VALUES 100000

struct bench_param {
	const char *name;
	struct string_list values;	/* owned */
};

/* Values start, start+step, ... <= end, formatted with the inputs' decimals. */
int bench_param_range(struct bench_param *p, const char *name, const char *start,
		      const char *end, const char *step);
/* Values from a comma-separated list (empty values are an error). */
int bench_param_list(struct bench_param *p, const char *name, const char *list);
void bench_param_release(struct bench_param *p);

/* The commands to run: owns every string its commands point to. */
struct bench_plan {
	struct bench_command *commands;
	size_t nr;
	struct string_list strings;
};

/*
 * For each template (in order) and each combination of the values of the
 * parameters it mentions (the first parameter varying slowest), one
 * command with {name} substituted.  names (may be NULL or shorter) override the display names
 * and are substituted too.
 */
int bench_plan_build(struct bench_plan *plan, const char *const *templates, size_t nr_templates,
		     const char *const *names, size_t nr_names,
		     const struct bench_param *params, size_t nr_params);
void bench_plan_release(struct bench_plan *plan);

#endif
