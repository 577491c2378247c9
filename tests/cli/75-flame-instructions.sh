#!/usr/bin/env bash
# tests/cli/75-flame-instructions.sh - trail flame --metric instructions
# end to end on a tiny generated history (valgrind is ~50x slower: a few
# ms of native work): each end counted twice alike, the exact change
# against the 0.5 % default --min-effect, one run per bisection probe, the
# culprit commit and function named, the instrument's slowdown said, the
# profiler and the missing hardware counter reported; a history whose
# change is below 0.5 % is no regression.  Skips without valgrind.
. "$(dirname "$0")/lib.sh"

if ! have valgrind || ! have cc || ! have git || ! have python3; then
	skip "flame instructions" "needs valgrind, cc, git and python3"; exit 0
fi
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# history DIR EXTRA: six commits of a program whose step() loops 20000
# times and whose parse() loops 10000; the fourth commit adds EXTRA
# iterations to step() (its own loop, so only step() grows)
history() {
	local d=$1 extra=$2 i
	mkdir -p "$d" && git -C "$d" init -q && git -C "$d" config user.email t@example.com &&
		git -C "$d" config user.name t
	for i in 1 2 3 4 5 6; do
		local more=0
		[ "$i" -ge 4 ] && more=$extra
		cat >"$d/p.c" <<EOF2
#include <stdio.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void parse(void) { for (unsigned i = 0; i < 10000; i++) sink += i ^ 3; }
__attribute__((noinline)) static void step(void)
{
	for (unsigned i = 0; i < 20000; i++) sink += i * 7;
	for (unsigned i = 0; i < $more; i++) sink += i * 7;
}
int main(void) { parse(); step(); printf("%lu\n", sink); return 0; }
/* version $i */
EOF2
		git -C "$d" add p.c && git -C "$d" commit -q -m "commit $i" || return 1
	done
}

flame() {
	local name=$1
	shift
	(cd "$T/$name" && "$TRAIL" flame --good HEAD~5 --bad HEAD --build 'cc -O1 -o p p.c' --run ./p \
		--out "$T/report-$name" --cache "$T/cache" --metric instructions "$@") \
		>"$T/$name.out" 2>"$T/$name.err"
	rc=$?
}

# +1500 iterations, ~9000 of ~500000 instructions (sh, ld.so, libc, main):
# about 1.8 %, above the default 0.5 %
history "$T/small" 1500 || { fail "flame instructions: make the history"; exit 0; }
flame small --strategy bisect
R=$T/report-small/report.json
if [ "$rc" = 0 ]; then
	culprit=$(git -C "$T/small" rev-parse HEAD~2)
	[ "$(json "$R" 'd["suspect"]["commit"]')" = "$culprit" ] && pass "instructions: names the culprit commit" ||
		fail "instructions: names the culprit commit" "$(json "$R" 'd["suspect"]')"
	[ "$(json "$R" 'd["suspect"]["function"]')" = step ] && pass "instructions: names step" ||
		fail "instructions: names step" "$(json "$R" 'd["suspect"]')"
	grep -q 'exact: each end counted twice alike' "$T/small.err" && pass "instructions: the ends are exact" ||
		fail "instructions: the ends are exact" "$(cat "$T/small.err")"
	# exact counts: the change itself, no rank test over 2+2 identical counts, no share error
	grep -q 'confirm: instructions good [0-9]* instructions, bad [0-9]* instructions: +[0-9]* instructions, +[0-9.]*% (exact counts' "$T/small.err" &&
		! grep -q 'Mann-Whitney p' "$T/small.err" && pass "instructions: confirm prints the exact change, no p" ||
		fail "instructions: confirm prints the exact change, no p" "$(grep confirm "$T/small.err")"
	grep '^trail flame: diff: ' "$T/small.err" | grep -q 'exact counts' &&
		! grep '^trail flame: diff: ' "$T/small.err" | grep -q '+/-' &&
		pass "instructions: shares without a sampling error" ||
		fail "instructions: shares without a sampling error" "$(grep 'diff:' "$T/small.err")"
	[ "$(json "$R" 'd["metric"]["p_value"]')" = None ] && [ "$(json "$R" 'd["metric"]["test"]')" = "exact counts" ] &&
		pass "instructions: report.json has no p-value" ||
		fail "instructions: report.json has no p-value" "$(json "$R" 'd["metric"]')"
	grep -q '(exact counts, 2 + 2 runs alike)' "$T/report-small/report.md" &&
		pass "instructions: report.md says exact counts" ||
		fail "instructions: report.md says exact counts" "$(grep -- '- metric' "$T/report-small/report.md")"
	grep -q 'min-effect 0.5%' "$T/small.err" && pass "instructions: default --min-effect 0.5%" ||
		fail "instructions: default --min-effect 0.5%"
	grep -q 'callgrind: [0-9]*x the native run' "$T/small.err" && pass "instructions: the slowdown is said" ||
		fail "instructions: the slowdown is said"
	grep -q 'valgrind --tool=callgrind, ASLR off' "$T/small.err" && grep -q 'PERF_COUNT_HW_INSTRUCTIONS' "$T/small.err" &&
		pass "instructions: the profiler and the hardware counter are reported" ||
		fail "instructions: the profiler and the hardware counter are reported" "$(head -3 "$T/small.err")"
	if grep -q 'trail flame probe: probe' "$T/small.err"; then
		! grep 'trail flame probe: probe' "$T/small.err" | grep -qv ', 1 runs)' &&
			pass "instructions: one run per bisection probe" ||
			fail "instructions: one run per bisection probe" "$(grep 'probe' "$T/small.err")"
		# a count is exact: "(instructions 53,046,011 exact, ...)", no "samples ... +/- 7,283"
		! grep 'trail flame probe: probe' "$T/small.err" | grep -q -e '+/-' -e 'samples' &&
			pass "instructions: a probe gives its exact count, not samples +/-" ||
			fail "instructions: a probe gives its exact count, not samples +/-" "$(grep 'probe' "$T/small.err")"
	fi
	# the suspect re-probed beside its parent: one exact run a side, as every probe
	[ "$(json "$R" 'sorted({p["runs"] for p in d["probes"]})')" = "[1]" ] &&
		grep -q ', each counted once (1 + 1 runs, 1 look)' "$R" &&
		pass "instructions: the suspect's re-probe is one run a side" ||
		fail "instructions: the suspect's re-probe is one run a side" \
			"$(json "$R" '[(p["commit"][:12], p["runs"]) for p in d["probes"]], d["suspect"]["confidence_method"]')"
else
	fail "instructions: exit $rc, expected 0" "$(tail -15 "$T/small.err")"
fi

# +150 iterations: about 0.2 %, below 0.5 %: a regression too small to
# narrow (exit 5), with no suspect and the minimum printed as it is
history "$T/tiny" 150 || { fail "flame instructions: make the history"; exit 0; }
flame tiny
[ "$rc" = 5 ] && ! grep -q '^suspect commit' "$T/tiny.out" && grep -q 'below the 0.5% minimum' "$T/tiny.out" &&
	pass "instructions: +0.2 % is below --min-effect: reported, not narrowed" ||
	fail "instructions: +0.2 % is below --min-effect (exit $rc)" "$(cat "$T/tiny.out"; tail -5 "$T/tiny.err")"
