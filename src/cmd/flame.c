/*
 * flame.c - 'trail flame' (good/bad revisions, a build and a workload ->
 * the hot function and the commit that made it hot) and 'trail flame
 * probe' (one fast/slow/skip measurement, what git bisect run calls).
 * Options -> struct flame_session -> flame_session_run(); see docs/flame.md
 * and docs/flame-probe.md.
 */
#include "cmd/commands.h"
#include "core/verdict.h"
#include "core/cache_dir.h"
#include "core/alloc.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/error.h"
#include "core/git_rev.h"
#include "core/escape.h"
#include "core/shell_quote.h"
#include "core/numfmt.h"
#include "core/strbuf.h"
#include "flame/fleet.h"
#include "fleet/hosts.h"
#include "flame/probe.h"
#include "measure/probe_request.h"
#include "measure/metric.h"
#include "flame/probe_json.h"
#include "flame/report.h"
#include "flame/exact.h"
#include "flame/session.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const flame_usage[] = {
	"trail flame --good REV --bad REV --build CMD --run CMD [options]",
	"trail flame probe --build CMD --run CMD --threshold X [--function F] [options]",
	"",
	"Capture CPU profiles of a good and a bad revision, confirm the slowdown, rank the",
	"functions whose share of samples rose, and bisect good..bad on the hottest one's",
	"CPU time per run (--measure) to name the commit that made it hot (--metric",
	"offcpu: off-CPU profiles name the function that blocks longer).  Builds,",
	"worktrees and the bisect run in a private clone under the cache directory: the",
	"repository itself (working tree, index, HEAD, stash, refs, a bisect in progress)",
	"is only read.",
	"Exit: 0 suspect found, 4 inconclusive, 5 regression below --min-effect (not",
	"narrowed), 6 no regression, 1 failure, 2 usage (trail help exit-codes).",
	NULL
};

/* Clear what would point git children at some other repository. */
static void isolate_git_env(void)
{
	static const char *const vars[] = {
		"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
		"GIT_PREFIX", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", NULL
	};
	const char *const *v;

	for (v = vars; *v; v++)
		unsetenv(*v);
}

/* path made absolute: a relative one is taken from base (absolute). */
static char *absolute_from(const char *base, const char *path)
{
	return path[0] == '/' ? xstrdup(path) : xstrfmt("%s/%s", base, path);
}

/*
 * The report's default home: never the user's work tree (trail only reads
 * the repository), one directory per repository (its name and a hash of
 * its path), under the XDG state directory.  The summary prints it.
 */
static char *default_out(const char *repo)
{
	const char *name = strrchr(repo, '/');
	uint32_t h = 2166136261u;	/* FNV-1a, 32 bits */
	const char *p;
	char *part, *dir;

	for (p = repo; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	name = name && name[1] ? name + 1 : "root";
	part = xstrfmt("flame/%s-%08x", name, (unsigned)h);
	dir = state_dir(part);
	free(part);
	return dir;
}

/* A probe's value in its unit (core/numfmt.h): a share, ms, samples, the metric's. */
static void probe_value(struct strbuf *sb, const struct flame_probe_request *o, double v)
{
	if (!o->function)
		numfmt_value(sb, v, flame_metric_unit(o->metric), 0);
	else if (o->measure == FLAME_MEASURE_SHARE || o->measure == FLAME_MEASURE_TOTAL_SHARE)
		numfmt_percent(sb, v, 0);
	else if (o->measure == FLAME_MEASURE_TIME || o->measure == FLAME_MEASURE_TOTAL_TIME)
		numfmt_value(sb, v, "ms", 0);
	else
		numfmt_count(sb, v, 0);
}

/*
 * What the probe measured: the metric, or the function's measure - whose
 * "samples" are instructions (or cycles) when the metric counts them
 * ("lib-instructions", not "lib-samples").
 */
static void probe_label(struct strbuf *sb, const struct flame_probe_request *o)
{
	const char *name = o->function ? flame_measure_name(o->measure) : flame_metric_name(o->metric);
	const char *at = strstr(name, "samples");

	if (!o->function || !at || !flame_metric_deterministic(o->metric)) {
		strbuf_addstr(sb, name);
		return;
	}
	strbuf_add(sb, name, (size_t)(at - name));
	strbuf_addstr(sb, flame_metric_unit(o->metric));
	strbuf_addstr(sb, at + strlen("samples"));
}

static int cmd_flame_probe(int argc, const char **argv)
{
	static const char *const usage[] = {
		"trail flame probe --build CMD --run CMD --threshold X [--function F] [options]",
		"",
		"Build one commit of a trail flame clone (cached by commit, build command and CC/CFLAGS...),",
		"profile the workload and compare the function's share of samples (or the metric's",
		"--percentile) with the threshold.  A run past --timeout is killed: skip.",
		"Exit: 0 fast, 1 slow, 125 cannot build, run or decide (git bisect skips it),",
		"255 the probe itself failed (git bisect run stops).",
		NULL
	};
	struct flame_probe_reader rd;
	struct flame_probe_request *o = &rd.req;
	struct flame_probe_result res;
	struct flame_repo repo;
	char *trail_exe = NULL, id[41], *scratch;
	int ret = EXIT_PROBE_ABORT;

	flame_probe_reader_init(&rd);
	if (cmd_parse_options(argc, argv, rd.opts, usage, 0) != 0) {
		trail_error("unexpected argument");
		goto out_args;
	}
	if (flame_probe_reader_finish(&rd))
		goto out_args;
	isolate_git_env();
	if (flame_repo_open_clone(&repo, o->clone ? o->clone : "."))
		goto out_args;
	trail_exe = child_self_exe();
	if (!trail_exe) {
		trail_error("cannot find the trail executable (/proc/self/exe)");
		goto out;
	}
	if (flame_clone_resolve(&repo, o->rev, id))
		goto out;
	scratch = tempdir_create("trail-probe");
	if (!scratch)
		goto out;
	o->scratch = scratch;
	o->trail_exe = trail_exe;
	if (flame_probe(&repo, id, o, &res))
		goto out_tmp;
	if (o->log && flame_probe_log_append(o->log, &res))
		goto out_tmp;
	if (o->json) {
		struct strbuf sb = STRBUF_INIT;

		flame_probe_json_write(&sb, &res);
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_release(&sb);
		if (fflush(stdout) || ferror(stdout)) {
			error_errno("cannot write the result");
			goto out_tmp;
		}
	}
	{
		struct strbuf what = STRBUF_INIT, v = STRBUF_INIT, se = STRBUF_INIT, th = STRBUF_INIT;

		probe_label(&what, o);
		probe_value(&v, o, res.value);
		if (flame_metric_deterministic(o->metric))
			strbuf_addstr(&se, "exact");	/* a count, not samples: no +/- */
		else {
			strbuf_addstr(&se, "+/- ");
			probe_value(&se, o, res.se);
		}
		probe_value(&th, o, o->threshold);
		note("probe %.12s: %s (%s %s %s, threshold %s, %u runs)%s%s", id,
		     trail_probe_verdict_name(res.verdict), what.buf, v.buf, se.buf, th.buf, res.runs,
		     res.why[0] ? ": " : "", res.why);
		strbuf_release(&what);
		strbuf_release(&v);
		strbuf_release(&se);
		strbuf_release(&th);
	}
	ret = (int)res.verdict;
out_tmp:
	tempdir_remove(scratch);
	free(scratch);
out:
	flame_repo_release(&repo);
out_args:
	flame_probe_reader_release(&rd);
	free(trail_exe);
	return ret;
}

/* What cmd_flame's options hold that is not the request's (s->req) as given. */
struct flame_cli {
	const char *metric, *profiler, *hosts_file;
	uint64_t alloc_interval, loop, jobs, cpus_per_job;
	int submodules, clean_hosts;
	int measure;			/* --measure: MEASURE_* */
	struct flame_hosts hosts;
};

enum { MEASURE_SAMPLES, MEASURE_SHARE, MEASURE_TIME };

/* The rest write straight into the request, whose defaults are flame_session_init()'s. */
static void flame_cli_init(struct flame_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->metric = "cpu";
	c->profiler = "auto";
	c->measure = MEASURE_TIME;
	c->loop = 1;
	c->jobs = 1;
	c->cpus_per_job = FLAME_CPUS_PER_PROBE;
	c->submodules = 1;
	c->hosts = (struct flame_hosts)FLAME_HOSTS_INIT;
}

/* --strategy's and --measure's words (core/options.h: help, errors, completion). */
static const struct option_choice strategies[] = {
	{ "auto", 0 }, { "bisect", 0 }, { "suspects", 0 }, { NULL, 0 }
};
static const struct option_choice measures[] = {
	{ "time", MEASURE_TIME }, { "share", MEASURE_SHARE }, { "samples", MEASURE_SAMPLES },
	{ NULL, 0 }
};

/* Parse argv into s->req and c; 0, or -1 (said) for a usage error. */
static int parse_flame_cli(int argc, const char **argv, struct flame_session *s,
			   struct flame_cli *c)
{
	struct option opts[] = {
		OPT_GROUP("the question"),
		OPT_STRING(0, "good", &s->req.good_rev, "REV", "a revision known to be fast"),
		OPT_STRING(0, "bad", &s->req.bad_rev, "REV", "a later revision known to be slow"),
		OPT_STRING(0, "build", &s->req.build_cmd, "CMD", "build command, run with sh -c in a checkout of each revision"),
		OPT_STRING(0, "run", &s->req.run_cmd, "CMD", "workload command, run with sh -c in the same checkout"),
		OPT_STRING('C', NULL, &s->req.dir, "DIR", "run as if started in DIR (the repository)"),
		OPT_GROUP("scope"),
		OPT_STRING(0, "metric", &c->metric, "NAME", flame_metric_help(0)),
		OPT_DOUBLE(0, "percentile", &s->req.percentile, "P", "wall: compare this percentile of run time (default 50)", 1, 99.9),
		OPT_UINT(0, "repeat", &s->req.repeat, "N", "first ABBA pairs of runs, even (default 6; more while undecided)", 2, 1000),
		OPT_UINT(0, "max-repeat", &s->req.max_repeat, "N", "pairs of runs at most (default: 40, or --repeat if larger; p99 needs 100)", 2, 1000),
		OPT_DOUBLE(0, "budget", &s->req.budget, "SECONDS", "keep adding runs while undecided for this long at most (default 180)", 0, 1e6),
		OPT_U64(0, "loop", &c->loop, "N", "run the workload N times per measurement (default 1)", 1, 100000),
		OPT_UINT(0, "warmup-runs", &s->req.warmup_runs, "N", "unmeasured runs per revision first (default 1)", 0, 100),
		OPT_PERCENT(0, "discard", &s->req.discard, "PERCENT", "drop the first part of each run's samples (default 10)", 0, 90),
		OPT_STRING(0, "profiler", &c->profiler, "NAME",
			   "auto (default: trail record), trail, perf (perf record), or a command "
			   "that profiles $TRAIL_RUN into $TRAIL_PROFILE (docs/flame.md)"),
		OPT_DOUBLE(0, "timeout", &s->req.run_timeout, "SECONDS", "kill a run of the workload after this long: a failure at the ends, a skipped commit in the bisection (default 300, 0 = none)", 0, 1e9),
		OPT_DOUBLE(0, "build-timeout", &s->req.build_timeout, "SECONDS", "kill a build after this long; it counts as failed (default 600, 0 = none)", 0, 1e9),
		OPT_FLAG(0, "submodules", &c->submodules, "check out the submodules in each build (default; --no-submodules: leave them empty)"),
		OPT_UINT('F', "freq", &s->req.freq, "HZ", "sampling frequency (default 999)", 1, 100000),
		OPT_U64(0, "alloc-interval", &c->alloc_interval, "BYTES", "alloc, peak-heap: one sampled allocation per BYTES allocated, on average (default 65536)", 1, UINT64_C(1) << 40),
		OPT_GROUP("diff"),
		OPT_PERCENT(0, "min-effect", &s->req.min_effect, "PERCENT", "smallest slowdown of the metric that is a regression (default 3; 0.5 for instructions and est-cycles)", 0, 1000),
		OPT_PERCENT(0, "min-delta", &s->req.min_delta, "POINTS", "ignore share changes below this (default 1 percentage point; for instructions, est-cycles a quarter of --min-effect)", 0, 100),
		OPT_PERCENT(0, "confirm", &s->req.confirm, "POINTS", "a hotspot must rise this much (default 2 points; for instructions, est-cycles a quarter of --min-effect)", 0, 100),
		OPT_DOUBLE(0, "confidence", &s->req.confidence, "P", "statistical confidence of every decision (default 0.95)", 0.5, 0.9999),
		OPT_GROUP("narrow"),
		OPT_CHOICE(0, "measure", &c->measure, NULL, "time (default: the function's own CPU time per run), share (its self share among the samples of functions that did not change) or samples (its samples per run)", measures),
		OPT_FLAG(0, "force-narrow", &s->req.force_narrow, "narrow a significant regression below --min-effect, or a function whose share rose notably (+5 points, z > 4) when the total is undecided"),
		OPT_CHOICE_NAME(0, "strategy", &s->req.strategy, NULL, "auto (default), bisect, or suspects (probe the suspect commits)", strategies),
		OPT_UINT(0, "probe-runs", &s->req.probe_runs, "N", "runs per probe (default 3; 1 for instructions and est-cycles)", 1, 1000),
		OPT_UINT(0, "probe-max-runs", &s->req.probe_max_runs, "N", "runs before a probe answers skip (default 9)", 1, 1000),
		OPT_GROUP("many machines"),
		OPT_STRING(0, "hosts", &c->hosts_file, "FILE", "probe on these machines over ssh, in GNU parallel's --sshloginfile syntax ([N/]host, [N/]user@host, [N/]ssh -p 2222 host, ':' this machine); k-ary bisection"),
		OPT_U64('j', "jobs", &c->jobs, "K", "probes at once on this machine, each pinned to CPUs of its own (refused when it has fewer than 2 CPUs per probe; default 1)", 1, 1024),
		OPT_U64(0, "cpus-per-job", &c->cpus_per_job, "N", "--jobs: CPUs each local probe is pinned to (default 2: its workload and trail's sampler; 1 puts the sampler on its workload's CPU)", 1, 1024),
		OPT_STRING(0, "remote-trail", &s->req.remote_trail, "PATH", "trail on the hosts (default: trail on their PATH)"),
		OPT_STRING(0, "remote-repo", &s->req.remote_repo, "URL", "hosts git fetch the history from URL (default: a git bundle sent over ssh)"),
		OPT_FLAG(0, "clean-hosts", &c->clean_hosts, "remove trail's build caches on the --hosts machines, and exit"),
		OPT_GROUP("output"),
		OPT_STRING('o', "out", &s->req.out_dir, "DIR", "report directory (default: outside the work tree, $XDG_STATE_HOME/trail/flame/REPO-HASH; relative to -C DIR)"),
		OPT_STRING(0, "cache", &s->req.cache_root, "DIR", "cache directory (default ~/.cache/trail/flame; relative to -C DIR)"),
		OPT_FLAG(0, "keep", &s->req.keep, "keep the scratch directory (probe logs, bisect log), say where, and list the worktrees"),
		OPT_END()
	};

	if (cmd_parse_options(argc, argv, opts, flame_usage, 0) != 0)
		return trail_error("unexpected argument (the workload goes in --run)");
	if (c->hosts_file && flame_hosts_read(c->hosts_file, &c->hosts))
		return -1;
	return 0;
}

/*
 * --hosts and --jobs: the machines the probes run on (this one's slots
 * from --jobs), into s->req.hosts; 0, or -1 (said) when this machine
 * cannot give each probe CPUs of its own.
 */
static int use_hosts(struct flame_session *s, struct flame_cli *c)
{
	struct flame_hosts *hosts = &c->hosts;
	size_t h;
	unsigned local = 0;
	char why[400];

	if (c->jobs <= 1 && !c->hosts_file)
		return 0;
	for (h = 0; h < hosts->nr && hosts->items[h].dest; h++)
		;
	if (h == hosts->nr && (c->jobs > 1 || !c->hosts_file))
		flame_hosts_add_local(hosts, (unsigned)c->jobs);
	else if (h < hosts->nr && c->jobs > 1) {	/* --jobs sets the slots of the file's ':' */
		hosts->slots += (unsigned)c->jobs - hosts->items[h].slots;
		hosts->items[h].slots = (unsigned)c->jobs;
	}
	for (h = 0; h < hosts->nr; h++)
		local += hosts->items[h].dest ? 0 : hosts->items[h].slots;
	if (flame_fleet_check_local(local, (unsigned)c->cpus_per_job, why, sizeof(why)))
		return trail_error("%s", why);
	s->req.hosts = hosts;
	return 0;
}

/* The options' words and combinations, checked into s->req; 0, or -1 (said). */
static int read_choices(struct flame_session *s, const struct flame_cli *c)
{
	if (!s->req.good_rev || !s->req.bad_rev || !s->req.build_cmd || !s->req.run_cmd) {
		trail_error("--good, --bad, --build and --run are required");
		fprintf(stderr, "see 'trail flame --help'\n");
		return -1;
	}
	/* before anything is cloned or built (core/git_rev.h) */
	if (git_rev_check("--good", s->req.good_rev) || git_rev_check("--bad", s->req.bad_rev) ||
	    (s->req.remote_repo && git_url_check("--remote-repo", s->req.remote_repo)))
		return -1;
	/* for this process and the bisect's probes (measure/repo.h) */
	if (!c->submodules)
		setenv(FLAME_SUBMODULES_ENV, "0", 1);
	else
		unsetenv(FLAME_SUBMODULES_ENV);
	if (flame_metric_parse(c->metric, &s->req.metric) ||
	    flame_profiler_parse(c->profiler, &s->req.profiler))
		return -1;
	s->req.measure_share = c->measure == MEASURE_SHARE;
	s->req.measure_time = c->measure == MEASURE_TIME;
	if (s->req.percentile != 50 && s->req.metric != FLAME_METRIC_WALL)
		return trail_error("--percentile applies to --metric wall");
	if (s->req.max_repeat && s->req.max_repeat < s->req.repeat)
		return trail_error("--max-repeat (%u) is below --repeat (%u)",
				   s->req.max_repeat, s->req.repeat);
	return 0;
}

/*
 * -C DIR means "as if started in DIR": relative --out and --cache are
 * taken from there, once, so no later chdir or git -C can reinterpret
 * them.  The absolute paths go to s->req and into the three (caller
 * frees); 0 or -1 (said).
 */
static int resolve_dirs(struct flame_session *s, char **base, char **out_abs, char **cache_abs)
{
	*base = realpath(s->req.dir, NULL);
	if (!*base)
		return error_errno("cannot find the directory '%s'", s->req.dir);
	s->req.dir = *base;
	*out_abs = s->req.out_dir ? absolute_from(*base, s->req.out_dir) : default_out(*base);
	s->req.out_dir = *out_abs;
	if (s->req.cache_root) {
		*cache_abs = absolute_from(*base, s->req.cache_root);
		s->req.cache_root = *cache_abs;
	}
	return 0;
}

/* The numbers of c in the request's units; *looped: the --loop command (caller frees). */
static void fill_request(struct flame_session *s, const struct flame_cli *c, char **looped)
{
	if (c->loop > 1) {
		/* One measurement, N runs: the probes get the same command. */
		*looped = xstrfmt("i=0; while [ $i -lt %llu ]; do { %s\n} || exit; i=$((i + 1)); done",
				  (unsigned long long)c->loop, s->req.run_cmd);
		s->req.run_cmd = *looped;
	}
	s->req.alloc_interval = c->alloc_interval;
	/* a counted metric (exact.c): its own --min-effect and one run a probe, unless given */
	s->req.exact_defaults = flame_metric_deterministic(s->req.metric) && !s->req.probe_runs;
	if (s->req.min_effect < 0)
		s->req.min_effect = flame_metric_min_effect(flame_metric_def(s->req.metric));
	if (!s->req.probe_runs)
		s->req.probe_runs = s->req.exact_defaults ? 1 : FLAME_PROBE_RUNS;
	/*
	 * Share changes: counted shares have no sampling noise, and a step of
	 * the minimum effect (0.5 %) moves its function's share by less than
	 * that (0.45 points at a 10 % share), below the 1 and 2 points that
	 * sampled shares need; a quarter of the minimum effect for both.
	 */
	if (s->req.min_delta < 0)
		s->req.min_delta = flame_metric_deterministic(s->req.metric) ? s->req.min_effect / 4 : 0.01;
	if (s->req.confirm < 0)
		s->req.confirm = flame_metric_deterministic(s->req.metric) ? s->req.min_effect / 4 : 0.02;
	if (s->req.exact_defaults)
		s->req.probe_max_runs = 1;
	else if (s->req.probe_max_runs < s->req.probe_runs)
		s->req.probe_max_runs = s->req.probe_runs;
}

/* The three-line summary on stdout, and with --keep where the scratch and worktrees are. */
static void print_outcome(struct flame_session *s)
{
	if (s->ans.outcome != VERDICT_NONE) {
		struct strbuf summary = STRBUF_INIT;

		flame_report_summary(s, &summary);
		fputs(summary.buf, stdout);
		strbuf_release(&summary);
	}
	if (s->req.keep && s->st.scratch) {
		const char *list[] = { "worktree", "list", NULL };
		struct strbuf wt = STRBUF_INIT;

		note("kept: scratch directory %s (perf data, bisect log)", s->st.scratch);
		if (!flame_git(&s->st.repo, &wt, list)) {
			/* (as long as the list is: not through note()'s fixed buffer) */
			note("worktrees (the build cache; remove %s to reclaim the space):",
			     s->st.repo.cache);
			escape_term_lines_to(stderr, wt.buf, wt.len);
		}
		strbuf_release(&wt);
	}
}

int cmd_flame(int argc, const char **argv)
{
	struct flame_session s;
	struct flame_cli c;
	struct strbuf cmdline = STRBUF_INIT;
	char *exe = NULL, *base = NULL, *out_abs = NULL, *cache_abs = NULL, *looped = NULL;
	int ret = FLAME_EXIT_USAGE, i;

	if (argc > 1 && !strcmp(argv[1], "probe")) {
		error_set_program("trail flame probe");
		return cmd_flame_probe(argc - 1, argv + 1);
	}
	flame_session_init(&s);
	s.req.out_dir = NULL;	/* not given: default_out() */
	s.req.probe_runs = 0;		/* unset: 3, or 1 for a counted metric (fill_request) */
	s.req.min_effect = -1;		/* unset: 3 %, or the metric's (fill_request) */
	s.req.min_delta = -1;		/* unset: 1 and 2 points, or a counted metric's (fill_request) */
	s.req.confirm = -1;
	flame_cli_init(&c);
	strbuf_addstr(&cmdline, "trail");
	for (i = 0; i < argc; i++) {
		strbuf_addch(&cmdline, ' ');
		strbuf_add_shell_quoted(&cmdline, argv[i]);
	}
	if (parse_flame_cli(argc, argv, &s, &c))
		goto out;
	if (c.clean_hosts) {
		if (!c.hosts_file)
			trail_error("--clean-hosts needs --hosts FILE");
		else
			ret = flame_fleet_clean(&c.hosts) ? FLAME_EXIT_FAILURE : EXIT_OK;
		goto out;
	}
	if (use_hosts(&s, &c) || read_choices(&s, &c))
		goto out;
	isolate_git_env();
	ret = FLAME_EXIT_FAILURE;
	if (resolve_dirs(&s, &base, &out_abs, &cache_abs))
		goto out;
	fill_request(&s, &c, &looped);
	exe = child_self_exe();
	s.req.trail_exe = exe;
	if (!exe) {
		trail_error("cannot find the trail executable (/proc/self/exe)");
		goto out;
	}
	s.req.command_line = cmdline.buf;
	ret = flame_session_run(&s);
	print_outcome(&s);
out:
	flame_session_release(&s);
	flame_hosts_release(&c.hosts);
	free(base);
	free(out_abs);
	free(cache_abs);
	free(looped);
	free(exe);
	strbuf_release(&cmdline);
	return ret;
}
