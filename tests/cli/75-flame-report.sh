#!/usr/bin/env bash
# tests/cli/75-flame-report.sh - trail flame's report from one small real
# run (tests/e2e/make-history, 8 commits, a known culprit): report.md has
# the suspect's diff and the handoffs with the culprit's revert command and
# a CI guard; report.html is checked in headless Chromium
# (tests/browser/flame_report_browser.py: sections, tables, probe chart,
# embedded graph, links, console) and its screenshot kept in
# $BUILD/test-artifacts.  The browser part skips without Chromium.
. "$(dirname "$0")/lib.sh"

if ! have perf || ! have python3 || ! have make || ! have cc; then
	skip "flame report" "needs perf, python3, make and cc"; exit 0
fi
if ! perf record -q -o "$T/check.data" true >/dev/null 2>&1; then
	skip "flame report" "perf record cannot sample here (perf_event_paranoid?)"; exit 0
fi
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

"$ROOT/tests/e2e/make-history" "$T/repo" --shape slowdown --commits 8 --seed 3 --scale 0.35 >"$T/env" ||
	{ fail "generate history"; exit 0; }
ARTIFACTS=$BUILD/test-artifacts	# the env file sets BUILD to the build command
. "$T/env"
OUT=$T/report
(cd "$T/repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" --out "$OUT" \
	--repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache") >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && pass "a regression found" || { fail "a regression found" "exit $rc"; tail -20 "$T/err" >&2; exit 0; }
[ "$(json "$OUT/report.json" 'd["suspect"]["commit"]')" = "$CULPRIT" ] && pass "the culprit named" ||
	fail "the culprit named"

# report.md: the same sections as the page, in text
MD=$OUT/report.md
for h in "## The suspect commit" "## Handoffs" "### Fix:" "### Optimise:" "### Guard in CI:" "## Reproduce"; do
	grep -q "^$h" "$MD" && pass "report.md: $h" ||
		fail "report.md: $h"
done
grep -qxF "git revert $CULPRIT" "$MD" && pass "report.md: the revert command" || fail "report.md: the revert command"
grep -q "^trail bench --baseline base.json --max-regression [0-9]*% -- ./app$" "$MD" &&
	pass "report.md: the CI guard" || fail "report.md: the CI guard"
grep -q "^- \`work.c\` \`@@ .*$FUNCTION" "$MD" && pass "report.md: the hot function's hunk listed" ||
	fail "report.md: the hot function's hunk listed"
grep -q "^### Check the environment" "$MD" && fail "report.md: no environment check for a regression" || pass "report.md: no environment check for a regression"
"$ROOT/tests/factcheck/flame-report-facts" "$OUT" "$T/repo" --stdout "$T/out" >"$T/facts" 2>&1 &&
	pass "the report's facts check against git" || fail "the report's facts check against git" "$(grep -v '^ok' "$T/facts")"
[ -z "$(git -C "$T/repo" status --porcelain)" ] && pass "the user's worktree untouched" ||
	fail "the user's worktree untouched"

if ! have chromium && ! have chromium-browser && ! have google-chrome; then
	skip "browser" "chromium not installed (apt-get install chromium)"
	exit 0
fi
python3 "$ROOT/tests/browser/flame_report_browser.py" "$OUT" "$ARTIFACTS" regression
