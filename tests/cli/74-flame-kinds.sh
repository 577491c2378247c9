#!/usr/bin/env bash
# tests/cli/74-flame-kinds.sh - trail flame on histories from
# tests/e2e/gen-kinds, a small set that keeps CI cheap: a function that
# already takes ~85% of the run gets 3x slower (its share can barely rise,
# its CPU time does), a worse hash sends the time into libc's memcmp under
# table_find (named, not memcmp; the reland below), a merge whose commits
# are harmless alone is named with none of them.  Every report's facts are
# checked (tests/factcheck).  The kinds memcmp and none ran here until stop
# 31: every line of C they reached (gcov) is reached by the kinds kept, the
# other flame suites and the unit tests; memcmp's history is the reland's
# first landing, whose checks are the reland's now, and a history without
# a regression is 71-flame-e2e's "none" (exit 6 or 4, no suspect) - the
# speed-up among refactors that gen-kinds' none adds runs in bench/flame-kinds.
# The generator itself is checked without perf where no flame run here does
# (malloc, pageclear, subtle, memcmp, none): those kinds build at both
# ends and the culprit commit is where it says.  No timing is asserted.
. "$(dirname "$0")/lib.sh"

if ! have python3 || ! have make || ! have cc || ! have git; then
	skip "flame kinds" "needs python3, make, cc and git"; exit 0
fi
GEN=$ROOT/tests/e2e/gen-kinds
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# The generator: the kinds no trail flame run of the suite uses (only
# bench/flame-kinds does) build and run at GOOD and BAD (tiny scale), and
# CULPRIT is on the first-parent line between them.  dominant, merge,
# paranoia and reland are checked below, two by tests/cli/74-flame-culprits.sh:
# trail flame names their culprit, which needs the same (memcmp and none
# only in bench/flame-kinds: see the top).
for kind in malloc pageclear subtle memcmp none; do
	repo=$T/gen-$kind
	if ! "$GEN" "$repo" --kind "$kind" --seed 3 --scale 0.02 >"$T/gen-$kind.env"; then
		fail "gen-kinds $kind: generate"; continue
	fi
	. "$T/gen-$kind.env"
	ok=1
	for rev in "$GOOD" "$BAD"; do
		git -C "$repo" checkout -q "$rev" && make -s -C "$repo" >/dev/null 2>&1 &&
			"$repo/lexicon" >/dev/null || ok=0
	done
	if [ "$EXPECT" = none ]; then
		[ -z "$CULPRIT" ] || ok=0
	else
		git -C "$repo" merge-base --is-ancestor "$CULPRIT" "$BAD" && [ "$CULPRIT" != "$GOOD" ] &&
			grep -q "$CHANGED" "$repo"/*.c && grep -q "$FUNCTION" "$repo"/*.c || ok=0
	fi
	[ "$ok" = 1 ] && pass "gen-kinds $kind: builds at both ends, culprit in range" ||
		fail "gen-kinds $kind: builds at both ends, culprit in range"
done

if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "flame kinds" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi

# kind NAME SEED SCALE [options]: run trail flame on a fresh history; $rc and $R (report.json)
# (scale 0.3: runs of 0.1-0.2 s of CPU, the effects 30% to 3x - about half
# the workload time of scale 0.5; reland stays at 0.5: its bisection decides
# commit by commit on a ~25% step, and at 0.3 a machine at load 28 left it
# inconclusive)
kind() {
	local name=$1 seed=$2 scale=$3 repo=$T/repo-$1
	shift 3
	"$GEN" "$repo" --kind "$name" --seed "$seed" --scale "$scale" --commits 8 >"$T/$name.env" || {
		fail "$name: generate"; return 1; }
	. "$T/$name.env"
	R=$T/report-$name/report.json
	(cd "$repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" \
		--out "$T/report-$name" --cache "$T/cache" --warmup-runs 0 "$@") >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	# every sentence of every report checked against git (tests/factcheck)
	if [ -f "$R" ] && have python3; then
		"$ROOT/tests/factcheck/flame-report-facts" "$T/report-$name" "$repo" --stdout "$T/$name.out" \
			>"$T/$name.facts" 2>&1 && pass "$name: the report's facts check" ||
			fail "$name: the report's facts check" "$(grep -v '^ok' "$T/$name.facts")"
	fi
}

# The dominant function: the right commit and function (exit 0, or 4 if the
# machine is too busy to decide - never a wrong commit or "no regression").
kind dominant 5 0.3
if [ "$rc" = 0 ]; then
	[ "$(json "$R" 'd["suspect"]["commit"]')" = "$CULPRIT" ] && pass "dominant: names the culprit commit" ||
		fail "dominant: names the culprit commit" "$(json "$R" 'd["suspect"]')"
	[ "$(json "$R" 'd["suspect"]["function"]')" = "$FUNCTION" ] && pass "dominant: names $FUNCTION" ||
		fail "dominant: names $FUNCTION" "$(json "$R" 'd["suspect"]')"
elif [ "$rc" = 4 ]; then
	skip "dominant: names the culprit" "inconclusive on this machine"
else
	fail "dominant: exit $rc, expected 0 (or 4)"; tail -15 "$T/dominant.err" >&2
fi

# git's commit-graph paranoia in small: most of the run in libz, the
# culprit's time in libc memcmp under parse_commits, whose inclusive time
# also holds verify_commit's.  Bisected (not the suspects-first shortcut),
# every probe measures what the diff ranked: parse_commits with the library
# code under it (lib-time), not its inclusive time.  An inconclusive answer
# is accepted only without a commit in the headline.  diff.svg compares CPU
# time per run: libz's inflate, whose time did not move, is not painted
# cooler because memcmp grew (by shares it lost about 7 points and was
# deep blue, rgb(22,22,255); a few % of load drift may tint it, no more).
kind paranoia 2 0.15 --strategy bisect --force-narrow --max-repeat 8
if [ "$rc" = 0 ]; then
	[ "$(json "$R" 'd["suspect"]["commit"]')" = "$CULPRIT" ] && pass "paranoia: names the culprit commit" ||
		fail "paranoia: names the culprit commit" "$(json "$R" 'd["suspect"]')"
	[ "$(json "$R" 'd["suspect"]["function"]')" = "$FUNCTION" ] && pass "paranoia: names $FUNCTION, frame $FRAME" ||
		fail "paranoia: names $FUNCTION, frame $FRAME" "$(json "$R" 'd["suspect"]')"
	[ "$(json "$R" 'd["target"]["measure"]')" = self_library_time ] &&
		grep -q -- "--measure lib-time" "$T/report-paranoia/report.md" &&
		pass "paranoia: probes measure its time with the library code under it" ||
		fail "paranoia: probes measure its time with the library code under it" "$(json "$R" 'd["target"]')"
elif [ "$rc" = 4 ]; then
	[ "$(json "$R" 'd["suspect"]')" = None ] && ! grep -q "^suspect commit:" "$T/paranoia.out" &&
		pass "paranoia: inconclusive, no commit in the headline" ||
		fail "paranoia: inconclusive, no commit in the headline" "$(head -3 "$T/paranoia.out")"
else
	fail "paranoia: exit $rc, expected 0 (or 4)"; tail -15 "$T/paranoia.err" >&2
fi
if [ -f "$T/report-paranoia/diff.svg" ]; then
	fill=$(grep -o '<title>inflate_blobs ([^<]*</title><rect[^>]*fill="rgb([0-9,]*)"' \
		"$T/report-paranoia/diff.svg" | head -1 | grep -o 'rgb([0-9,]*)')
	red=$(printf '%s' "$fill" | sed -n 's/rgb(\([0-9]*\),.*/\1/p')
	grep -q 'Colour: the function.s change [^<]* in inclusive time' "$T/report-paranoia/diff.svg" &&
		[ -n "$red" ] && [ "$red" -ge 120 ] &&
		grep -q 'coloured by the change of each function.s CPU time per run' "$T/report-paranoia/report.md" &&
		pass "paranoia: diff.svg in CPU time, inflate not cooler ($fill)" ||
		fail "paranoia: diff.svg in CPU time, inflate not cooler" "inflate_blobs: ${fill:-missing}"
fi

# A merge: the branch's two commits are harmless, the merge's own
# resolution folds the hash.  The merge is the answer; none of its commits
# is named as touching the hot function (the fact check verifies with git
# blame), and the function it names as changed is one its diff changes.
kind merge 5 0.3
if [ "$rc" = 0 ]; then
	[ "$(json "$R" 'd["suspect"]["commit"]')" = "$CULPRIT" ] && pass "merge: names the merge" ||
		fail "merge: names the merge" "$(json "$R" 'd["suspect"]["commit"]')"
	json "$R" 'd["suspect"]["merge"]["merged_commits"] == 2 and d["suspect"]["merge"]["merged_commits_touching_function"] == []' |
		grep -q True && pass "merge: 2 commits merged, none touching the function" ||
		fail "merge: 2 commits merged, none touching the function" "$(json "$R" 'd["suspect"]["merge"]')"
	grep -q "^- merge: the first slow commit is a merge of 2 commits" "$T/report-merge/report.md" &&
		pass "merge: report.md's merge line" || fail "merge: report.md's merge line"
elif [ "$rc" = 4 ]; then
	skip "merge: names the merge" "inconclusive on this machine"
else
	fail "merge: exit $rc, expected 0 (or 4)"; tail -15 "$T/merge.err" >&2
fi

# Landed, reverted, relanded (seed 5: git bisect first lands on the first
# landing): the live regression is the reland, and the first landing is
# listed as reverted - never "revert it" for a commit already reverted.
# The change is memcmp's: a worse hash sends the time into libc's memcmp;
# the answer is still the repository's function that calls it
# (table_find), the frame is memcmp.
kind reland 5 0.5 --strategy bisect
if [ "$rc" = 0 ]; then
	[ "$(json "$R" 'd["suspect"]["commit"]')" = "$CULPRIT" ] && pass "reland: names the reland" ||
		fail "reland: names the reland" "got $(json "$R" 'd["suspect"]["commit"]'), first landing $FIRST_LANDING"
	[ "$(json "$R" 'd["suspect"]["function"]')" = "$FUNCTION" ] && pass "reland: names $FUNCTION" ||
		fail "reland: names $FUNCTION" "$(json "$R" 'd["suspect"]')"
	json "$R" 'd["suspect"]["frame"]' | grep -q "$FRAME" && pass "reland: frame is libc's $FRAME" ||
		fail "reland: frame is libc's $FRAME" "$(json "$R" 'd["suspect"]')"
	grep -q "^hot function:   $FUNCTION .*hot frame .*$FRAME" "$T/reland.out" &&
		pass "reland: terminal shows function and frame" ||
		fail "reland: terminal shows function and frame" "$(head -1 "$T/reland.out")"
	json "$R" 'd["reverted_culprits"] in ([], ["'"$FIRST_LANDING"'"])' | grep -q True &&
		pass "reland: the first landing at most listed as reverted" ||
		fail "reland: the first landing at most listed as reverted" "$(json "$R" 'd["reverted_culprits"]')"
elif [ "$rc" = 4 ]; then
	skip "reland: names the reland" "inconclusive on this machine"
else
	fail "reland: exit $rc, expected 0 (or 4)"; tail -15 "$T/reland.err" >&2
fi
