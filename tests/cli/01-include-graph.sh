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

# No circle between files (scripts/check-circles, on the built objects):
# none beyond the known list, and a planted one is caught and named.
CIRCLES=$ROOT/scripts/check-circles
if have nm && have cc && [ -d "$BUILD/src" ]; then
	check "no new circle between files of src/" "$CIRCLES" "$BUILD/src"
	[ -s "$T/.err" ] && sed 's/^/    /' "$T/.err" >&2
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
else
	skip "no new circle between files of src/" "needs nm, cc and a build"
fi
