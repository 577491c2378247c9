/*
 * export.h - writing a benchmark result in a file format.  Each format is
 * a struct bench_exporter (JSON, CSV, Markdown, SVG) that appends the
 * whole document to a strbuf; bench_export_file() writes it out.
 * The JSON field names are documented in docs/bench.md.
 */
#ifndef TRAIL_BENCH_EXPORT_H
#define TRAIL_BENCH_EXPORT_H

#include "bench/baseline.h"
#include "bench/bench.h"
#include "core/strbuf.h"

struct bench_export_context {
	const struct bench_result *res;
	const struct bench_config *cfg;
	const char *baseline_path;			/* compared against, or NULL */
	const struct bench_regression *regressions;	/* per compared command */
	size_t nr_regressions;
	double max_regression;				/* fraction, e.g. 0.05 */
};

struct bench_exporter {
	const char *name;	/* "json", "csv", "markdown", "svg" */
	int (*write)(const struct bench_export_context *ctx, struct strbuf *out);
};

extern const struct bench_exporter bench_export_json;
extern const struct bench_exporter bench_export_csv;
extern const struct bench_exporter bench_export_markdown;
extern const struct bench_exporter bench_export_svg;

/* Render with e and write to path ("-" for stdout); 0 or -1 (error printed). */
int bench_export_file(const struct bench_exporter *e, const struct bench_export_context *ctx,
		      const char *path);

/* A time unit that suits seconds value t: scale (e.g. 1e3) and name ("ms"). */
void bench_time_unit(double t, double *scale, const char **name);

#endif
