/*
 * export_json.c - --export-json and --save-baseline: every run's raw values
 * plus the summary.  Field names follow hyperfine's export where one
 * exists ("results", "command", "mean", "times", ...) so tools that read
 * hyperfine's JSON read trail's; the rest is documented in docs/bench.md.
 */
#include "bench/export.h"
#include "core/verdict.h"
#include "core/json_writer.h"
#include "core/strbuf.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* [low, high] of an interval. */
static void interval(struct json_writer *w, const char *k, double lo, double hi)
{
	json_writer_key(w, k);
	json_writer_begin_array(w);
	json_writer_number(w, lo);
	json_writer_number(w, hi);
	json_writer_end(w);
}

static void stats_fields(struct json_writer *w, const struct stats_summary *s)
{
	json_writer_key_number(w, "mean", s->mean);
	json_writer_key_number(w, "stddev", s->stddev);
	json_writer_key_number(w, "median", s->median);
	interval(w, "median_ci", s->median_lo, s->median_hi);
	json_writer_key_number(w, "min", s->min);
	json_writer_key_number(w, "max", s->max);
	json_writer_key_number(w, "p95", s->p95);
	json_writer_key_number(w, "p99", s->p99);
	json_writer_key_number(w, "mad", s->mad);
	json_writer_key_uint(w, "outliers", s->outliers);
}

enum run_field_type { RUN_DOUBLE, RUN_INT64, RUN_INT };

/* An array of one field of every run; offset into struct bench_measurement. */
static void run_array(struct json_writer *w, const char *k, const struct bench_command_result *cr,
		      size_t offset, enum run_field_type type)
{
	size_t i;

	json_writer_key(w, k);
	json_writer_begin_array(w);
	for (i = 0; i < cr->nr_runs; i++) {
		const char *p = (const char *)&cr->runs[i] + offset;

		if (type == RUN_INT) {
			int v;

			memcpy(&v, p, sizeof(v));
			json_writer_int(w, v);
		} else if (type == RUN_INT64) {
			int64_t v;

			memcpy(&v, p, sizeof(v));
			json_writer_int(w, v);
		} else {
			double v;

			memcpy(&v, p, sizeof(v));
			json_writer_number(w, v);
		}
	}
	json_writer_end(w);
}

static void ratio(struct json_writer *w, const char *name, const struct stats_ratio *r)
{
	char k[64];

	json_writer_key_number(w, name, r->estimate);
	snprintf(k, sizeof(k), "%s_ci", name);
	interval(w, k, r->lo, r->hi);
}

static void comparison(struct json_writer *w, const struct bench_comparison *c)
{
	/* exact counts: point ratios, and the test fields null (no test was made) */
	json_writer_key_bool(w, "exact", c->exact);
	ratio(w, "median_ratio", &c->median_ratio);
	ratio(w, "mean_ratio", &c->mean_ratio);
	json_writer_key_number(w, "mann_whitney_u", c->mwu.u_a);
	json_writer_key_number(w, "mann_whitney_z", c->mwu.z);
	json_writer_key_number(w, "p_value", c->mwu.p);
	/* the p-value the verdict used: Holm-adjusted over family comparisons */
	json_writer_key_number(w, "p_value_adjusted", c->p_family);
	json_writer_key_number(w, "family", (double)c->family);
	json_writer_key_number(w, "welch_t", c->welch.t);
	json_writer_key_number(w, "welch_df", c->welch.df);
	json_writer_key_number(w, "welch_p_value", c->welch.p);
	json_writer_key_string(w, "verdict", trail_direction_name(c->verdict));
}

#define RUN_FIELD(w, k, cr, field, type) \
	run_array((w), (k), (cr), offsetof(struct bench_measurement, field), (type))

static void one_result(struct json_writer *w, const struct bench_export_context *ctx, size_t c)
{
	const struct bench_result *res = ctx->res;
	const struct bench_command_result *cr = &res->commands[c];
	size_t i;

	json_writer_begin_object(w);
	json_writer_key_string(w, "command", cr->command->name);
	if (strcmp(cr->command->name, cr->command->cmdline))
		json_writer_key_string(w, "command_line", cr->command->cmdline);
	json_writer_key_uint(w, "runs", cr->nr_runs);
	json_writer_key_uint(w, "failed_runs", cr->failed_runs);
	if (cr->nr_runs) {
		stats_fields(w, &cr->wall_stats);
		/* hyperfine's names for the mean CPU times */
		json_writer_key_number(w, "user", cr->user_stats.mean);
		json_writer_key_number(w, "system", cr->sys_stats.mean);
		json_writer_key_number(w, "max_rss_kib", cr->rss_stats.max);
		json_writer_key_number(w, "median_rss_kib", cr->rss_stats.median);
	}
	if (cr->count) {
		/*
		 * The count in an object of its own, in its unit: the fields
		 * above stay seconds, as hyperfine's readers expect them.
		 */
		json_writer_key(w, "count");
		json_writer_begin_object(w);
		json_writer_key_string(w, "metric", bench_count_name(res->count));
		json_writer_key_string(w, "unit", bench_count_unit(res->count));
		json_writer_key_bool(w, "exact", cr->count_exact);
		json_writer_key_number(w, "spread", cr->count_spread);
		stats_fields(w, &cr->count_stats);
		json_writer_key(w, "values");
		json_writer_begin_array(w);
		for (i = 0; i < cr->nr_runs; i++)
			json_writer_number(w, cr->count[i]);
		json_writer_end(w);
		json_writer_end(w);
	}
	if (cr->command->param_names[0]) {
		json_writer_key(w, "parameters");
		json_writer_begin_object(w);
		for (i = 0; i < 4 && cr->command->param_names[i]; i++)
			json_writer_key_string(w, cr->command->param_names[i],
					       cr->command->param_values[i]);
		json_writer_end(w);
	}
	RUN_FIELD(w, "times", cr, wall, RUN_DOUBLE);
	RUN_FIELD(w, "user_times", cr, user, RUN_DOUBLE);
	RUN_FIELD(w, "system_times", cr, sys, RUN_DOUBLE);
	RUN_FIELD(w, "exit_codes", cr, exit_code, RUN_INT);
	RUN_FIELD(w, "max_rss_kib_runs", cr, max_rss, RUN_INT64);
	RUN_FIELD(w, "minor_faults", cr, minor_faults, RUN_INT64);
	RUN_FIELD(w, "major_faults", cr, major_faults, RUN_INT64);
	RUN_FIELD(w, "voluntary_context_switches", cr, vol_csw, RUN_INT64);
	RUN_FIELD(w, "involuntary_context_switches", cr, invol_csw, RUN_INT64);
	if (res->perf_available) {
		RUN_FIELD(w, "perf_context_switches", cr, perf_csw, RUN_INT64);
		RUN_FIELD(w, "perf_page_faults", cr, perf_faults, RUN_INT64);
		RUN_FIELD(w, "perf_cpu_migrations", cr, perf_migrations, RUN_INT64);
	}
	if (cr->has_comparison) {
		json_writer_key(w, "comparison");
		json_writer_begin_object(w);
		json_writer_key_uint(w, "reference", res->reference);
		comparison(w, &cr->comparison);
		json_writer_end(w);
	}
	json_writer_end(w);
}

static void baseline(struct json_writer *w, const struct bench_export_context *ctx)
{
	size_t c;

	json_writer_key(w, "baseline");
	json_writer_begin_object(w);
	json_writer_key_string(w, "path", ctx->baseline_path);
	json_writer_key_number(w, "max_regression", ctx->max_regression);
	json_writer_key(w, "comparisons");
	json_writer_begin_array(w);
	for (c = 0; c < ctx->nr_regressions; c++) {
		const struct bench_regression *g = &ctx->regressions[c];

		json_writer_begin_object(w);
		json_writer_key_string(w, "command", ctx->res->commands[g->command].command->name);
		json_writer_key_string(w, "baseline_command", g->base->command);
		json_writer_key_uint(w, "baseline_runs", g->base->nr_times);
		comparison(w, &g->cmp);
		json_writer_key_bool(w, "regressed", g->regressed);
		json_writer_end(w);
	}
	json_writer_end(w);
	json_writer_end(w);
}

static int json_write(const struct bench_export_context *ctx, struct strbuf *sb)
{
	const struct bench_result *res = ctx->res;
	const struct bench_config *cfg = ctx->cfg;
	struct json_writer w;
	size_t c;

	json_writer_init(&w, sb, JSON_WRITER_PRETTY);
	json_writer_begin_object(&w);
	json_writer_key_string(&w, "tool", "trail bench " TRAIL_VERSION);
	json_writer_key_string(&w, "metric", bench_count_name(res->count));
	json_writer_key_number(&w, "confidence", res->confidence);
	json_writer_key_uint(&w, "reference", res->reference);
	json_writer_key_bool(&w, "interleaved", res->interleaved);
	json_writer_key_bool(&w, "interrupted", res->interrupted);
	json_writer_key_string(&w, "shell", cfg ? cfg->shell : NULL);
	json_writer_key(&w, "shell_spawn");
	json_writer_begin_object(&w);
	json_writer_key_number(&w, "wall", res->shell_wall);
	json_writer_key_number(&w, "user", res->shell_user);
	json_writer_key_number(&w, "system", res->shell_sys);
	json_writer_key_uint(&w, "probes", res->shell_probes);
	if (res->count)
		json_writer_key_number(&w, "count", res->shell_count);
	json_writer_end(&w);
	if (res->looks)
		json_writer_key_uint(&w, "looks", res->looks);
	if (res->perf_note)
		json_writer_key_string(&w, "perf_counters", res->perf_note);
	json_writer_key(&w, "results");
	json_writer_begin_array(&w);
	for (c = 0; c < res->nr_commands; c++)
		one_result(&w, ctx, c);
	json_writer_end(&w);
	if (ctx->baseline_path)
		baseline(&w, ctx);
	json_writer_end(&w);
	json_writer_release(&w);
	strbuf_addch(sb, '\n');
	return 0;
}

const struct bench_exporter bench_export_json = { "json", json_write };
