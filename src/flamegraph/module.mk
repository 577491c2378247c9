# src/flamegraph: folded stacks (input.c) -> rectangles (layout.c) -> SVG
# (svg.c), with palettes, --nameattr (the noise test for differential
# colours is diff/significance.h) and the embedded script (script.js, turned into a C
# string at build time by the rule below).
LIB_OBJS += src/flamegraph/input.o
LIB_OBJS += src/flamegraph/stack_sort.o
LIB_OBJS += src/flamegraph/layout.o
LIB_OBJS += src/flamegraph/nameattr.o
LIB_OBJS += src/flamegraph/palette.o
LIB_OBJS += src/flamegraph/script_js.o
LIB_OBJS += src/flamegraph/diffcolor.o
LIB_OBJS += src/flamegraph/svg.o
LIB_OBJS += src/flamegraph/render.o

UNIT_TESTS += tests/unit/test_flamegraph

# This file is included before the Makefile's 'all' rule: keep 'all' the
# default goal although the rules below come first.
.DEFAULT_GOAL := all

# script.js -> a C string literal, one source line per string line.  The
# script is embedded in a CDATA section, so it must not contain "]]>".
$(BUILD)/src/flamegraph/script_js.c: src/flamegraph/script.js src/flamegraph/module.mk
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)if grep -q ']]>' $<; then echo "$<: must not contain ']]>'" >&2; exit 1; fi
	$(Q){ echo '/* generated from src/flamegraph/script.js by src/flamegraph/module.mk */'; \
	  echo '#include "flamegraph/svg.h"'; \
	  echo 'const char fg_script_js[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/src/flamegraph/script_js.o: $(BUILD)/src/flamegraph/script_js.c
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
