/*
 * test_bench_runner.c - the scheduler, exporters, baseline guard and
 * parameter scans of trail bench, driven by a mock executor that returns
 * made-up timings at once: nothing here sleeps or forks a command.
 *
 * The mock understands argv words: "sleep X" takes X seconds (plus a small
 * deterministic jitter), "fail N" exits N, "nosuch" cannot start, "sh -c S"
 * costs MOCK_SHELL seconds plus S; every call is logged.
 */
#include "bench/baseline.h"
#include "core/verdict.h"
#include "bench/bench.h"
#include "bench/export.h"
#include "core/json.h"
#include "bench/params.h"
#include "bench/report.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define MOCK_SHELL 0.010

struct mock {
	struct strbuf log;		/* one line per call: the joined argv */
	size_t calls;
	size_t stop_after;		/* set *stop after this many calls (0: never) */
	volatile sig_atomic_t *stop;
	double scale;			/* multiply "sleep" times (e.g. 2 for a slowdown) */
	double drift;			/* seconds added to every call per call so far */
	double count_noise;		/* counted runs: relative jitter of the counts (0: exact) */
	uint64_t jitter_state;
};

static double mock_jitter(struct mock *m)
{
	/* a small LCG: +-2% noise, deterministic */
	m->jitter_state = m->jitter_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(m->jitter_state >> 40) / (double)(1ULL << 24) - 0.5) * 0.04;
}

static int mock_run(struct bench_executor *ex, const struct bench_job *job,
		    struct bench_measurement *out)
{
	struct mock *m = ex->data;
	const char *const *argv = job->argv;
	double t = 0.001, nominal = t;	/* nominal: without the jitter */
	size_t i;

	memset(out, 0, sizeof(*out));
	m->calls++;
	for (i = 0; argv[i]; i++)
		strbuf_addf(&m->log, "%s%s", i ? " " : "", argv[i]);
	strbuf_addch(&m->log, '\n');
	if (m->stop_after && m->calls >= m->stop_after && m->stop)
		*m->stop = 1;
	if (!strcmp(argv[0], "sh") && argv[1] && !strcmp(argv[1], "-c")) {
		const char *s = argv[2];

		t = nominal = MOCK_SHELL;
		if (!strncmp(s, "sleep ", 6)) {
			nominal += strtod(s + 6, NULL) * m->scale;
			t += strtod(s + 6, NULL) * m->scale * (1 + mock_jitter(m));
		}
		else if (!strncmp(s, "fail ", 5))
			out->exit_code = atoi(s + 5);
	} else if (!strcmp(argv[0], "nosuch")) {
		return trail_error("cannot run 'nosuch': No such file or directory");
	} else if (!strcmp(argv[0], "sleep") && argv[1]) {
		nominal = strtod(argv[1], NULL) * m->scale;
		t = nominal * (1 + mock_jitter(m));
	} else if (!strcmp(argv[0], "fail") && argv[1]) {
		out->exit_code = atoi(argv[1]);
	}
	out->wall = t + m->drift * (double)m->calls;
	out->user = t / 10;
	out->sys = t / 20;
	out->max_rss = 1000 + (int64_t)(m->calls % 7);
	out->perf_csw = out->perf_faults = out->perf_migrations = BENCH_COUNTER_NONE;
	/* counted: a nanosecond of the made-up time is an instruction, exact unless count_noise */
	out->count = BENCH_COUNTER_NONE;
	if (job->count != BENCH_COUNT_NONE)
		out->count = (int64_t)(nominal * 1e9 * (1 + m->count_noise * (double)(m->calls % 5)));
	return 0;
}

static struct mock mock;
static struct bench_executor mock_executor = { "mock", mock_run, &mock };
static volatile sig_atomic_t stop_flag;

static void setup(struct bench_config *cfg, struct bench_command *cmds, const char *a,
		  const char *b)
{
	memset(&mock, 0, sizeof(mock));
	strbuf_init(&mock.log, 0);
	mock.scale = 1;
	mock.jitter_state = 1;
	stop_flag = 0;
	memset(cmds, 0, 2 * sizeof(*cmds));
	cmds[0].name = cmds[0].cmdline = a;
	cmds[1].name = cmds[1].cmdline = b;
	bench_config_init(cfg);
	cfg->commands = cmds;
	cfg->nr_commands = b ? 2 : 1;
	cfg->shell = NULL;
	cfg->executor = &mock_executor;
	cfg->stop = &stop_flag;
}

static size_t count_lines(const char *log, const char *line)
{
	size_t n = 0, len = strlen(line);
	const char *p = log;

	while (*p) {
		const char *nl = strchr(p, '\n');

		if ((size_t)(nl - p) == len && !strncmp(p, line, len))
			n++;
		p = nl + 1;
	}
	return n;
}

TEST(adaptive_run_count_fills_min_time)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "sleep 0.5", NULL);
	cfg.min_runs = 2;
	cfg.min_time = 3;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	/* 3 s / ~0.5 s per run: 6 or 7 runs (the first run's jitter decides) */
	CHECK(res.commands[0].nr_runs >= 6 && res.commands[0].nr_runs <= 7);
	bench_result_release(&res);

	setup(&cfg, cmds, "sleep 0.5", NULL);
	cfg.min_time = 3;
	cfg.max_runs = 4;
	cfg.min_runs = 2;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 4);
	bench_result_release(&res);

	setup(&cfg, cmds, "sleep 0.001", NULL);
	cfg.min_time = 0;	/* then min_runs rules */
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 10);
	bench_result_release(&res);

	setup(&cfg, cmds, "sleep 0.5", NULL);
	cfg.runs = 3;
	cfg.warmup = 2;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 3);
	CHECK_INT(mock.calls, 5);
	bench_result_release(&res);
}

TEST(interleaved_rounds_alternate_commands)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	const char *p;
	int prev = -1, switches = 0;

	setup(&cfg, cmds, "sleep 0.01", "sleep 0.02");
	cfg.runs = 20;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK(res.interleaved);
	CHECK_INT(res.commands[0].nr_runs, 20);
	CHECK_INT(res.commands[1].nr_runs, 20);
	/* every round runs both once, so within each pair of calls both appear */
	for (p = mock.log.buf; *p; p = strchr(p, '\n') + 1) {
		int which = !strncmp(p, "sleep 0.02", 10);

		if (prev >= 0 && which != prev)
			switches++;
		prev = which;
	}
	CHECK(switches >= 19);	/* sequential order would switch once */
	CHECK_INT(count_lines(mock.log.buf, "sleep 0.01"), 20);
	bench_result_release(&res);

	setup(&cfg, cmds, "sleep 0.01", "sleep 0.02");
	cfg.runs = 5;
	cfg.interleave = 0;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK(!res.interleaved);
	CHECK_STREQ(mock.log.buf, "sleep 0.01\nsleep 0.01\nsleep 0.01\nsleep 0.01\nsleep 0.01\n"
				  "sleep 0.02\nsleep 0.02\nsleep 0.02\nsleep 0.02\nsleep 0.02\n");
	bench_result_release(&res);
}

TEST(interleaved_order_is_shuffled_but_seeded)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	char *first;

	setup(&cfg, cmds, "sleep 0.01", "sleep 0.02");
	cfg.runs = 30;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	bench_result_release(&res);
	first = strbuf_detach(&mock.log, NULL);
	/* not plain round-robin: some round starts with the second command */
	CHECK(strstr(first, "sleep 0.02\nsleep 0.02\n") || strstr(first, "sleep 0.01\nsleep 0.01\n"));
	setup(&cfg, cmds, "sleep 0.01", "sleep 0.02");
	cfg.runs = 30;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_STREQ(mock.log.buf, first);
	bench_result_release(&res);
	free(first);
}

TEST(hooks_run_when_documented)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "sleep 0.01", "sleep 0.02");
	cfg.runs = 3;
	cfg.warmup = 1;
	cfg.prepare = "prep";
	cfg.setup = "set up";
	cfg.cleanup = "clean up";
	cfg.interleave = 0;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_STREQ(mock.log.buf,
		    "set up\nprep\nsleep 0.01\nprep\nsleep 0.01\nprep\nsleep 0.01\nprep\nsleep 0.01\n"
		    "clean up\n"
		    "set up\nprep\nsleep 0.02\nprep\nsleep 0.02\nprep\nsleep 0.02\nprep\nsleep 0.02\n"
		    "clean up\n");
	bench_result_release(&res);

	setup(&cfg, cmds, "sleep 0.01", NULL);
	cfg.runs = 2;
	cfg.prepare = "fail 4";
	CHECK_INT(bench_run_commands(&cfg, &res), -1);
	bench_result_release(&res);
}

TEST(shell_spawn_time_is_subtracted)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "sleep 0.05", "sleep 0.1");
	cfg.shell = "sh";
	cfg.runs = 30;
	cfg.interleave = 0;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_NEAR(res.shell_wall, MOCK_SHELL, 1e-12);
	/* sequential: 3 warm-ups and 20 probes first, none later */
	CHECK_INT(count_lines(mock.log.buf, "sh -c "), 23);
	CHECK_INT(res.shell_probes, 20);
	CHECK_NEAR(res.commands[0].wall_stats.median, 0.05, 0.05 * 0.03);
	CHECK_NEAR(res.commands[1].wall_stats.median, 0.1, 0.1 * 0.03);
	bench_result_release(&res);

	/* interleaved: one more probe per round, and those alone make the estimate */
	setup(&cfg, cmds, "sleep 0.05", "sleep 0.1");
	cfg.shell = "sh";
	cfg.runs = 30;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(count_lines(mock.log.buf, "sh -c "), 23 + 30);
	CHECK_INT(res.shell_probes, 30);
	CHECK_NEAR(res.commands[1].wall_stats.median, 0.1, 0.1 * 0.03);
	bench_result_release(&res);
}

TEST(shell_correction_follows_drift)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	double drift_total;

	/* a machine getting slower by 0.5 ms per call: ~60 ms over the benchmark */
	setup(&cfg, cmds, "sleep 0.05", "sleep 0.1");
	cfg.shell = "sh";
	cfg.runs = 30;
	mock.drift = 0.0005;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	drift_total = mock.drift * (double)mock.calls;
	CHECK(drift_total > 0.05);
	/* the interleaved probes drift with the runs, so the medians stay right
	 * within a few calls' worth of drift (the initial estimate would be ~35 ms off) */
	CHECK_NEAR(res.commands[0].wall_stats.median, 0.05, 0.05 * 0.03 + 4 * mock.drift);
	CHECK_NEAR(res.commands[1].wall_stats.median, 0.1, 0.1 * 0.03 + 4 * mock.drift);
	bench_result_release(&res);
}

TEST(failures_and_ignore_failure)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "fail 3", NULL);
	cfg.runs = 4;
	CHECK_INT(bench_run_commands(&cfg, &res), -1);
	CHECK_INT(res.commands[0].nr_runs, 0);
	CHECK_INT(mock.calls, 1);	/* stops at the first failure */
	bench_result_release(&res);

	setup(&cfg, cmds, "fail 3", NULL);
	cfg.runs = 4;
	cfg.ignore_failure = 1;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 4);
	CHECK_INT(res.commands[0].failed_runs, 4);
	CHECK_INT(res.commands[0].runs[0].exit_code, 3);
	bench_result_release(&res);

	/* a program that cannot start is an error even with --ignore-failure */
	setup(&cfg, cmds, "nosuch", NULL);
	cfg.runs = 4;
	cfg.ignore_failure = 1;
	CHECK_INT(bench_run_commands(&cfg, &res), -1);
	bench_result_release(&res);
}

TEST(stop_flag_keeps_what_was_measured)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "sleep 0.01", "sleep 0.02");
	cfg.runs = 50;
	mock.stop = &stop_flag;
	mock.stop_after = 7;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK(res.interrupted);
	/* the 7th run was cut short and is discarded */
	CHECK_INT(res.commands[0].nr_runs + res.commands[1].nr_runs, 6);
	CHECK(res.commands[0].wall_stats.n == res.commands[0].nr_runs);
	bench_result_release(&res);
}

TEST(until_significant_stops_when_decided)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "sleep 0.1", "sleep 0.2");
	cfg.until_significant = 1;
	cfg.min_runs = 2;
	cfg.max_runs = 40;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK(res.commands[1].has_comparison);
	CHECK_INT(res.commands[1].comparison.verdict, DIRECTION_SLOWER);
	CHECK(res.commands[0].nr_runs < 40);
	CHECK(res.confidence > 0.95);	/* Bonferroni over the planned looks */
	bench_result_release(&res);

	/*
	 * Identical commands: the looks together decide wrongly at most 5% of
	 * the time (Bonferroni over them, each test exact): over 200 jitter
	 * sequences, at most 10 plus two standard errors (6.2).  With exact
	 * p-values the first look (5 runs a side) can decide: the very first
	 * sequence, whose jitter alternates in sign between the two commands,
	 * separates them completely, which happens with probability 2/252.
	 */
	{
		unsigned seed, decided = 0, decided_early = 0;

		for (seed = 1; seed <= 200; seed++) {
			setup(&cfg, cmds, "sleep 0.1", "sleep 0.1");
			mock.jitter_state = seed * 0x9e3779b97f4a7c15ULL;
			cfg.until_significant = 1;
			cfg.min_runs = 2;
			cfg.max_runs = 30;
			CHECK_INT(bench_run_commands(&cfg, &res), 0);
			decided += res.commands[1].comparison.verdict != DIRECTION_SAME;
			decided_early += res.commands[0].nr_runs < 30;
			bench_result_release(&res);
			strbuf_release(&mock.log);
		}
		CHECK(decided <= 16);
		CHECK(decided_early <= decided);	/* stopping early is deciding */
	}
}

static void run_two(struct bench_result *res, struct bench_config *cfg,
		    struct bench_command *cmds, double scale)
{
	setup(cfg, cmds, "sleep 0.05", "sleep 0.1");
	cfg->runs = 12;
	mock.scale = scale;
	CHECK_INT(bench_run_commands(cfg, res), 0);
}

TEST(json_export_round_trips)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	struct bench_export_context ctx;
	struct strbuf sb = STRBUF_INIT;
	struct json_value doc;
	const struct json_value *results, *r1, *cmp;

	run_two(&res, &cfg, cmds, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.res = &res;
	ctx.cfg = &cfg;
	CHECK_INT(bench_export_json.write(&ctx, &sb), 0);
	CHECK_INT(json_parse(sb.buf, sb.len, "export", &doc), 0);
	results = json_get(&doc, "results");
	CHECK(results && results->type == JSON_ARRAY && results->len == 2);
	r1 = &results->items[1];
	CHECK_STREQ(json_get(r1, "command")->string, "sleep 0.1");
	CHECK_INT(json_get(r1, "times")->len, 12);
	CHECK_INT(json_get(r1, "exit_codes")->len, 12);
	CHECK_NEAR(json_get(r1, "median")->number, res.commands[1].wall_stats.median, 1e-9);
	cmp = json_get(r1, "comparison");
	CHECK(cmp != NULL);
	CHECK_STREQ(json_get(cmp, "verdict")->string, "slower");
	CHECK_INT(json_get(cmp, "median_ratio_ci")->len, 2);
	CHECK(json_get(&results->items[0], "comparison") == NULL);
	json_release(&doc);
	strbuf_release(&sb);
	bench_result_release(&res);
}

TEST(csv_markdown_svg_exports)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	struct bench_export_context ctx;
	struct strbuf sb = STRBUF_INIT;

	run_two(&res, &cfg, cmds, 1);
	memset(&ctx, 0, sizeof(ctx));
	ctx.res = &res;
	ctx.cfg = &cfg;
	CHECK_INT(bench_export_csv.write(&ctx, &sb), 0);
	CHECK(!strncmp(sb.buf, "command,mean,stddev,median,user,system,min,max,", 47));
	CHECK(strstr(sb.buf, "\nsleep 0.05,") != NULL);
	CHECK(strstr(sb.buf, ",slower\n") != NULL);
	strbuf_reset(&sb);
	CHECK_INT(bench_export_markdown.write(&ctx, &sb), 0);
	CHECK(strstr(sb.buf, "| `sleep 0.1` |") != NULL);
	CHECK(strstr(sb.buf, "| slower |") != NULL);
	strbuf_reset(&sb);
	CHECK_INT(bench_export_svg.write(&ctx, &sb), 0);
	CHECK(!strncmp(sb.buf, "<?xml", 5));
	CHECK(strstr(sb.buf, "</svg>\n") != NULL);
	CHECK(strstr(sb.buf, "median 50") != NULL);	/* in ms */
	CHECK(strstr(sb.buf, "median 10") != NULL);
	strbuf_release(&sb);
	bench_result_release(&res);
}

/* A reference of 0 s (below the clock) has no ratio: "n/a", never "nan". */
TEST(zero_reference_ratio_is_na)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	struct bench_export_context ctx;
	struct strbuf sb = STRBUF_INIT;

	setup(&cfg, cmds, "sleep 0", "sleep 0.01");
	cfg.runs = 6;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK(res.commands[1].has_comparison);
	bench_report_summary(&sb, &res);
	CHECK(!strstr(sb.buf, "nan"));
	CHECK(!strstr(sb.buf, "inf"));
	CHECK(strstr(sb.buf, "n/a") != NULL);
	CHECK(strstr(sb.buf, "no ratio: the reference's median is 0") != NULL);
	memset(&ctx, 0, sizeof(ctx));
	ctx.res = &res;
	ctx.cfg = &cfg;
	strbuf_reset(&sb);
	CHECK_INT(bench_export_markdown.write(&ctx, &sb), 0);
	CHECK(!strstr(sb.buf, "nan") && !strstr(sb.buf, "inf"));
	CHECK(strstr(sb.buf, "n/a") != NULL);
	strbuf_reset(&sb);
	CHECK_INT(bench_export_svg.write(&ctx, &sb), 0);
	CHECK(!strstr(sb.buf, "nan") && !strstr(sb.buf, "inf"));
	strbuf_release(&sb);
	bench_result_release(&res);
}

static char *save_baseline(const struct bench_result *res, const struct bench_config *cfg)
{
	struct bench_export_context ctx;
	char *path = strdup("/tmp/trail-test-baseline.XXXXXX");
	int fd = mkstemp(path);

	memset(&ctx, 0, sizeof(ctx));
	ctx.res = res;
	ctx.cfg = cfg;
	close(fd);
	CHECK_INT(bench_export_file(&bench_export_json, &ctx, path), 0);
	return path;
}

TEST(baseline_guard_fails_only_on_real_regressions)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	struct bench_baseline base;
	struct bench_regression *g;
	size_t nr;
	char *path;

	run_two(&res, &cfg, cmds, 1);
	path = save_baseline(&res, &cfg);
	bench_result_release(&res);
	CHECK_INT(bench_baseline_read(path, &base), 0);
	CHECK_INT(base.nr, 2);
	CHECK_INT(base.entries[0].nr_times, 12);

	/* identical rerun (different jitter): nothing regressed */
	run_two(&res, &cfg, cmds, 1);
	mock.jitter_state = 99;
	CHECK_INT(bench_baseline_compare(&base, &res, 0.05, &g, &nr), 0);
	CHECK_INT(nr, 2);
	free(g);
	bench_result_release(&res);

	/* 2x slower: regressed, beyond a 5% bound */
	run_two(&res, &cfg, cmds, 2);
	CHECK_INT(bench_baseline_compare(&base, &res, 0.05, &g, &nr), 2);
	CHECK(g[0].regressed && g[0].cmp.median_ratio.lo > 1.05);
	free(g);
	/* but not beyond a 150% bound: significant, yet within what is allowed */
	CHECK_INT(bench_baseline_compare(&base, &res, 1.5, &g, &nr), 0);
	CHECK_INT(g[0].cmp.verdict, DIRECTION_SLOWER);
	free(g);
	bench_result_release(&res);

	/* 3% slower with a 5% bound: not a failure even if significant */
	run_two(&res, &cfg, cmds, 1.03);
	CHECK_INT(bench_baseline_compare(&base, &res, 0.05, &g, &nr), 0);
	free(g);
	bench_result_release(&res);

	bench_baseline_release(&base);
	unlink(path);
	free(path);
}

static int read_baseline_text(const char *text)
{
	char path[] = "/tmp/trail-test-bad.XXXXXX";
	int fd = mkstemp(path), rc;
	struct bench_baseline b;

	if (write(fd, text, strlen(text)) < 0)
		return -2;
	close(fd);
	rc = bench_baseline_read(path, &b);
	if (!rc)
		bench_baseline_release(&b);
	unlink(path);
	return rc;
}

TEST(baseline_rejects_bad_files)
{
	struct bench_baseline b;

	CHECK_INT(bench_baseline_read("/nonexistent/baseline.json", &b), -1);
	CHECK_INT(read_baseline_text(""), -1);
	CHECK_INT(read_baseline_text("{\"results\": [}"), -1);
	CHECK_INT(read_baseline_text("[1, 2]"), -1);
	CHECK_INT(read_baseline_text("{\"results\": []}"), -1);
	CHECK_INT(read_baseline_text("{\"results\": [{\"command\": \"x\"}]}"), -1);
	CHECK_INT(read_baseline_text("{\"results\": [{\"command\": \"x\", \"times\": []}]}"), -1);
	CHECK_INT(read_baseline_text("{\"results\": [{\"command\": \"x\", \"times\": [\"1\"]}]}"), -1);
	CHECK_INT(read_baseline_text("{\"results\": [{\"command\": \"x\", \"times\": [-1]}]}"), -1);
	/* hyperfine's export shape is accepted */
	CHECK_INT(read_baseline_text("{\"results\": [{\"command\": \"x\", \"mean\": 0.1, "
				     "\"times\": [0.1, 0.11], \"exit_codes\": [0, 0]}]}"), 0);
}

TEST(parameter_scans)
{
	struct bench_param p[2];
	struct bench_plan plan;
	const char *tmpl[] = { "run -j {n} --cc={cc} {other}" };
	const char *names[] = { "j{n}-{cc}" };

	CHECK_INT(bench_param_range(&p[0], "n", "1", "3", NULL), 0);
	CHECK_INT(p[0].values.nr, 3);
	CHECK_STREQ(p[0].values.items[2], "3");
	bench_param_release(&p[0]);
	CHECK_INT(bench_param_range(&p[0], "x", "0", "1", "0.1"), 0);
	CHECK_INT(p[0].values.nr, 11);
	CHECK_STREQ(p[0].values.items[3], "0.3");
	CHECK_STREQ(p[0].values.items[10], "1.0");
	bench_param_release(&p[0]);
	CHECK_INT(bench_param_range(&p[0], "n", "3", "1", NULL), -1);
	bench_param_release(&p[0]);
	CHECK_INT(bench_param_range(&p[0], "n", "1", "x", NULL), -1);
	bench_param_release(&p[0]);
	CHECK_INT(bench_param_range(&p[0], "n", "1", "2", "0"), -1);
	bench_param_release(&p[0]);
	CHECK_INT(bench_param_range(&p[0], "bad name", "1", "2", NULL), -1);
	bench_param_release(&p[0]);
	CHECK_INT(bench_param_list(&p[0], "cc", "gcc,,clang"), -1);
	bench_param_release(&p[0]);

	CHECK_INT(bench_param_range(&p[0], "n", "1", "2", NULL), 0);
	CHECK_INT(bench_param_list(&p[1], "cc", "gcc,clang,tcc"), 0);
	CHECK_INT(bench_plan_build(&plan, tmpl, 1, names, 1, p, 2), 0);
	CHECK_INT(plan.nr, 6);
	CHECK_STREQ(plan.commands[0].cmdline, "run -j 1 --cc=gcc {other}");
	CHECK_STREQ(plan.commands[5].cmdline, "run -j 2 --cc=tcc {other}");
	CHECK_STREQ(plan.commands[4].name, "j2-clang");
	CHECK_STREQ(plan.commands[4].param_names[1], "cc");
	CHECK_STREQ(plan.commands[4].param_values[1], "clang");
	bench_plan_release(&plan);
	bench_param_release(&p[0]);
	bench_param_release(&p[1]);
}

TEST(split_words_for_no_shell)
{
	char **w = bench_split_words("  grep -c 'a b' \"x\\\"y\" c\\ d ''");

	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_STREQ(w[0], "grep");
	CHECK_STREQ(w[1], "-c");
	CHECK_STREQ(w[2], "a b");
	CHECK_STREQ(w[3], "x\"y");
	CHECK_STREQ(w[4], "c d");
	CHECK_STREQ(w[5], "");
	CHECK(w[6] == NULL);
	bench_words_free(w);
	CHECK(bench_split_words("echo 'open") == NULL);
	CHECK(bench_split_words("   ") == NULL);
	CHECK(bench_split_words("a\\") == NULL);
}

TEST(real_executor_measures_a_process)
{
	const char *argv[] = { "true", NULL }, *bad[] = { "/nonexistent/trail-x", NULL };
	const char *sh[] = { "sh", "-c", "exit 7", NULL };
	const char *slow[] = { "sleep", "5", NULL };
	struct bench_job job;
	struct bench_measurement m;

	memset(&job, 0, sizeof(job));
	job.argv = argv;
	CHECK_INT(bench_executor_process.run(&bench_executor_process, &job, &m), 0);
	CHECK_INT(m.exit_code, 0);
	CHECK(m.wall > 0 && m.max_rss > 0);
	job.argv = sh;
	job.output = BENCH_OUTPUT_PIPE;
	CHECK_INT(bench_executor_process.run(&bench_executor_process, &job, &m), 0);
	CHECK_INT(m.exit_code, 7);
	job.argv = bad;
	CHECK_INT(bench_executor_process.run(&bench_executor_process, &job, &m), -1);
	job.argv = slow;
	job.timeout = 0.05;
	CHECK_INT(bench_executor_process.run(&bench_executor_process, &job, &m), 0);
	CHECK(m.timed_out);
	CHECK_INT(m.exit_code, 128 + 9);
}


/* --metric instructions: two counted runs a command, compared exactly (no test, no p-value) */
TEST(counted_runs_are_compared_exactly)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	struct bench_export_context ctx;
	struct strbuf sb = STRBUF_INIT;

	setup(&cfg, cmds, "sleep 0.1", "sleep 0.1005");
	cfg.count = BENCH_COUNT_INSTRUCTIONS;
	cfg.shell = "sh";
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 2);
	CHECK_INT(res.commands[1].nr_runs, 2);
	/* the empty shell's count (MOCK_SHELL s = 1e7) is subtracted */
	CHECK(fabs(res.shell_count - MOCK_SHELL * 1e9) < 1);
	CHECK(fabs(res.commands[0].count_stats.median - 1e8) < 2);
	CHECK(res.commands[0].count_exact && res.commands[1].count_exact);
	CHECK(res.commands[1].comparison.exact);
	CHECK(fabs(res.commands[1].comparison.median_ratio.estimate - 1.005) < 1e-6);
	CHECK(res.commands[1].comparison.median_ratio.lo == res.commands[1].comparison.median_ratio.hi);
	CHECK(isnan(res.commands[1].comparison.mwu.p));
	CHECK_INT(res.commands[1].comparison.verdict, DIRECTION_SLOWER);
	bench_report_summary(&sb, &res);
	CHECK(strstr(sb.buf, "+0.500% more: slower (ratio 1.00500x, exact)") != NULL);
	CHECK(strstr(sb.buf, "Mann-Whitney p =") == NULL);
	strbuf_reset(&sb);
	bench_report_command(&sb, &res, 0);
	CHECK(strstr(sb.buf, "Instructions (exact): 100,000,000 instructions  [2 runs, identical]") != NULL);
	strbuf_reset(&sb);
	memset(&ctx, 0, sizeof(ctx));
	ctx.res = &res;
	ctx.cfg = &cfg;
	CHECK_INT(bench_export_json.write(&ctx, &sb), 0);
	CHECK(strstr(sb.buf, "\"metric\": \"instructions\"") != NULL);
	CHECK(strstr(sb.buf, "\"p_value\": null") != NULL);
	CHECK(strstr(sb.buf, "\"values\": [\n") != NULL || strstr(sb.buf, "\"values\": [") != NULL);
	strbuf_release(&sb);
	bench_result_release(&res);

	/* within the tolerance (0.01%): the same */
	setup(&cfg, cmds, "sleep 0.1", "sleep 0.100005");
	cfg.count = BENCH_COUNT_INSTRUCTIONS;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK(res.commands[1].comparison.exact);
	CHECK_INT(res.commands[1].comparison.verdict, DIRECTION_SAME);
	bench_result_release(&res);
}

/* counts that vary between the two runs are not exact: the adaptive plan and the test */
TEST(varied_counts_fall_back_to_statistics)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;

	setup(&cfg, cmds, "sleep 0.1", "sleep 0.2");
	cfg.count = BENCH_COUNT_INSTRUCTIONS;
	mock.count_noise = 0.001;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 10);
	CHECK(!res.commands[0].count_exact);
	CHECK(!res.commands[1].comparison.exact);
	CHECK(res.commands[1].comparison.mwu.p < 0.05);
	CHECK_INT(res.commands[1].comparison.verdict, DIRECTION_SLOWER);
	bench_result_release(&res);

	/* --runs is kept as given, even when the counts vary */
	setup(&cfg, cmds, "sleep 0.1", NULL);
	cfg.count = BENCH_COUNT_INSTRUCTIONS;
	cfg.runs = 3;
	mock.count_noise = 0.001;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(res.commands[0].nr_runs, 3);
	bench_result_release(&res);
}

TEST(baseline_of_counts_gates_exactly)
{
	struct bench_config cfg;
	struct bench_command cmds[2];
	struct bench_result res;
	struct bench_baseline base;
	struct bench_regression *g;
	size_t nr;
	char *path;

	setup(&cfg, cmds, "sleep 0.1", NULL);
	cfg.count = BENCH_COUNT_INSTRUCTIONS;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	path = save_baseline(&res, &cfg);
	bench_result_release(&res);
	CHECK_INT(bench_baseline_read(path, &base), 0);
	CHECK_INT(base.entries[0].nr_counts, 2);
	CHECK(!strcmp(base.entries[0].count_metric, "instructions"));

	setup(&cfg, cmds, "sleep 0.1", NULL);
	cfg.count = BENCH_COUNT_INSTRUCTIONS;
	mock.scale = 1.01;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(bench_baseline_compare(&base, &res, 0.005, &g, &nr), 1);
	CHECK(g[0].cmp.exact && g[0].regressed);
	free(g);
	CHECK_INT(bench_baseline_compare(&base, &res, 0.02, &g, &nr), 0);
	free(g);
	bench_result_release(&res);

	/* a baseline of another metric is refused, not compared */
	setup(&cfg, cmds, "sleep 0.1", NULL);
	cfg.count = BENCH_COUNT_EST_CYCLES;
	CHECK_INT(bench_run_commands(&cfg, &res), 0);
	CHECK_INT(bench_baseline_compare(&base, &res, 0.005, &g, &nr), -1);
	free(g);
	bench_result_release(&res);
	bench_baseline_release(&base);
	unlink(path);
	free(path);
}

/* callgrind out files: the totals: line, summed over processes; est-cycles weighs the misses */
TEST(count_read_dir_sums_callgrind_totals)
{
	char dir[] = "/tmp/trail-test-count.XXXXXX";
	char *p;
	FILE *f;
	int64_t n;

	CHECK(mkdtemp(dir) != NULL);
	p = xstrfmt("%s/callgrind.out.1", dir);
	f = fopen(p, "w");
	fputs("# callgrind format\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
	      "summary: 1002 0 0 1 2 3 4 5 6\nfn=main\n0 1000\n"
	      "totals: 1000 0 0 1 2 3 4 5 6\n", f);
	fclose(f);
	free(p);
	p = xstrfmt("%s/callgrind.out.2", dir);
	f = fopen(p, "w");
	fputs("events: Ir\nsummary: 500\n", f);
	fclose(f);
	free(p);
	CHECK_INT(bench_count_read_dir(dir, BENCH_COUNT_INSTRUCTIONS, &n), 0);
	CHECK_INT(n, 1500);
	/* the files are consumed: none left, an error now */
	CHECK_INT(bench_count_read_dir(dir, BENCH_COUNT_INSTRUCTIONS, &n), -1);
	p = xstrfmt("%s/callgrind.out.1", dir);
	f = fopen(p, "w");
	fputs("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 1000 0 0 1 2 3 4 5 6\n", f);
	fclose(f);
	CHECK_INT(bench_count_read_dir(dir, BENCH_COUNT_EST_CYCLES, &n), 0);
	CHECK_INT(n, 1000 + 10 * 6 + 100 * 15);
	f = fopen(p, "w");
	fputs("events: Ir\ntotals: 1000\n", f);
	fclose(f);
	CHECK_INT(bench_count_read_dir(dir, BENCH_COUNT_EST_CYCLES, &n), -1);
	free(p);
	rmdir(dir);
}

TEST_MAIN("bench_runner", adaptive_run_count_fills_min_time,
	  interleaved_rounds_alternate_commands, interleaved_order_is_shuffled_but_seeded,
	  hooks_run_when_documented, shell_spawn_time_is_subtracted, shell_correction_follows_drift,
	  failures_and_ignore_failure,
	  stop_flag_keeps_what_was_measured, until_significant_stops_when_decided,
	  json_export_round_trips, csv_markdown_svg_exports, zero_reference_ratio_is_na,
	  baseline_guard_fails_only_on_real_regressions, baseline_rejects_bad_files,
	  parameter_scans, split_words_for_no_shell, real_executor_measures_a_process,
	  counted_runs_are_compared_exactly, varied_counts_fall_back_to_statistics,
	  baseline_of_counts_gates_exactly, count_read_dir_sums_callgrind_totals)
