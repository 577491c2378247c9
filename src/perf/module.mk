# src/perf: perf.data reading and writing, process maps, stack unwinding,
# the perf_event_open sampler and off-CPU recording.
# one record decoder and one tool interface, for files and the live sampler
LIB_OBJS += src/perf/perf_event.o
LIB_OBJS += src/perf/perf_tool.o
# perf.data reading
LIB_OBJS += src/perf/cfi_rows.o
LIB_OBJS += src/perf/maps.o
LIB_OBJS += src/perf/perfdata.o
LIB_OBJS += src/perf/perfdata_records.o
LIB_OBJS += src/perf/perfdata_stacks.o
LIB_OBJS += src/perf/stack_memo.o
LIB_OBJS += src/perf/time_order.o
LIB_OBJS += src/perf/unwind.o
UNIT_TESTS += tests/unit/test_perfdata
UNIT_TESTS += tests/unit/test_unwind
# the perf_event_open sampler and perf.data writing
LIB_OBJS += src/perf/perfdata_write.o
LIB_OBJS += src/perf/sampler.o
LIB_OBJS += src/perf/sampler_event.o
LIB_OBJS += src/perf/sampler_launch.o
LIB_OBJS += src/perf/sampler_ring.o
LIB_OBJS += src/perf/sampler_synth.o
LIB_OBJS += src/perf/offcpu.o
LIB_OBJS += src/perf/dso_hits.o
LIB_OBJS += src/perf/record_hints.o
LIB_OBJS += src/perf/record_options.o
LIB_OBJS += src/perf/recorder.o
UNIT_TESTS += tests/unit/test_record_options
UNIT_TESTS += tests/unit/test_sampler
UNIT_TESTS += tests/unit/test_sampler_launch
UNIT_TESTS += tests/unit/test_perfdata_write
