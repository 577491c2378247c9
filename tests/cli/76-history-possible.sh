#!/usr/bin/env bash
# tests/cli/76-history-possible.sh - a change point is a change a person
# would act on (issue 28, wrong answer 1): stored results crafted through
# `history record --profile --value` in a real repository.  The metric is
# flat (3 runs of 100 ms each, 0.3 % apart); from commit 9 six small
# functions (1.4 % each, under --min-share) join the profile, so the two
# large ones' shares drop 4 points - a significant split of their share
# series - while their own samples per run and the metric stay put.
#   grown one stored commit at a time, detect never reports a change
#   point (before issue 28: "change 1: faster, metric +0.0%", drawn);
#   with all 16 stored, the split is listed under "possible" in --json
#   only: the text labels nothing slower or faster, the plot draws no
#   change and its table has no row; guard and the site read the "value"
#   metric without an error (main printed one), the site draws nothing.
#   a control: one function's own samples 20 % up from commit 7, the
#   metric still flat, is a change point naming that function.
# Shares are exact counts: nothing here depends on the machine.
. "$(dirname "$0")/lib.sh"

if ! have git || ! have python3; then skip "history possible" "needs git and python3"; exit 0; fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export XDG_STATE_HOME=$T/state
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
# small fixed wobbles: A's and B's samples, the runs' milliseconds
WOB=(3 -2 0 4 -4 1 -1 2 -3 0 3 -1 -2 4 1 -3)
MS=(100.1 99.8 100.3 99.9 100.0 100.2 99.7 100.1 100.0 99.9)
# commit I's profile: A and B at 500, from EXTRA on six small functions,
# A times 1.2 from SLOW on
profile() {
	local i=$1 extra=$2 slow=$3 w=${WOB[$((($1 - 1) % 16))]} a k
	a=$((500 + w))
	[ "$i" -ge "$slow" ] && a=$((a * 6 / 5))
	printf 'main;A %d\nmain;B %d\n' "$a" $((500 - w))
	if [ "$i" -ge "$extra" ]; then for k in 1 2 3 4 5 6; do printf 'main;x%d 15\n' "$k"; done; fi
}
# grow REPO I EXTRA SLOW: commit I, recorded with its profile and 3 runs
grow() {
	local r=$1 i=$2
	[ -d "$r" ] || git init -q -b main "$r"
	echo "$i" >"$r/f" && git -C "$r" add f && git -C "$r" commit -q -m "commit $i" &&
		profile "$i" "$3" "$4" >"$T/p.folded" &&
		"$TRAIL" history record -C "$r" --rev HEAD --profile "$T/p.folded" --unit ms \
			--value "${MS[$((i % 10))]}" --value "${MS[$(((i + 3) % 10))]}" \
			--value "${MS[$(((i + 7) % 10))]}" >/dev/null 2>>"$T/rec.err"
}

R=$T/flat
rc=0 flips=""
for i in $(seq 1 16); do
	grow "$R" "$i" 9 99 || rc=1
	[ "$i" -ge 4 ] || continue
	"$TRAIL" history detect -C "$R" --json >"$T/d$i.json" 2>>"$T/det.err" || rc=1
	n=$(json "$T/d$i.json" 'len(d["change_points"])' 2>&1)
	[ "$n" = 0 ] || flips="$flips $i stored: $n change point(s) ($(json "$T/d$i.json" '[(c["change"], c["functions"]) for c in d["change_points"]]' 2>&1));"
done
[ $rc = 0 ] && pass "record and detect: 16 commits, one at a time" ||
	fail "record and detect: 16 commits, one at a time" "$(cat "$T/rec.err" "$T/det.err")"
[ -z "$flips" ] && pass "grown commit by commit: no change point at any length (flat metric, no function moved)" ||
	fail "grown commit by commit: no change point at any length (flat metric, no function moved)" "$flips"
# the split is there to see, as a possible one: where, and why not
json "$T/d16.json" '(lambda p: len(p) == 1 and p[0]["before"] == sys.argv[3] and p[0]["after"] == sys.argv[4] and p[0]["p"] <= d["alpha"] and not p[0]["metric_changed"] and "minimum effect" in p[0]["why_not"])(d.get("possible", []))' \
	"$(git -C "$R" rev-parse HEAD~8)" "$(git -C "$R" rev-parse HEAD~7)" >"$T/poss" 2>&1
[ "$(cat "$T/poss")" = True ] &&
	pass "detect --json: the share split (commits 8 and 9) under \"possible\", significant, with why not" ||
	fail "detect --json: the share split (commits 8 and 9) under \"possible\", significant, with why not" \
		"$(cat "$T/poss"); $(cat "$T/d16.json")"
check "detect, text" "$TRAIL" history detect -C "$R"
grep -q "^0 change point(s) in 16 stored commit(s)" "$T/.out" && ! grep -Eqi "slower|faster" "$T/.out" &&
	pass "detect, text: no change point, nothing labelled slower or faster" ||
	fail "detect, text: no change point, nothing labelled slower or faster" "$(cat "$T/.out")"
check "plot -o svg" "$TRAIL" history plot -C "$R" -o "$T/p.svg"
check "plot -o html" "$TRAIL" history plot -C "$R" -o "$T/p.html"
! grep -q 'class="change' "$T/p.svg" "$T/p.html" && ! grep -q '<tr><td>1</td>' "$T/p.html" &&
	pass "plot: no change drawn, no row in its table" ||
	fail "plot: no change drawn, no row in its table" "$(grep -o '<g class="change[^>]*>' "$T/p.svg" "$T/p.html" | head -3)"
# guard and the site read a series whose metric is none of trail's
# ("value", from record --value) without an error (main printed "error:
# unknown metric 'value'" and went on); the site draws no change either
check_exit "guard on recorded values: exit 0" 0 "$TRAIL" history guard -C "$R"
! grep -q "error" "$T/.err" && grep -q "^guard: pass" "$T/.out" &&
	pass "guard on recorded values: a verdict, no error" ||
	fail "guard on recorded values: a verdict, no error" "$(cat "$T/.out" "$T/.err")"
check_exit "site -o DIR: exit 0" 0 "$TRAIL" history site -C "$R" -o "$T/site"
! grep -q "error" "$T/.err" && grep -q "<h2>change points (0)</h2>" "$T/site/history.html" &&
	! grep -q 'class="change' "$T/site/history.html" &&
	pass "site: no change point, none drawn, no error" ||
	fail "site: no change point, none drawn, no error" "$(cat "$T/.err"; grep -o '<h2>change points[^<]*' "$T/site/history.html")"

# the control: A's own time 20 % up from commit 7 (its share 50 -> 55 %)
C=$T/moved
rc=0
for i in $(seq 1 12); do grow "$C" "$i" 99 7 || rc=1; done
"$TRAIL" history detect -C "$C" --json >"$T/c.json" 2>"$T/c.err" || rc=1
json "$T/c.json" '[(c["before"] == sys.argv[3], c["functions"][0]["name"]) for c in d["change_points"]]' \
	"$(git -C "$C" rev-parse HEAD~6)" >"$T/c.out" 2>&1
[ $rc = 0 ] && [ "$(cat "$T/c.out")" = "[(True, 'A')]" ] &&
	pass "control: a function 20 % slower, the metric flat, is a change point naming it" ||
	fail "control: a function 20 % slower, the metric flat, is a change point naming it" \
		"$(cat "$T/c.out" "$T/c.err" "$T/rec.err")"

# too few simulations for --alpha over this many series: said, not a silent
# "no change" (76-history-live under load lost a doubled metric to it)
"$TRAIL" history detect -C "$C" --alpha 0.001 --simulations 999 >/dev/null 2>"$T/few.err"
grep -q 'even the largest change goes unreported; raise --simulations to [0-9]* or more' "$T/few.err" &&
	pass "detect: too few simulations for --alpha are said" ||
	fail "detect: too few simulations for --alpha are said" "$(cat "$T/few.err")"
"$TRAIL" history detect -C "$C" >/dev/null 2>"$T/enough.err"
! grep -q "goes unreported" "$T/enough.err" && pass "detect: the defaults are within reach" ||
	fail "detect: the defaults are within reach" "$(cat "$T/enough.err")"
