#!/usr/bin/env bash
# tests/cli/13-collapse-callgrind.sh - 'trail collapse' on real callgrind
# and cachegrind out files of a small C and a small C++ program: guessed
# without --format, the unit named in the header, per-function self and
# inclusive totals (trail top) equal to callgrind_annotate's (self exactly;
# inclusive exactly for the program's own functions, within rounding for
# the rest), est-cycles from a --cache-sim=yes run, and the files read by
# top, diff, flamegraph and the pprof and speedscope writers.  Skips
# cleanly without valgrind, a compiler or python3.
. "$(dirname "$0")/lib.sh"

if ! have valgrind || ! have callgrind_annotate || ! have cc || ! have python3; then
	skip "collapse-callgrind" "needs valgrind, callgrind_annotate, cc and python3"
	exit 0
fi
cat >"$T/t.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
static unsigned long leaf(unsigned long x) { unsigned long s = 0; for (unsigned i = 0; i < x; i++) s += i * x; return s; }
static unsigned long mid(unsigned long x) { return leaf(x) + leaf(x / 2); }
static unsigned long fact(unsigned n) { return n < 2 ? 1 : n * fact(n - 1) + leaf(10); }
int main(int argc, char **argv)
{
	unsigned long t = 0;
	int n = argc > 1 ? atoi(argv[1]) : 100;
	for (int i = 0; i < n; i++) { t += mid(i); t += leaf(i); }
	t += fact(12);
	printf("%lu\n", t);
	return 0;
}
EOF2
cc -O1 -g -fno-inline -o "$T/t" "$T/t.c" || { fail "collapse-callgrind: compile"; exit 0; }

# compare.py ANNOTATE_SELF ANNOTATE_INCLUSIVE TOP EXACT,FUNCTIONS: callgrind_annotate's
# function lists against trail top -n 0, by function name (callgrind_annotate keys
# file:function; its "f'2" recursion levels are f's)
cat >"$T/compare.py" <<'EOF2'
import re, sys
def annotate(path):
    rows, on = {}, False
    for line in open(path):
        if re.match(r'^Ir\s.*file:function', line): on = True; continue
        if not on or line.startswith('---'): continue
        m = re.match(r'^\s*([\d,]+)\s+\([^)]*\)\s+(.*?)(?: \[[^\]]*\])?\s*$', line)
        if not m:
            if rows: break
            continue
        key = m.group(2)
        name = key.split(':', 1)[1] if ':' in key else key
        rows.setdefault(name, []).append(int(m.group(1).replace(',', '')))
    return rows
def top(path):
    d = {}
    for line in open(path):
        f = line.split(None, 4)
        if len(f) == 5 and f[0].isdigit(): d[f[4].rstrip('\n')] = (int(f[0]), int(f[2]))
    return d
self_, inc, t = annotate(sys.argv[1]), annotate(sys.argv[2]), top(sys.argv[3])
exact = sys.argv[4].split(',')
total = sum(v[0] for v in t.values())
bad, selfsum, checked, same = 0, {}, 0, 0
for k, v in self_.items():
    selfsum[k.split("'")[0]] = selfsum.get(k.split("'")[0], 0) + sum(v)
for k, v in selfsum.items():
    if v and t.get(k, (0, 0))[0] != v:
        print('self', k, 'callgrind_annotate', v, 'trail', t.get(k)); bad += 1
for k, v in inc.items():
    if "'" in k or len(v) != 1 or k not in t: continue
    d = abs(t[k][1] - v[0]); checked += 1; same += d == 0
    # the rest: one unit of rounding per function below with several callers
    # (docs/collapse.md): a few instructions, at most 1 % of the function's
    # inclusive total or 1e-5 of the program's
    if d > (0 if k in exact else max(4, total * 1e-5, v[0] * 0.01)):
        print('inclusive', k, 'callgrind_annotate', v[0], 'trail', t[k][1]); bad += 1
for k in exact:
    if k not in t or k not in inc: print('missing', k); bad += 1
print('%d functions, self equal; inclusive: %d compared, %d equal, %d off' % (len(selfsum), checked, same, bad))
sys.exit(1 if bad or checked < 10 else 0)
EOF2

# against_annotate NAME OUTFILE EXACT: trail top on the file vs callgrind_annotate
against_annotate() {
	(cd / && callgrind_annotate --inclusive=no --threshold=100 "$2") >"$T/$1.self" 2>/dev/null
	(cd / && callgrind_annotate --inclusive=yes --threshold=100 "$2") >"$T/$1.inc" 2>/dev/null
	"$TRAIL" top -n 0 "$2" >"$T/$1.top" 2>"$T/$1.toperr"
	if python3 "$T/compare.py" "$T/$1.self" "$T/$1.inc" "$T/$1.top" "$3" >"$T/$1.cmp" 2>&1; then
		pass "collapse-callgrind: $1: trail top = callgrind_annotate ($(tail -1 "$T/$1.cmp"))"
	else
		fail "collapse-callgrind: $1: trail top = callgrind_annotate" "$(cat "$T/$1.cmp" "$T/$1.toperr")"
	fi
}

valgrind --tool=callgrind --callgrind-out-file="$T/c.out" "$T/t" 200 >/dev/null 2>&1 ||
	{ skip "collapse-callgrind" "valgrind cannot run here"; exit 0; }
check "collapse-callgrind: a callgrind.out file is guessed" "$TRAIL" collapse "$T/c.out"
cp "$T/.out" "$T/c.folded"
[ "$(head -1 "$T/c.folded")" = "# trail-folded weight=period type=instructions unit=instructions" ] &&
	pass "collapse-callgrind: the header names instructions" ||
	fail "collapse-callgrind: the header names instructions" "$(head -1 "$T/c.folded")"
# recursion: callgrind's levels fact and fact'2 (--separate-recs=2), no deeper; mid and leaf under main
grep -q ';main;fact;leaf [0-9]*$' "$T/c.folded" && grep -q ';main;fact;fact;leaf [0-9]*$' "$T/c.folded" &&
	! grep -q 'fact;fact;fact' "$T/c.folded" &&
	grep -q ';main;mid;leaf [0-9]*$' "$T/c.folded" &&
	pass "collapse-callgrind: stacks through main, recursion folded" ||
	fail "collapse-callgrind: stacks through main, recursion folded" "$(grep main "$T/c.folded")"
against_annotate c "$T/c.out" leaf,mid,fact

if have c++; then
	cat >"$T/p.cc" <<'EOF2'
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
template <typename T> struct Acc { T sum{}; void add(const T &x) { sum += x; } };
static std::string word(int i) { return "w" + std::to_string(i % 37); }
int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 300;
	std::map<std::string, int> counts;
	Acc<long> acc;
	std::vector<int> v;
	for (int i = 0; i < n; i++) { counts[word(i)]++; v.push_back(i); acc.add(i); }
	std::printf("%zu %ld\n", counts.size(), acc.sum);
}
EOF2
	if c++ -O1 -g -o "$T/p" "$T/p.cc" &&
	   valgrind --tool=callgrind --callgrind-out-file="$T/p.out" "$T/p" 300 >/dev/null 2>&1; then
		against_annotate c++ "$T/p.out" main
	else
		fail "collapse-callgrind: C++ program under callgrind"
	fi
else
	skip "collapse-callgrind: C++" "no c++"
fi

# cachegrind with the cache model: self Ir per function as cg_annotate's (summed over files)
if valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$T/cg.out" "$T/t" 50 >/dev/null 2>&1 &&
   have cg_annotate; then
	(cd / && cg_annotate "$T/cg.out") >"$T/cg.ann" 2>/dev/null
	"$TRAIL" top -n 0 "$T/cg.out" >"$T/cg.top"
	ann=$(awk '/file:function/ { on = 1; next } on && /\(/ && /:leaf$/ { gsub(",", "", $1); print $1 }' "$T/cg.ann")
	got=$(awk '$5 == "leaf" { print $1 }' "$T/cg.top")
	[ -n "$ann" ] && [ "$ann" = "$got" ] && pass "collapse-callgrind: cachegrind self Ir = cg_annotate's ($got)" ||
		fail "collapse-callgrind: cachegrind self Ir = cg_annotate's" "cg_annotate '$ann' trail '$got'"
	check "collapse-callgrind: --sample-type est-cycles" "$TRAIL" collapse --sample-type est-cycles "$T/cg.out"
	head -1 "$T/.out" | grep -q 'type=est-cycles unit=cycles' &&
		pass "collapse-callgrind: est-cycles header" || fail "collapse-callgrind: est-cycles header" "$(head -1 "$T/.out")"
	check_exit "collapse-callgrind: est-cycles without the cache model is refused" 1 \
		"$TRAIL" collapse --sample-type est-cycles "$T/c.out"
	grep -q 'cache-sim=yes' "$T/.err" && pass "collapse-callgrind: the refusal says --cache-sim=yes" ||
		fail "collapse-callgrind: the refusal says --cache-sim=yes" "$(cat "$T/.err")"
fi

# through the other commands, units intact
valgrind --tool=callgrind --callgrind-out-file="$T/c2.out" "$T/t" 300 >/dev/null 2>&1
"$TRAIL" collapse "$T/c2.out" >"$T/c2.folded"
check "collapse-callgrind: trail diff of two callgrind profiles" "$TRAIL" diff "$T/c.folded" "$T/c2.folded"
leaf1=$(awk '/;main;leaf [0-9]+ [0-9]+$/ { print $(NF - 1), $NF }' "$T/.out")
[ -n "$leaf1" ] && [ "${leaf1% *}" -lt "${leaf1#* }" ] && pass "collapse-callgrind: diff: main;leaf grew ($leaf1)" ||
	fail "collapse-callgrind: diff: main;leaf grew" "'$leaf1'"
check "collapse-callgrind: flamegraph" "$TRAIL" flamegraph "$T/c.out"
grep -q '<svg' "$T/.out" && grep -q 'instructions' "$T/.out" && pass "collapse-callgrind: the SVG counts instructions" ||
	fail "collapse-callgrind: the SVG counts instructions"
check "collapse-callgrind: --output speedscope" "$TRAIL" collapse --output speedscope "$T/c.out"
grep -q '"unit":"none"\|"unit": *"[a-z]*"' "$T/.out" && pass "collapse-callgrind: speedscope written" ||
	fail "collapse-callgrind: speedscope written" "$(head -c 300 "$T/.out")"
check "collapse-callgrind: --output pprof" "$TRAIL" collapse --output pprof "$T/c.out"
"$TRAIL" top -n 3 --json "$T/.out" >"$T/pp.json" 2>&1
grep -q '"instructions"' "$T/pp.json" && pass "collapse-callgrind: pprof keeps the unit" ||
	fail "collapse-callgrind: pprof keeps the unit" "$(head -c 300 "$T/pp.json")"
