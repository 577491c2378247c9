#!/usr/bin/env bash
# tests/cli/76-history-live.sh - trail history on real builds and
# profiles, small enough for every CI run: a 10-commit generated history
# (tests/e2e/gen-kinds --kind dominant: score_rows, ~90 % of the run, gets
# 3x slower at one commit; summarize gets a little faster at another) is
# backfilled (real builds in the private clone, real perf captures), and
# detect finds exactly one change point, at that commit, slower, naming
# score_rows; guard exits 3 on it, naming the function.  --alpha 0.01
# makes a false change point a 1-in-100 event at most (docs/history.md,
# METHOD; bench/history-calibrate); a smaller alpha does not hold on a busy
# machine: alpha is shared among the series tested (the metric and every
# function, more of them under load), and a CI run's sanitized pass saw
# this doubling at 10 commits, 3 noisy runs each, miss 0.001 (its data
# replayed through history record: p = 0.0002 over 3 series, so over the
# 15-odd series a loaded profile holds, about 0.001).  No timing is asserted.  The 22-commit
# history with a subtle change is tests/cli/76-history.sh (TRAIL_HISTORY_E2E=1).
. "$(dirname "$0")/lib.sh"

if ! have python3 || ! have make || ! have cc || ! have git; then
	skip "history live" "needs python3, make, cc and git"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "history live" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
export XDG_CACHE_HOME=$T/cache XDG_STATE_HOME=$T/state
R=$T/repo
"$ROOT/tests/e2e/gen-kinds" "$R" --kind dominant --seed 1 --commits 9 --scale 0.15 >"$T/gen.env" ||
	{ fail "generate"; exit 0; }
. "$T/gen.env"

check "backfill every commit" "$TRAIL" history backfill -C "$R" --range "$BAD" --build "$BUILD" \
	--run "$RUN" --repeat 3
grep -q "^backfill: 10 commit(s) measured" "$T/.out" && pass "backfill: 10 commits measured" ||
	fail "backfill: 10 commits measured" "$(cat "$T/.out" "$T/.err")"
[ -z "$(git -C "$R" status --porcelain --ignored)" ] && pass "work tree untouched" ||
	fail "work tree untouched" "$(git -C "$R" status --porcelain --ignored)"

"$TRAIL" history detect -C "$R" --json --alpha 0.01 --simulations 99999 >"$T/d.json" 2>"$T/d.err"
got=$(json "$T/d.json" '" ".join("%s:%s:%s" % (c["commit"], (c["functions"] or [{"name": "-"}])[0]["name"], c["direction"]) for c in d["change_points"])' 2>&1)
[ "$got" = "$CULPRIT:score_rows:slower" ] &&
	pass "detect: one change point, at the culprit, slower, score_rows" ||
	fail "detect: one change point, at the culprit, slower, score_rows" \
		"want $CULPRIT:score_rows:slower, got '$got'; $(cat "$T/d.json" "$T/d.err"; "$TRAIL" history show -C "$R" --function score_rows 2>&1)"

check_exit "guard --rev (the culprit): exit 3" 3 "$TRAIL" history guard -C "$R" --rev "$CULPRIT"
grep -q "score_rows" "$T/.out" && pass "guard names score_rows" || fail "guard names score_rows" "$(cat "$T/.out")"
# 3 runs against the 15 of five stored commits: few enough to count the
# exact distribution (the normal approximation said p = 0.0092 at these ranks)
grep -q "p = [0-9.e-]* (one-sided, exact)" "$T/.out" && pass "guard: exact one-sided p" ||
	fail "guard: exact one-sided p" "$(head -1 "$T/.out")"
