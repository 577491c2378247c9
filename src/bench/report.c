/*
 * report.c - the human-readable report of trail bench (see report.h).
 */
#include "bench/export.h"
#include "core/verdict.h"
#include "bench/report.h"
#include "core/error.h"
#include "core/escape.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fmt_time(char *buf, size_t n, double t)
{
	double scale;
	const char *unit;

	bench_time_unit(t, &scale, &unit);
	snprintf(buf, n, "%.1f %s", t * scale, unit);
	if (t * scale < 10)
		snprintf(buf, n, "%.3f %s", t * scale, unit);
	else if (t * scale < 100)
		snprintf(buf, n, "%.2f %s", t * scale, unit);
}

/* Same unit as ref, so "51.2 ms ± 0.3 ms" lines up. */
static void fmt_time_as(char *buf, size_t n, double t, double ref)
{
	double scale;
	const char *unit;

	bench_time_unit(ref, &scale, &unit);
	snprintf(buf, n, "%.3f %s", t * scale, unit);
	if (ref * scale >= 100)
		snprintf(buf, n, "%.1f %s", t * scale, unit);
	else if (ref * scale >= 10)
		snprintf(buf, n, "%.2f %s", t * scale, unit);
}

static void fmt_kib(char *buf, size_t n, double kib)
{
	if (kib >= 1024 * 1024)
		snprintf(buf, n, "%.2f GiB", kib / (1024 * 1024));
	else if (kib >= 1024)
		snprintf(buf, n, "%.1f MiB", kib / 1024);
	else
		snprintf(buf, n, "%.0f KiB", kib);
}

static double median_of_int(const struct bench_command_result *cr, size_t offset)
{
	double *v = calloc(cr->nr_runs, sizeof(double)), m;
	size_t i;

	if (!v)
		return NAN;
	for (i = 0; i < cr->nr_runs; i++) {
		int64_t x;

		memcpy(&x, (const char *)&cr->runs[i] + offset, sizeof(x));
		v[i] = (double)x;
	}
	m = stats_median(v, cr->nr_runs);
	free(v);
	return m;
}

/* A count with thousands separators, as callgrind_annotate writes it: "1,217,819,120". */
static void add_count(struct strbuf *sb, double v)
{
	char digits[32];
	size_t i, n;

	if (!isfinite(v) || v < 0 || v >= 1e19) {
		strbuf_addf(sb, "%.4g", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, digits[i]);
	}
}

/*
 * --metric instructions / est-cycles: the count first.  Exact counts are
 * one number (no spread to print: the runs agree); counts that varied get
 * the median, MAD and range as times do.
 */
static void report_count(struct strbuf *sb, const struct bench_result *res,
			 const struct bench_command_result *cr)
{
	const struct stats_summary *s = &cr->count_stats;
	const char *unit = bench_count_unit(res->count);

	if (cr->count_exact) {
		strbuf_addf(sb, "  %-22s", res->count == BENCH_COUNT_EST_CYCLES ?
			    "Est. cycles (exact):" : "Instructions (exact):");
		add_count(sb, s->median);
		strbuf_addf(sb, " %s  [%zu run%s, ", unit, cr->nr_runs, cr->nr_runs == 1 ? "" : "s");
		if (cr->nr_runs == 1)
			strbuf_addstr(sb, "not checked: one run]\n");
		else if (cr->count_spread == 0)
			strbuf_addstr(sb, "identical]\n");
		else
			strbuf_addf(sb, "within %.2g%%]\n", cr->count_spread * 100);
	} else {
		strbuf_addf(sb, "  %-22s", res->count == BENCH_COUNT_EST_CYCLES ?
			    "Est. cycles (median):" : "Instructions (median):");
		add_count(sb, s->median);
		strbuf_addf(sb, " %s ± ", unit);
		add_count(sb, s->mad);
		strbuf_addstr(sb, " (MAD)  [range ");
		add_count(sb, s->min);
		strbuf_addstr(sb, " … ");
		add_count(sb, s->max);
		strbuf_addf(sb, ": varied by %.3g%%, not exact]  %zu runs\n", cr->count_spread * 100,
			    cr->nr_runs);
	}
	strbuf_addstr(sb, "  (the times below are of the runs under callgrind, not native)\n");
}

/* Command names come from the user's command line: escaped for a terminal. */
static void add_name(struct strbuf *sb, const char *name)
{
	escape_term(sb, name, strlen(name));
}

void bench_report_command(struct strbuf *sb, const struct bench_result *res, size_t c)
{
	const struct bench_command_result *cr = &res->commands[c];
	const struct stats_summary *s = &cr->wall_stats;
	char a[32], b[32], d[32], e[32];

	strbuf_addf(sb, "Benchmark %zu: ", c + 1);
	add_name(sb, cr->command->name);
	strbuf_addch(sb, '\n');
	if (!cr->nr_runs) {
		strbuf_addstr(sb, "  (no measured runs)\n\n");
		return;
	}
	if (res->count)
		report_count(sb, res, cr);
	fmt_time_as(a, sizeof(a), s->median, s->median);
	fmt_time_as(b, sizeof(b), s->mad, s->median);
	fmt_time_as(d, sizeof(d), s->median_lo, s->median);
	fmt_time_as(e, sizeof(e), s->median_hi, s->median);
	strbuf_addf(sb, "  Time (median ± MAD):  %10s ± %-10s  [95%% CI of the median: %s … %s]\n",
		    a, b, d, e);
	fmt_time_as(a, sizeof(a), s->mean, s->median);
	fmt_time_as(b, sizeof(b), s->stddev, s->median);
	strbuf_addf(sb, "  Time (mean ± σ):      %10s ± %s\n", a, b);
	fmt_time_as(a, sizeof(a), s->min, s->median);
	fmt_time_as(b, sizeof(b), s->max, s->median);
	fmt_time_as(d, sizeof(d), s->p95, s->median);
	fmt_time_as(e, sizeof(e), s->p99, s->median);
	strbuf_addf(sb, "  Range (min … max):    %10s … %-10s  [p95: %s, p99: %s]  %zu runs",
		    a, b, d, e, cr->nr_runs);
	if (cr->failed_runs)
		strbuf_addf(sb, " (%zu failed)", cr->failed_runs);
	strbuf_addch(sb, '\n');
	fmt_time(a, sizeof(a), cr->user_stats.mean);
	fmt_time(b, sizeof(b), cr->sys_stats.mean);
	fmt_kib(d, sizeof(d), cr->rss_stats.max);
	strbuf_addf(sb, "  CPU (user, system):   %10s , %-10s  [peak RSS: %s]\n", a, b, d);
	strbuf_addf(sb, "  Per run (median):     %.0f context switches (%.0f voluntary), "
		    "%.0f page faults (%.0f major)\n",
		    median_of_int(cr, offsetof(struct bench_measurement, vol_csw)) +
		    median_of_int(cr, offsetof(struct bench_measurement, invol_csw)),
		    median_of_int(cr, offsetof(struct bench_measurement, vol_csw)),
		    median_of_int(cr, offsetof(struct bench_measurement, minor_faults)) +
		    median_of_int(cr, offsetof(struct bench_measurement, major_faults)),
		    median_of_int(cr, offsetof(struct bench_measurement, major_faults)));
	if (res->perf_available)
		strbuf_addf(sb, "  perf (median):        %.0f context switches, %.0f page faults, "
			    "%.0f CPU migrations\n",
			    median_of_int(cr, offsetof(struct bench_measurement, perf_csw)),
			    median_of_int(cr, offsetof(struct bench_measurement, perf_faults)),
			    median_of_int(cr, offsetof(struct bench_measurement, perf_migrations)));
	strbuf_addch(sb, '\n');
}

/*
 * v with prec decimals and unit ("x", "%"), or "n/a" when v is not finite:
 * a reference of 0 µs (below the clock, or all shell start-up) has no
 * ratio to it.
 */
static void add_num(struct strbuf *sb, int prec, const char *unit, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.*f%s", prec, v, unit);
	else
		strbuf_addstr(sb, "n/a");
}

/* "[lo … hi]" with each bound through add_num() */
static void add_interval(struct strbuf *sb, int prec, const char *unit, double lo, double hi)
{
	strbuf_addch(sb, '[');
	add_num(sb, prec, unit, lo);
	strbuf_addstr(sb, " … ");
	add_num(sb, prec, unit, hi);
	strbuf_addch(sb, ']');
}

/* ", Holm-adjusted over the 3 comparisons" when several were decided together */
static void add_family(struct strbuf *sb, const struct bench_comparison *cmp)
{
	if (cmp->family > 1)
		strbuf_addf(sb, ", Holm-adjusted over the %zu comparisons", cmp->family);
}

/* "1.96x slower [1.95x … 1.97x]" or "1.50x faster [...]", from ratio b/a. */
static void describe_ratio(struct strbuf *sb, const struct bench_comparison *cmp)
{
	const struct stats_ratio *r = &cmp->median_ratio;

	if (cmp->exact) {
		/* a ratio of exact counts is the change itself: no interval, no test */
		if (!isfinite(r->estimate)) {
			strbuf_addstr(sb, "n/a (the reference's count is 0)");
			return;
		}
		strbuf_addf(sb, "%+.3f%% %s (ratio %.5fx, exact)", (r->estimate - 1) * 100,
			    cmp->verdict == DIRECTION_SLOWER ? "more: slower" :
			    cmp->verdict == DIRECTION_FASTER ? "fewer: faster" :
			    "(within the counts' tolerance: the same)", r->estimate);
		return;
	}

	if (cmp->verdict == DIRECTION_FASTER) {
		add_num(sb, 3, "x", 1 / r->estimate);
		strbuf_addstr(sb, " faster ");
		add_interval(sb, 3, "x", 1 / r->hi, 1 / r->lo);
	} else if (cmp->verdict == DIRECTION_SLOWER) {
		add_num(sb, 3, "x", r->estimate);
		strbuf_addstr(sb, " slower ");
		add_interval(sb, 3, "x", r->lo, r->hi);
	} else {
		strbuf_addstr(sb, "no significant difference: ratio ");
		add_num(sb, 3, "x", r->estimate);
		strbuf_addch(sb, ' ');
		add_interval(sb, 3, "x", r->lo, r->hi);
	}
	if (!isfinite(r->estimate) || !isfinite(r->lo) || !isfinite(r->hi))
		strbuf_addstr(sb, " (no ratio: the reference's median is 0)");
}

void bench_report_summary(struct strbuf *sb, const struct bench_result *res)
{
	const struct bench_command_result *ref = &res->commands[res->reference];
	size_t c;
	int any = 0;

	if (res->perf_available && res->perf_note)
		strbuf_addf(sb, "perf_event_open: %s\n\n", res->perf_note);
	for (c = 0; c < res->nr_commands; c++)
		any |= res->commands[c].has_comparison;
	if (!any)
		return;
	strbuf_addstr(sb, "Summary (reference: '");
	add_name(sb, ref->command->name);
	if (res->count)
		strbuf_addf(sb, "'; %s: exact counts compared exactly (tolerance %g%%), counts that "
			    "varied by ratios of medians with %g%% bootstrap intervals and "
			    "Mann-Whitney U", bench_count_name(res->count),
			    STATS_EXACT_TOLERANCE * 100, res->confidence * 100);
	else
		strbuf_addf(sb, "'; ratios of medians with %g%% bootstrap "
			    "intervals; verdicts by Mann-Whitney U at %g%%",
			    res->confidence * 100, res->confidence * 100);
	for (c = 0; c < res->nr_commands; c++)
		if (res->commands[c].has_comparison && !res->commands[c].comparison.exact) {
			add_family(sb, &res->commands[c].comparison);
			break;
		}
	strbuf_addstr(sb, ")\n");
	for (c = 0; c < res->nr_commands; c++) {
		const struct bench_command_result *cr = &res->commands[c];
		const struct bench_comparison *cmp = &cr->comparison;

		if (!cr->has_comparison)
			continue;
		strbuf_addstr(sb, "  '");
		add_name(sb, cr->command->name);
		strbuf_addstr(sb, "' vs reference: ");
		describe_ratio(sb, cmp);
		if (cmp->exact) {
			strbuf_addstr(sb, "\n      ");
			add_count(sb, cr->count_stats.median);
			strbuf_addstr(sb, " vs ");
			add_count(sb, ref->count_stats.median);
			strbuf_addf(sb, " %s: %+.0f\n", bench_count_unit(res->count),
				    cr->count_stats.median - ref->count_stats.median);
			continue;
		}
		strbuf_addstr(sb, "\n      mean ratio ");
		add_num(sb, 3, "x", cmp->mean_ratio.estimate);
		strbuf_addch(sb, ' ');
		add_interval(sb, 3, "x", cmp->mean_ratio.lo, cmp->mean_ratio.hi);
		strbuf_addf(sb, "; Mann-Whitney p = %.3g", cmp->mwu.p);
		if (cmp->family > 1)
			strbuf_addf(sb, " (Holm: %.3g)", cmp->p_family);
		strbuf_addf(sb, "; Welch's t p = %.3g\n", cmp->welch.p);
	}
	strbuf_addch(sb, '\n');
}

void bench_report_baseline(struct strbuf *sb, const struct bench_result *res,
			   const struct bench_regression *g, size_t nr, double max_regression)
{
	size_t i;

	if (res->count)
		strbuf_addf(sb, "Baseline (%s; allowed increase %g%%; exact counts fail when their "
			    "ratio is beyond it, counts that varied when significantly more and the "
			    "whole %g%% interval is beyond it", bench_count_name(res->count),
			    max_regression * 100, res->confidence * 100);
	else
		strbuf_addf(sb, "Baseline (allowed slowdown %g%%; fails only when significantly slower "
			    "and the whole %g%% interval is beyond it", max_regression * 100,
			    res->confidence * 100);
	for (size_t k = 0; k < nr; k++)
		if (!g[k].cmp.exact) {
			add_family(sb, &g[k].cmp);
			break;
		}
	strbuf_addstr(sb, ")\n");
	for (i = 0; i < nr; i++) {
		const struct stats_ratio *r = &g[i].cmp.median_ratio;

		strbuf_addf(sb, "  %s '", g[i].regressed ? "REGRESSION" : "ok");
		add_name(sb, res->commands[g[i].command].command->name);
		strbuf_addstr(sb, "': ");
		if (g[i].cmp.exact) {
			strbuf_addf(sb, "%+.3f%% %s %s than the baseline (exact counts: ",
				    (r->estimate - 1) * 100, r->estimate >= 1 ? "more" : "fewer",
				    bench_count_unit(res->count));
			add_count(sb, res->commands[g[i].command].count_stats.median);
			strbuf_addstr(sb, " vs ");
			add_count(sb, g[i].base->counts[0]);
			strbuf_addstr(sb, ")\n");
			continue;
		}
		if (g[i].cmp.verdict == DIRECTION_SLOWER) {
			add_num(sb, 1, "%", (r->estimate - 1) * 100);
			strbuf_addstr(sb, " slower than the baseline ");
			add_interval(sb, 1, "%", (r->lo - 1) * 100, (r->hi - 1) * 100);
		} else if (g[i].cmp.verdict == DIRECTION_FASTER) {
			add_num(sb, 1, "%", (1 - r->estimate) * 100);
			strbuf_addstr(sb, " faster than the baseline ");
			add_interval(sb, 1, "%", (1 - r->hi) * 100, (1 - r->lo) * 100);
		} else {
			strbuf_addstr(sb, "no significant difference from the baseline (ratio ");
			add_num(sb, 3, "x", r->estimate);
			strbuf_addch(sb, ' ');
			add_interval(sb, 3, "x", r->lo, r->hi);
		}
		strbuf_addf(sb, ", p = %.3g", g[i].cmp.mwu.p);
		if (g[i].cmp.family > 1)
			strbuf_addf(sb, " (Holm: %.3g)", g[i].cmp.p_family);
		strbuf_addf(sb, "%s\n", g[i].cmp.verdict == DIRECTION_SAME ? ")" : "");
		if (!isfinite(r->estimate) || !isfinite(r->lo) || !isfinite(r->hi))
			strbuf_addstr(sb, "    (no ratio: the baseline's median is 0; the gate cannot "
				      "judge this command)\n");
	}
	strbuf_addch(sb, '\n');
}

void bench_report_warnings(const struct bench_result *res, const struct bench_config *cfg)
{
	size_t c;

	for (c = 0; c < res->nr_commands; c++) {
		const struct bench_command_result *cr = &res->commands[c];
		const struct stats_summary *s = &cr->wall_stats;
		char *name;

		if (!cr->nr_runs)
			continue;
		name = escape_term_dup(cr->command->name);
		if (s->outliers && cr->nr_runs >= 5)	/* a z-score of 3 values says little */
			warning("'%s': %zu of %zu runs are statistical outliers (modified z-score > %g, "
				"Iglewicz & Hoaglin). Something else disturbed them: other programs, "
				"cold caches or frequency scaling. Use --warmup, a quieter machine, or "
				"--prepare to reset state before each run (e.g. drop the page cache); "
				"the median and the rank test already resist them.",
				name, s->outliers, cr->nr_runs, STATS_OUTLIER_Z);
		if (!cfg->warmup && cr->nr_runs >= 5 && s->mad > 0 &&
		    cr->runs[0].wall > s->median + 10 * s->mad && cr->runs[0].wall > 1.5 * s->median)
			warning("'%s': the first run was much slower than the others (%.4g s vs a "
				"median of %.4g s), probably cold caches: consider --warmup 1 or more.",
				name, cr->runs[0].wall, s->median);
		if (cfg->shell && s->median < 5e-3 && !res->count)
			warning("'%s' took less than 5 ms; the shell's own start-up (%.3g ms, "
				"subtracted) is a large part of that: use -N (--shell=none) to "
				"benchmark it without a shell.", name, res->shell_wall * 1e3);
		if (cr->failed_runs)
			warning("'%s': %zu of %zu runs exited with a non-zero status (measured "
				"because of --ignore-failure).", name, cr->failed_runs, cr->nr_runs);
		free(name);
	}
}
