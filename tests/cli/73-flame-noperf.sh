#!/usr/bin/env bash
# tests/cli/73-flame-noperf.sh - trail flame --profiler trail needs no perf
# binary: with perf hidden from PATH (a directory of links to every other
# program), it still names the culprit of a small generated history
# (tests/e2e/make-history), while --profiler perf fails with a clear
# message.  Skips without python3, make, cc or a usable trail record.
. "$(dirname "$0")/lib.sh"

if ! have python3 || ! have make || ! have cc || ! have git; then
	skip "flame without perf" "needs python3, make, cc and git"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "flame without perf" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
GEN=$ROOT/tests/e2e/make-history
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# PATH without perf: link every program of every PATH directory but perf*.
# One ln per directory (a link per program would fork thousands of times);
# an earlier directory wins, as in PATH lookup, because ln keeps existing links.
mkdir -p "$T/bin"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[ -d "$d" ] && ln -s "$d"/* "$T/bin/" 2>/dev/null
done
rm -f "$T/bin/perf" "$T/bin"/perf_* "$T/bin"/perf-*
if PATH=$T/bin command -v perf >/dev/null 2>&1; then
	fail "perf hidden from PATH"; exit 0
fi
pass "perf hidden from PATH"

"$GEN" "$T/repo" --shape slowdown --commits 4 --seed 3 --scale 0.35 >"$T/env" ||
	{ fail "generate history"; exit 0; }
. "$T/env"
(cd "$T/repo" && PATH=$T/bin "$TRAIL" flame --profiler trail --good "$GOOD" --bad "$BAD" \
	--build "$BUILD" --run "$RUN" --out "$T/report" --repeat 4 --warmup-runs 0 \
	--probe-runs 2 --cache "$T/cache") >"$T/flame.out" 2>"$T/flame.err"
rc=$?
if [ "$rc" -eq 0 ]; then pass "flame --profiler trail without perf: exit 0"; else
	fail "flame --profiler trail without perf: exit 0" "exit $rc"
	sed 's/^/    /' "$T/flame.err" | tail -20 >&2
fi
got=$(json "$T/report/report.json" 'd["suspect"]["commit"]' 2>/dev/null)
[ "$got" = "$CULPRIT" ] && pass "names the culprit commit without perf" ||
	fail "names the culprit commit without perf" "got '$got', expected $CULPRIT"
grep -q "perf script\|'perf'" "$T/flame.err" &&
	fail "no mention of perf" "$(grep -m1 perf "$T/flame.err")" || pass "no mention of perf"

(cd "$T/repo" && PATH=$T/bin "$TRAIL" flame --profiler perf --good "$GOOD" --bad "$BAD" \
	--build "$BUILD" --run "$RUN" --out "$T/report-perf" --cache "$T/cache") \
	>"$T/perf.out" 2>"$T/perf.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "'perf' is not installed" "$T/perf.err"; then
	pass "--profiler perf without perf: clear error"
else
	fail "--profiler perf without perf: clear error" "exit $rc: $(tail -1 "$T/perf.err")"
fi
