# src/bench: the benchmark engine of 'trail bench' (and of trail flame's
# wall-time probe): statistics, executor, scheduler, exporters.
LIB_OBJS += src/bench/baseline.o
LIB_OBJS += src/bench/executor.o
LIB_OBJS += src/bench/export.o
LIB_OBJS += src/bench/export_csv.o
LIB_OBJS += src/bench/export_json.o
LIB_OBJS += src/bench/export_markdown.o
LIB_OBJS += src/bench/export_svg.o
LIB_OBJS += src/bench/params.o
LIB_OBJS += src/bench/rank_sum.o
LIB_OBJS += src/bench/report.o
LIB_OBJS += src/bench/scheduler.o
LIB_OBJS += src/bench/stats.o

UNIT_TESTS += tests/unit/test_bench_json
UNIT_TESTS += tests/unit/test_bench_runner
UNIT_TESTS += tests/unit/test_bench_stats
