#!/usr/bin/env bash
# tests/cli/40-bench-instructions.sh - trail bench --metric instructions on
# real callgrind runs of a tiny C loop (valgrind is ~50x slower: a few ms of
# native work): two runs a command, the count exact and printed with its
# unit, the exact change (+1.000 %) instead of a test, the JSON's count
# object beside the times in seconds, a baseline of counts failing exactly
# beyond --max-regression, and usage errors.  Skips without valgrind.
. "$(dirname "$0")/lib.sh"

if ! have valgrind || ! have cc || ! have python3; then
	skip "bench instructions" "needs valgrind, cc and python3"; exit 0
fi
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "bench instructions" "valgrind under sanitizers is slow (test_bench_runner covers the logic)"; exit 0
fi
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

cat >"$T/loop.c" <<'EOF2'
#include <stdlib.h>
static volatile unsigned long sink;
int main(int argc, char **argv)
{
	unsigned long n = strtoul(argv[1], NULL, 10), i;

	for (i = 0; i < n; i++)
		sink += i;
	return 0;
}
EOF2
cc -O1 -o "$T/loop" "$T/loop.c" || { fail "compile the loop"; exit 0; }

check_exit "unknown metric" 2 "$TRAIL" bench --metric cycles true
grep -q "metric" "$T/.err" && pass "unknown metric named" || fail "unknown metric named"

# 200000 and 202000 iterations: +1 % of the loop's instructions, plus start-up
check "two commands counted" "$TRAIL" bench -q --metric instructions \
	"$T/loop 200000" "$T/loop 202000" --export-json "$T/c.json"
grep -q "Instructions (exact): .* instructions  \[2 runs, identical\]" "$T/.out" &&
	pass "exact count with its unit" || fail "exact count with its unit" "$(head -5 "$T/.out")"
grep -q "runs under callgrind" "$T/.out" && pass "times said to be instrumented" ||
	fail "times said to be instrumented"
grep -q "more: slower (ratio 1.00[0-9]*x, exact)" "$T/.out" && pass "exact change, slower" ||
	fail "exact change, slower" "$(grep -A2 Summary "$T/.out")"
grep -q "Mann-Whitney p =" "$T/.out" && fail "no p-value for exact counts" || pass "no p-value for exact counts"
json "$T/c.json" '
a, b = d["results"]
assert d["metric"] == "instructions"
assert a["runs"] == 2 and b["runs"] == 2
assert a["count"]["unit"] == "instructions" and a["count"]["exact"] is True
assert a["count"]["values"][0] == a["count"]["values"][1]
# the loop body is a few instructions an iteration: 2000 more iterations, 4-20k more
delta = b["count"]["median"] - a["count"]["median"]
assert 4000 <= delta <= 20000, delta
# times stay seconds (positive, well under a minute a run)
assert 0 < a["mean"] < 60
c = b["comparison"]
assert c["exact"] is True and c["p_value"] is None and c["verdict"] == "slower"
assert c["median_ratio_ci"][0] == c["median_ratio_ci"][1] == c["median_ratio"]
assert d["shell_spawn"]["count"] > 0
' && pass "JSON: count object, times in seconds, exact comparison" ||
	fail "JSON: count object, times in seconds, exact comparison"

# a baseline of counts: +1 % fails a 0.5 % gate exactly, passes a 2 % one
check "save a count baseline" "$TRAIL" bench -q --metric instructions -n loop "$T/loop 200000" \
	--save-baseline "$T/base.json"
check_exit "count grew beyond the gate" 3 "$TRAIL" bench -q --metric instructions -n loop \
	"$T/loop 204000" --baseline "$T/base.json" --max-regression 0.5%
grep -q "REGRESSION 'loop': +[0-9.]*% more instructions than the baseline (exact counts" "$T/.out" &&
	pass "regression said exactly" || fail "regression said exactly" "$(cat "$T/.out")"
check "count within the gate" "$TRAIL" bench -q --metric instructions -n loop \
	"$T/loop 200000" --baseline "$T/base.json" --max-regression 0.5%
grep -q "ok 'loop': +0.000% more instructions" "$T/.out" && pass "same count passes" ||
	fail "same count passes" "$(cat "$T/.out")"
check_exit "est-cycles against an instructions baseline" 2 "$TRAIL" bench -q --metric est-cycles \
	-n loop "$T/loop 200000" --baseline "$T/base.json"
grep -q "save one with --metric est-cycles" "$T/.err" && pass "other metric refused" ||
	fail "other metric refused" "$(cat "$T/.err")"
