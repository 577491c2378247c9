/*
 * scheduler.c - bench_run_commands(): decides which command runs next and
 * how many times.  Warm-up runs, hyperfine's adaptive run count (enough
 * runs to fill --min-time, clamped to [--min-runs, --max-runs]), rounds
 * that interleave the commands in a shuffled order so slow drift of the
 * machine hits all of them alike, hooks, the shell-spawn correction, and
 * the --until-significant loop.  Measuring itself is the executor's job.
 */
#include "bench/bench.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/string_list.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bench_config_init(struct bench_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->min_runs = 10;
	cfg->min_time = 3;
	cfg->shell = "sh";
	cfg->output = BENCH_OUTPUT_NULL;
	cfg->interleave = 1;
	cfg->seed = 0x5eed;
	cfg->confidence = 0.95;
}

/* Runs used to estimate the shell's own spawn time (after 3 warm-ups). */
#define SHELL_PROBE_RUNS 20
/* --until-significant: budget when --max-runs is not given, and check points. */
#define UNTIL_SIGNIFICANT_MAX_RUNS 100
#define UNTIL_SIGNIFICANT_FIRST_LOOK 5
#define UNTIL_SIGNIFICANT_GROWTH 1.5

struct runner {
	const struct bench_config *cfg;
	struct bench_result *res;
	struct bench_executor *ex;
	char **argv_mem;		/* per command: split words (no shell) */
	struct string_list resolved;	/* program paths found in $PATH (owned) */
	const char ***argvs;		/* per command: argv to run */
	const char *shell_argv[4];	/* scratch for "SHELL -c CMD" */
	int output_fd;
	uint64_t *target;		/* planned measured runs per command */
	uint64_t *warm_done;		/* warm-up runs done per command */
	struct progress progress;
	uint64_t done, total;		/* for the progress line */
	uint64_t rng;			/* splitmix64 state for the shuffles */
};

static int stopped(const struct runner *r)
{
	return r->cfg->stop && *r->cfg->stop;
}

/* argv for a hook or command line; words are freed by the caller. */
static const char **argv_for(struct runner *r, const char *cmdline, char ***words)
{
	*words = NULL;
	if (r->cfg->shell) {
		const char **argv = xcalloc(4, sizeof(*argv));

		argv[0] = r->cfg->shell;
		argv[1] = "-c";
		argv[2] = cmdline;
		return argv;
	}
	*words = bench_split_words(cmdline);
	if (!*words)
		return NULL;
	return (const char **)*words;
}

static void job_init(struct runner *r, struct bench_job *job, const char *const *argv)
{
	memset(job, 0, sizeof(*job));
	job->argv = argv;
	job->input_path = r->cfg->input;
	job->output = r->cfg->output;
	job->output_fd = r->output_fd;
	job->timeout = r->cfg->timeout;
}

/* Run a hook (prepare, setup, cleanup) through the same executor, output discarded. */
static int run_hook(struct runner *r, const char *what, const char *cmdline)
{
	struct bench_measurement m;
	struct bench_job job;
	char **words;
	const char **argv;
	int rc = -1;

	if (!cmdline)
		return 0;
	argv = argv_for(r, cmdline, &words);
	if (!argv)
		return error("cannot parse the %s command", what);
	job_init(r, &job, argv);
	job.input_path = NULL;
	job.output = BENCH_OUTPUT_NULL;
	job.count_perf = 0;
	if (r->ex->run(r->ex, &job, &m))
		error("the %s command '%s' could not be run", what, cmdline);
	else if (m.timed_out)
		error("the %s command '%s' timed out", what, cmdline);
	else if (m.exit_code)
		error("the %s command '%s' failed with exit status %d", what, cmdline, m.exit_code);
	else
		rc = 0;
	if (words)
		bench_words_free(words);
	else
		free(argv);
	return rc;
}

static uint64_t next_random(struct runner *r)
{
	/* splitmix64 (Steele, Lea & Flood 2014) */
	uint64_t z = (r->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fisher-Yates shuffle (Knuth, TAOCP vol. 2, Algorithm P). */
static void shuffle(struct runner *r, size_t *order, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(next_random(r) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static int describe_failure(struct runner *r, size_t c, const struct bench_measurement *m)
{
	const struct bench_command *cmd = &r->cfg->commands[c];

	if (m->timed_out)
		return error("command '%s' timed out after %gs; use --ignore-failure to "
			     "measure it anyway or a longer --timeout", cmd->name, r->cfg->timeout);
	if (m->exit_code == 127 && r->cfg->shell)
		return error("command '%s' exited with status 127: the shell could not find "
			     "or run it (typo in the command?)", cmd->name);
	if (m->exit_code > 128)
		return error("command '%s' was killed by signal %d; use --ignore-failure "
			     "(-i) to benchmark it anyway", cmd->name, m->exit_code - 128);
	return error("command '%s' failed with exit status %d; use --ignore-failure (-i) "
		     "to benchmark it anyway", cmd->name, m->exit_code);
}

static void progress_note(struct runner *r, size_t c)
{
	const struct bench_command_result *cr = &r->res->commands[c];
	char detail[160];
	double sum = 0;
	size_t i;

	for (i = 0; i < cr->nr_runs; i++)
		sum += cr->runs[i].wall;
	if (cr->nr_runs)
		snprintf(detail, sizeof(detail), "[%.40s: mean so far %.4g ms]",
			 cr->command->name, sum / (double)cr->nr_runs * 1e3);
	else
		snprintf(detail, sizeof(detail), "[%.40s: warm-up]", cr->command->name);
	progress_update(&r->progress, r->done, detail);
}

/*
 * One run of command c: prepare hook, then the command.  Returns 1 when a
 * stop was requested (the run is discarded), 0 when done, -1 on error.
 */
static int run_once(struct runner *r, size_t c, int measured)
{
	struct bench_command_result *cr = &r->res->commands[c];
	struct bench_measurement m;
	struct bench_job job;

	if (run_hook(r, "prepare", r->cfg->prepare))
		return -1;
	if (stopped(r))
		return 1;
	job_init(r, &job, r->argvs[c]);
	job.count_perf = r->res->perf_available;
	if (r->ex->run(r->ex, &job, &m))
		return -1;
	if (stopped(r))
		return 1;	/* the run was cut short (Ctrl-C reaches the child too) */
	if ((m.exit_code || m.timed_out) && !r->cfg->ignore_failure)
		return describe_failure(r, c, &m);
	r->done++;
	if (!measured) {
		r->warm_done[c]++;
		progress_note(r, c);
		return 0;
	}
	/* hyperfine's correction: what the shell itself costs is not the command's. */
	m.wall = fmax(0, m.wall - r->res->shell_wall);
	m.user = fmax(0, m.user - r->res->shell_user);
	m.sys = fmax(0, m.sys - r->res->shell_sys);
	if (m.exit_code || m.timed_out)
		cr->failed_runs++;
	ALLOC_GROW(cr->runs, cr->nr_runs + 1, cr->alloc_runs);
	cr->runs[cr->nr_runs++] = m;
	progress_note(r, c);
	return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Median of the empty command's wall, user and system time under the shell. */
static int measure_shell(struct runner *r)
{
	double wall[SHELL_PROBE_RUNS], user[SHELL_PROBE_RUNS], sys[SHELL_PROBE_RUNS];
	const char *argv[] = { r->cfg->shell, "-c", "", NULL };
	struct bench_measurement m;
	struct bench_job job;
	int i;

	job_init(r, &job, argv);
	job.input_path = NULL;
	job.output = BENCH_OUTPUT_NULL;
	job.timeout = 0;
	job.count_perf = r->res->perf_available;
	for (i = -3; i < SHELL_PROBE_RUNS; i++) {
		if (r->ex->run(r->ex, &job, &m))
			return error("cannot run the shell '%s' (use --shell=none or -N to run "
				     "commands without one)", r->cfg->shell);
		if (m.exit_code)
			return error("the shell '%s' exits with status %d on an empty command",
				     r->cfg->shell, m.exit_code);
		if (stopped(r))
			return 0;
		if (i >= 0) {
			wall[i] = m.wall;
			user[i] = m.user;
			sys[i] = m.sys;
		}
	}
	qsort(wall, SHELL_PROBE_RUNS, sizeof(double), cmp_double);
	qsort(user, SHELL_PROBE_RUNS, sizeof(double), cmp_double);
	qsort(sys, SHELL_PROBE_RUNS, sizeof(double), cmp_double);
	r->res->shell_wall = bench_quantile_sorted(wall, SHELL_PROBE_RUNS, 0.5);
	r->res->shell_user = bench_quantile_sorted(user, SHELL_PROBE_RUNS, 0.5);
	r->res->shell_sys = bench_quantile_sorted(sys, SHELL_PROBE_RUNS, 0.5);
	return 0;
}

/* hyperfine's rule: as many runs as fit in min_time, within [min_runs, max_runs]. */
static uint64_t adaptive_target(const struct bench_config *cfg, double first_wall)
{
	double fit;
	uint64_t n;

	if (cfg->runs)
		return cfg->runs;
	fit = first_wall > 0 ? cfg->min_time / first_wall : 1e9;
	n = fit >= 1e9 ? (uint64_t)1e9 : (uint64_t)ceil(fit);
	if (n < cfg->min_runs)
		n = cfg->min_runs;
	if (cfg->max_runs && n > cfg->max_runs)
		n = cfg->max_runs;
	return n ? n : 1;
}

static void update_total(struct runner *r)
{
	size_t c;

	r->total = 0;
	for (c = 0; c < r->cfg->nr_commands; c++)
		r->total += r->cfg->warmup + r->target[c];
	r->progress.total = r->total;
}

/* Do all decided comparisons agree at significance level alpha? */
static int all_decided(struct runner *r, double alpha)
{
	const struct bench_command_result *ref = &r->res->commands[r->res->reference];
	double *a = xmallocarray(ref->nr_runs, sizeof(double)), *b = NULL;
	size_t c, i;
	int decided = 1;

	for (i = 0; i < ref->nr_runs; i++)
		a[i] = ref->runs[i].wall;
	for (c = 0; c < r->cfg->nr_commands && decided; c++) {
		const struct bench_command_result *cr = &r->res->commands[c];
		struct bench_mwu u;

		if (c == r->res->reference)
			continue;
		b = xreallocarray(b, cr->nr_runs ? cr->nr_runs : 1, sizeof(double));
		for (i = 0; i < cr->nr_runs; i++)
			b[i] = cr->runs[i].wall;
		if (bench_mann_whitney(b, cr->nr_runs, a, ref->nr_runs, &u) || !(u.p < alpha))
			decided = 0;
	}
	free(a);
	free(b);
	return decided;
}

/* Number of interim looks --until-significant may take between first look and budget. */
static size_t planned_looks(uint64_t first, uint64_t max)
{
	size_t looks = 1;
	double n = (double)first;

	while ((uint64_t)n < max) {
		n = ceil(n * UNTIL_SIGNIFICANT_GROWTH);
		looks++;
	}
	return looks;
}

/* Rounds: each command that still needs runs runs once, in a shuffled order. */
static int run_rounds(struct runner *r, size_t *order)
{
	const struct bench_config *cfg = r->cfg;
	size_t n = cfg->nr_commands, c, k;
	int rc;

	for (;;) {
		size_t nr = 0;

		for (c = 0; c < n; c++)
			if (r->warm_done[c] < cfg->warmup ||
			    r->res->commands[c].nr_runs < r->target[c])
				order[nr++] = c;
		if (!nr)
			return 0;
		shuffle(r, order, nr);
		for (k = 0; k < nr; k++) {
			c = order[k];
			if (r->warm_done[c] < cfg->warmup) {
				rc = run_once(r, c, 0);
			} else {
				int first = !r->res->commands[c].nr_runs;

				rc = run_once(r, c, 1);
				if (!rc && first && !cfg->until_significant) {
					r->target[c] = adaptive_target(cfg, r->res->commands[c].runs[0].wall);
					update_total(r);
				}
			}
			if (rc)
				return rc;
		}
	}
}

static int run_interleaved(struct runner *r)
{
	const struct bench_config *cfg = r->cfg;
	size_t n = cfg->nr_commands, c, *order = xmallocarray(n, sizeof(*order));
	int rc = 0;

	for (c = 0; c < n && !rc; c++)
		rc = run_hook(r, "setup", cfg->setup);
	if (rc)
		goto out;
	if (!cfg->until_significant) {
		for (c = 0; c < n; c++)
			r->target[c] = 1;	/* until the first run says how long one takes */
		update_total(r);
		rc = run_rounds(r, order);
	} else {
		uint64_t max = cfg->max_runs ? cfg->max_runs : UNTIL_SIGNIFICANT_MAX_RUNS;
		uint64_t look = cfg->min_runs > UNTIL_SIGNIFICANT_FIRST_LOOK ?
				cfg->min_runs : UNTIL_SIGNIFICANT_FIRST_LOOK;
		size_t looks;
		double alpha;

		if (look > max)
			look = max;
		/*
		 * Testing after every batch and stopping at the first p < alpha
		 * inflates false positives; Bonferroni over the planned looks
		 * (geometrically spaced, so few) keeps the overall error <= alpha.
		 */
		looks = planned_looks(look, max);
		alpha = (1 - cfg->confidence) / (double)looks;
		r->res->confidence = 1 - alpha;
		r->res->looks = 0;
		for (;;) {
			for (c = 0; c < n; c++)
				r->target[c] = look;
			update_total(r);
			rc = run_rounds(r, order);
			if (rc)
				break;
			r->res->looks++;
			if (look >= max || all_decided(r, alpha))
				break;
			look = (uint64_t)ceil((double)look * UNTIL_SIGNIFICANT_GROWTH);
			if (look > max)
				look = max;
		}
	}
	for (c = 0; c < n; c++)
		if (run_hook(r, "cleanup", cfg->cleanup) && !rc)
			rc = -1;
out:
	free(order);
	return rc;
}

static int run_sequential(struct runner *r)
{
	const struct bench_config *cfg = r->cfg;
	size_t c;
	int rc = 0;

	for (c = 0; c < cfg->nr_commands && !rc; c++)
		r->target[c] = cfg->runs ? cfg->runs : 1;
	update_total(r);
	for (c = 0; c < cfg->nr_commands && !rc; c++) {
		if (run_hook(r, "setup", cfg->setup))
			return -1;
		while (!rc && r->warm_done[c] < cfg->warmup)
			rc = run_once(r, c, 0);
		while (!rc && r->res->commands[c].nr_runs < r->target[c]) {
			int first = !r->res->commands[c].nr_runs;

			rc = run_once(r, c, 1);
			if (!rc && first) {
				r->target[c] = adaptive_target(cfg, r->res->commands[c].runs[0].wall);
				update_total(r);
			}
		}
		if (run_hook(r, "cleanup", cfg->cleanup) && !rc)
			rc = -1;
	}
	return rc;
}

int bench_run_commands(const struct bench_config *cfg, struct bench_result *res)
{
	struct runner r;
	size_t c;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	r.cfg = cfg;
	r.res = res;
	r.ex = cfg->executor ? cfg->executor : &bench_executor_process;
	r.output_fd = -1;
	r.rng = cfg->seed;
	res->nr_commands = cfg->nr_commands;
	res->commands = xcalloc(cfg->nr_commands ? cfg->nr_commands : 1, sizeof(*res->commands));
	res->reference = cfg->reference < cfg->nr_commands ? cfg->reference : 0;
	res->confidence = cfg->confidence;
	res->interleaved = cfg->interleave && cfg->nr_commands > 1;
	if (!cfg->nr_commands)
		return error("no command to benchmark");
	if (cfg->until_significant && cfg->nr_commands < 2)
		return error("--until-significant needs at least two commands to compare");
	if (cfg->until_significant)
		res->interleaved = 1;	/* a comparison needs both sides at every look */
	for (c = 0; c < cfg->nr_commands; c++)
		res->commands[c].command = &cfg->commands[c];
	if (cfg->count_perf && r.ex == &bench_executor_process) {
		res->perf_available = bench_perf_probe(&res->perf_note);
		if (!res->perf_available)
			warning("--perf: %s; reporting rusage counters only", res->perf_note);
	}
	r.argvs = xcalloc(cfg->nr_commands, sizeof(*r.argvs));
	r.argv_mem = xcalloc(cfg->nr_commands, sizeof(*r.argv_mem));
	r.target = xcalloc(cfg->nr_commands, sizeof(*r.target));
	r.warm_done = xcalloc(cfg->nr_commands, sizeof(*r.warm_done));
	for (c = 0; c < cfg->nr_commands; c++) {
		char **words;
		char *path;

		r.argvs[c] = argv_for(&r, cfg->commands[c].cmdline, &words);
		if (!r.argvs[c])
			goto out;
		r.argv_mem[c] = (char *)words;
		/* Only for the real executor: mocks match on the names. */
		if (r.ex == &bench_executor_process && (path = bench_resolve_program(r.argvs[c][0]))) {
			if (words) {
				free(words[0]);	/* the words own their strings */
				words[0] = path;
			} else {
				string_list_append_nodup(&r.resolved, path);
				r.argvs[c][0] = path;
			}
		}
	}
	if (cfg->output == BENCH_OUTPUT_FILE) {
		r.output_fd = open(cfg->output_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
		if (r.output_fd < 0) {
			error_errno("cannot open output file '%s'", cfg->output_path);
			goto out;
		}
	}
	progress_start(&r.progress, "bench", 0);
	if (!cfg->show_progress)
		r.progress.enabled = 0;
	if (cfg->shell && measure_shell(&r))
		goto out_progress;
	if (res->interleaved)
		rc = run_interleaved(&r);
	else
		rc = run_sequential(&r);
	if (rc > 0 || stopped(&r)) {
		res->interrupted = 1;
		rc = 0;
	}
out_progress:
	progress_stop(&r.progress);
out:
	if (r.output_fd >= 0)
		close(r.output_fd);
	for (c = 0; c < cfg->nr_commands; c++) {
		if (r.argv_mem[c])
			bench_words_free((char **)r.argv_mem[c]);
		else
			free((void *)r.argvs[c]);
	}
	free(r.argvs);
	free(r.argv_mem);
	string_list_clear(&r.resolved);
	free(r.target);
	free(r.warm_done);
	if (bench_result_analyze(res, cfg) && !rc)
		rc = -1;
	return rc;
}

static int metric_stats(const struct bench_command_result *cr, size_t offset, double scale,
			int is_int, struct bench_stats *out)
{
	double *v = xmallocarray(cr->nr_runs, sizeof(*v));
	size_t i;
	int rc;

	for (i = 0; i < cr->nr_runs; i++) {
		const char *p = (const char *)&cr->runs[i] + offset;

		if (is_int) {
			int64_t x;

			memcpy(&x, p, sizeof(x));
			v[i] = (double)x * scale;
		} else {
			double x;

			memcpy(&x, p, sizeof(x));
			v[i] = x * scale;
		}
	}
	rc = bench_stats_compute(v, cr->nr_runs, out);
	free(v);
	return rc;
}

int bench_result_analyze(struct bench_result *res, const struct bench_config *cfg)
{
	struct bench_command_result *ref;
	size_t c, i;

	(void)cfg;
	for (c = 0; c < res->nr_commands; c++) {
		struct bench_command_result *cr = &res->commands[c];

		free(cr->wall);
		cr->wall = NULL;
		cr->has_comparison = 0;
		if (!cr->nr_runs)
			continue;
		cr->wall = xmallocarray(cr->nr_runs, sizeof(double));
		for (i = 0; i < cr->nr_runs; i++)
			cr->wall[i] = cr->runs[i].wall;
		if (bench_stats_compute(cr->wall, cr->nr_runs, &cr->wall_stats) ||
		    metric_stats(cr, offsetof(struct bench_measurement, user), 1, 0, &cr->user_stats) ||
		    metric_stats(cr, offsetof(struct bench_measurement, sys), 1, 0, &cr->sys_stats) ||
		    metric_stats(cr, offsetof(struct bench_measurement, max_rss), 1, 1, &cr->rss_stats))
			return -1;
	}
	if (res->reference >= res->nr_commands)
		return 0;
	ref = &res->commands[res->reference];
	for (c = 0; c < res->nr_commands; c++) {
		struct bench_command_result *cr = &res->commands[c];

		if (c == res->reference || !cr->nr_runs || !ref->nr_runs)
			continue;
		if (bench_compare(ref->wall, ref->nr_runs, cr->wall, cr->nr_runs,
				  res->confidence, &cr->comparison))
			return -1;
		cr->has_comparison = 1;
	}
	return 0;
}

void bench_result_release(struct bench_result *res)
{
	size_t c;

	for (c = 0; c < res->nr_commands; c++) {
		free(res->commands[c].runs);
		free(res->commands[c].wall);
	}
	free(res->commands);
	memset(res, 0, sizeof(*res));
}
