#!/usr/bin/env bash
# tests/cli/77-history-suite.sh - trail history over a repository's bench
# suite (.trail): errors in the file name FILE:LINE and the key; a
# repository of three benches (tests/e2e/gen-suite: alpha and gamma CPU
# and steady, beta peak RSS, whose grow_b touches 24 MiB instead of 4
# from one commit on) is backfilled - real builds, one per commit for the
# three benches, and real captures - then detect finds the change in beta
# only, at its commit, naming grow_b; diff between its two sides (two
# commits, then two ranges) ranks grow_b first and draws it red, from the
# stored profiles; guard --markdown names bench, budget and function and
# exits 3 on beta's broken budget (rss < 16 MiB: page counts, not
# timing); prune keeps the newest profiles only.  No timing is asserted.
. "$(dirname "$0")/lib.sh"

if ! have git || ! have python3; then skip "history suite" "needs git and python3"; exit 0; fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export XDG_CACHE_HOME=$T/cache XDG_STATE_HOME=$T/state
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# .trail read strictly, without measuring anything
E=$T/errors
git init -q -b main "$E" && git -C "$E" commit -q --allow-empty -m one
printf '[bench "a"]\n\trun = true\n\trepaet = 3\n' >"$E/.trail"
check_exit "an unknown key: exit 1" 1 "$TRAIL" history show -C "$E"
grep -q "^trail history: error: .trail:3: bench \"a\": unknown key 'repaet'" "$T/.err" &&
	pass "the error names .trail:3 and the key" || fail "the error names .trail:3 and the key" "$(cat "$T/.err")"
printf '[bench "a"]\n\trun = true\n# a comment\n\tbudget = p95 < 20 parsecs\n' >"$E/.trail"
check_exit "a bad budget: exit 1" 1 "$TRAIL" history show -C "$E"
grep -q ".trail:4: bench \"a\": budget 'p95 < 20 parsecs': the unit" "$T/.err" &&
	pass "a bad budget names its line" || fail "a bad budget names its line" "$(cat "$T/.err")"
printf '[bench "a"\n' >"$E/.trail"
check_exit "a file git cannot read: exit 1" 1 "$TRAIL" history show -C "$E"
grep -q "bad config line [0-9]" "$T/.err" && pass "git's own error names the line" || fail "git's own error names the line" "$(cat "$T/.err")"
printf '[bench "a"]\n\trun = true\n' >"$E/.trail"
check_exit "--bench of no bench: usage" 2 "$TRAIL" history show -C "$E" --bench nope
grep -q "no bench 'nope' in .trail (a)" "$T/.err" && pass "the error lists the benches" ||
	fail "the error lists the benches" "$(cat "$T/.err")"
printf 'main;parse 30\nmain;eval 70\n' >"$T/p.folded"
check "record --profile --bench a: a profile made elsewhere, for that bench" "$TRAIL" history record -C "$E" \
	--profile "$T/p.folded" --bench a --metric wall --unit ms --value 12
git -C "$E" notes --ref=trail show HEAD | grep -q '"bench":"a"' &&
	git -C "$E" notes --ref=trail-profiles show HEAD | grep -q '"folded":"main;eval 70\\nmain;parse 30\\n"' &&
	pass "the result names the bench; its whole profile is stored" ||
	fail "the result names the bench; its whole profile is stored" "$(git -C "$E" notes --ref=trail-profiles show HEAD)"
check_exit "--bench with --build: usage" 2 "$TRAIL" history show -C "$E" --bench a --build make --run true
rm "$E/.trail"
check_exit "--bench without .trail: usage" 2 "$TRAIL" history show -C "$E" --bench a

if ! have make || ! have cc; then skip "history suite" "needs make and cc"; exit 0; fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "history suite" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
R=$T/repo
BUILD_LOG=$T/builds "$ROOT/tests/e2e/gen-suite" "$R" 8 5 || { fail "generate"; exit 0; }
STEP=$(git -C "$R" rev-parse HEAD~3)
H() { local sub=$1; shift; "$TRAIL" history "$sub" -C "$R" "$@"; }

check "backfill, every bench" H backfill --range HEAD
[ "$(grep -c '^backfill: 8 commit(s) measured' "$T/.out")" = 3 ] && pass "backfill: 8 commits for each of 3 benches" ||
	fail "backfill: 8 commits for each of 3 benches" "$(cat "$T/.out" "$T/.err")"
[ "$(wc -l <"$T/builds")" = 8 ] && pass "a build shared by three benches runs once per commit" ||
	fail "a build shared by three benches runs once per commit" "$(wc -l <"$T/builds") builds"
[ -z "$(git -C "$R" status --porcelain --ignored)" ] && pass "work tree untouched" ||
	fail "work tree untouched" "$(git -C "$R" status --porcelain --ignored)"
[ "$(git -C "$R" notes --ref=trail show HEAD | grep -c '"bench":"')" = 3 ] &&
	pass "a note holds one result per bench, each naming it" || fail "a note holds one result per bench, each naming it"
[ "$(git -C "$R" notes --ref=trail-profiles list | wc -l)" = 8 ] &&
	[ "$(git -C "$R" notes --ref=trail-profiles show HEAD | grep -c '"folded":')" = 3 ] &&
	pass "full profiles under refs/notes/trail-profiles, one per bench and commit" ||
	fail "full profiles under refs/notes/trail-profiles, one per bench and commit"

# a host of backfill --hosts asked for beta (--print --bench, the commands given) answers in
# beta's environment: the same key as this machine's results of beta
git -C "$R" notes --ref=trail show HEAD | python3 -c '
import json, sys
e = [json.loads(l)["env"] for l in sys.stdin if json.loads(l)["env"].get("bench") == "beta"][0]
print(e["key"]); print(e["build"]); print(e["run"])' >"$T/beta.env"
{ read -r BKEY; read -r BBUILD; read -r BRUN; } <"$T/beta.env"
check "backfill --print --bench beta (a host's environment)" H backfill --print --bench beta --build "$BBUILD" \
	--run "$BRUN" --metric rss
grep -q "$BKEY" "$T/.out" && pass "a host measuring beta answers beta's environment key" ||
	fail "a host measuring beta answers beta's environment key" "want $BKEY: $(cat "$T/.out" "$T/.err")"

# detect: the change in beta only, at its commit, naming grow_b
check_exit "detect --json with three benches: usage (one answer)" 2 H detect --json
for b in alpha beta gamma; do
	H detect --json --bench "$b" --alpha 0.001 --simulations 19999 >"$T/d-$b.json" 2>"$T/d-$b.err"
done
got=$(json "$T/d-beta.json" '" ".join("%s:%s:%s" % (c["commit"], (c["functions"] or [{"name": "-"}])[0]["name"], c["direction"]) for c in d["change_points"])' 2>&1)
[ "$got" = "$STEP:grow_b:slower" ] && pass "detect beta: one change point, at its commit, slower, grow_b" ||
	fail "detect beta: one change point, at its commit, slower, grow_b" "got '$got'; $(cat "$T/d-beta.err")"
[ "$(json "$T/d-alpha.json" 'len(d["change_points"])')$(json "$T/d-gamma.json" 'len(d["change_points"])')" = 00 ] &&
	pass "detect alpha and gamma: no change point (results of benches never mix)" ||
	fail "detect alpha and gamma: no change point (results of benches never mix)" "$(cat "$T/d-alpha.json" "$T/d-gamma.json")"

# diff from the stored profiles: grow_b first and red; nothing measured
check "diff two commits" H diff --bench beta "$STEP~1" "$STEP" -o "$T/d.svg"
awk '$1 == "hotter"' "$T/.out" | head -1 | grep -q ' grow_b$' && pass "diff: grow_b is the first hotter row" ||
	fail "diff: grow_b is the first hotter row" "$(cat "$T/.out")"
# before, after and delta as numfmt writes them (no %g exponents)
awk '$1 == "hotter" || $1 == "cooler" { for (i = 3; i <= 5; i++) if ($i !~ /^[+-]?[0-9]+(\.[0-9]+)?$/) bad = 1 }
     END { exit bad }' "$T/.out" && pass "diff: the table's numbers without exponents" ||
	fail "diff: the table's numbers without exponents" "$(cat "$T/.out")"
# page faults are bytes first touched: compared by bytes (they add up), not by share - so
# parse_b, which touches its 2 MiB before and after, is in no row and drawn grey
grep -q "metric rss, by bytes" "$T/.out" && pass "diff: a memory bench is compared by bytes" ||
	fail "diff: a memory bench is compared by bytes" "$(cat "$T/.out")"
! grep -q " parse_b$" "$T/.out" && pass "diff: parse_b (unchanged bytes) is in no row" ||
	fail "diff: parse_b (unchanged bytes) is in no row" "$(cat "$T/.out")"
python3 - "$T/d.svg" <<'PY' && pass "diff SVG: grow_b drawn red, parse_b neutral" || fail "diff SVG: grow_b drawn red, parse_b neutral"
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
fill = {}
for g in root.iter("{http://www.w3.org/2000/svg}g"):
    t, r = g.find("s:title", ns), g.find("s:rect", ns)
    if t is not None and r is not None and t.text and re.match(r"(grow|parse)_b ", t.text):
        m = re.match(r"rgb\((\d+),(\d+),(\d+)\)", r.get("fill"))
        fill[t.text.split()[0]] = [int(x) for x in m.groups()]
g, p = fill.get("grow_b"), fill.get("parse_b")
red = g and g[0] > 200 and g[2] < 100
grey = p and p[0] == p[1] == p[2]
print(fill)
sys.exit(0 if red and grey else 1)
PY
check "diff --json: trail diff's keys, units intact" H diff --bench beta "$STEP~1" "$STEP" --json
python3 - "$T/.out" "$STEP" <<'PY' && pass "diff --json: bytes per run, grow_b first, the commits named" ||
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hotter"][0]
ok = (d["unit"] == "bytes" and d["metric"] == "rss" and d["bench"] == "beta" and
      d["after"]["paths"] == [sys.argv[2]] and h["function"] == "grow_b" and
      2**20 <= h["delta"] <= 64 * 2**20 and all(r["function"] != "parse_b" for r in d["hotter"] + d["cooler"]))
sys.exit(0 if ok else 1)
PY
	fail "diff --json: bytes per run, grow_b first, the commits named" "$(cat "$T/.out")"
check "diff of a CPU bench: by time" H diff --bench alpha "$STEP~1" "$STEP" --json
[ "$(json "$T/.out" 'd["unit"]')" = ns ] && pass "diff: a CPU bench's profiles compare time (ns)" ||
	fail "diff: a CPU bench's profiles compare time (ns)" "$(head -30 "$T/.out")"
check "diff two ranges, HTML" H diff --bench beta "HEAD~7..$STEP~1" "$STEP~1..HEAD" -o "$T/d.html"
grep -q "3 commit(s) -> 4 commit(s).*commit-to-commit spread" "$T/.out" &&
	awk '$1 == "hotter"' "$T/.out" | head -1 | grep -q ' grow_b$' &&
	pass "diff of ranges: each commit one run, grow_b first" || fail "diff of ranges: each commit one run, grow_b first" "$(cat "$T/.out")"
grep -q "<svg" "$T/d.html" && grep -q '<tr class="hotter"><td>hotter</td><td>[a-z]*</td><td>grow_b</td>' "$T/d.html" &&
	pass "diff HTML: the graph inline and the table" || fail "diff HTML: the graph inline and the table"

# guard: beta's budget broken at the change, kept before it
check_exit "guard --rev STEP --markdown: exit 3" 3 H guard --rev "$STEP" --markdown "$T/summary.md"
grep -q "^guard: budget rss < 16 MiB of bench beta broken: rss = 2[0-9.]* MiB (.trail:[0-9]*)" "$T/.out" &&
	pass "guard names the broken budget" || fail "guard names the broken budget" "$(cat "$T/.out")"
grep -q "^guard: budget p95 < 60 s of bench gamma kept" "$T/.out" && pass "guard: gamma's budget kept" ||
	fail "guard: gamma's budget kept" "$(cat "$T/.out")"
grep -q '^| beta | `'"${STEP:0:12}"'` | +[0-9.]*% \[.*❌ regression.*❌ `rss < 16 MiB` \*\*broken\*\*.*`grow_b` slower' "$T/summary.md" &&
	[ "$(grep -c '^| \(alpha\|beta\|gamma\) |' "$T/summary.md")" = 3 ] &&
	pass "guard --markdown: a row per bench; beta's names the budget and grow_b" ||
	fail "guard --markdown: a row per bench; beta's names the budget and grow_b" "$(cat "$T/summary.md")"
# --json: stdout is JSON only (the budget's line goes to stderr)
check_exit "guard --json --bench beta: exit 3" 3 H guard --rev "$STEP" --bench beta --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit("verdict" not in d)' "$T/.out" &&
	grep -q "budget rss < 16 MiB of bench beta broken" "$T/.err" &&
	pass "guard --json: one JSON object on stdout, the budget on stderr" ||
	fail "guard --json: one JSON object on stdout, the budget on stderr" "$(cat "$T/.out" "$T/.err")"
check_exit "guard --rev STEP~1 --bench beta: exit 0" 0 H guard --rev "$STEP~1" --bench beta
grep -q "budget rss < 16 MiB of bench beta kept" "$T/.out" && pass "before the change the budget holds" ||
	fail "before the change the budget holds" "$(cat "$T/.out")"

# the site links each change point to its bisect report: detect --bisect's answer for beta's
# gap (refs/notes/trail-bisect, the line history_bisect.c writes; trail flame's session
# itself is tested in 76-history), its report directory on this machine
mkdir -p "$T/bisect-report"
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>report</title></head><body><a href="diff.svg">diff</a></body></html>\n' \
	>"$T/bisect-report/report.html"
cp "$T/d.svg" "$T/bisect-report/diff.svg"
BEFORE=$(git -C "$R" rev-parse "$STEP~1")
printf '{"before":"%s","key":"%s","metric":"rss","verdict":"regression","culprit":"%s","function":"grow_b","report":"%s"}\n' \
	"$BEFORE" "$BKEY" "$STEP" "$T/bisect-report" | git -C "$R" notes --ref=trail-bisect add -F - "$STEP"

# the site: every page from file://, with and without JavaScript (tests/browser/history_site_browser.py)
check "site -o DIR" H site -o "$T/site"
grep -q "bisected: culprit <code class=\"culprit\">${STEP:0:12}</code> (regression), function <code>grow_b</code>; <a class=\"report\" href=\"beta-${BEFORE:0:12}-${STEP:0:12}-$BKEY-bisect/report.html\">" "$T/site/beta.html" &&
	cmp -s "$T/bisect-report/diff.svg" "$T/site/beta-${BEFORE:0:12}-${STEP:0:12}-$BKEY-bisect/diff.svg" &&
	pass "site: the change point names its bisected commit and links its report (copied in)" ||
	fail "site: the change point names its bisected commit and links its report (copied in)" "$(grep -o '<p class="bisect">.*' "$T/site/beta.html")"
ls "$T/site"/beta-*.svg >/dev/null 2>&1 && pass "site: beta's change point has its differential graph" ||
	fail "site: beta's change point has its differential graph" "$(ls "$T/site")"
touch -d '2000-01-01' "$T/site"/beta-*.svg
check "site again: the graphs drawn before are kept" H site -o "$T/site"
[ -z "$(find "$T/site" -name 'beta-*.svg' -newer "$T/site/index.html")" ] &&
	[ "$(find "$T/site" -name 'beta-*.svg' ! -newermt '2001-01-01' | wc -l)" = 1 ] &&
	pass "site again: the change point's graph is not redrawn" || fail "site again: the change point's graph is not redrawn"
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "site in a browser" "sanitized: Chromium runs none of trail's code - trail wrote the site above under the sanitizers, and the plain run loads the same pages"
elif have chromium || have chromium-browser || have google-chrome; then
	python3 "$ROOT/tests/browser/history_site_browser.py" "$T/site" alpha,beta,gamma beta grow_b \
		"$BUILD/test-artifacts"
else
	skip "site in a browser" "chromium not installed (apt-get install chromium)"
fi

# prune: the newest 2 commits keep their profiles, the results stay
check "prune --keep 2" H prune --keep 2
[ "$(git -C "$R" notes --ref=trail-profiles list | wc -l)" = 2 ] &&
	[ "$(git -C "$R" rev-list --count refs/notes/trail-profiles)" = 1 ] &&
	pass "prune: 2 profiles left, the ref one commit" || fail "prune: 2 profiles left, the ref one commit"
check_exit "diff after prune: no profile, exit 1" 1 H diff --bench beta "$STEP~1" "$STEP"
grep -q "no stored profile of A" "$T/.err" && pass "diff says the profile is not stored" ||
	fail "diff says the profile is not stored" "$(cat "$T/.err")"
check "show after prune: the results stay" H show --bench beta
[ "$(grep -c '^[0-9a-f]\{12\} ' "$T/.out")" = 8 ] && pass "show: 8 results of beta" || fail "show: 8 results of beta" "$(cat "$T/.out")"

# peak-heap, a history metric (the budget 'peak-heap < 64 MiB' of the issue): the
# interposer's peak live heap per commit, its allocation-site profiles diffed by bytes
if H record --rev "$STEP~1" --bench beta --metric peak-heap --repeat 1 >"$T/ph.out" 2>"$T/ph.err"; then
	check "record --metric peak-heap" H record --rev "$STEP" --bench beta --metric peak-heap --repeat 1
	check "show --metric peak-heap --json" H show --bench beta --metric peak-heap --json
	python3 - "$T/.out" <<'PY' && pass "peak-heap: 4 MiB before, 24 after (grow_b's block)" ||
import json, sys
m = [c["median"] for c in json.load(open(sys.argv[1]))["commits"]]
sys.exit(0 if len(m) == 2 and 3 * 2**20 <= m[0] <= 8 * 2**20 and 20 * 2**20 <= m[1] <= 40 * 2**20 else 1)
PY
		fail "peak-heap: 4 MiB before, 24 after (grow_b's block)" "$(cat "$T/.out")"
	check "diff --metric peak-heap --json" H diff --bench beta --metric peak-heap "$STEP~1" "$STEP" --json
	[ "$(json "$T/.out" 'd["unit"] + " " + d["hotter"][0]["function"]')" = "bytes grow_b" ] &&
		pass "diff peak-heap: by bytes, grow_b first" || fail "diff peak-heap: by bytes, grow_b first" "$(cat "$T/.out")"
else
	skip "peak-heap history" "the allocation interposer cannot record here: $(tail -1 "$T/ph.err")"
fi
