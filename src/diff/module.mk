# src/diff: comparing two profiles - difffolded.pl's three-column merge,
# per-function hotspots (self/inclusive shares, hotter/cooler ranking) and
# the significance tests behind them.
LIB_OBJS += src/diff/compare.o
LIB_OBJS += src/diff/difffolded.o
LIB_OBJS += src/diff/diffline.o
LIB_OBJS += src/diff/diffmerge.o
LIB_OBJS += src/diff/diffsort.o
LIB_OBJS += src/diff/hotspots.o
LIB_OBJS += src/diff/significance.o
LIB_OBJS += src/diff/table.o
LIB_OBJS += src/diff/table_json.o

UNIT_TESTS += tests/unit/test_diff
