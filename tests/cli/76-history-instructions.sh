#!/usr/bin/env bash
# tests/cli/76-history-instructions.sh - trail history with --metric
# instructions on a tiny generated history (valgrind is ~50x slower: a few
# ms of native work): backfill stores one run per commit, and guard decides
# on the exact counts: the exact change and difference, whether REV's counts
# repeated, no interval and no p-value; +1.8 % fails the default 0.5 %
# bound, the same count passes; --json says exact_counts with p null;
# the functions that moved are shares of instructions; the site's guard
# column gives the exact change.
# Skips without valgrind.
. "$(dirname "$0")/lib.sh"

if ! have valgrind || ! have cc || ! have git || ! have python3; then
	skip "history instructions" "needs valgrind, cc, git and python3"; exit 0
fi
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "history instructions" "valgrind under sanitizers is slow (test_history covers the decision)"; exit 0
fi
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# four commits; the fourth adds 1500 iterations to step(): ~1.8 % of the count
R=$T/repo
mkdir -p "$R" && git -C "$R" init -q && git -C "$R" config user.email t@example.com &&
	git -C "$R" config user.name t
for i in 1 2 3 4; do
	more=0
	[ "$i" -ge 4 ] && more=1500
	cat >"$R/p.c" <<EOF2
#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void step(void)
{
	for (unsigned i = 0; i < 20000; i++) sink += i * 7;
	for (unsigned i = 0; i < $more; i++) sink += i * 7;
}
int main(void) { step(); printf("%lu\n", sink); return 0; }
/* version $i */
EOF2
	git -C "$R" add p.c && git -C "$R" commit -q -m "commit $i"
done
H() { local sub=$1; shift; "$TRAIL" history "$sub" -C "$R" "$@"; }

check "backfill --metric instructions" H backfill --range HEAD~3..HEAD~1 --build 'cc -O1 -o p p.c' \
	--run ./p --metric instructions
H show --json >"$T/show.json" 2>/dev/null
json "$T/show.json" '
c = d["commits"]
assert len(c) == 2 and all(p["runs"] == 1 for p in c) and d["unit"] == "instructions", c
' && pass "one run per commit" || fail "one run per commit" "$(cat "$T/show.json")"

check_exit "guard: +1.8 % of exact counts fails 0.5 %" 3 H guard --rev HEAD --build 'cc -O1 -o p p.c' \
	--run ./p --metric instructions
grep -q "guard: .* instructions .* vs .* (median of 2 stored commit(s) before it): +[0-9]* instructions, +[12]\.[0-9]*% (exact counts: one run" "$T/.out" &&
	pass "guard prints the exact change" || fail "guard prints the exact change" "$(cat "$T/.out" "$T/.err")"
grep -q "p = " "$T/.out" && fail "no p-value on exact counts" "$(cat "$T/.out")" || pass "no p-value on exact counts"
# step's share moves ~1 point (below sampled shares' 2): named, as a share of instructions
grep -q "^  step .*slower: self share [0-9.]*% -> [0-9.]*% of instructions" "$T/.out" &&
	! grep -q "of samples" "$T/.out" && pass "guard: step moved, a share of instructions" ||
	fail "guard: step moved, a share of instructions" "$(cat "$T/.out")"
check_exit "guard --json" 3 H guard --rev HEAD --metric instructions --json
json "$T/.out" '
assert d["exact_counts"] is True and d["p"] is None and d["counts_varied"] is False, d
assert 0.01 < d["change"] < 0.03 and d["interval"][0] == d["interval"][1] == d["change"], d
assert d["delta"] > 0 and d["verdict"] == "regression", d
' && pass "guard --json: exact change, p null" || fail "guard --json: exact change, p null" "$(cat "$T/.out")"
check "guard passes a 3 % bound" H guard --rev HEAD --metric instructions --max-regression 3%
grep -q "^guard: pass" "$T/.out" && pass "within the bound: pass" || fail "within the bound: pass" "$(cat "$T/.out")"
check "guard on an unchanged commit passes" H guard --rev HEAD~1 --metric instructions
grep -q "+0 instructions, +0.000% (exact counts" "$T/.out" && pass "unchanged: +0 exactly" ||
	fail "unchanged: +0 exactly" "$(cat "$T/.out")"
# the site's guard column: the exact change, not an interval
check "site -o DIR" H site -o "$T/site" --metric instructions
cat "$T/site"/*.html | grep -q "regression: +[12]\.[0-9]*% (+[0-9]* instructions, exact counts)" &&
	pass "site: the guard's exact change" ||
	fail "site: the guard's exact change" "$(ls "$T/site"; cat "$T/site"/*.html | grep -io '[^>]*\(regression\|pass\|compare\)[^<]*' | head)"
