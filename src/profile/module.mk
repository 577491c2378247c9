# src/profile: stack data (folded profiles), perf.data reading and writing,
# symbolization and sampling.
LIB_OBJS += src/profile/folded.o

UNIT_TESTS += tests/unit/test_folded
# perf.data reading and symbolization
LIB_OBJS += src/profile/build_id.o
LIB_OBJS += src/profile/cfi_rows.o
LIB_OBJS += src/profile/debuginfo.o
LIB_OBJS += src/profile/maps.o
LIB_OBJS += src/profile/perfdata.o
LIB_OBJS += src/profile/perfdata_stacks.o
LIB_OBJS += src/profile/stack_memo.o
LIB_OBJS += src/profile/symbols.o
LIB_OBJS += src/profile/unwind.o
UNIT_TESTS += tests/unit/test_perfdata
UNIT_TESTS += tests/unit/test_unwind
UNIT_TESTS += tests/unit/test_build_id
# the perf_event_open sampler and perf.data writing
LIB_OBJS += src/profile/perfdata_write.o
LIB_OBJS += src/profile/sampler.o
LIB_OBJS += src/profile/sampler_event.o
LIB_OBJS += src/profile/sampler_ring.o
LIB_OBJS += src/profile/sampler_synth.o
LIB_OBJS += src/profile/offcpu.o
LIB_OBJS += src/profile/dso_hits.o
UNIT_TESTS += tests/unit/test_sampler
UNIT_TESTS += tests/unit/test_perfdata_write
LIB_OBJS += src/profile/perfdata_fold.o
