/*
 * export_json.c - --export-json and --save-baseline: every run's raw values
 * plus the summary.  Field names follow hyperfine's export where one
 * exists ("results", "command", "mean", "times", ...) so tools that read
 * hyperfine's JSON read trail's; the rest is documented in docs/bench.md.
 */
#include "bench/export.h"
#include "core/strbuf.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static void num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.12g", v);
	else
		strbuf_addstr(sb, "null");
}

static void str(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	strbuf_add_json_escaped(sb, s, strlen(s));
	strbuf_addch(sb, '"');
}

static void key(struct strbuf *sb, const char *indent, const char *k, int *first)
{
	if (!*first)
		strbuf_addstr(sb, ",\n");
	*first = 0;
	strbuf_addf(sb, "%s\"%s\": ", indent, k);
}

static void stats_fields(struct strbuf *sb, const char *ind, const struct bench_stats *s, int *first)
{
	key(sb, ind, "mean", first); num(sb, s->mean);
	key(sb, ind, "stddev", first); num(sb, s->stddev);
	key(sb, ind, "median", first); num(sb, s->median);
	key(sb, ind, "median_ci", first);
	strbuf_addch(sb, '[');
	num(sb, s->median_lo);
	strbuf_addstr(sb, ", ");
	num(sb, s->median_hi);
	strbuf_addch(sb, ']');
	key(sb, ind, "min", first); num(sb, s->min);
	key(sb, ind, "max", first); num(sb, s->max);
	key(sb, ind, "p95", first); num(sb, s->p95);
	key(sb, ind, "p99", first); num(sb, s->p99);
	key(sb, ind, "mad", first); num(sb, s->mad);
	key(sb, ind, "outliers", first); strbuf_addf(sb, "%zu", s->outliers);
}

/* An array of one field of every run; offset into struct bench_measurement. */
static void run_array(struct strbuf *sb, const struct bench_command_result *cr, size_t offset,
		      int is_int, int is_exit)
{
	size_t i;

	strbuf_addch(sb, '[');
	for (i = 0; i < cr->nr_runs; i++) {
		const char *p = (const char *)&cr->runs[i] + offset;

		if (i)
			strbuf_addstr(sb, ", ");
		if (is_exit) {
			int v;

			memcpy(&v, p, sizeof(v));
			strbuf_addf(sb, "%d", v);
		} else if (is_int) {
			int64_t v;

			memcpy(&v, p, sizeof(v));
			strbuf_addf(sb, "%lld", (long long)v);
		} else {
			double v;

			memcpy(&v, p, sizeof(v));
			num(sb, v);
		}
	}
	strbuf_addch(sb, ']');
}

static void ratio(struct strbuf *sb, const char *ind, const char *name,
		  const struct bench_ratio *r, int *first)
{
	char k[64];

	key(sb, ind, name, first);
	num(sb, r->estimate);
	snprintf(k, sizeof(k), "%s_ci", name);
	key(sb, ind, k, first);
	strbuf_addch(sb, '[');
	num(sb, r->lo);
	strbuf_addstr(sb, ", ");
	num(sb, r->hi);
	strbuf_addch(sb, ']');
}

static void comparison(struct strbuf *sb, const char *ind, const struct bench_comparison *c,
		       int *first)
{
	ratio(sb, ind, "median_ratio", &c->median_ratio, first);
	ratio(sb, ind, "mean_ratio", &c->mean_ratio, first);
	key(sb, ind, "mann_whitney_u", first); num(sb, c->mwu.u_a);
	key(sb, ind, "mann_whitney_z", first); num(sb, c->mwu.z);
	key(sb, ind, "p_value", first); num(sb, c->mwu.p);
	key(sb, ind, "welch_t", first); num(sb, c->welch.t);
	key(sb, ind, "welch_df", first); num(sb, c->welch.df);
	key(sb, ind, "welch_p_value", first); num(sb, c->welch.p);
	key(sb, ind, "verdict", first); str(sb, bench_verdict_name(c->verdict));
}

static void one_result(struct strbuf *sb, const struct bench_export_context *ctx, size_t c)
{
	const struct bench_result *res = ctx->res;
	const struct bench_command_result *cr = &res->commands[c];
	const char *ind = "      ";
	int first = 1;
	size_t i;

	strbuf_addstr(sb, "    {\n");
	key(sb, ind, "command", &first);
	str(sb, cr->command->name);
	if (strcmp(cr->command->name, cr->command->cmdline)) {
		key(sb, ind, "command_line", &first);
		str(sb, cr->command->cmdline);
	}
	key(sb, ind, "runs", &first); strbuf_addf(sb, "%zu", cr->nr_runs);
	key(sb, ind, "failed_runs", &first); strbuf_addf(sb, "%zu", cr->failed_runs);
	if (cr->nr_runs) {
		stats_fields(sb, ind, &cr->wall_stats, &first);
		/* hyperfine's names for the mean CPU times */
		key(sb, ind, "user", &first); num(sb, cr->user_stats.mean);
		key(sb, ind, "system", &first); num(sb, cr->sys_stats.mean);
		key(sb, ind, "max_rss_kib", &first); num(sb, cr->rss_stats.max);
		key(sb, ind, "median_rss_kib", &first); num(sb, cr->rss_stats.median);
	}
	if (cr->command->param_names[0]) {
		int pfirst = 1;

		key(sb, ind, "parameters", &first);
		strbuf_addstr(sb, "{");
		for (i = 0; i < 4 && cr->command->param_names[i]; i++) {
			if (!pfirst)
				strbuf_addstr(sb, ", ");
			pfirst = 0;
			str(sb, cr->command->param_names[i]);
			strbuf_addstr(sb, ": ");
			str(sb, cr->command->param_values[i]);
		}
		strbuf_addstr(sb, "}");
	}
	key(sb, ind, "times", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, wall), 0, 0);
	key(sb, ind, "user_times", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, user), 0, 0);
	key(sb, ind, "system_times", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, sys), 0, 0);
	key(sb, ind, "exit_codes", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, exit_code), 0, 1);
	key(sb, ind, "max_rss_kib_runs", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, max_rss), 1, 0);
	key(sb, ind, "minor_faults", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, minor_faults), 1, 0);
	key(sb, ind, "major_faults", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, major_faults), 1, 0);
	key(sb, ind, "voluntary_context_switches", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, vol_csw), 1, 0);
	key(sb, ind, "involuntary_context_switches", &first);
	run_array(sb, cr, offsetof(struct bench_measurement, invol_csw), 1, 0);
	if (res->perf_available) {
		key(sb, ind, "perf_context_switches", &first);
		run_array(sb, cr, offsetof(struct bench_measurement, perf_csw), 1, 0);
		key(sb, ind, "perf_page_faults", &first);
		run_array(sb, cr, offsetof(struct bench_measurement, perf_faults), 1, 0);
		key(sb, ind, "perf_cpu_migrations", &first);
		run_array(sb, cr, offsetof(struct bench_measurement, perf_migrations), 1, 0);
	}
	if (cr->has_comparison) {
		int cfirst = 1;

		key(sb, ind, "comparison", &first);
		strbuf_addf(sb, "{\n        \"reference\": %zu,\n", res->reference);
		comparison(sb, "        ", &cr->comparison, &cfirst);
		strbuf_addstr(sb, "\n      }");
	}
	strbuf_addstr(sb, "\n    }");
}

static int json_write(const struct bench_export_context *ctx, struct strbuf *sb)
{
	const struct bench_result *res = ctx->res;
	const struct bench_config *cfg = ctx->cfg;
	int first = 1;
	size_t c;

	strbuf_addstr(sb, "{\n");
	key(sb, "  ", "tool", &first);
	str(sb, "trail bench " TRAIL_VERSION);
	key(sb, "  ", "confidence", &first); num(sb, res->confidence);
	key(sb, "  ", "reference", &first); strbuf_addf(sb, "%zu", res->reference);
	key(sb, "  ", "interleaved", &first);
	strbuf_addstr(sb, res->interleaved ? "true" : "false");
	key(sb, "  ", "interrupted", &first);
	strbuf_addstr(sb, res->interrupted ? "true" : "false");
	key(sb, "  ", "shell", &first);
	if (cfg && cfg->shell)
		str(sb, cfg->shell);
	else
		strbuf_addstr(sb, "null");
	key(sb, "  ", "shell_spawn", &first);
	strbuf_addstr(sb, "{\"wall\": ");
	num(sb, res->shell_wall);
	strbuf_addstr(sb, ", \"user\": ");
	num(sb, res->shell_user);
	strbuf_addstr(sb, ", \"system\": ");
	num(sb, res->shell_sys);
	strbuf_addf(sb, ", \"probes\": %zu}", res->shell_probes);
	if (res->looks) {
		key(sb, "  ", "looks", &first);
		strbuf_addf(sb, "%zu", res->looks);
	}
	if (res->perf_note) {
		key(sb, "  ", "perf_counters", &first);
		str(sb, res->perf_note);
	}
	key(sb, "  ", "results", &first);
	strbuf_addstr(sb, "[\n");
	for (c = 0; c < res->nr_commands; c++) {
		if (c)
			strbuf_addstr(sb, ",\n");
		one_result(sb, ctx, c);
	}
	strbuf_addstr(sb, "\n  ]");
	if (ctx->baseline_path) {
		key(sb, "  ", "baseline", &first);
		strbuf_addstr(sb, "{\n    \"path\": ");
		str(sb, ctx->baseline_path);
		strbuf_addstr(sb, ",\n    \"max_regression\": ");
		num(sb, ctx->max_regression);
		strbuf_addstr(sb, ",\n    \"comparisons\": [");
		for (c = 0; c < ctx->nr_regressions; c++) {
			const struct bench_regression *g = &ctx->regressions[c];
			int cfirst = 1;

			strbuf_addstr(sb, c ? ",\n      {\n" : "\n      {\n");
			key(sb, "        ", "command", &cfirst);
			str(sb, res->commands[g->command].command->name);
			key(sb, "        ", "baseline_command", &cfirst);
			str(sb, g->base->command);
			key(sb, "        ", "baseline_runs", &cfirst);
			strbuf_addf(sb, "%zu", g->base->nr_times);
			comparison(sb, "        ", &g->cmp, &cfirst);
			key(sb, "        ", "regressed", &cfirst);
			strbuf_addstr(sb, g->regressed ? "true" : "false");
			strbuf_addstr(sb, "\n      }");
		}
		strbuf_addstr(sb, "\n    ]\n  }");
	}
	strbuf_addstr(sb, "\n}\n");
	return 0;
}

const struct bench_exporter bench_export_json = { "json", json_write };
