# src/bench: the benchmark engine of 'trail bench' (and of trail flame's
# wall-time probe): the comparison, executor, scheduler, exporters.
LIB_OBJS += src/bench/baseline.o
LIB_OBJS += src/bench/compare.o
LIB_OBJS += src/bench/count.o
LIB_OBJS += src/bench/executor.o
LIB_OBJS += src/bench/export.o
LIB_OBJS += src/bench/export_csv.o
LIB_OBJS += src/bench/export_json.o
LIB_OBJS += src/bench/export_markdown.o
LIB_OBJS += src/bench/export_svg.o
LIB_OBJS += src/bench/params.o
LIB_OBJS += src/bench/report.o
LIB_OBJS += src/bench/scheduler.o

UNIT_TESTS += tests/unit/test_bench_json
UNIT_TESTS += tests/unit/test_bench_runner
UNIT_TESTS += tests/unit/test_bench_stats
