# src/stats: every statistic, once - describing a sample, two-sample
# tests, reference distributions, the bootstrap, the exact rank-sum
# distribution, the generator (rng.h), the rank CUSUM of a series (rank_cusum.h), the p-value of a test that looks
# several times (sequential) - below everything that decides.
LIB_OBJS += src/stats/describe.o
LIB_OBJS += src/stats/distributions.o
LIB_OBJS += src/stats/two_sample.o
LIB_OBJS += src/stats/bootstrap.o
LIB_OBJS += src/stats/rank_sum.o
LIB_OBJS += src/stats/sequential.o
LIB_OBJS += src/stats/rank_cusum.o
