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
mkdir "$T/src/newdir" && printf 'int x;\n' >"$T/src/newdir/x.c"
check_exit "a folder without a level is caught" 1 "$CHECK" "$T/src"
