#!/usr/bin/env bash
# tests/cli/80-top.sh - 'trail top' and 'trail explain': known answers on
# constructed folded stacks, every input form (folded, perf script text,
# gzip, stdin, perf.data), JSON that parses, usage errors, and a real
# capture of a program with a known hot function.
. "$(dirname "$0")/lib.sh"

# --- top: self and total, recursion once per stack -------------------------
cat >"$T/a.folded" <<'X'
app;main;a;b 10
app;main;a 5
app;main;c;b 5
app;main;r;r;r 4
app;[unknown];x 3
app;y 3
X
check "top runs" "$TRAIL" top -n 0 "$T/a.folded"
row() { awk -v f="$1" '$NF == f { print $1, $2, $3, $4 }' "$T/.out"; }
[ "$(row b)" = "15 50.00% 15 50.00%" ] && pass "top: b self 15 total 15" || fail "top: b" "$(row b)"
[ "$(row a)" = "5 16.67% 15 50.00%" ] && pass "top: a self 5 total 15" || fail "top: a" "$(row a)"
[ "$(row r)" = "4 13.33% 4 13.33%" ] && pass "top: recursion counted once" || fail "top: recursion" "$(row r)"
[ "$(row app)" = "0 0.00% 30 100.00%" ] && pass "top: root total 100%" || fail "top: root" "$(row app)"
[ "$(sed -n 2p "$T/.out" | awk '{print $NF}')" = b ] && pass "top: default sort is self" ||
	fail "top: default sort is self"
"$TRAIL" top --sort total -n 2 "$T/a.folded" >"$T/t" 2>&1
[ "$(awk 'NR > 1 { print $NF }' "$T/t" | tr '\n' ' ')" = "app main " ] && pass "top --sort total -n 2" ||
	fail "top --sort total -n 2" "$(cat "$T/t")"
"$TRAIL" top -s name -n 0 "$T/a.folded" | awk 'NR > 1 { print $NF }' >"$T/names"
LC_ALL=C sort -c "$T/names" && [ "$(wc -l <"$T/names")" -eq 9 ] && pass "top --sort name: all, sorted" ||
	fail "top --sort name"
if have python3; then
	"$TRAIL" top --json -n 0 "$T/a.folded" >"$T/j" &&
	python3 - "$T/j" <<'X' && pass "top --json parses and adds up" || fail "top --json"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["function"]: r for r in d["rows"]}
assert d["samples"] == 30 and d["functions"] == 9 and len(rows) == 9, d
assert rows["a"]["total"] == 15 and rows["a"]["self"] == 5
assert abs(sum(r["self_pct"] for r in d["rows"]) - 100) < 1e-9
assert all(r["total"] >= r["self"] for r in d["rows"])
X
fi
# the same stacks as perf script text, gzip and standard input
cat >"$T/a.perf" <<'X'
app 100 1.000001: 1 cpu-clock:
	    1111 b (/bin/app)
	    2222 a (/bin/app)
	    3333 main (/bin/app)

app 100 1.000002: 1 cpu-clock:
	    2222 a (/bin/app)
	    3333 main (/bin/app)

X
"$TRAIL" top -n 0 -s name "$T/a.perf" >"$T/p1" 2>"$T/p1.err" &&
	"$TRAIL" collapse "$T/a.perf" | "$TRAIL" top -n 0 -s name >"$T/p2" &&
	cmp -s "$T/p1" "$T/p2" && grep -q ' 50.00% .* 100.00%  a$' "$T/p1" &&
	pass "top reads perf script text as collapse folds it" || fail "top reads perf script text" "$(cat "$T/p1" "$T/p1.err")"
gzip -c "$T/a.folded" >"$T/a.folded.gz"
"$TRAIL" top "$T/a.folded.gz" >"$T/g" && "$TRAIL" top <"$T/a.folded" >"$T/s" && "$TRAIL" top "$T/a.folded" >"$T/f" &&
	cmp -s "$T/g" "$T/f" && cmp -s "$T/s" "$T/f" && pass "gzip and stdin give the same table" ||
	fail "gzip and stdin give the same table"
"$TRAIL" top -n 0 "$T/a.folded" "$T/a.folded" >"$T/m"
[ "$(awk '$NF == "b" { print $1 }' "$T/m")" = 30 ] && pass "several files merge" || fail "several files merge"
printf 'a;b 1 3\na;c 2 1\n' >"$T/diff.folded"
"$TRAIL" top -n 0 "$T/diff.folded" >"$T/d"
[ "$(awk '$NF == "b" { print $1 }' "$T/d")" = 3 ] && pass "differential input: the after column" ||
	fail "differential input: the after column" "$(cat "$T/d")"

# --- errors ------------------------------------------------------------------
check_exit "top: unknown sort key" 2 "$TRAIL" top --sort frob "$T/a.folded"
grep -q "self, total or name" "$T/.err" && pass "sort key error names the choices" || fail "sort key error"
: >"$T/empty"
check_exit "top: no samples is exit 2" 2 "$TRAIL" top "$T/empty"
check_exit "top: missing file is exit 1" 1 "$TRAIL" top "$T/nope"
check_exit "explain: no samples is exit 2" 2 "$TRAIL" explain "$T/empty"
printf 'nothing a profiler wrote\n' >"$T/junk"
check_exit "top: input in no known format is exit 2" 2 "$TRAIL" top "$T/junk"
grep -q "cannot tell the format of '.*junk'" "$T/.err" && pass "top: says it cannot tell the format" \
	|| fail "top: says it cannot tell the format" "$(cat "$T/.err")"
# any format trail collapse reads, through the same guess
if [ -f "$ROOT/tests/data/profilers/go-cpu.pb.gz" ]; then
	"$TRAIL" top --json "$ROOT/tests/data/profilers/go-cpu.pb.gz" >"$T/pb.json" 2>"$T/pb.err" &&
		grep -q '"main.hash"' "$T/pb.json" && pass "top reads a pprof profile" \
		|| fail "top reads a pprof profile" "$(cat "$T/pb.err")"
fi

# --- explain: each finding on stacks with known answers ----------------------
{
	echo "app;main;hot 60"
	echo "app;main;a;helper 5"
	echo "app;main;b;helper 5"
	echo "app;main;c;helper 5"
	echo "app;main;c 5"
	echo "app;[unknown];x 8"
	echo "app;lonely 2"
	printf 'app;main'; for i in $(seq 30); do printf ';rec'; done; for i in $(seq 8); do printf ';w'; done; echo " 10"
} >"$T/e.folded"
check "explain runs" "$TRAIL" explain "$T/e.folded"
cp "$T/.out" "$T/e.txt"
sed -n '/^wide plateaus/,/^$/p' "$T/e.txt" | grep -q '60.00%  hot$' && pass "explain: plateau hot 60%" ||
	fail "explain: plateau" "$(cat "$T/e.txt")"
grep -q '^narrow towers: stacks of at least 16 frames (depth: median 3, 90th percentile 4, max 40)' "$T/e.txt" &&
	grep -q 'depth 40 .* 10.00%  leaf w, rec x30$' "$T/e.txt" && pass "explain: the tower and its recursion" ||
	fail "explain: tower" "$(grep -A2 '^narrow' "$T/e.txt")"
grep -q '15.00%  3 callers  helper (heaviest caller a, 5.00%)' "$T/e.txt" && pass "explain: motif helper, 3 callers" ||
	fail "explain: motif" "$(grep -A2 '^repeated' "$T/e.txt")"
grep -q '^broken stacks: 10.00% of samples (an \[unknown\] frame 8.00%, a \[module\] frame without symbols 0.00%, a single function frame 2.00%)' "$T/e.txt" &&
	pass "explain: broken stacks shares" || fail "explain: broken" "$(grep -A1 '^broken' "$T/e.txt")"
[ "$(grep -c '    what to do: ' "$T/e.txt")" -eq 4 ] && grep -q 'fno-omit-frame-pointer' "$T/e.txt" &&
	pass "explain: a what-to-do line per finding" || fail "explain: what to do"
"$TRAIL" explain --callers 4 --plateau 50 --broken 20 "$T/e.folded" >"$T/e2"
grep -A1 '^repeated' "$T/e2" | grep -q '^    none' && grep -A2 '^wide' "$T/e2" | grep -q -v helper &&
	grep -q 'fine: below 20%' "$T/e2" && pass "explain: thresholds apply" || fail "explain: thresholds" "$(cat "$T/e2")"
"$TRAIL" explain --tower-depth 41 "$T/e.folded" | grep -A1 '^narrow' | grep -q '^    none' &&
	pass "explain --tower-depth" || fail "explain --tower-depth"
"$TRAIL" explain --no-process-root "$T/e.folded" | grep -q 'a single frame 0.00%' &&
	pass "explain --no-process-root: two frames are not single" || fail "explain --no-process-root"
if have python3; then
	"$TRAIL" explain --json "$T/e.folded" >"$T/ej" &&
	python3 - "$T/ej" <<'X' && pass "explain --json" || fail "explain --json" "$(head -c 600 "$T/ej")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] == 100 and d["process_root"] is True
assert d["plateaus"]["functions"][0] == {"function": "hot", "self": 60, "self_pct": 60}
t = d["towers"]["stacks"][0]
assert t["depth"] == 40 and t["most_repeated"] == "rec" and t["repeats"] == 30 and len(t["frames"]) == 40
m = d["motifs"]["functions"][0]
assert m["function"] == "helper" and m["callers"] == 3 and m["heaviest_caller"] == "a"
assert d["broken"]["pct"] == 10 and d["broken"]["finding"] is True
assert all(d[k]["what_to_do"] for k in ("plateaus", "towers", "motifs", "broken"))
X
fi

# --- a real capture: a known hot function and a recursion --------------------
if ! have cc; then
	skip "real capture" "no C compiler"
	exit 0
fi
cat >"$T/app.c" <<'X'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void spin_hot(long n) { for (long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) static void spin_cold(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) static void descend(int d, long n) { if (d) descend(d - 1, n); else spin_cold(n); sink++; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000000;
	spin_hot(4 * n);
	descend(40, n / 2);
	return 0;
}
X
cc -O1 -g -fno-omit-frame-pointer -o "$T/app" "$T/app.c" || { fail "compile the capture program"; exit 0; }
if ! "$TRAIL" record -o "$T/app.data" -- "$T/app" >"$T/rec.out" 2>"$T/rec.err"; then
	skip "real capture" "trail record not usable here: $(grep -m1 error "$T/rec.err")"
	exit 0
fi
check "top on a real perf.data" "$TRAIL" top -n 3 "$T/app.data"
[ "$(sed -n 2p "$T/.out" | awk '{print $NF}')" = spin_hot ] && pass "real capture: spin_hot is the top self" ||
	fail "real capture: spin_hot is the top self" "$(cat "$T/.out")"
check "explain on a real perf.data" "$TRAIL" explain "$T/app.data"
sed -n '/^wide plateaus/,/^$/p' "$T/.out" | grep -q ' spin_hot$' &&
	sed -n '/^wide plateaus/,/^$/p' "$T/.out" | grep -q ' spin_cold$' && pass "real capture: both loops are plateaus" ||
	fail "real capture: plateaus" "$(cat "$T/.out")"
# the recursion shows as a tower of 41 descend frames when unwinding kept them
if grep -q 'descend x4[01]' "$T/.out"; then pass "real capture: descend is a tower"
else fail "real capture: descend is a tower" "$(grep -A3 '^narrow' "$T/.out")"; fi
