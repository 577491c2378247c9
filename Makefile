# trail build.
#
#   make              build build/trail
#   make deps         install the Debian packages trail needs to build and run
#                     the demo (scripts/install-deps)
#   make deps-test    also those the tests need (chromium, clang, perf, ...)
#   make install      binary, allocation interposer, man pages and shell completion under PREFIX
#                     (/usr/local; DESTDIR is prepended), make uninstall
#   make test         build, then run every unit and CLI test (tests/run)
#   make check        deps-test, the whole suite plain and under ASan+UBSan,
#                     one queue on every CPU (CI: FUZZ_SMOKE=1 adds fuzz-smoke)
#   make demo         build and run the bundled demo (demo/run)
#   make san          ASan+UBSan build in build-san/
#   make test-san     run the whole test suite against the sanitizer build
#   make fuzz         build one libFuzzer binary per tests/fuzz/fuzz_*.c (clang)
#   make fuzz-smoke   make fuzz, then run the targets for FUZZ_BUDGET (75) s
#                     in all, each from tests/fuzz/corpus/<target>/ (CI)
#   make fuzz-long    make fuzz, then run every target FUZZ_LONG_SECONDS (600) s
#   make bench        run every throughput benchmark under bench/
#   make calibrate    error rates of trail flame's decisions (bench/calibrate)
#   make history-calibrate  false alarms and power of trail history detect
#   make STRICT=1     turn warnings into errors (CI does this)
#
# Each source folder lists its objects in its own module.mk, one per line, so
# adding a file touches only the folder it lives in.

BUILD    ?= build
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
# record -e alloc's interposer; trail looks for it in BINDIR/../lib/trail
TRAILLIBDIR ?= $(PREFIX)/lib/trail
DESTDIR  ?=
PYTHON   ?= python3
CC       ?= cc
STRICT   ?= 0
SANITIZE ?= 0
V        ?= 0
ifeq ($(V),1)
Q :=
else
Q := @
endif
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GIT_REV  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wformat=2 -Wno-unused-parameter -Wvla
# CFLAGS, CPPFLAGS and LDFLAGS are the user's ("make CFLAGS='-O0 -g'");
# what the build needs lives in TRAIL_CFLAGS, added after them.
CFLAGS   ?= -O2 -g
TRAIL_CFLAGS := -std=c11 -D_GNU_SOURCE -fno-omit-frame-pointer -pthread $(WARN) \
            -Isrc -I/usr/include/libiberty \
            -DTRAIL_VERSION='"$(VERSION)"' -DTRAIL_GIT_REV='"$(GIT_REV)"' $(EXTRA_CFLAGS)
# elfutils and the compression libraries are linked statically when their
# archives are installed (STATIC_DEPS=0: never): each shared library costs
# mappings, relocations and page faults at every start, 2 ms of the 7 ms
# that 'trail diff' took on two one-line files on a virtual machine.
# (libdw.a needs liblzma and libbz2 too: -dev packages that may be missing.)
STATIC_ARCHIVES := dw elf iberty zstd z lzma bz2
STATIC_DEPS ?= $(if $(strip $(foreach l,$(STATIC_ARCHIVES),$(if $(filter /%,\
                 $(shell $(CC) -print-file-name=lib$(l).a)),,$(l)))),0,1)
ifeq ($(STATIC_DEPS),1)
LDLIBS   += -Wl,-Bstatic $(addprefix -l,$(STATIC_ARCHIVES)) -Wl,-Bdynamic -lm -pthread
else
LDLIBS   += -ldw -lelf -liberty -lzstd -llzma -lz -lm -pthread
endif

ifeq ($(STRICT),1)
TRAIL_CFLAGS += -Werror
endif
TRAIL_LDFLAGS :=
ifeq ($(SANITIZE),1)
TRAIL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -O1
TRAIL_LDFLAGS += -fsanitize=address,undefined
endif
ALL_CFLAGS  = $(CPPFLAGS) $(CFLAGS) $(TRAIL_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(TRAIL_LDFLAGS)

# Every module.mk appends to LIB_OBJS (library code) or CMD_OBJS (commands)
# and, for its unit tests, to UNIT_TESTS (one test binary per source file).
LIB_OBJS   :=
CMD_OBJS   :=
UNIT_TESTS :=
include src/core/module.mk
include src/stats/module.mk
include src/profile/module.mk
include src/symbols/module.mk
include src/perf/module.mk
include src/collapse/module.mk
include src/flamegraph/module.mk
include src/diff/module.mk
include src/bench/module.mk
include src/measure/module.mk
include src/fleet/module.mk
include src/flame/module.mk
include src/history/module.mk
include src/alloc/module.mk
include src/cmd/module.mk

LIB_O   := $(addprefix $(BUILD)/,$(LIB_OBJS))
CMD_O   := $(addprefix $(BUILD)/,$(CMD_OBJS))
MAIN_O  := $(BUILD)/src/main.o
LIBTRAIL := $(BUILD)/libtrail.a
UNIT_BIN := $(addprefix $(BUILD)/,$(UNIT_TESTS))
DEPS    := $(LIB_O:.o=.d) $(CMD_O:.o=.d) $(MAIN_O:.o=.d) \
           $(addsuffix .d,$(UNIT_BIN))

# Man pages, made from the manuals at build time: docs/trail.md -> trail.1,
# docs/NAME.md -> trail-NAME.1.
MAN_SRC  := $(wildcard docs/*.md)
MAN_PAGES := $(patsubst docs/%.md,$(BUILD)/man/trail-%.1,$(filter-out docs/trail.md,$(MAN_SRC))) \
             $(if $(filter docs/trail.md,$(MAN_SRC)),$(BUILD)/man/trail.1)

.PHONY: FORCE all calibrate history-calibrate deps deps-test check demo test san test-san fuzz fuzz-smoke fuzz-long bench clean man install uninstall
all: $(BUILD)/trail $(ALLOC_PRELOAD) $(UNIT_BIN) $(BUILD)/bench/calibrate $(BUILD)/bench/history-calibrate man

man: $(MAN_PAGES)

$(BUILD)/man/trail-%.1: docs/%.md scripts/md2man
	@mkdir -p $(dir $@)
	@echo "  MAN     $@"
	$(Q)$(PYTHON) scripts/md2man --version $(VERSION) $< > $@.tmp && mv $@.tmp $@

$(BUILD)/man/trail.1: docs/trail.md scripts/md2man
	@mkdir -p $(dir $@)
	@echo "  MAN     $@"
	$(Q)$(PYTHON) scripts/md2man --version $(VERSION) $< > $@.tmp && mv $@.tmp $@

install: $(BUILD)/trail $(ALLOC_PRELOAD) man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(TRAILLIBDIR)
	install -m 755 $(BUILD)/trail $(DESTDIR)$(BINDIR)/trail
	install -m 644 $(ALLOC_PRELOAD) $(DESTDIR)$(TRAILLIBDIR)/
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 completion/trail.bash $(DESTDIR)$(BASHCOMPDIR)/trail
	install -m 644 completion/_trail $(DESTDIR)$(ZSHCOMPDIR)/_trail
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) [ -n "$(DESTDIR)" ] || \
	    echo "trail is in $(BINDIR), which is not on your PATH: add it (export PATH=\"$(BINDIR):\$$PATH\") or run $(BINDIR)/trail";; esac

uninstall:
	rm -f $(DESTDIR)$(TRAILLIBDIR)/$(notdir $(ALLOC_PRELOAD))
	-rmdir $(DESTDIR)$(TRAILLIBDIR) 2>/dev/null
	rm -f $(DESTDIR)$(BINDIR)/trail $(DESTDIR)$(BASHCOMPDIR)/trail $(DESTDIR)$(ZSHCOMPDIR)/_trail \
	    $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))

$(BUILD)/trail: $(MAIN_O) $(CMD_O) $(LIBTRAIL)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(MAIN_O) $(CMD_O) $(LIBTRAIL) $(LDLIBS)

$(LIBTRAIL): $(LIB_O)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# trail --version prints VERSION and the commit built (version.c): its
# object is rebuilt when either moves - the stamp is rewritten only then,
# so an unchanged tree still builds nothing - and the unit tests link it
# without depending on it (a new commit relinks trail, not every test).
VERSION_O := $(BUILD)/src/cmd/version.o
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION) $(GIT_REV)' | cmp -s - $@ || echo '$(VERSION) $(GIT_REV)' > $@
$(VERSION_O): $(BUILD)/version.stamp
FORCE:

$(BUILD)/tests/unit/%: tests/unit/%.c tests/unit/harness.h $(LIBTRAIL) $(filter-out $(VERSION_O),$(CMD_O)) | $(VERSION_O)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d $(ALL_LDFLAGS) -o $@ $< $(CMD_O) $(LIBTRAIL) $(LDLIBS)

# bench/calibrate: the error rates of trail flame's decisions by simulation
# (docs/flame.md); `make calibrate TRIALS=20000` for more trials.
$(BUILD)/bench/calibrate: bench/calibrate/calibrate.c bench/calibrate/scenarios.h $(LIBTRAIL)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d $(ALL_LDFLAGS) -o $@ $< $(LIBTRAIL) $(LDLIBS)

calibrate: $(BUILD)/bench/calibrate
	$(BUILD)/bench/calibrate $(TRIALS)

# bench/history-calibrate: trail history detect's false alarms and power by
# simulation (docs/history.md); `make history-calibrate TRIALS=5000`.
$(BUILD)/bench/history-calibrate: bench/history-calibrate/calibrate.c bench/history-calibrate/scenarios.h \
		bench/history-calibrate/guard.h bench/history-calibrate/series.h $(LIBTRAIL)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d $(ALL_LDFLAGS) -o $@ $< $(LIBTRAIL) $(LDLIBS)

history-calibrate: $(BUILD)/bench/history-calibrate
	$(BUILD)/bench/history-calibrate $(TRIALS)

deps:
	scripts/install-deps

deps-test:
	scripts/install-deps --test

# The README's test command: the test packages (installed when missing),
# the whole suite, and the whole suite again under ASan+UBSan, in one queue:
# CHECK_JOBS (the CPUs) workers pull the (suite, build) pairs longest first
# (tests/costs), so no CPU idles while the other runs the last long suite
# (every suite passes on a busy machine; none asserts a time).  Each
# suite's lines print together when it ends, after a "== NAME (BUILD)"
# line; a summary line per build, then the totals.  Ctrl-C or a kill stops
# every running suite (tests/run).  FUZZ_SMOKE=1 (CI) adds make
# fuzz-smoke's targets to the queue, one job each.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: deps-test
	$(MAKE) all san $(if $(FUZZ_SMOKE),fuzz)
	TRAIL_JOBS=$(CHECK_JOBS) TRAIL_BUILD=$(BUILD) TRAIL_SAN_BUILD=build-san \
	    TRAIL_SAN_SKIP_SUITES="$(SAN_SKIP_SUITES)" \
	    $(if $(FUZZ_SMOKE),TRAIL_FUZZ_BUILD=build-fuzz FUZZ_BUDGET=$(FUZZ_BUDGET)) tests/run

demo: all
	demo/run

test: all
	TRAIL_BUILD=$(BUILD) tests/run

san:
	$(MAKE) BUILD=build-san SANITIZE=1

# The sanitized run leaves out whole suites whose C code the rest of the
# suite already runs under ASan+UBSan, and whose time goes to unsanitized
# programs (perf, valgrind, make, sshd, the workloads) - one list, here:
#   74-flame-kinds        its trail flame runs are 71-flame-e2e's code
#                         (71's reduced subset runs under sanitizers); the
#                         rest checks the generator, a Python script
#   75-flame-instructions callgrind end to end; the decision on exact
#                         counts is test_flame_exact (a unit test, sanitized)
#   76-history            22-commit perf history; the library is
#                         76-history-notes and the other 76-history-*
#                         suites, sanitized
#   74-flame-culprits     two culprits on CPU time (libc's memcmp under a
#                         caller); the culprits step over real probes is
#                         74-flame-culprits-alloc (three culprits on bytes, a
#                         sixth of the CPU), its tables test_flame_time,
#                         the library frame moved up to its caller (the
#                         ranking, the others' lib-time measure) test_flame,
#                         sanitized.  Left unsanitized: a culprit found again
#                         on a second function (culprit_merge) and
#                         search_function's choice of a time measure
#   77-flame-hosts-shared ssh fleet, two lines on one host cache; the fleet
#                         code (setup, locks, jobs, remote) is 77-flame-hosts
#                         and test_fleet_jobs, sanitized
#   20-flamegraph-browser trail flamegraph's pages in headless Chromium: the
#                         trail it runs reaches no line of src/ that
#                         20-flamegraph, 21-flamegraph-*, test_flamegraph, the
#                         collapse suites and 30-diff do not reach sanitized
#                         (gcov, stop 31); the rest is Chromium (7.0 s of
#                         CPU by perf stat, which tests/run's count misses)
#   75-flame-report, 72-flame-safety
#                         one flame run each (the report's sections and
#                         Chromium; the user's repository after a Ctrl-C
#                         mid-bisect): gcov, stop 31, every line of src/ they
#                         reach is reached sanitized by the other flame
#                         suites (70-79, those run sanitized), the record,
#                         collapse and flamegraph suites and the unit tests
#   76-history-browser    'trail history plot' in Chromium: the plot and
#                         record --profile it runs reach no line of src/
#                         that the other history suites (76-*, 77, 78) do
#                         not reach sanitized (gcov, stop 31); the rest is
#                         Chromium (11.5 s of CPU by perf stat)
#   76-history-live       backfill, detect and guard on a generated history
#                         (real builds and captures): gcov, stop 31, its
#                         14-commit form reaches no line of src/ that the
#                         other history suites (76-*, 77-history-suite,
#                         78-history-hosts), test_history and
#                         test_history_detect do not reach sanitized (27 s
#                         of CPU at 10 commits, ~40 % more at 14)
#   01-run-queue          tests/run's queue on a made-up tree of shell
#                         suites: it runs no trail, so sanitized it would
#                         only repeat the plain run
#   01-include-graph, 01-test-lint
#                         static checks of the source and of the tests
#                         (python, nm): they run no trail, so the sanitized
#                         run only repeated the plain one (the circle check
#                         belongs to the shipped build's objects)
#   90-install            packaging (make install and uninstall, man pages,
#                         completion): the same files whichever build; what
#                         the installed binary runs is 00-main's (every
#                         command's help) and 63-toolkit's (record,
#                         flamegraph, top, explain, diff), sanitized
#   test_history_calibrate, test_flame_calibrate
#                         Monte-Carlo error rates (hundreds of simulated
#                         histories from a fixed seed: the rates, not memory,
#                         are what they check); the detectors they drive run
#                         sanitized in test_history_detect, test_history,
#                         test_flame_segment, test_flame and the history
#                         and flame CLI suites
# Suites that reduce themselves under TRAIL_SANITIZED=1 instead (the part
# left out named by a skip line): 00-main, 01-symbols, 10-collapse-corpus,
# 12-memory, 50-perfdata, 71-flame-e2e, 75-flame-alloc, 77-flame-hosts,
# 78-history-hosts; and Chromium's part of 77-history-suite (it runs none
# of trail's code).
# A new slow end-to-end suite goes here only with the suites that cover its
# C code under sanitizers named (CONTRIBUTING.md).
SAN_SKIP_SUITES := 74-flame-kinds 74-flame-culprits 75-flame-instructions 76-history 77-flame-hosts-shared \
	01-include-graph 01-test-lint 90-install test_history_calibrate test_flame_calibrate \
	01-run-queue 20-flamegraph-browser 75-flame-report 72-flame-safety 76-history-browser \
	76-history-live

test-san: san
	TRAIL_BUILD=build-san TRAIL_SANITIZED=1 TRAIL_SKIP_SUITES="$(SAN_SKIP_SUITES)" tests/run

# libFuzzer targets: each tests/fuzz/fuzz_<name>.c defines LLVMFuzzerTestOneInput.
# Never -Werror here: the warning gate is the gcc build (STRICT=1 in CI);
# clang warns about other things, and fuzzing is for crashes.
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRC))
fuzz:
ifeq ($(strip $(FUZZ_SRC)),)
	@echo "no fuzz targets in tests/fuzz/"
else
	$(MAKE) BUILD=build-fuzz CC=clang SANITIZE=1 STRICT=0 EXTRA_CFLAGS=-fsanitize=fuzzer-no-link \
	    build-fuzz/libtrail.a build-fuzz/cmd.a
	$(MAKE) BUILD=build-fuzz CC=clang SANITIZE=1 STRICT=0 $(FUZZ_BIN)
endif

# A short run of every target from the checked-in corpus; the long runs
# are manual (docs/fuzzing.md).  FUZZ_BUDGET seconds shared by the targets
# (at least 3 s each), or FUZZ_SECONDS per target.
FUZZ_BUDGET ?= 75
fuzz-smoke: fuzz
	FUZZ_BUDGET=$(FUZZ_BUDGET) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/smoke

# The long run: every target (tests/fuzz/fuzz_*.c) for FUZZ_LONG_SECONDS
# each, one after the other (25 targets x 600 s: over 4 hours).
FUZZ_LONG_SECONDS ?= 600
fuzz-long: fuzz
	FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) tests/fuzz/smoke

build-fuzz/cmd.a: $(CMD_O)
	$(Q)ar rcs $@ $^

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libtrail.a build-fuzz/cmd.a
	@echo "  FUZZ    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< build-fuzz/cmd.a build-fuzz/libtrail.a $(ALL_LDFLAGS) $(LDLIBS)

bench: all
	bench/run-all

clean:
	rm -rf build build-san build-fuzz

-include $(DEPS)
