#!/usr/bin/env bash
# tests/cli/76-history-live.sh - trail history on real builds and
# profiles, small enough for every CI run: a 14-commit generated history
# (tests/e2e/gen-kinds --kind dominant: score_rows, ~60 % of the run, gets
# 3x slower at the tenth commit; summarize gets a little faster at another)
# is backfilled (real builds in the private clone, real perf captures), and
# detect finds a change point at that commit, slower, naming score_rows,
# as the strongest one; guard exits 3 on it, naming the function.  No
# timing is asserted.
#
# Why 14 commits and not 10: the doubling, 5 stored commits a side, came
# out at p = 0.0016 of --alpha 0.01 on an idle machine (the alpha is
# shared among the series tested - the metric and every function, more
# of them under load - and the null is heavy-tailed and autocorrelated),
# and the CI machine's two passes of stop 30 both found no change point;
# 9 commits before it give p = 0.00006.  Why not "exactly one": a load
# burst during one commit's back-to-back runs moves its profile, and its
# runs all agree (docs/history.md, COMPATIBILITY AND LIMITS): beside three
# CPU hogs the sanitized pass found a second, one-commit change point in 3
# of 8 backfills.  The false-alarm rate of a steady history is
# bench/history-calibrate's to measure, not one run's; extra change points
# are printed here, not failed.  The 22-commit history with a subtle
# change is tests/cli/76-history.sh (TRAIL_HISTORY_E2E=1).
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
"$ROOT/tests/e2e/gen-kinds" "$R" --kind dominant --seed 1 --commits 13 --scale 0.15 >"$T/gen.env" ||
	{ fail "generate"; exit 0; }
. "$T/gen.env"

check "backfill every commit" "$TRAIL" history backfill -C "$R" --range "$BAD" --build "$BUILD" \
	--run "$RUN" --repeat 3
grep -q "^backfill: 14 commit(s) measured" "$T/.out" && pass "backfill: 14 commits measured" ||
	fail "backfill: 14 commits measured" "$(cat "$T/.out" "$T/.err")"
[ -z "$(git -C "$R" status --porcelain --ignored)" ] && pass "work tree untouched" ||
	fail "work tree untouched" "$(git -C "$R" status --porcelain --ignored)"

"$TRAIL" history detect -C "$R" --json --alpha 0.01 --simulations 99999 >"$T/d.json" 2>"$T/d.err"
# every change point as commit:function:direction; the culprit's first
# when its p is the smallest (ties too: a simulated p has a floor)
got=$(json "$T/d.json" '" ".join("%s:%s:%s" % (c["commit"], (c["functions"] or [{"name": "-"}])[0]["name"], c["direction"]) for c in sorted(d["change_points"], key=lambda c: (c["p"], c["commit"] != "'"$CULPRIT"'")))' 2>&1)
case " $got " in
" $CULPRIT:score_rows:slower "*)
	pass "detect: the culprit, slower, score_rows, the strongest change point"
	[ "$got" = "$CULPRIT:score_rows:slower" ] ||
		echo "# 76-history-live: detect also found: ${got#* } (a load burst? see the comment on top)" >&2 ;;
*)
	fail "detect: the culprit, slower, score_rows, the strongest change point" \
		"want $CULPRIT:score_rows:slower first, got '$got'; $(cat "$T/d.json" "$T/d.err"; "$TRAIL" history show -C "$R" --function score_rows 2>&1)" ;;
esac

check_exit "guard --rev (the culprit): exit 3" 3 "$TRAIL" history guard -C "$R" --rev "$CULPRIT"
grep -q "score_rows" "$T/.out" && pass "guard names score_rows" || fail "guard names score_rows" "$(cat "$T/.out")"
# 3 runs against the 15 of five stored commits: few enough to count the
# exact distribution (the normal approximation said p = 0.0092 at these ranks)
grep -q "p = [0-9.e-]* (one-sided, exact)" "$T/.out" && pass "guard: exact one-sided p" ||
	fail "guard: exact one-sided p" "$(head -1 "$T/.out")"
