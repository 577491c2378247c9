# src/collapse: input formats, each behind struct collapser (collapser.h),
# parsed and fed to the folding engine (profile/fold.h); formats.c lists them.
LIB_OBJS += src/collapse/cpuprofile.o
LIB_OBJS += src/collapse/folded_input.o
LIB_OBJS += src/collapse/formats.o
LIB_OBJS += src/collapse/input.o
LIB_OBJS += src/collapse/jfr_json.o
LIB_OBJS += src/collapse/perf_script.o
LIB_OBJS += src/collapse/perfdata_fold.o
LIB_OBJS += src/collapse/pprof.o
LIB_OBJS += src/collapse/profile_formats.o
LIB_OBJS += src/collapse/session.o
LIB_OBJS += src/collapse/speedscope.o

UNIT_TESTS += tests/unit/test_collapse
UNIT_TESTS += tests/unit/test_profile_formats
