# src/collapse: input formats, each parsed and fed to the folding engine
# (profile/fold.h): perf script text and perf.data.
LIB_OBJS += src/collapse/perf_script.o
LIB_OBJS += src/collapse/perfdata_fold.o
LIB_OBJS += src/collapse/load.o

UNIT_TESTS += tests/unit/test_collapse
