# src/history: trail history - per-commit results in git notes, series,
# change points (E-Divisive means), the plot.
LIB_OBJS += src/history/budget.o
LIB_OBJS += src/history/changepoint.o
LIB_OBJS += src/history/cp_null.o
LIB_OBJS += src/history/cp_split.o
LIB_OBJS += src/history/env_pick.o
LIB_OBJS += src/history/guard.o
LIB_OBJS += src/history/measure.o
LIB_OBJS += src/history/plausible.o
LIB_OBJS += src/history/plot.o
LIB_OBJS += src/history/profile_diff.o
LIB_OBJS += src/history/profiles_store.o
LIB_OBJS += src/history/result.o
LIB_OBJS += src/history/series.o
LIB_OBJS += src/history/site.o
LIB_OBJS += src/history/store.o
LIB_OBJS += src/history/suite.o
LIB_OBJS += src/history/suite_lines.o
LIB_OBJS += src/history/tip.o

UNIT_TESTS += tests/unit/test_history
UNIT_TESTS += tests/unit/test_history_calibrate
UNIT_TESTS += tests/unit/test_history_detect
UNIT_TESTS += tests/unit/test_history_env_pick
UNIT_TESTS += tests/unit/test_history_suite
