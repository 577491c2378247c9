/*
 * export_csv.c - --export-csv: one summary row per command, hyperfine's
 * columns first (command,mean,stddev,median,user,system,min,max), then
 * trail's (p95, p99, MAD, runs, outliers, peak RSS, ratio and verdict
 * against the reference), then parameter_NAME columns.  Seconds; RFC 4180
 * quoting.
 */
#include "bench/export.h"
#include "core/verdict.h"
#include "core/strbuf.h"

#include <math.h>
#include <string.h>

static void field(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

static void num(struct strbuf *sb, double v)
{
	strbuf_addch(sb, ',');
	if (isfinite(v))
		strbuf_addf(sb, "%.12g", v);
}

static int csv_write(const struct bench_export_context *ctx, struct strbuf *sb)
{
	const struct bench_result *res = ctx->res;
	const struct bench_command *first = res->nr_commands ? res->commands[0].command : NULL;
	size_t c, i;

	strbuf_addstr(sb, "command,mean,stddev,median,user,system,min,max,p95,p99,mad,runs,"
			  "outliers,max_rss_kib,median_ratio,median_ratio_ci_low,"
			  "median_ratio_ci_high,p_value,verdict");
	for (i = 0; first && i < 4 && first->param_names[i]; i++) {
		strbuf_addstr(sb, ",parameter_");
		field(sb, first->param_names[i]);
	}
	strbuf_addch(sb, '\n');
	for (c = 0; c < res->nr_commands; c++) {
		const struct bench_command_result *cr = &res->commands[c];
		const struct stats_summary *s = &cr->wall_stats;

		field(sb, cr->command->name);
		if (cr->nr_runs) {
			num(sb, s->mean);
			num(sb, s->stddev);
			num(sb, s->median);
			num(sb, cr->user_stats.mean);
			num(sb, cr->sys_stats.mean);
			num(sb, s->min);
			num(sb, s->max);
			num(sb, s->p95);
			num(sb, s->p99);
			num(sb, s->mad);
		} else {
			strbuf_addstr(sb, ",,,,,,,,,,");
		}
		strbuf_addf(sb, ",%zu,%zu", cr->nr_runs, s->outliers);
		num(sb, cr->nr_runs ? cr->rss_stats.max : NAN);
		if (cr->has_comparison) {
			num(sb, cr->comparison.median_ratio.estimate);
			num(sb, cr->comparison.median_ratio.lo);
			num(sb, cr->comparison.median_ratio.hi);
			num(sb, cr->comparison.mwu.p);
			strbuf_addch(sb, ',');
			field(sb, trail_direction_name(cr->comparison.verdict));
		} else {
			strbuf_addstr(sb, c == res->reference ? ",1,1,1,,reference" : ",,,,,");
		}
		for (i = 0; i < 4 && cr->command->param_names[i]; i++) {
			strbuf_addch(sb, ',');
			field(sb, cr->command->param_values[i]);
		}
		strbuf_addch(sb, '\n');
	}
	return 0;
}

const struct bench_exporter bench_export_csv = { "csv", csv_write };
