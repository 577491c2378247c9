# src/alloc: the allocation profiler behind 'trail record -e alloc' - the
# LD_PRELOAD interposer (built as its own shared library, never with the
# sanitizers: it is loaded into programs that are not) and the reader that
# turns its raw files into perf.data samples.
LIB_OBJS += src/alloc/alloc_read.o
LIB_OBJS += src/alloc/alloc_record.o
UNIT_TESTS += tests/unit/test_alloc_read

ALLOC_PRELOAD := $(BUILD)/libtrail-alloc.so
# -fexceptions: std::bad_alloc from libstdc++'s operator new passes through
# the wrappers' frames
PRELOAD_CFLAGS := -O2 -g -std=c11 -D_GNU_SOURCE -fPIC -fno-omit-frame-pointer -pthread \
                  -fexceptions -fvisibility=hidden -Isrc $(WARN) $(if $(filter 1,$(STRICT)),-Werror)
PRELOAD_SRCS := src/alloc/preload.c
PRELOAD_SRCS += src/alloc/preload_exec.c
PRELOAD_SRCS += src/alloc/preload_fold.c
PRELOAD_SRCS += src/alloc/preload_image.c
PRELOAD_SRCS += src/alloc/preload_malloc.c
PRELOAD_SRCS += src/alloc/preload_out.c
PRELOAD_SRCS += src/alloc/preload_real.c
PRELOAD_SRCS += src/alloc/preload_sample.c
PRELOAD_SRCS += src/alloc/preload_state.c
PRELOAD_SRCS += src/alloc/preload_table.c
PRELOAD_SRCS += src/alloc/preload_unwind.c

# One object per file, in a tree of their own (another link unit than
# libtrail.a), so that scripts/check-circles sees the interposer's calls:
# tests/cli/01-include-graph.sh runs it on $(BUILD)/preload/src.
PRELOAD_O := $(patsubst %.c,$(BUILD)/preload/%.o,$(PRELOAD_SRCS))

$(BUILD)/preload/src/alloc/%.o: src/alloc/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (interposer)"
	$(Q)$(CC) $(PRELOAD_CFLAGS) -MMD -MP -c -o $@ $<

$(ALLOC_PRELOAD): $(PRELOAD_O)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(PRELOAD_CFLAGS) -shared -o $@ $(PRELOAD_O) -ldl -lm

-include $(PRELOAD_O:.o=.d)
