#!/usr/bin/env bash
# tests/cli/01-include-graph.sh - no upward include in src/ (the layout of
# CONTRIBUTING.md, checked by scripts/check-includes), and the checker
# itself catches one planted in a copy of the tree.
. "$(dirname "$0")/lib.sh"

CHECK=$ROOT/scripts/check-includes
check "src/ has no upward include" "$CHECK" "$ROOT/src"
[ -s "$T/.err" ] && sed 's/^/    /' "$T/.err" >&2

cp -r "$ROOT/src" "$T/src"
printf '#include "collapse/collapser.h"\n' >>"$T/src/perf/maps.h"
check_exit "an include from perf/ into collapse/ is caught" 1 "$CHECK" "$T/src"
grep -q "perf/maps.h:.*includes collapse/collapser.h" "$T/.err" &&
	pass "the report names the file, line and header" || fail "the report names the file" "$(cat "$T/.err")"
printf '#include "history/store.h"\n' >>"$T/src/flame/kary.h"
cp "$ROOT/src/perf/maps.h" "$T/src/perf/maps.h"
check_exit "an include between folders of one level (flame/ -> history/) is caught" 1 "$CHECK" "$T/src"
grep -q "flame/kary.h:.*includes history/store.h" "$T/.err" &&
	pass "a same-level include is named" || fail "a same-level include is named" "$(cat "$T/.err")"
cp "$ROOT/src/flame/kary.h" "$T/src/flame/kary.h"
mkdir "$T/src/newdir" && printf 'int x;\n' >"$T/src/newdir/x.c"
check_exit "a folder without a level is caught" 1 "$CHECK" "$T/src"

# trail flame's steps: session.h (runs them) includes no step's header, and
# no step (its header or its file) includes session.h - the steps read and
# write the investigation (flame/investigation.h), their results are
# flame/results.h's structs.
steps="ends confirm hotdiff suspects narrow culprits session_query fleet exact"
found=""
for st in $steps; do
	grep -q "\"flame/$st.h\"" "$ROOT/src/flame/session.h" && found="$found session.h->$st.h"
	for f in "$ROOT/src/flame/$st.h" "$ROOT/src/flame/$st.c"; do
		[ -f "$f" ] && grep -q '"flame/session.h"' "$f" && found="$found ${f##*/}->session.h"
	done
done
[ -z "$found" ] && pass "flame's steps and session.h do not include each other" ||
	fail "flame's steps and session.h do not include each other" "$found"

# No circle between files (scripts/check-circles, on the built objects):
# none beyond the known list, and a planted one is caught and named.
CIRCLES=$ROOT/scripts/check-circles
if have nm && have cc && [ -d "$BUILD/src" ]; then
	# the build dir: trail's objects and, as a unit of its own, the interposer's
	check "no new circle between files of src/, the interposer's included" "$CIRCLES" "$BUILD"
	[ -s "$T/.err" ] && sed 's/^/    /' "$T/.err" >&2
	check "the interposer's objects are there to be checked" test -s "$BUILD/preload/src/alloc/preload_state.o"
	mkdir -p "$T/objs/perf"
	printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$T/a.c"
	printf 'int a(int);\nint b(int x) { return a(x); }\n' >"$T/b.c"
	printf 'int a(int);\nint c(int x) { return a(x); }\n' >"$T/c.c"
	for f in a b c; do cc -c "$T/$f.c" -o "$T/objs/perf/$f.o"; done
	check_exit "a planted circle (a calls b calls a) is caught" 1 "$CIRCLES" "$T/objs" /dev/null
	grep -q "new circle: perf/a perf/b (perf/a -> perf/b; perf/b -> perf/a)" "$T/.err" &&
		pass "the report names the files and their calls" || fail "the report names the files" "$(cat "$T/.err")"
	grep -q "perf/c" "$T/.err" && fail "a file calling into a circle is not in it" "$(cat "$T/.err")" ||
		pass "a file calling into a circle is not in it"
	printf 'perf/a perf/b\n' >"$T/known"
	check "a known circle passes" "$CIRCLES" "$T/objs" "$T/known"
	# a build dir is checked unit by unit: a circle in the interposer is
	# caught, and its symbols are not taken for trail's (a() and b() of
	# the planted circle are defined in both units)
	mkdir -p "$T/bld/src/perf" "$T/bld/preload/src/alloc"
	cp "$T/objs/perf/a.o" "$T/objs/perf/b.o" "$T/bld/preload/src/alloc/"
	cp "$T/objs/perf/c.o" "$T/bld/src/perf/"
	check_exit "a circle in the interposer's objects is caught" 1 "$CIRCLES" "$T/bld" /dev/null
	grep -q "new circle: alloc/a alloc/b" "$T/.err" &&
		pass "the interposer's circle is named" || fail "the interposer's circle is named" "$(cat "$T/.err")"
	rm "$T/bld/preload/src/alloc/b.o"
	cp "$T/objs/perf/b.o" "$T/bld/src/perf/b.o"
	check "calls between the two units make no circle" "$CIRCLES" "$T/bld" /dev/null
else
	skip "no new circle between files of src/" "needs nm, cc and a build"
fi
