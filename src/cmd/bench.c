/*
 * bench.c - 'trail bench': options -> struct bench_config -> the runner of
 * src/bench -> report, exports and the baseline guard.  Glue only; the
 * engine (scheduler, executor, statistics, exporters) is in src/bench.
 */
#include "bench/baseline.h"
#include "bench/bench.h"
#include "bench/export.h"
#include "bench/params.h"
#include "bench/report.h"
#include "cmd/commands.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/parse_number.h"
#include "core/string_list.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static const char *const bench_usage[] = {
	"trail bench [options] COMMAND [COMMAND...]",
	"",
	"Benchmark commands: run each many times (interleaved, so drift of the machine",
	"hits all alike), report median, mean, spread, percentiles, CPU time and peak",
	"memory, and compare each command with the first: ratio of medians with a",
	"bootstrap confidence interval and a Mann-Whitney U verdict (faster, slower or",
	"no significant difference).  --baseline guards CI against real regressions.",
	"--metric instructions counts each run under callgrind instead: exact counts,",
	"compared exactly, twice a command unless the counts vary.",
	NULL
};

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	stop_requested = sig;	/* non-zero: stop; which one sets the exit status */
}

/* Everything the command line says, before it becomes a struct bench_config. */
struct bench_opts {
	struct bench_param params[BENCH_MAX_PARAMS];
	size_t nr_params;
	const char *scans[BENCH_MAX_PARAMS];	/* -P arguments, NULL for -L */
	const char *step;
	double max_regression;	/* fraction */
	int max_regression_set;
	const char *shell, *output, *baseline_path, *save_baseline;
	const char *export_json, *export_csv, *export_md, *export_svg;
	uint64_t warmup, runs, min_runs, max_runs, reference, seed;
	double min_time, timeout, confidence;
	int no_shell, ignore_failure, interleave, until_significant, count_perf, quiet;
	int metric;		/* enum bench_count: what is compared (--metric) */
	struct string_list names;	/* --command-name */
};

static void bench_opts_init(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reference = 1;
	o->seed = 0x5eed;
	o->min_time = -1;
	o->confidence = 0.95;
	o->interleave = 1;
}

static void bench_opts_release(struct bench_opts *o)
{
	size_t i;

	for (i = 0; i < o->nr_params; i++) {
		free((char *)o->params[i].name);
		bench_param_release(&o->params[i]);
	}
	string_list_clear(&o->names);
}

/* "-P NAME START END" arrives as "NAME\nSTART\nEND" (see join_multi_args);
 * expanded after parsing, so -D/--step may come anywhere. */
static int opt_scan(const struct option *opt, const char *arg)
{
	struct bench_opts *o = opt->value;	/* the options table points at the context */
	size_t lines = 0;
	const char *p;

	for (p = arg; *p; p++)
		lines += *p == '\n';
	if (lines != 2)
		return trail_error("option '--parameter-scan' expects NAME START END");
	if (o->nr_params >= BENCH_MAX_PARAMS)
		return trail_error("at most %d parameters can be scanned", BENCH_MAX_PARAMS);
	o->scans[o->nr_params++] = arg;
	return 0;
}

/* Turn the -P arguments remembered by opt_scan into parameter values. */
static int expand_scans(struct bench_opts *o)
{
	size_t i;

	for (i = 0; i < o->nr_params; i++) {
		struct string_list parts = STRING_LIST_INIT;
		int rc;

		if (!o->scans[i])
			continue;
		string_list_split(&parts, o->scans[i], '\n');
		rc = bench_param_range(&o->params[i], xstrdup(parts.items[0]), parts.items[1],
				       parts.items[2], o->step);
		string_list_clear(&parts);
		if (rc)
			return -1;
	}
	return 0;
}

static int opt_list(const struct option *opt, const char *arg)
{
	struct bench_opts *o = opt->value;	/* the options table points at the context */
	const char *nl = strchr(arg, '\n');
	int rc;

	if (o->nr_params >= BENCH_MAX_PARAMS)
		return trail_error("at most %d parameters can be scanned", BENCH_MAX_PARAMS);
	if (!nl)
		return trail_error("option '--parameter-list' expects NAME VALUES (e.g. -L cc gcc,clang)");
	rc = bench_param_list(&o->params[o->nr_params], xstrndup(arg, (size_t)(nl - arg)), nl + 1);
	o->nr_params++;
	return rc;
}

static int opt_max_regression(const struct option *opt, const char *arg)
{
	struct bench_opts *o = opt->value;	/* the options table points at the context */
	int pct;

	if (parse_amount_or_percent(arg, &o->max_regression, &pct))
		return trail_error("option '--max-regression' expects e.g. 5%% or 0.05, not '%s'", arg);
	/*
	 * A bare 5 could mean 5% or 500%: a CI gate read the wrong way never
	 * fails, so a bare number must be a fraction below 1.
	 */
	if (!pct && o->max_regression >= 1)
		return trail_error("option '--max-regression' is ambiguous as '%s': write a percentage "
			     "('%s%%') or a fraction below 1 ('0.05' for 5%%)", arg, arg);
	if (pct)
		o->max_regression /= 100;
	o->max_regression_set = 1;
	return 0;
}

/*
 * The option parser takes one value per option; hyperfine's -P takes three
 * and -L two.  Join them here into one argument with newlines.
 */
static const char **join_multi_args(int argc, const char **argv, struct string_list *keep,
				    int *new_argc)
{
	const char **out = xcalloc((size_t)argc + 1, sizeof(*out));
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int extra = 0;

		if (i && !strcmp(a, "--")) {
			for (; i < argc; i++)
				out[n++] = argv[i];
			break;
		}
		if (i && (!strcmp(a, "-P") || !strcmp(a, "--parameter-scan")))
			extra = 3;
		else if (i && (!strcmp(a, "-L") || !strcmp(a, "--parameter-list")))
			extra = 2;
		if (!extra) {
			out[n++] = a;
			continue;
		}
		if (i + extra >= argc) {
			/* leave it to the parser, which says what is missing */
			out[n++] = a;
			continue;
		}
		{
			char *joined = extra == 3 ?
				xstrfmt("--parameter-scan=%s\n%s\n%s", argv[i + 1], argv[i + 2], argv[i + 3]) :
				xstrfmt("--parameter-list=%s\n%s", argv[i + 1], argv[i + 2]);

			string_list_append_nodup(keep, joined);
			out[n++] = joined;
			i += extra;
		}
	}
	out[n] = NULL;
	*new_argc = n;
	return out;
}

static int parse_output(const char *arg, struct bench_config *cfg)
{
	if (!arg || !strcmp(arg, "null"))
		cfg->output = BENCH_OUTPUT_NULL;
	else if (!strcmp(arg, "pipe"))
		cfg->output = BENCH_OUTPUT_PIPE;
	else if (!strcmp(arg, "inherit"))
		cfg->output = BENCH_OUTPUT_INHERIT;
	else if (!*arg)
		return trail_error("option '--output' expects null, pipe, inherit or a file name");
	else {
		cfg->output = BENCH_OUTPUT_FILE;
		cfg->output_path = arg;
	}
	return 0;
}

static int write_report(const struct strbuf *sb, FILE *f)
{
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len || fflush(f))
		return error_errno("cannot write the report");
	return 0;
}

static int is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

static const struct option_choice metrics[] = {
	{ "time", BENCH_COUNT_NONE }, { "instructions", BENCH_COUNT_INSTRUCTIONS },
	{ "est-cycles", BENCH_COUNT_EST_CYCLES }, { NULL, 0 }
};

/* Parse argv (after join_multi_args()) into o and cfg; the number of commands left in argv. */
static int parse_bench_options(int argc, const char **argv, struct bench_opts *o,
			       struct bench_config *cfg)
{
	struct option options[] = {
		OPT_GROUP("running"),
		OPT_U64('w', "warmup", &o->warmup, "N", "unmeasured runs per command first (default 0)", 0, 1e9),
		OPT_U64('r', "runs", &o->runs, "N", "exactly N runs per command", 1, 1e9),
		OPT_U64('m', "min-runs", &o->min_runs, "N", "at least N runs per command (default 10)", 1, 1e9),
		OPT_U64('M', "max-runs", &o->max_runs, "N", "at most N runs per command", 1, 1e9),
		OPT_SECONDS(0, "min-time", &o->min_time, "SECONDS", "run each command for at least this long (default 3s)"),
		OPT_STRING('p', "prepare", &cfg->prepare, "CMD", "run CMD before every run (not measured)"),
		OPT_STRING('s', "setup", &cfg->setup, "CMD", "run CMD once per command before its runs"),
		OPT_STRING('c', "cleanup", &cfg->cleanup, "CMD", "run CMD once per command after its runs"),
		OPT_STRING('S', "shell", &o->shell, "SHELL", "shell for the commands (default sh; 'none' for none)"),
		OPT_FLAG('N', "no-shell", &o->no_shell, "run commands without a shell (split into words)"),
		OPT_FLAG('i', "ignore-failure", &o->ignore_failure, "measure commands that exit non-zero"),
		OPT_SECONDS(0, "timeout", &o->timeout, "SECONDS", "kill a run after this long (a failure)"),
		OPT_STRING(0, "input", &cfg->input, "FILE", "stdin of the commands (default /dev/null)"),
		OPT_STRING(0, "output", &o->output, "WHERE", "commands' output: null (default), pipe, inherit or a FILE"),
		OPT_FLAG(0, "interleave", &o->interleave, "alternate commands run by run (default; --no-interleave)"),
		OPT_U64(0, "seed", &o->seed, "N", "seed of the shuffled run order", 0, 1.8e19),
		OPT_FLAG(0, "perf", &o->count_perf, "also count context switches, page faults, migrations with perf_event_open"),
		OPT_CHOICE(0, "metric", &o->metric, NULL, "what is compared: time (default), instructions or est-cycles (counted under callgrind: exact, 2 runs a command)", metrics),
		OPT_GROUP("parameters"),
		OPT_CALLBACK('P', "parameter-scan", o, "NAME START END", "run with {NAME} = START, START+STEP, ... END", opt_scan),
		OPT_STRING('D', "step", &o->step, "STEP", "step of the -P scans (default 1)"),
		OPT_CALLBACK('L', "parameter-list", o, "NAME A,B,C", "run with {NAME} = each value", opt_list),
		OPT_STRING_LIST('n', "command-name", &o->names, "NAME", "name the commands in reports (repeatable, in order)"),
		OPT_GROUP("statistics"),
		OPT_DOUBLE(0, "confidence", &o->confidence, "P", "confidence of intervals and verdicts (default 0.95)", 0.5, 0.9999),
		OPT_U64(0, "reference", &o->reference, "N", "compare with the N-th command (default 1)", 1, 1e9),
		OPT_FLAG(0, "until-significant", &o->until_significant, "run until every comparison is decided (up to --max-runs, default 100)"),
		OPT_GROUP("output"),
		OPT_STRING(0, "export-json", &o->export_json, "FILE", "every run's values and the summary as JSON ('-' for stdout)"),
		OPT_STRING(0, "export-csv", &o->export_csv, "FILE", "summary table as CSV"),
		OPT_STRING(0, "export-markdown", &o->export_md, "FILE", "summary table as Markdown"),
		OPT_STRING(0, "export-svg", &o->export_svg, "FILE", "plot of each command's run distribution"),
		OPT_FLAG(0, "quiet", &o->quiet, "no progress line (as trail -q)"),
		OPT_GROUP("regression guard"),
		OPT_STRING(0, "save-baseline", &o->save_baseline, "FILE", "save this result as a baseline (JSON)"),
		OPT_STRING(0, "baseline", &o->baseline_path, "FILE", "compare with a saved baseline; exit 3 on a real regression"),
		OPT_CALLBACK(0, "max-regression", o, "PCT", "allowed slowdown for --baseline: 5% or 0.05 (default 0%)", opt_max_regression),
		OPT_END()
	};

	return cmd_parse_options(argc, argv, options, bench_usage, 0);
}

/* Contradictions among the options alone, found before anything runs: 0 or -1 (said). */
static int check_options(const struct bench_opts *o, int n)
{
	if (!n)
		return trail_error("no command to benchmark");
	if (o->runs && (o->min_runs || o->max_runs))
		return trail_error("--runs cannot be combined with --min-runs or --max-runs");
	if (o->min_runs && o->max_runs && o->min_runs > o->max_runs)
		return trail_error("--min-runs %llu is larger than --max-runs %llu",
			     (unsigned long long)o->min_runs, (unsigned long long)o->max_runs);
	if (o->until_significant && o->runs)
		return trail_error("--until-significant decides the number of runs itself; use "
			     "--max-runs, not --runs");
	if (o->max_regression_set && !o->baseline_path)
		return trail_error("--max-regression needs --baseline FILE");
	if (o->shell && o->no_shell && strcmp(o->shell, "none"))
		return trail_error("-N (--no-shell) and --shell=%s contradict each other", o->shell);
	if (o->shell && !*o->shell)
		return trail_error("--shell needs a shell, or 'none'");
	if (o->step && !o->nr_params)
		return trail_error("--step needs a parameter scan (-P NAME START END)");
	if (o->names.nr > (size_t)n)
		return trail_error("%zu --command-name options for %d commands", o->names.nr, n);
	return 0;
}

/* The commands (args, n) with their parameters expanded, checked against the options. */
static int build_plan(struct bench_opts *o, const char **args, int n, const struct bench_config *cfg,
		      struct bench_plan *plan)
{
	size_t i;

	if (expand_scans(o) || bench_plan_build(plan, args, (size_t)n,
						 (const char *const *)o->names.items,
						 o->names.nr, o->params, o->nr_params))
		return -1;
	for (i = 0; !cfg->shell && i < plan->nr; i++) {
		/* a command that cannot be split is a usage error, found before running */
		char **words = bench_split_words(plan->commands[i].cmdline);

		if (!words)
			return -1;
		bench_words_free(words);
	}
	if (o->reference > plan->nr)
		return trail_error("--reference %llu, but there are only %zu commands",
			     (unsigned long long)o->reference, plan->nr);
	if (o->until_significant && plan->nr < 2)
		return trail_error("--until-significant needs at least two commands to compare");
	return 0;
}

static void configure(const struct bench_opts *o, const struct bench_plan *plan,
		      struct bench_config *cfg)
{
	cfg->commands = plan->commands;
	cfg->nr_commands = plan->nr;
	cfg->warmup = o->warmup;
	cfg->runs = o->runs;
	if (o->min_runs)
		cfg->min_runs = o->min_runs;
	if (o->max_runs && o->max_runs < cfg->min_runs && !o->min_runs)
		cfg->min_runs = o->max_runs;
	cfg->max_runs = o->max_runs;
	if (o->min_time >= 0)
		cfg->min_time = o->min_time;
	cfg->ignore_failure = o->ignore_failure;
	cfg->timeout = o->timeout;
	cfg->interleave = o->interleave;
	cfg->seed = o->seed;
	cfg->until_significant = o->until_significant;
	cfg->confidence = o->confidence;
	cfg->reference = (size_t)o->reference - 1;
	cfg->count_perf = o->count_perf;
	cfg->count = (enum bench_count)o->metric;
	cfg->show_progress = !trail_quiet && isatty(2);
	cfg->stop = &stop_requested;
}

/* Run the benchmark with SIGINT/SIGTERM stopping it early (a partial report). */
static int run_benchmark(struct bench_config *cfg, struct bench_result *res)
{
	struct sigaction sa, old_int, old_term;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;	/* no SA_RESTART: a blocked wait returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	ret = bench_run_commands(cfg, res);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return ret;
}

/* The exports asked for; EXIT_OK or EXIT_FAILURE_ when one could not be written. */
static int write_exports(const struct bench_opts *o, const struct bench_export_context *ctx)
{
	struct { const struct bench_exporter *e; const char *path; } ex[] = {
		{ &bench_export_json, o->export_json },
		{ &bench_export_csv, o->export_csv },
		{ &bench_export_markdown, o->export_md },
		{ &bench_export_svg, o->export_svg },
		{ &bench_export_json, o->save_baseline },
	};
	int status = EXIT_OK;
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++)
		if (ex[i].path && bench_export_file(ex[i].e, ctx, ex[i].path))
			status = EXIT_FAILURE_;
	return status;
}

/* Say which commands regressed against the baseline. */
static void say_regressions(const struct bench_result *res, const struct bench_regression *regs,
			    size_t nr, double allowed)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct stats_ratio *r = &regs[i].cmp.median_ratio;
		char *name;

		if (!regs[i].regressed)
			continue;
		name = escape_term_dup(res->commands[regs[i].command].command->name);
		if (regs[i].cmp.exact)
			trail_error("'%s' regressed: %+.3f%% %s against the baseline (exact counts, "
				    "allowed %g%%)", name, (r->estimate - 1) * 100,
				    bench_count_unit(res->count), allowed * 100);
		else
			trail_error("'%s' regressed: %.1f%% slower than the baseline "
		      "(%g%% interval %.1f%% … %.1f%%, allowed %g%%)", name,
		      (r->estimate - 1) * 100, res->confidence * 100,
		      (r->lo - 1) * 100, (r->hi - 1) * 100, allowed * 100);
		free(name);
	}
}

/* Report, baseline comparison and exports of a finished (or interrupted) run: the exit status. */
static int report_result(const struct bench_opts *o, const struct bench_config *cfg,
			 struct bench_result *res, const struct bench_baseline *baseline,
			 int status)
{
	struct bench_regression *regressions = NULL;
	struct strbuf report = STRBUF_INIT;
	size_t nr_compared = 0, c;
	int nr_regressions = 0;

	if (status == EXIT_OK || res->interrupted) {
		for (c = 0; c < res->nr_commands; c++)
			bench_report_command(&report, res, c);
		bench_report_summary(&report, res);
	}
	if (status == EXIT_OK && o->baseline_path) {
		int r = bench_baseline_compare(baseline, res, o->max_regression, &regressions,
					       &nr_compared);

		if (r < 0) {
			status = EXIT_USAGE;
		} else {
			nr_regressions = r;
			bench_report_baseline(&report, res, regressions, nr_compared, o->max_regression);
		}
	}
	/* When an export goes to stdout, the report steps aside to stderr. */
	if (write_report(&report, is_stdout(o->export_json) || is_stdout(o->export_csv) ||
			 is_stdout(o->export_md) || is_stdout(o->export_svg) ||
			 is_stdout(o->save_baseline) ? stderr : stdout) && status == EXIT_OK)
		status = EXIT_FAILURE_;
	if (status == EXIT_OK || res->interrupted) {
		struct bench_export_context ctx = {
			res, cfg, o->baseline_path, regressions, nr_compared, o->max_regression
		};

		bench_report_warnings(res, cfg);
		if (res->interrupted)
			warning("interrupted: the report covers only the runs measured so far");
		if (write_exports(o, &ctx) && status == EXIT_OK)
			status = EXIT_FAILURE_;
	}
	if (status == EXIT_OK && res->interrupted)
		status = stop_requested ? 128 + stop_requested : EXIT_INTERRUPTED;
	if (status == EXIT_OK && nr_regressions) {
		say_regressions(res, regressions, nr_compared, o->max_regression);
		status = EXIT_REGRESSION;
	}
	free(regressions);
	strbuf_release(&report);
	return status;
}

int cmd_bench(int argc, const char **argv)
{
	struct bench_opts o;
	struct bench_config cfg;
	struct bench_result res;
	struct bench_plan plan;
	struct bench_baseline baseline;
	struct string_list keep = STRING_LIST_INIT;
	const char **args;
	int n, status = EXIT_USAGE;

	bench_opts_init(&o);
	memset(&baseline, 0, sizeof(baseline));
	memset(&plan, 0, sizeof(plan));
	bench_config_init(&cfg);
	args = join_multi_args(argc, argv, &keep, &n);
	n = parse_bench_options(n, args, &o, &cfg);
	if (o.quiet)
		trail_quiet = 1;
	if (check_options(&o, n))
		goto usage;
	cfg.shell = o.no_shell || (o.shell && !strcmp(o.shell, "none")) ? NULL :
		    o.shell ? o.shell : "sh";
	if (parse_output(o.output, &cfg))
		goto usage;
	if (cfg.input && access(cfg.input, R_OK)) {
		error_errno("cannot read the input file '%s'", cfg.input);
		goto out;
	}
	if (build_plan(&o, args, n, &cfg, &plan))
		goto usage;
	/* A broken baseline is found before minutes of benchmarking, not after. */
	if (o.baseline_path && bench_baseline_read(o.baseline_path, &baseline))
		goto out;
	configure(&o, &plan, &cfg);
	status = run_benchmark(&cfg, &res) ? EXIT_FAILURE_ : EXIT_OK;
	status = report_result(&o, &cfg, &res, &baseline, status);
	bench_result_release(&res);
	goto out;
usage:
	fprintf(stderr, "see '%s --help'\n", error_program());
out:
	bench_baseline_release(&baseline);
	bench_plan_release(&plan);
	bench_opts_release(&o);
	string_list_clear(&keep);
	free(args);
	return status;
}
