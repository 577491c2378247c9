#!/usr/bin/env bash
# tests/cli/76-history-skipped.sh - detect --bisect when commits next to
# the boundary do not build (git bisect's "only skipped commits left"):
# the answer is the range, every commit it could be named, the untested
# ones marked, never one commit trail did not build.  Real repositories
# and builds, the allocation metric (trail's interposer: no perf, a few
# seconds): a program allocates 8 MB a run, then 2 MB from a commit that
# does not build.
#   a speed-up in a gap (bisected on the series): the midpoints are
#   measured, the broken ones set aside; detect without --bisect gives the
#   same answer from what is stored, measuring nothing; the plot's
#   "commit (bisected)" column shows it.
#   a slowdown whose gap holds only commits stored as failing: named from
#   the stored results, trail flame never started.
# And reading them: record's numbers without exponents, show naming the
# failed commits, the plot marking them and labelling commits.
# No timing is asserted: allocation counts differ by 4x, far beyond their noise.
. "$(dirname "$0")/lib.sh"

if ! have git || ! have cc || ! have python3; then skip "history skipped" "needs git, cc and python3"; exit 0; fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export XDG_STATE_HOME=$T/state
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
BUILD='cc -o prog prog.c' RUN=./prog
# mk DIR SIZE...: a commit per SIZE, whose program allocates SIZE bytes
# 2,000 times; x: a commit that does not build
mk() {
	local r=$1 i=0 s
	shift
	git init -q -b main "$r"
	for s in "$@"; do
		i=$((i + 1))
		case $s in
		x) printf 'int main(void) { return 0 }\n' ;;
		*) printf '#include <stdlib.h>\nint main(void) { for (int i = 0; i < 2000; i++) { char *p = malloc(%s); p[0] = 1; free(p); } return 0; }\n' "$s" ;;
		esac >"$r/prog.c"
		echo "/* $i */" >>"$r/prog.c"
		git -C "$r" add prog.c && git -C "$r" commit -q -m "commit $i"
	done
}
if ! { mk "$T/probe" 4096 && "$TRAIL" history record -C "$T/probe" --metric alloc --build "$BUILD" \
	--run "$RUN" --repeat 1 >/dev/null 2>"$T/probe.err"; }; then
	skip "history skipped" "the allocation metric cannot record here: $(head -1 "$T/probe.err")"; exit 0
fi

# A speed-up at commit 4, which does not build, nor does 5; 6 builds.
# Stored: 1-3 and 7-9; the gap 3..7 is bisected on the series.
R=$T/a
mk "$R" 4096 4096 4096 x x 1024 1024 1024 1024
id() { git -C "$R" rev-parse "HEAD~$((9 - $1))"; }
rc=0
for i in 1 2 3 7 8 9; do
	"$TRAIL" history record -C "$R" --rev "$(id $i)" --metric alloc --build "$BUILD" --run "$RUN" \
		--repeat 3 >/dev/null 2>>"$T/rec.err" || rc=1
done
[ $rc = 0 ] && pass "record: six commits around the gap" || fail "record: six commits around the gap" "$(cat "$T/rec.err")"
"$TRAIL" history record -C "$R" --rev "$(id 9)" --metric alloc --build "$BUILD" --run "$RUN" --repeat 3 >"$T/rec.out" 2>&1
# numbers as people write them: no exponent, the interval in the median's unit
grep -Eq "^$(id 9 | cut -c1-12) alloc [0-9]+ bytes \[[0-9]+, [0-9]+\] \(median of 3 runs, 95% interval\)" "$T/rec.out" &&
	pass "record: the median and its interval as counts, no exponent" || fail "record: the median and its interval as counts, no exponent" "$(cat "$T/rec.out")"
"$TRAIL" history detect -C "$R" --json --bisect >"$T/b.json" 2>"$T/b.err"
cand() {  # the answer of the first change point: "commit" or "c1:tested c2:untested ..."
	json "$1" '(lambda c: c["commit"] or " ".join("%s:%s" % (x["commit"], "tested" if x["tested"] else "untested") for x in c.get("candidates", [])))(d["change_points"][0])' 2>&1
}
want="$(id 4):untested $(id 5):untested $(id 6):tested"
[ "$(cand "$T/b.json")" = "$want" ] &&
	pass "--bisect, speed-up: commits 4 and 5 (did not build) and 6, no one commit named" ||
	fail "--bisect, speed-up: commits 4 and 5 (did not build) and 6, no one commit named" \
		"want '$want', got '$(cand "$T/b.json")'; $(cat "$T/b.err")"
[ "$(grep -c 'bisect: measuring' "$T/b.err")" = 3 ] && pass "--bisect: the gap's three commits measured, each once" ||
	fail "--bisect: the gap's three commits measured, each once" "$(cat "$T/b.err")"

# what is stored decides it again, without --bisect and without measuring
"$TRAIL" history detect -C "$R" --json >"$T/d.json" 2>"$T/d.err"
[ "$(cand "$T/d.json")" = "$want" ] && ! grep -q measuring "$T/d.err" &&
	pass "detect: the same answer from the stored results, nothing measured" ||
	fail "detect: the same answer from the stored results, nothing measured" "$(cand "$T/d.json"); $(cat "$T/d.err")"
check "detect, text" "$TRAIL" history detect -C "$R"
grep -q "one of 3 (2 could not be built or run)" "$T/.out" && grep -q "${want:0:12} (did not build) *commit 4" "$T/.out" &&
	grep -q "$(id 6 | cut -c1-12) (measured) *commit 6" "$T/.out" && grep -q "^  decide: " "$T/.out" &&
	pass "detect text: names the three commits, which did not build, what would decide it" ||
	fail "detect text: names the three commits, which did not build, what would decide it" "$(cat "$T/.out")"
check "plot -o html" "$TRAIL" history plot -C "$R" -o "$T/a.html"
grep -q "<td>one of <code>$(id 4 | cut -c1-12)</code> (not built), <code>$(id 5 | cut -c1-12)</code> (not built), <code>$(id 6 | cut -c1-12)</code></td>" "$T/a.html" &&
	pass "plot: the commit column names the range" || fail "plot: the commit column names the range" "$(grep -o '<table id="changes">.*' "$T/a.html" | head -5)"

# reading: show names the commits that failed; the plot marks them and labels its x axis
check "show" "$TRAIL" history show -C "$R"
grep -q "^2 commit(s) stored as failing to build or run:" "$T/.out" &&
	grep -q "^  $(id 4 | cut -c1-12)  .*did not build *commit 4" "$T/.out" &&
	grep -q "^  $(id 5 | cut -c1-12)  .*did not build *commit 5" "$T/.out" &&
	pass "show: names the two commits that did not build" || fail "show: names the two commits that did not build" "$(cat "$T/.out")"
check "plot -o svg" "$TRAIL" history plot -C "$R" -o "$T/a.svg"
python3 - "$T/a.svg" "$(id 4)" "$(id 5)" "$(id 1)" <<'PY' && pass "plot: the failed commits marked, commit ids under the x axis, no exponents" ||
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
marks = [t.get("data-commit") for t in root.findall(".//s:text[@class='failed']", ns)]
ticks = [t.text for t in root.findall(".//s:text[@class='xtick']", ns)]
values = [c.get("data-value") for c in root.findall(".//s:circle[@class='pt']", ns)]
ok = marks == sys.argv[2:4] and sys.argv[4][:7] in ticks and not any("e+" in v for v in values)
sys.exit(0 if ok else "marks %s ticks %s values %s" % (marks, ticks, values[:2]))
PY
	fail "plot: the failed commits marked, commit ids under the x axis, no exponents"
check "site" "$TRAIL" history site -C "$R" -o "$T/site"
[ "$(grep -o '<text class="failed"[^>]*data-commit="[0-9a-f]*"' "$T/site/history.html" | grep -o '[0-9a-f]\{40\}' | tr '\n' ' ')" = "$(id 4) $(id 5) " ] &&
	pass "site: the plot marks the two failed commits" ||
	fail "site: the plot marks the two failed commits" "$(grep -o '<text class="failed"[^>]*>' "$T/site/history.html")"

# A slowdown at commit 4, which does not build: every commit stored
# (backfill), so the gap 3..5 holds only a failed one - no bisection (and
# no trail flame) can do better than "4 or 5".
R=$T/b
mk "$R" 1024 1024 1024 x 4096 4096 4096
check "backfill, a commit that does not build" "$TRAIL" history backfill -C "$R" --range HEAD --metric alloc \
	--build "$BUILD" --run "$RUN" --repeat 3
"$TRAIL" history detect -C "$R" --json --bisect >"$T/s.json" 2>"$T/s.err"
want="$(git -C "$R" rev-parse HEAD~3):untested $(git -C "$R" rev-parse HEAD~2):tested"
[ "$(cand "$T/s.json")" = "$want" ] && ! grep -q "trail flame between\|measuring" "$T/s.err" &&
	pass "--bisect, slowdown over a failed commit: 4 (did not build) or 5, trail flame not run" ||
	fail "--bisect, slowdown over a failed commit: 4 (did not build) or 5, trail flame not run" \
		"want '$want', got '$(cand "$T/s.json")'; $(cat "$T/s.err")"
