/*
 * export_markdown.c - --export-markdown: a table to paste into a pull
 * request, in one time unit chosen from the fastest median, with the ratio
 * to the reference, its confidence interval and the verdict.
 */
#include "bench/export.h"
#include "core/verdict.h"
#include "core/escape.h"
#include "core/strbuf.h"

#include <math.h>
#include <string.h>

/* A command in a table cell: a code span (core/escape.h), pipes escaped. */
static void cell(struct strbuf *sb, const char *s)
{
	escape_md_code(sb, s, strlen(s), 1);
}

/* A ratio, or n/a when the reference's median is 0 */
static void num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.3f", v);
	else
		strbuf_addstr(sb, "n/a");
}

static int markdown_write(const struct bench_export_context *ctx, struct strbuf *sb)
{
	const struct bench_result *res = ctx->res;
	double fastest = INFINITY, scale;
	const char *unit;
	size_t c;

	for (c = 0; c < res->nr_commands; c++)
		if (res->commands[c].nr_runs && res->commands[c].wall_stats.median < fastest)
			fastest = res->commands[c].wall_stats.median;
	bench_time_unit(isfinite(fastest) ? fastest : 1, &scale, &unit);
	strbuf_addf(sb, "| Command | Median [%s] | Mean ± σ [%s] | Min … Max [%s] | Runs | "
		    "Relative (%g%% CI) | Verdict |\n", unit, unit, unit, res->confidence * 100);
	strbuf_addstr(sb, "|:---|---:|---:|---:|---:|---:|:---|\n");
	for (c = 0; c < res->nr_commands; c++) {
		const struct bench_command_result *cr = &res->commands[c];
		const struct stats_summary *s = &cr->wall_stats;

		strbuf_addstr(sb, "| ");
		cell(sb, cr->command->name);
		if (!cr->nr_runs) {
			strbuf_addstr(sb, " | | | | 0 | | not run |\n");
			continue;
		}
		strbuf_addf(sb, " | %.3f | %.3f ± %.3f | %.3f … %.3f | %zu | ",
			    s->median * scale, s->mean * scale, s->stddev * scale,
			    s->min * scale, s->max * scale, cr->nr_runs);
		if (cr->has_comparison) {
			const struct stats_ratio *r = &cr->comparison.median_ratio;

			num(sb, r->estimate);
			strbuf_addstr(sb, " [");
			num(sb, r->lo);
			strbuf_addstr(sb, ", ");
			num(sb, r->hi);
			strbuf_addf(sb, "] | %s |\n", trail_direction_name(cr->comparison.verdict));
		} else {
			strbuf_addstr(sb, "1.000 | reference |\n");
		}
	}
	return 0;
}

const struct bench_exporter bench_export_markdown = { "markdown", markdown_write };
