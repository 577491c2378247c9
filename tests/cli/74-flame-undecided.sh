#!/usr/bin/env bash
# tests/cli/74-flame-undecided.sh - when the probes cannot decide, trail
# flame still answers with a report: every commit between good and bad
# fails its workload (each probe skips), git bisect run stops with only
# skipped commits left (exit 2), and the verdict comes with the commits it
# could be - never "git bisect run failed" without a report (issue 17,
# item 8).  Nothing here depends on timing: the failures are by commit.
. "$(dirname "$0")/lib.sh"

if ! have perf || ! have python3 || ! have make || ! have cc; then
	skip "flame undecided" "needs perf, python3, make and cc"; exit 0
fi
if ! perf record -q -o "$T/check.data" true >/dev/null 2>&1; then
	skip "flame undecided" "perf record cannot sample here (perf_event_paranoid?)"; exit 0
fi
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

"$ROOT/tests/e2e/make-history" "$T/repo" --shape slowdown --commits 6 --seed 21 --scale 0.35 \
	>"$T/env" || { fail "generate history"; exit 0; }
. "$T/env"
# Only the ends run; every commit in between fails its workload.
run="case \$(git rev-parse HEAD) in $GOOD|$BAD) $RUN ;; *) exit 1 ;; esac"
(cd "$T/repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$run" \
	--strategy bisect --repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache" \
	--out "$T/report") >"$T/out" 2>"$T/err"
rc=$?
case $rc in
0|4) pass "exit $rc: an answer, not a failure" ;;
*) fail "exit $rc: an answer, not a failure" "$(tail -5 "$T/err")" ;;
esac
grep -q "git bisect run failed" "$T/err" && fail "no 'git bisect run failed'" "$(grep bisect "$T/err")" ||
	pass "no 'git bisect run failed'"
[ -f "$T/report/report.json" ] && pass "report written" || { fail "report written"; exit 0; }
json "$T/report/report.json" 'any(p["verdict"] == "skip" for p in d["probes"])' | grep -q True &&
	pass "the failing commits were probed and skipped" || fail "the failing commits were probed and skipped"
# A regression must list the untestable commits it could also be.
json "$T/report/report.json" 'd["verdict"] == "inconclusive" or len(d["suspect"]["ambiguous_with"]) > 0' |
	grep -q True && pass "the untestable commits are named" ||
	fail "the untestable commits are named" "$(json "$T/report/report.json" 'd["message"]')"
