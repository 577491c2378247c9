#!/usr/bin/env bash
# tests/cli/74-flame-culprits.sh - two regressions in one range, in two
# functions at two commits (tests/e2e/gen-kinds --kind two: a worse hash
# sends time into libc's memcmp under table_find, later checksum_table
# does a second pass): trail flame names both commits, each with its own
# function, in report.json's culprits, report.md, report.html and the
# terminal - and no third commit.  Both steps raise their function's
# share by well over ten points (the narrowing needs two), so the answer
# cannot flip on a busy machine; no timing is asserted.  The segmentation
# itself is checked on exact ranges in tests/unit/test_flame_segment.c.
. "$(dirname "$0")/lib.sh"

if ! have python3 || ! have make || ! have cc || ! have git; then
	skip "flame culprits" "needs python3, make, cc and git"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "flame culprits" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

"$ROOT/tests/e2e/gen-kinds" "$T/repo" --kind two --seed 3 --scale 0.1 --commits 6 >"$T/env" ||
	{ fail "generate history"; exit 0; }
. "$T/env"
R=$T/report/report.json
(cd "$T/repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" \
	--warmup-runs 0 --probe-max-runs 6 --cache "$T/cache" --out "$T/report") >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" = 4 ]; then
	skip "flame culprits: both named" "inconclusive on this machine: $(json "$R" 'd["message"]')"
	exit 0
fi
if [ "$rc" != 0 ]; then
	fail "exit $rc, expected 0 (or 4)" "$(tail -15 "$T/err")"; exit 0
fi
pass "exit 0: regression"
named() { json "$R" '[(c["commit"], c["function"]) for c in d["culprits"]]'; }
json "$R" '("'"$CULPRIT"'", "'"$FUNCTION"'") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names $FUNCTION's commit" || fail "names $FUNCTION's commit" "$(named)"
json "$R" '("'"$CULPRIT2"'", "'"$FUNCTION2"'") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names $FUNCTION2's commit" || fail "names $FUNCTION2's commit" "$(named)"
json "$R" 'len(d["culprits"]) == 2 and d["culprits"][0]["commit"] == d["suspect"]["commit"]' |
	grep -q True && pass "two culprits, the suspect first" || fail "two culprits, the suspect first" "$(named)"
json "$R" 'all(c["step_interval"][0] > 0 and 0 < c["confidence"] <= 1 and c["explains"] > 0
	for c in d["culprits"])' | grep -q True && pass "each step real, with its confidence" ||
	fail "each step real, with its confidence" "$(json "$R" 'd["culprits"]')"
other=$CULPRIT
[ "$(json "$R" 'd["suspect"]["commit"]')" = "$CULPRIT" ] && other=$CULPRIT2
grep -q "^also culprit:   ${other:0:12} " "$T/out" && pass "terminal: also culprit line" ||
	fail "terminal: also culprit line" "$(cat "$T/out")"
grep -q "^## Culprits (2 commits" "$T/report/report.md" && grep -q "${other:0:12}" "$T/report/report.md" &&
	pass "report.md lists both" || fail "report.md lists both"
grep -q 'id="culprits"' "$T/report/report.html" && grep -q "${other:0:12}" "$T/report/report.html" &&
	pass "report.html lists both" || fail "report.html lists both"
json "$R" '("'"${other:0:12}"'" in (d["recommendation"] or {}).get("reason", "") and
	"'"${other:0:12}"'" in d["message"])' | grep -q True &&
	pass "message and recommendation name the other culprit" ||
	fail "message and recommendation name the other culprit" "$(json "$R" '(d["message"], d["recommendation"])')"
