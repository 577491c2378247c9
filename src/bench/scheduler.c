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
#include "core/cleanup.h"
#include "stats/rng.h"
#include "stats/sequential.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/progress.h"
#include "core/strbuf.h"
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

/* Counted runs per command before the counts are checked for determinism. */
#define BENCH_COUNT_RUNS 2

/* Runs used to estimate the shell's own spawn time (after 3 warm-ups). */
#define SHELL_PROBE_RUNS 20
/* Interleaved probes: one per round up to this many in all, then every 10th round. */
#define SHELL_PROBE_EVERY_ROUND 100
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
	double *probe[3];		/* shell-spawn probes: wall, user, sys seconds */
	size_t nr_probes, alloc_probes;
	size_t initial_probes;		/* probes taken before the first run */
	uint64_t rounds;		/* interleaved rounds started */
	int output_fd;
	uint64_t *target;		/* planned measured runs per command */
	uint64_t *warm_done;		/* warm-up runs done per command */
	struct progress progress;
	uint64_t done, total;		/* for the progress line */
	uint64_t rng;			/* splitmix64 state for the shuffles */
	char *count_dir;		/* callgrind's out files while counting (cfg->count), or NULL */
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
	job->stop = r->cfg->stop;
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
		return trail_error("cannot parse the %s command", what);
	job_init(r, &job, argv);
	job.input_path = NULL;
	job.output = BENCH_OUTPUT_NULL;
	job.count_perf = 0;
	if (r->ex->run(r->ex, &job, &m))
		trail_error("the %s command '%s' could not be run", what, cmdline);
	else if (m.timed_out)
		trail_error("the %s command '%s' timed out", what, cmdline);
	else if (m.exit_code)
		trail_error("the %s command '%s' failed with exit status %d", what, cmdline, m.exit_code);
	else
		rc = 0;
	if (words)
		bench_words_free(words);
	else
		free(argv);
	return rc;
}

/* Fisher-Yates shuffle (Knuth, TAOCP vol. 2, Algorithm P). */
static void shuffle(struct runner *r, size_t *order, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(stats_splitmix64(&r->rng) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static int describe_failure(struct runner *r, size_t c, const struct bench_measurement *m)
{
	char *name = escape_term_dup(r->cfg->commands[c].name);
	int ret;

	if (m->timed_out)
		ret = trail_error("command '%s' timed out after %gs; use --ignore-failure to "
			    "measure it anyway or a longer --timeout", name, r->cfg->timeout);
	else if (m->exit_code == 127 && r->cfg->shell)
		ret = trail_error("command '%s' exited with status 127: the shell could not find "
			    "or run it (typo in the command?)", name);
	else if (m->exit_code > 128)
		ret = trail_error("command '%s' was killed by signal %d; use --ignore-failure "
			    "(-i) to benchmark it anyway", name, m->exit_code - 128);
	else
		ret = trail_error("command '%s' failed with exit status %d; use --ignore-failure (-i) "
			    "to benchmark it anyway", name, m->exit_code);
	free(name);
	return ret;
}

static void progress_note(struct runner *r, size_t c)
{
	const struct bench_command_result *cr = &r->res->commands[c];
	char detail[256], bar[3 * 20 + 1];
	struct strbuf name = STRBUF_INIT;
	size_t i, filled;
	double sum = 0;

	if (!r->progress.enabled)
		return;
	/* a 20-cell bar: U+2588 full block, U+2591 light shade (3 bytes each) */
	filled = r->total ? (size_t)(20.0 * (double)r->done / (double)r->total) : 0;
	for (i = 0; i < 20; i++)
		memcpy(bar + 3 * i, i < filled ? "\xe2\x96\x88" : "\xe2\x96\x91", 3);
	bar[60] = '\0';
	for (i = 0; i < cr->nr_runs; i++)
		sum += cr->runs[i].wall;
	escape_term(&name, cr->command->name, strlen(cr->command->name));
	if (name.len > 40) {
		size_t cut = 40;

		while (cut && ((unsigned char)name.buf[cut] & 0xc0) == 0x80)
			cut--;	/* on a UTF-8 boundary */
		strbuf_setlen(&name, cut);
	}
	if (cr->nr_runs)
		snprintf(detail, sizeof(detail), "%s %s: mean so far %.4g ms", bar,
			 name.buf, sum / (double)cr->nr_runs * 1e3);
	else
		snprintf(detail, sizeof(detail), "%s %s: warm-up", bar, name.buf);
	strbuf_release(&name);
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
	if (measured) {	/* a warm-up counted would only cost the instrument's time */
		job.count = r->cfg->count;
		job.count_dir = r->count_dir;
	}
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
	/* raw times: the shell's spawn time is subtracted at the end (subtract_shell) */
	if (m.exit_code || m.timed_out)
		cr->failed_runs++;
	ALLOC_GROW(cr->runs, cr->nr_runs + 1, cr->alloc_runs);
	cr->runs[cr->nr_runs++] = m;
	progress_note(r, c);
	return 0;
}

/* One run of the shell with an empty command; 1 when stopped, -1 on error. */
static int probe_shell(struct runner *r, int keep)
{
	const char *argv[] = { r->cfg->shell, "-c", "", NULL };
	struct bench_measurement m;
	struct bench_job job;
	size_t i;

	job_init(r, &job, argv);
	job.input_path = NULL;
	job.output = BENCH_OUTPUT_NULL;
	job.timeout = 0;
	job.count_perf = r->res->perf_available;
	if (r->ex->run(r->ex, &job, &m))
		return trail_error("cannot run the shell '%s' (use --shell=none or -N to run "
			     "commands without one)", r->cfg->shell);
	if (stopped(r))
		return 1;
	if (m.exit_code)
		return trail_error("the shell '%s' exits with status %d on an empty command",
			     r->cfg->shell, m.exit_code);
	if (!keep)
		return 0;
	if (r->nr_probes >= r->alloc_probes) {
		r->alloc_probes = r->alloc_probes ? 2 * r->alloc_probes : 64;
		for (i = 0; i < 3; i++)
			r->probe[i] = xreallocarray(r->probe[i], r->alloc_probes, sizeof(double));
	}
	r->probe[0][r->nr_probes] = m.wall;
	r->probe[1][r->nr_probes] = m.user;
	r->probe[2][r->nr_probes] = m.sys;
	r->nr_probes++;
	return 0;
}

/*
 * Medians of the probes into res->shell_*.  Once there are enough probes
 * from the rounds, only they count: spread over the benchmark like the
 * runs themselves, their median drifts exactly as the runs' medians do.
 */
static void shell_estimate(struct runner *r)
{
	size_t from = 0;

	if (!r->nr_probes)
		return;
	if (r->nr_probes - r->initial_probes >= SHELL_PROBE_RUNS)
		from = r->initial_probes;
	r->res->shell_wall = stats_median(r->probe[0] + from, r->nr_probes - from);
	r->res->shell_user = stats_median(r->probe[1] + from, r->nr_probes - from);
	r->res->shell_sys = stats_median(r->probe[2] + from, r->nr_probes - from);
	r->res->shell_probes = r->nr_probes - from;
}

/*
 * Counting: the empty shell counted once (a count does not drift as a
 * time does), subtracted from every run's count as hyperfine subtracts
 * the shell's time.
 */
static int count_shell(struct runner *r)
{
	const char *argv[] = { r->cfg->shell, "-c", "", NULL };
	struct bench_measurement m;
	struct bench_job job;

	job_init(r, &job, argv);
	job.input_path = NULL;
	job.output = BENCH_OUTPUT_NULL;
	job.timeout = 0;
	job.count = r->cfg->count;
	job.count_dir = r->count_dir;
	if (r->ex->run(r->ex, &job, &m))
		return trail_error("cannot count the shell '%s' under callgrind (use -N to run "
				   "commands without one)", r->cfg->shell);
	if (stopped(r))
		return 1;
	if (m.exit_code || m.count < 0)
		return trail_error("the shell '%s' exits with status %d on an empty command under "
				   "callgrind", r->cfg->shell, m.exit_code);
	r->res->shell_count = (double)m.count;
	return 0;
}

/* The first estimate of the shell's spawn time: 3 warm-ups, then 20 probes. */
static int measure_shell(struct runner *r)
{
	int i, rc;

	for (i = -3; i < SHELL_PROBE_RUNS; i++)
		if ((rc = probe_shell(r, i >= 0)))
			return rc < 0 ? -1 : 0;
	r->initial_probes = r->nr_probes;
	shell_estimate(r);
	return 0;
}

/*
 * When interleaving, the shell is probed again in the rounds (every round
 * for the first SHELL_PROBE_EVERY_ROUND probes, then every tenth), so the
 * subtracted spawn time drifts with the machine exactly as the commands do.
 */
static int probe_in_round(struct runner *r)
{
	if (!r->cfg->shell)
		return 0;
	r->rounds++;
	if (r->nr_probes >= SHELL_PROBE_EVERY_ROUND && r->rounds % 10)
		return 0;
	return probe_shell(r, 1);
}

/* hyperfine's correction: what the shell itself costs is not the command's. */
static void subtract_shell(struct runner *r)
{
	size_t c, i;

	shell_estimate(r);
	for (c = 0; c < r->cfg->nr_commands; c++) {
		struct bench_command_result *cr = &r->res->commands[c];

		for (i = 0; i < cr->nr_runs; i++) {
			if (cr->runs[i].count > 0)
				cr->runs[i].count = (int64_t)fmax(0, (double)cr->runs[i].count -
								   r->res->shell_count);
			cr->runs[i].wall = fmax(0, cr->runs[i].wall - r->res->shell_wall);
			cr->runs[i].user = fmax(0, cr->runs[i].user - r->res->shell_user);
			cr->runs[i].sys = fmax(0, cr->runs[i].sys - r->res->shell_sys);
		}
	}
}

/* hyperfine's rule: as many runs as fit in min_time, within [min_runs, max_runs]. */
static uint64_t adaptive_target(const struct bench_config *cfg, double first_wall,
			       double shell_wall)
{
	double fit;

	first_wall = fmax(0, first_wall - shell_wall);
	uint64_t n;

	if (cfg->runs)
		return cfg->runs;
	if (cfg->count)
		return BENCH_COUNT_RUNS;	/* the second checks the first; see recount_varied() */
	fit = first_wall > 0 ? cfg->min_time / first_wall : 1e9;
	n = fit >= 1e9 ? (uint64_t)1e9 : (uint64_t)ceil(fit);
	if (n < cfg->min_runs)
		n = cfg->min_runs;
	if (cfg->max_runs && n > cfg->max_runs)
		n = cfg->max_runs;
	return n ? n : 1;
}

/*
 * Counting, after BENCH_COUNT_RUNS runs of command c: when its counts
 * differ by more than STATS_EXACT_TOLERANCE they are not exact (a
 * workload that reads the clock, the environment or random numbers, or
 * threads that interleave differently); say so and plan the adaptive
 * number of runs so the statistics decide.  1 when c needs more runs.
 */
static int recount_varied(struct runner *r, size_t c)
{
	const struct bench_config *cfg = r->cfg;
	struct bench_command_result *cr = &r->res->commands[c];
	double *v, spread;
	size_t i;
	uint64_t n;
	char *name;

	if (!cfg->count || cfg->runs || cfg->until_significant || cr->nr_runs < 2 ||
	    r->target[c] != BENCH_COUNT_RUNS)
		return 0;
	v = xmallocarray(cr->nr_runs, sizeof(*v));
	for (i = 0; i < cr->nr_runs; i++)
		v[i] = (double)cr->runs[i].count;
	spread = stats_spread(v, cr->nr_runs);
	free(v);
	if (spread <= STATS_EXACT_TOLERANCE)
		return 0;
	n = cfg->max_runs && cfg->max_runs < cfg->min_runs ? cfg->max_runs : cfg->min_runs;
	name = escape_term_dup(cr->command->name);
	warning("'%s': its %s differ by %.3g%% between two runs (more than %g%%): not exact; "
		"falling back to %llu runs and the Mann-Whitney statistics", name,
		bench_count_name(cfg->count), spread * 100, STATS_EXACT_TOLERANCE * 100,
		(unsigned long long)n);
	free(name);
	r->target[c] = n > BENCH_COUNT_RUNS ? n : BENCH_COUNT_RUNS + 1;
	return 1;
}

static void update_total(struct runner *r)
{
	size_t c;

	r->total = 0;
	for (c = 0; c < r->cfg->nr_commands; c++)
		r->total += r->cfg->warmup + r->target[c];
	r->progress.total = r->total;
}

/*
 * Is every comparison with the reference decided at significance level
 * alpha, Holm-adjusted over them (as the verdicts are)?
 */
static int all_decided(struct runner *r, double alpha)
{
	const struct bench_command_result *ref = &r->res->commands[r->res->reference];
	double *a = xmallocarray(ref->nr_runs, sizeof(double)), *b = NULL;
	double *p = xmallocarray(r->cfg->nr_commands, sizeof(double));
	size_t c, i, m = 0;
	int decided = 1;

	for (i = 0; i < ref->nr_runs; i++)
		a[i] = r->cfg->count ? (double)ref->runs[i].count : ref->runs[i].wall;
	for (c = 0; c < r->cfg->nr_commands && decided; c++) {
		const struct bench_command_result *cr = &r->res->commands[c];
		struct stats_mwu u;

		if (c == r->res->reference)
			continue;
		b = xreallocarray(b, cr->nr_runs ? cr->nr_runs : 1, sizeof(double));
		for (i = 0; i < cr->nr_runs; i++)
			b[i] = r->cfg->count ? (double)cr->runs[i].count : cr->runs[i].wall;
		if (stats_mann_whitney(b, cr->nr_runs, a, ref->nr_runs, &u))
			decided = 0;
		else
			p[m++] = u.p;
	}
	stats_holm_adjust(p, m, p);
	for (i = 0; i < m && decided; i++)
		decided = p[i] < alpha;
	free(a);
	free(b);
	free(p);
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
		if ((rc = probe_in_round(r)))
			return rc;
		shuffle(r, order, nr);
		for (k = 0; k < nr; k++) {
			c = order[k];
			if (r->warm_done[c] < cfg->warmup) {
				rc = run_once(r, c, 0);
			} else {
				int first = !r->res->commands[c].nr_runs;

				rc = run_once(r, c, 1);
				if (!rc && first && !cfg->until_significant) {
					r->target[c] = adaptive_target(cfg, r->res->commands[c].runs[0].wall,
							 r->res->shell_wall);
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
		if (!rc) {
			int more = 0;

			for (c = 0; c < n; c++)
				more |= recount_varied(r, c);
			if (more) {
				update_total(r);
				rc = run_rounds(r, order);
			}
		}
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
				r->target[c] = adaptive_target(cfg, r->res->commands[c].runs[0].wall,
							 r->res->shell_wall);
				update_total(r);
			}
		}
		if (!rc && recount_varied(r, c)) {
			update_total(r);
			while (!rc && r->res->commands[c].nr_runs < r->target[c])
				rc = run_once(r, c, 1);
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
	res->count = cfg->count;
	if (!cfg->nr_commands)
		return trail_error("no command to benchmark");
	if (cfg->until_significant && cfg->nr_commands < 2)
		return trail_error("--until-significant needs at least two commands to compare");
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
	if (cfg->count) {
		r.count_dir = tempdir_create("trail-bench-count");
		if (!r.count_dir)
			goto out_progress;
	}
	if (cfg->shell && measure_shell(&r))
		goto out_progress;
	if (cfg->shell && cfg->count && (rc = count_shell(&r))) {
		if (rc > 0)
			res->interrupted = 1;
		rc = rc > 0 ? 0 : -1;
		goto out_progress;
	}
	if (res->interleaved)
		rc = run_interleaved(&r);
	else
		rc = run_sequential(&r);
	if (rc > 0 || stopped(&r)) {
		res->interrupted = 1;
		rc = 0;
	}
	if (cfg->shell)
		subtract_shell(&r);
out_progress:
	progress_stop(&r.progress);
	if (r.count_dir) {
		tempdir_remove(r.count_dir);
		free(r.count_dir);
	}
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
	for (c = 0; c < 3; c++)
		free(r.probe[c]);
	if (bench_result_analyze(res, cfg) && !rc)
		rc = -1;
	return rc;
}

static int metric_stats(const struct bench_command_result *cr, size_t offset, double scale,
			int is_int, struct stats_summary *out)
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
	rc = stats_summarize(v, cr->nr_runs, out);
	free(v);
	return rc;
}

int bench_result_analyze(struct bench_result *res, const struct bench_config *cfg)
{
	struct bench_command_result *ref;
	struct bench_comparison **family;
	size_t c, i, m = 0;

	(void)cfg;
	for (c = 0; c < res->nr_commands; c++) {
		struct bench_command_result *cr = &res->commands[c];

		free(cr->wall);
		cr->wall = NULL;
		free(cr->count);
		cr->count = NULL;
		cr->has_comparison = 0;
		if (!cr->nr_runs)
			continue;
		if (res->count) {
			cr->count = xmallocarray(cr->nr_runs, sizeof(double));
			for (i = 0; i < cr->nr_runs; i++)
				cr->count[i] = (double)cr->runs[i].count;
			if (stats_summarize(cr->count, cr->nr_runs, &cr->count_stats))
				return -1;
			cr->count_spread = stats_spread(cr->count, cr->nr_runs);
			cr->count_exact = cr->count_spread <= STATS_EXACT_TOLERANCE;
		}
		cr->wall = xmallocarray(cr->nr_runs, sizeof(double));
		for (i = 0; i < cr->nr_runs; i++)
			cr->wall[i] = cr->runs[i].wall;
		if (stats_summarize(cr->wall, cr->nr_runs, &cr->wall_stats) ||
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
		if (res->count) {
			/* counts are compared exactly when both sides' are exact, else by the test */
			if (!bench_compare_exact(ref->count, ref->nr_runs, cr->count, cr->nr_runs,
						 STATS_EXACT_TOLERANCE, &cr->comparison) &&
			    bench_compare(ref->count, ref->nr_runs, cr->count, cr->nr_runs,
					  res->confidence, &cr->comparison))
				return -1;
		} else if (bench_compare(ref->wall, ref->nr_runs, cr->wall, cr->nr_runs,
				  res->confidence, &cr->comparison))
			return -1;
		cr->has_comparison = 1;
	}
	/* the verdicts together: Holm over the commands compared with the reference */
	family = xmallocarray(res->nr_commands, sizeof(*family));
	for (c = 0; c < res->nr_commands; c++)
		if (res->commands[c].has_comparison)
			family[m++] = &res->commands[c].comparison;
	bench_compare_family(family, m);
	free(family);
	return 0;
}

void bench_result_release(struct bench_result *res)
{
	size_t c;

	for (c = 0; c < res->nr_commands; c++) {
		free(res->commands[c].runs);
		free(res->commands[c].wall);
		free(res->commands[c].count);
	}
	free(res->commands);
	memset(res, 0, sizeof(*res));
}
