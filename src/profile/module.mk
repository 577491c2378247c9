# src/profile: stack data (folded profiles), perf.data reading and writing,
# symbolization and sampling.
LIB_OBJS += src/profile/folded.o

UNIT_TESTS += tests/unit/test_folded
LIB_OBJS += src/profile/maps.o
LIB_OBJS += src/profile/perfdata.o
LIB_OBJS += src/profile/perfdata_stacks.o
LIB_OBJS += src/profile/symbols.o
LIB_OBJS += src/profile/unwind.o
UNIT_TESTS += tests/unit/test_perfdata
