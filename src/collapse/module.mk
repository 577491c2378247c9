# src/collapse: input formats folded into stacks (see the files' top comments).
LIB_OBJS += src/collapse/fold.o
LIB_OBJS += src/collapse/perf_script.o

UNIT_TESTS += tests/unit/test_collapse
