#!/usr/bin/env bash
# tests/cli/76-history-notes.sh - trail history's storage, without perf:
# results of 'record --profile' (folded profiles made here) land in git
# notes under refs/notes/trail and survive git gc, a push to and a fetch
# from a bare repository, a merge of two machines' notes
# (cat_sort_uniq) and a rebase (notes.rewriteRef); a different environment
# fingerprint starts a different series; the work tree and index are never
# touched; a corrupt note is skipped with a warning naming its commit.  Change points of
# a series with a known step, and every output form (show, detect, plot);
# detect --bisect in a gap: a clear error on --profile results, and a
# stored answer (refs/notes/trail-bisect) used without measuring.
. "$(dirname "$0")/lib.sh"

if ! have git || ! have python3; then skip "history notes" "needs git and python3"; exit 0; fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# A repository of 14 commits; a profile per commit in which 'parse' takes
# 20 % of the samples until commit 8 and 45 % from there, and the metric
# steps from ~100 to ~130 ms.
R=$T/repo
git init -q -b main "$R"
for i in $(seq 1 14); do
	echo "$i" >"$R/file"
	git -C "$R" add file && git -C "$R" commit -q -m "change $i"
done
STEP=$(git -C "$R" rev-parse HEAD~6)
profile() {  # profile I -> $T/p.folded, prints the metric values
	local i=$1 parse=200 base=100
	[ "$i" -ge 8 ] && { parse=450; base=130; }
	printf 'main;run;parse %d\nmain;run;eval %d\nmain;run;print %d\nmain;io %d\n' \
		$((parse + i % 3)) $((500 - i % 2)) $((200 + i % 4)) 100 >"$T/p.folded"
	echo "--value $((base + i % 3)) --value $((base + 1 + i % 2)) --value $((base + 2))"
}
rc=0
for i in $(seq 1 14); do
	id=$(git -C "$R" rev-parse "HEAD~$((14 - i))")
	"$TRAIL" history record -C "$R" --rev "$id" --profile "$T/p.folded" --metric wall --unit ms \
		$(profile "$i") >"$T/rec.out" 2>"$T/rec.err" || rc=1
done
[ $rc = 0 ] && pass "record --profile stores 14 commits" || fail "record --profile stores 14 commits" "$(cat "$T/rec.err")"
[ "$(git -C "$R" notes --ref=trail list | wc -l)" = 14 ] && pass "one note per commit under refs/notes/trail" ||
	fail "one note per commit under refs/notes/trail"
[ -z "$(git -C "$R" status --porcelain --ignored)" ] && pass "work tree and index untouched" ||
	fail "work tree and index untouched" "$(git -C "$R" status --porcelain --ignored)"
git -C "$R" notes --ref=trail show HEAD | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' &&
	pass "a note is JSON, one result per line" || fail "a note is JSON, one result per line"

check "show --json" "$TRAIL" history show -C "$R" --json
cp "$T/.out" "$T/show.json"
[ "$(json "$T/show.json" 'len(d["commits"])')" = 14 ] && pass "show: a row per stored commit" ||
	fail "show: a row per stored commit"
[ "$(json "$T/show.json" 'round(d["commits"][-1]["shares"]["parse"], 2)')" = 0.36 ] &&
	pass "show: top functions' shares" || fail "show: top functions' shares" "$(json "$T/show.json" 'd["commits"][-1]')"
check "show --function, text" "$TRAIL" history show -C "$R" --function parse --range HEAD~3..HEAD
[ "$(grep -c 'parse 3[0-9]\.[0-9]%' "$T/.out")" = 3 ] && pass "show --range --function: 3 rows with parse's share" ||
	fail "show --range --function: 3 rows with parse's share" "$(cat "$T/.out")"

check "detect --json" "$TRAIL" history detect -C "$R" --json
cp "$T/.out" "$T/detect.json"
[ "$(json "$T/detect.json" 'len(d["change_points"])')" = 1 ] && pass "detect: one change point" ||
	fail "detect: one change point" "$(cat "$T/detect.json")"
[ "$(json "$T/detect.json" 'd["change_points"][0]["commit"]')" = "$STEP" ] && pass "detect: at the step's commit" ||
	fail "detect: at the step's commit"
[ "$(json "$T/detect.json" 'd["change_points"][0]["direction"]')" = slower ] && pass "detect: slower" ||
	fail "detect: slower"
[ "$(json "$T/detect.json" 'd["change_points"][0]["functions"][0]["name"]')" = parse ] &&
	pass "detect: names the function that moved" || fail "detect: names the function that moved"
check "detect, text" "$TRAIL" history detect -C "$R"
grep -q "^change 1: slower" "$T/.out" && grep -q "function:  parse slower" "$T/.out" &&
	pass "detect text: change and function" || fail "detect text: change and function" "$(cat "$T/.out")"
check_exit "detect --min-effect 50: none" 0 "$TRAIL" history detect -C "$R" --min-effect 50 --min-share 50
grep -q "^0 change point" "$T/.out" && pass "a minimum effect above the step: no change point" ||
	fail "a minimum effect above the step: no change point" "$(cat "$T/.out")"

# detect --bisect in a gap: commit 7 not stored, so the change lies between
# 6 and 8.  Results of record --profile have no build and run commands: a
# clear error; an answer stored under refs/notes/trail-bisect (what a first
# --bisect leaves) is used as it is, nothing measured
G=$T/gap
cp -r "$R" "$G"
git -C "$G" notes --ref=trail remove HEAD~7 2>/dev/null
check_exit "detect --bisect on --profile results: failure" 1 "$TRAIL" history detect -C "$G" --bisect
grep -q "stored from a profile" "$T/.err" && pass "detect --bisect: says why it cannot measure" ||
	fail "detect --bisect: says why it cannot measure" "$(cat "$T/.err")"
KEY=$(json "$T/detect.json" 'd["env"]')
git -C "$G" notes --ref=trail-bisect add -m "{\"before\":\"$(git -C "$G" rev-parse HEAD~8)\",\"key\":\"$KEY\",\"metric\":\"wall\",\"verdict\":\"regression\",\"culprit\":\"$STEP\",\"function\":\"parse\",\"report\":\"/stored/report\"}" "$STEP"
check "detect --bisect with a stored answer" "$TRAIL" history detect -C "$G" --bisect --json
[ "$(json "$T/.out" '(d["change_points"][0]["commit"], d["change_points"][0]["report"], d["change_points"][0]["commits_between"])')" = "('$STEP', '/stored/report', 1)" ] &&
	pass "detect --bisect: the stored answer names the commit and its report" ||
	fail "detect --bisect: the stored answer names the commit and its report" "$(cat "$T/.out" "$T/.err")"
grep -q "bisected before" "$T/.err" && ! grep -q "trail flame between\|measuring" "$T/.err" &&
	pass "detect --bisect: nothing measured again" || fail "detect --bisect: nothing measured again" "$(cat "$T/.err")"
# the plot's change-point table shows the stored answer (and detect without --bisect too)
check "plot -o html, a bisected gap" "$TRAIL" history plot -C "$G" -o "$T/g.html"
grep -q "<td><code>${STEP:0:12}</code></td></tr>" "$T/g.html" &&
	pass "plot: the commit (bisected) column shows the stored answer" ||
	fail "plot: the commit (bisected) column shows the stored answer" "$(grep -o '<table id="changes">.*' "$T/g.html")"
check "detect, a bisected gap" "$TRAIL" history detect -C "$G" --json
[ "$(json "$T/.out" 'd["change_points"][0]["commit"]')" = "$STEP" ] &&
	pass "detect: the stored bisection's commit without --bisect" ||
	fail "detect: the stored bisection's commit without --bisect" "$(cat "$T/.out")"

check "plot -o svg" "$TRAIL" history plot -C "$R" --function parse -o "$T/h.svg"
python3 - "$T/h.svg" "$STEP" <<'PY' && pass "plot: SVG parses, a point per commit, the change marked" || fail "plot: SVG parses, a point per commit, the change marked"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
pts = root.findall(".//s:circle[@class='pt']", ns)
assert len(pts) == 28, len(pts)            # metric + one function panel
changes = root.findall(".//s:g", ns)
changes = [g for g in changes if "change" in g.get("class", "")]
assert len(changes) == 1 and "slower" in changes[0].get("class")
assert pts[7].get("data-commit") == sys.argv[2]
PY
check "plot -o html" "$TRAIL" history plot -C "$R" -o "$T/h.html"
grep -q '<table id="changes">' "$T/h.html" && grep -q "${STEP:0:12}" "$T/h.html" &&
	pass "plot html: the change-point table" || fail "plot html: the change-point table"
check_exit "plot without -o: usage" 2 "$TRAIL" history plot -C "$R"

# guard on stored results: the step's commit fails, its parent passes
check_exit "guard --rev STEP: exit 3" 3 "$TRAIL" history guard -C "$R" --rev "$STEP"
grep -q "parse" "$T/.out" && pass "guard names the function" || fail "guard names the function" "$(cat "$T/.out")"
# guard --json (issue 29: it was accepted and printed text)
check_exit "guard --json --rev STEP: exit 3" 3 "$TRAIL" history guard -C "$R" --rev "$STEP" --json
[ "$(json "$T/.out" '(d["commit"], d["verdict"], d["functions"][0]["name"], d["functions"][0]["direction"], d["change"] > 0.05, d["notes_skipped"])')" = "('$STEP', 'regression', 'parse', 'slower', True, 0)" ] &&
	pass "guard --json: commit, verdict, the function that moved" ||
	fail "guard --json: commit, verdict, the function that moved" "$(cat "$T/.out")"
check_exit "guard --rev STEP^: exit 0" 0 "$TRAIL" history guard -C "$R" --rev "$STEP^"
check_exit "guard --max-regression 80: exit 0" 0 "$TRAIL" history guard -C "$R" --rev "$STEP" --max-regression 80

# another environment fingerprint (CFLAGS differ): its own series
"$TRAIL" history record -C "$R" --rev HEAD --profile "$T/p.folded" --metric wall --unit ms --value 999 >/dev/null 2>&1
CFLAGS=-O0 "$TRAIL" history record -C "$R" --rev HEAD --profile "$T/p.folded" --metric wall --unit ms \
	--value 1 >/dev/null 2>"$T/env.err"
"$TRAIL" history show -C "$R" --json >"$T/show2.json" 2>"$T/show2.err"
[ "$(json "$T/show2.json" 'len(d["commits"])')" = 14 ] && [ "$(json "$T/show2.json" 'int(d["commits"][-1]["median"])')" = 999 ] &&
	pass "environments: the default series is not mixed with another fingerprint" ||
	fail "environments: the default series is not mixed with another fingerprint" "$(tail -c 300 "$T/show2.json"; cat "$T/show2.err")"
grep -q "other environment" "$T/show2.err" && pass "environments: the other one is mentioned" ||
	fail "environments: the other one is mentioned"
OTHER=$(git -C "$R" notes --ref=trail show HEAD | python3 -c 'import json,sys; print([json.loads(l)["env"]["key"] for l in sys.stdin if json.loads(l)["runs"] == [1]][0])')
"$TRAIL" history show -C "$R" --json --env "$OTHER" >"$T/show3.json" 2>/dev/null
[ "$(json "$T/show3.json" 'len(d["commits"])')" = 1 ] && pass "environments: --env KEY shows that series alone" ||
	fail "environments: --env KEY shows that series alone"
"$TRAIL" history show -C "$R" --json --all-envs >"$T/show4.json" 2>/dev/null
[ "$(json "$T/show4.json" 'len(d["commits"])')" = 14 ] && pass "environments: --all-envs mixes them" ||
	fail "environments: --all-envs mixes them"

# git gc keeps the notes
git -C "$R" gc -q --prune=now
[ "$(git -C "$R" notes --ref=trail list | wc -l)" = 14 ] && "$TRAIL" history show -C "$R" --json >/dev/null 2>&1 &&
	pass "notes survive git gc" || fail "notes survive git gc"

# push to a bare repository, fetch from a second clone
git init -q --bare -b main "$T/server.git"
git -C "$R" push -q "$T/server.git" main refs/notes/trail
git clone -q "$T/server.git" "$T/clone2"
git -C "$T/clone2" fetch -q origin refs/notes/trail:refs/notes/trail
"$TRAIL" history show -C "$T/clone2" --json >"$T/c2.json" 2>/dev/null
[ "$(json "$T/c2.json" 'len(d["commits"])')" = 14 ] && pass "push and fetch of refs/notes/trail: the clone sees the results" ||
	fail "push and fetch of refs/notes/trail: the clone sees the results"
# the second machine records another metric on HEAD and pushes; the first merges
(cd "$T/clone2" && "$TRAIL" history record --profile "$T/p.folded" --metric rss --unit KiB --value 5 >/dev/null 2>&1)
git -C "$T/clone2" push -q origin refs/notes/trail
"$TRAIL" history record -C "$R" --rev HEAD~1 --profile "$T/p.folded" --metric rss --unit KiB --value 7 >/dev/null 2>&1
git -C "$R" fetch -q "$T/server.git" refs/notes/trail:refs/notes/trail-origin
git -C "$R" notes --ref=trail merge -q -s cat_sort_uniq refs/notes/trail-origin 2>"$T/merge.err"
"$TRAIL" history show -C "$R" --json --metric rss >"$T/m.json" 2>/dev/null
[ "$(json "$T/m.json" 'len(d["commits"])')" = 2 ] && "$TRAIL" history show -C "$R" --json >/dev/null 2>&1 &&
	pass "two machines' notes merge (cat_sort_uniq) into one store" ||
	fail "two machines' notes merge (cat_sort_uniq) into one store" "$(cat "$T/merge.err")"

# a rebase that rewrites commits: notes.rewriteRef carries the results over
git -C "$R" config notes.rewriteRef refs/notes/trail
OLD=$(git -C "$R" rev-parse HEAD~2)
git -C "$R" checkout -q -b topic HEAD~5
echo x >"$R/other" && git -C "$R" add other && git -C "$R" commit -q -m "unrelated"
git -C "$R" checkout -q main
git -C "$R" rebase -q topic 2>/dev/null
NEW=$(git -C "$R" rev-parse HEAD~2)
[ "$OLD" != "$NEW" ] && git -C "$R" notes --ref=trail show "$NEW" >/dev/null 2>&1 &&
	pass "rebase: the rewritten commit keeps its result (notes.rewriteRef)" ||
	fail "rebase: the rewritten commit keeps its result (notes.rewriteRef)"

# commits that do not build are stored as such (no perf needed: nothing runs)
check "backfill of commits that do not build" "$TRAIL" history backfill -C "$R" --range HEAD~2..HEAD --build false --run true
grep -q "^backfill: 2 commit(s) measured, 0 already stored, 2 failed to build or run" "$T/.out" &&
	pass "backfill: failed builds counted" || fail "backfill: failed builds counted" "$(cat "$T/.out")"
git -C "$R" notes --ref=trail show HEAD | grep -q '"status":"build-failed".*"build":"false"' &&
	pass "a commit that does not build is stored as such" || fail "a commit that does not build is stored as such"
"$TRAIL" history show -C "$R" --env "$(git -C "$R" notes --ref=trail show HEAD | python3 -c 'import json,sys; print([json.loads(l)["env"]["key"] for l in sys.stdin if json.loads(l)["env"]["build"] == "false"][0])')" >"$T/failed.out" 2>&1
grep -q "2 commit(s) stored as failing to build or run" "$T/failed.out" && pass "show counts the failed commits" ||
	fail "show counts the failed commits" "$(cat "$T/failed.out")"
[ -z "$(git -C "$R" status --porcelain)" ] && pass "work tree untouched by the builds" || fail "work tree untouched by the builds"

# usage errors
check_exit "no subcommand: usage" 2 "$TRAIL" history
check_exit "unknown subcommand: usage" 2 "$TRAIL" history frobnicate -C "$R"
check_exit "record without --build: usage" 2 "$TRAIL" history record -C "$R"
check_exit "backfill without --range: usage" 2 "$TRAIL" history backfill -C "$R" --build make --run true
check_exit "outside a repository: failure" 1 "$TRAIL" history show -C "$T"
check_exit "--value without --unit" 1 "$TRAIL" history record -C "$R" --profile "$T/p.folded" --value 3

# a corrupt note: skipped with a warning naming the commit, no crash
# (tests/cli/76-history-untrusted.sh has the rest)
git -C "$R" notes --ref=trail add -f -m '{"v":1,"status":"ok"' HEAD~3 2>/dev/null
check_exit "corrupt note: skipped, exit 0" 0 "$TRAIL" history show -C "$R"
grep -q "note of $(git -C "$R" rev-parse --short=12 HEAD~3) skipped" "$T/.err" && pass "corrupt note: names the commit" ||
	fail "corrupt note: names the commit" "$(cat "$T/.err")"

