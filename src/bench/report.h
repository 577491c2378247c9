/*
 * report.h - the terminal report of trail bench, in the spirit of
 * hyperfine's: a block per command (median ± MAD, mean ± σ, range,
 * percentiles, CPU, memory, counters), then the relative summary with
 * confidence intervals and verdicts, and the baseline guard's verdicts.
 * Text is appended to a strbuf (the caller prints it to stdout); advice
 * about noisy measurements goes to stderr as warnings.
 */
#ifndef TRAIL_BENCH_REPORT_H
#define TRAIL_BENCH_REPORT_H

#include "bench/baseline.h"
#include "bench/bench.h"
#include "core/strbuf.h"

void bench_report_command(struct strbuf *sb, const struct bench_result *res, size_t c);
void bench_report_summary(struct strbuf *sb, const struct bench_result *res);
void bench_report_baseline(struct strbuf *sb, const struct bench_result *res,
			   const struct bench_regression *g, size_t nr, double max_regression);
/* Warnings on stderr: outliers, a slow first run, too-short commands, failures. */
void bench_report_warnings(const struct bench_result *res, const struct bench_config *cfg);

#endif
