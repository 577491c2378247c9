# src/profile: the stack data every input and output shares - folded
# profiles (folded.c) and the folding engine that turns parsed samples into
# them (fold.c; frame names in fold_frames.c, the writer in fold_write.c).
LIB_OBJS += src/profile/folded.o
LIB_OBJS += src/profile/units.o
LIB_OBJS += src/profile/fold.o
LIB_OBJS += src/profile/fold_frames.o
LIB_OBJS += src/profile/fold_write.o
LIB_OBJS += src/profile/flat.o
LIB_OBJS += src/profile/explain.o
LIB_OBJS += src/profile/pprof_write.o
LIB_OBJS += src/profile/speedscope_write.o
LIB_OBJS += src/profile/writers.o

UNIT_TESTS += tests/unit/test_folded
UNIT_TESTS += tests/unit/test_flat
