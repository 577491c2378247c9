# src/profile: stack data (folded profiles), perf.data reading and writing,
# symbolization and sampling.
LIB_OBJS += src/profile/folded.o

UNIT_TESTS += tests/unit/test_folded
