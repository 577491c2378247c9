# src/bench: the benchmark engine of 'trail bench' (and of trail flame's
# wall-time probe): statistics, executor, scheduler, exporters.
LIB_OBJS += src/bench/stats.o

UNIT_TESTS += tests/unit/test_bench_stats
