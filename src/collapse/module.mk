# src/collapse: input formats, each behind struct collapser (collapser.h),
# parsed and fed to the folding engine (profile/fold.h); formats.c lists them.
LIB_OBJS += src/collapse/bpftrace.o
LIB_OBJS += src/collapse/callgraph.o
LIB_OBJS += src/collapse/callgrind.o
LIB_OBJS += src/collapse/cpuprofile.o
LIB_OBJS += src/collapse/dtrace.o
LIB_OBJS += src/collapse/folded.o
LIB_OBJS += src/collapse/formats.o
LIB_OBJS += src/collapse/frames.o
LIB_OBJS += src/collapse/ghcprof.o
LIB_OBJS += src/collapse/heaptrack.o
LIB_OBJS += src/collapse/input.o
LIB_OBJS += src/collapse/jfr_json.o
LIB_OBJS += src/collapse/limits.o
LIB_OBJS += src/collapse/load.o
LIB_OBJS += src/collapse/massif.o
LIB_OBJS += src/collapse/perf_script.o
LIB_OBJS += src/collapse/perf_script_file.o
LIB_OBJS += src/collapse/perf_script_grammar.o
LIB_OBJS += src/collapse/perf_script_parse.o
LIB_OBJS += src/collapse/perfdata_fold.o
LIB_OBJS += src/collapse/pprof.o
LIB_OBJS += src/collapse/profile_formats.o
LIB_OBJS += src/collapse/recursive.o
LIB_OBJS += src/collapse/sample.o
LIB_OBJS += src/collapse/session.o
LIB_OBJS += src/collapse/speedscope.o
LIB_OBJS += src/collapse/vsprof.o
LIB_OBJS += src/collapse/vtune.o
LIB_OBJS += src/collapse/xctrace.o

UNIT_TESTS += tests/unit/test_collapse
UNIT_TESTS += tests/unit/test_collapse_formats
UNIT_TESTS += tests/unit/test_collapse_callgrind
UNIT_TESTS += tests/unit/test_collapse_memory
UNIT_TESTS += tests/unit/test_profile_formats
