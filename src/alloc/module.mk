# src/alloc: the allocation profiler behind 'trail record -e alloc' - the
# LD_PRELOAD interposer (built as its own shared library, never with the
# sanitizers: it is loaded into programs that are not) and the reader that
# turns its raw files into perf.data samples.
LIB_OBJS += src/alloc/alloc_read.o
LIB_OBJS += src/alloc/alloc_record.o
UNIT_TESTS += tests/unit/test_alloc_read

ALLOC_PRELOAD := $(BUILD)/libtrail-alloc.so
PRELOAD_CFLAGS := -O2 -g -std=c11 -D_GNU_SOURCE -fPIC -fno-omit-frame-pointer -pthread \
                  -fvisibility=hidden -Isrc $(WARN) $(if $(filter 1,$(STRICT)),-Werror)

$(ALLOC_PRELOAD): src/alloc/preload.c src/alloc/raw.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(PRELOAD_CFLAGS) -shared -o $@ src/alloc/preload.c -ldl -lm
