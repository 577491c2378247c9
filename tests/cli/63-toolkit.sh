#!/usr/bin/env bash
# tests/cli/63-toolkit.sh - trail's commands fit together: every profile
# trail writes (record CPU, off-CPU and allocation folded files; collapse
# to folded, pprof and speedscope) is read by every command that reads
# profiles (collapse, top, explain, flamegraph, diff) without a warning and
# with its units; go tool pprof shows the right type; speedscope files
# pass speedscope's schema.  Then the diff compares time: a real program
# pair where only checksum got slower puts checksum first in 'diff --top', by far, and one
# coloured function in the differential flame graph, and differently named
# binaries compare with --merge-processes.  Skips without gcc or perf.
. "$(dirname "$0")/lib.sh"

if ! have gcc || ! have python3; then
	skip "toolkit" "no gcc or python3"
	exit 0
fi
"$TRAIL" record -o "$T/probe.data" -- true >"$T/probe.out" 2>"$T/probe.err"
if [ $? -ne 0 ]; then
	skip "toolkit" "perf_event_open not usable here: $(head -1 "$T/probe.err")"
	exit 0
fi

# --- the programs: parse, sort (libc's qsort), checksum; SLOW=3 triples checksum
cat >"$T/prog.c" <<'EOF'
#include <stdlib.h>
#ifndef SLOW
#define SLOW 1
#endif
volatile unsigned long sink;
static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}
__attribute__((noinline)) void sort_records(unsigned *v, int n) { qsort(v, n, sizeof *v, cmp); }
__attribute__((noinline)) void checksum(unsigned *v, int n)
{
	unsigned long a = 0;
	for (int r = 0; r < SLOW * 40; r++)
		for (int i = 0; i < n; i++)
			a = a * 31 + v[i];
	sink += a;
}
__attribute__((noinline)) void parse_input(unsigned *v, int n)
{
	unsigned s = 1;
	for (int r = 0; r < 30; r++)
		for (int i = 0; i < n; i++) {
			s = s * 1103515245 + 12345;
			v[i] ^= s;
		}
}
int main(void)
{
	int n = 1 << 20;
	unsigned *v = malloc(n * sizeof *v);
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < n; i++)
			v[i] = i * 2654435761u;
		parse_input(v, n);
		sort_records(v, n);
		checksum(v, n);
	}
	free(v);
	return 0;
}
EOF
cat >"$T/alloc.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) void *grab(size_t n) { void *p = malloc(n); memset(p, 1, n); return p; }
int main(void)
{
	void *v[1000];
	for (int r = 0; r < 50; r++) {
		for (int i = 0; i < 1000; i++)
			v[i] = grab(100 + i);
		for (int i = 0; i < 1000; i++)
			free(v[i]);
	}
	return 0;
}
EOF
mkdir -p "$T/old" "$T/new"
CFLAGS="-O2 -g -fno-omit-frame-pointer"
gcc $CFLAGS -o "$T/old/prog" "$T/prog.c" && gcc $CFLAGS -DSLOW=3 -o "$T/new/prog" "$T/prog.c" &&
	cp "$T/new/prog" "$T/prog_slow" && cp "$T/old/prog" "$T/prog" && gcc -O1 -g -o "$T/alloc" "$T/alloc.c" ||
	{ fail "build the test programs"; exit 0; }

# --- every output trail writes ---------------------------------------------
check "record CPU" "$TRAIL" record -F 499 -o "$T/cpu.folded" -- "$T/prog"
check "record off-CPU" "$TRAIL" record -e offcpu -o "$T/off.folded" -- sh -c 'sleep 0.1; sleep 0.1'
check "record allocations" "$TRAIL" record -e alloc -o "$T/heap.folded" -- "$T/alloc"
head -1 "$T/cpu.folded" | grep -q '^# trail-folded weight=samples type=cpu period=2004008 period_unit=ns unit=samples$' &&
	pass "CPU folded names its sampling period" || fail "CPU folded names its sampling period" "$(head -1 "$T/cpu.folded")"
head -1 "$T/off.folded" | grep -q '^# trail-folded weight=time type=off-cpu unit=us$' &&
	pass "off-CPU folded names its unit" || fail "off-CPU folded names its unit" "$(head -1 "$T/off.folded")"
head -1 "$T/heap.folded" | grep -q '^# trail-folded weight=period type=alloc_space unit=bytes$' &&
	pass "allocation folded names its unit" || fail "allocation folded names its unit" "$(head -1 "$T/heap.folded")"
outputs=""
for k in cpu off heap; do
	outputs="$outputs $k.folded"
	for o in folded pprof speedscope; do
		"$TRAIL" collapse --output "$o" "$T/$k.folded" >"$T/$k.out.$o" 2>"$T/err" &&
			[ ! -s "$T/err" ] && pass "collapse $k.folded --output $o, no warning" ||
			fail "collapse $k.folded --output $o, no warning" "$(cat "$T/err")"
		outputs="$outputs $k.out.$o"
	done
done

# --- ... through every command that reads profiles -------------------------
# The unit each kind must keep, as 'trail top --json' names it.
unit_of() {
	case $1 in
	cpu.folded | cpu.out.folded) echo samples ;;
	cpu.*) echo nanoseconds ;;
	off.*) echo microseconds ;;
	heap.*) echo bytes ;;
	esac
}
for f in $outputs; do
	bad=""
	for cmd in "collapse" "top --json" "explain --json" "flamegraph"; do
		# shellcheck disable=SC2086
		"$TRAIL" $cmd "$T/$f" >"$T/o.$f.${cmd%% *}" 2>"$T/err" || bad="$bad; $cmd: exit $?"
		[ -s "$T/err" ] && bad="$bad; $cmd: $(head -2 "$T/err")"
	done
	# two runs a side: weights that are not counts are tested on the runs
	"$TRAIL" diff --top 5 --alpha 1 "$T/$f" "$T/$f" "$T/$f" "$T/$f" >"$T/o.$f.diff" 2>"$T/err" || bad="$bad; diff: exit $?"
	[ -s "$T/err" ] && bad="$bad; diff: $(head -2 "$T/err")"
	[ -z "$bad" ] && pass "$f: collapse, top, explain, flamegraph, diff read it without a warning" ||
		fail "$f: collapse, top, explain, flamegraph, diff read it without a warning" "$bad"
	want=$(unit_of "$f")
	python3 - "$T/o.$f.top" "$T/o.$f.explain" "$want" "$f" >"$T/py" 2>&1 <<'PY' &&
import json, sys
top, explain, want, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
for d in (top, explain):
    assert d["unit"] == want, (d["unit"], want)
if want == "samples":
    assert top["period"] == 2004008 and top["period_unit"] == "ns", top
if name.startswith("cpu") and not name.endswith("speedscope"):
    assert top["type"] == "cpu", top
if name.startswith("off") and not name.endswith("speedscope"):
    assert top["type"] == "off-cpu", top
if name.startswith("heap") and not name.endswith("speedscope"):
    assert top["type"] == "alloc_space", top
PY
		pass "$f: top and explain JSON carry the unit ($want)" ||
		fail "$f: top and explain JSON carry the unit ($want)" "$(cat "$T/py")"
	# collapse keeps the units in its header, in every round trip
	case $want in
	samples) hdr='weight=samples type=cpu period=2004008 period_unit=ns unit=samples' ;;
	nanoseconds) hdr='unit=ns' ;;
	microseconds) hdr='unit=us' ;;
	bytes) hdr='unit=bytes' ;;
	esac
	head -1 "$T/o.$f.collapse" | grep -q "^# trail-folded .*$hdr\$" &&
		pass "$f: collapse writes the units back ($hdr)" ||
		fail "$f: collapse writes the units back ($hdr)" "$(head -1 "$T/o.$f.collapse")"
done
"$TRAIL" diff --json "$T/cpu.folded" "$T/cpu.out.folded" >"$T/d.json" 2>"$T/err"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["by"] == "time" and d["unit"] == "ns", d' \
	"$T/d.json" && pass "diff JSON carries the basis and the unit" ||
	fail "diff JSON carries the basis and the unit" "$(head -c 400 "$T/d.json")"

# --- go tool pprof: the type and the unit ------------------------------------
if have go; then
	for k in cpu:cpu:s off:off-cpu:s heap:alloc_space:B; do
		IFS=: read -r f type unit <<<"$k"
		if go tool pprof -top "$T/$f.out.pprof" >"$T/pp" 2>"$T/pp.err"; then
			grep -q "^Type: $type\$" "$T/pp" && grep -Eq "accounting for [0-9.]+[mu]?$unit\\b|accounting for [0-9.]+[kMG]?$unit\\b" "$T/pp" &&
				pass "go tool pprof: $f is Type: $type in $unit" ||
				fail "go tool pprof: $f is Type: $type in $unit" "$(head -3 "$T/pp")"
		else
			fail "go tool pprof reads $f" "$(head -3 "$T/pp.err")"
		fi
	done
else
	skip "go tool pprof types" "go not installed (apt-get install golang-go)"
fi

# --- speedscope's schema ------------------------------------------------------
schema=${TRAIL_SPEEDSCOPE:-$BUILD/speedscope/node_modules/speedscope}/dist/release/file-format-schema.json
if [ ! -f "$schema" ] && have npm && [ -z "${TRAIL_SPEEDSCOPE:-}" ]; then
	# one install at a time (make check runs suites side by side; the other
	# one that installs it may be running): under a lock, if still missing
	mkdir -p "$BUILD/speedscope" && flock "$BUILD/speedscope/.lock" \
		sh -c '[ -f "$1" ] || npm install --silent --no-audit --no-fund --prefix "$2" speedscope' \
		_ "$schema" "$BUILD/speedscope" >/dev/null 2>&1 || true	# as 11-collapse-profiles does
fi
if [ -f "$schema" ] && python3 -c 'import jsonschema' 2>/dev/null; then
	for k in cpu off heap; do
		python3 - "$schema" "$T/$k.out.speedscope" >"$T/py" 2>&1 <<'PY' &&
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
			pass "speedscope schema accepts $k" || fail "speedscope schema accepts $k" "$(tail -3 "$T/py")"
	done
else
	skip "speedscope schema" "no speedscope package or python3-jsonschema"
fi
for k in cpu:nanoseconds off:microseconds heap:bytes; do
	grep -q "\"unit\":\"${k#*:}\"" "$T/${k%%:*}.out.speedscope" && pass "speedscope unit of ${k%%:*}: ${k#*:}" ||
		fail "speedscope unit of ${k%%:*}: ${k#*:}"
done

# --- a diff that compares time ------------------------------------------------
# Same binary name, only checksum slower: three runs a side (run-to-run
# error) for the table; one run a side for the graph.
for i in 1 2 3; do
	"$TRAIL" record -F 199 -o "$T/a$i.folded" -- "$T/old/prog" >/dev/null 2>&1
	"$TRAIL" record -F 199 -o "$T/b$i.folded" -- "$T/new/prog" >/dev/null 2>&1
done
check "diff --top, three runs a side" "$TRAIL" diff --top 10 "$T"/a{1,2,3}.folded "$T"/b{1,2,3}.folded
# The first self row is checksum's, confirmed, and its change is the
# largest by far; a busy machine may confirm a small second change (qsort's
# cmp under load), so the count of rows is not asserted - their order and
# size are.  Only self rows are compared: a total row of checksum's callers
# carries checksum's change plus whatever load added to the rest (prog's:
# +214 ms against checksum's +246 at load 28).  "By far" is in ratios:
# checksum's time at least doubles and grows 1.5 times as much as any other
# function's of a tenth of its time or more.  Load that slows the after
# runs by a factor r moves every function's time alike, and in ms qsort's
# 290 ms would grow as much as checksum's 112 at r = 1.9 - not in ratios.
rows=$(grep -v '^#' "$T/.out" | tail -n +2 | awk '$2 == "self"')
printf '%s\n' "$rows" | head -1 | grep -Eq '^hotter +self .* yes +checksum$' &&
	printf '%s\n' "$rows" | awk 'NR == 1 { b = $3; r = $4 / $3; ok = r >= 2; next }
		$3 >= b / 10 && $4 / $3 * 1.5 > r { ok = 0 } END { exit !ok }' &&
	pass "diff --top by time: checksum is the first self row, the largest change by far" ||
	fail "diff --top by time: checksum is the first self row, the largest change by far" "$(cat "$T/.out")"
grep -q '^# by time' "$T/.out" && grep -q 'error: run-to-run' "$T/.out" &&
	pass "diff --top says: by time, run-to-run error" || fail "diff --top says: by time, run-to-run error" "$(head -3 "$T/.out")"
# (every change listed, --alpha 1: the point is what is compared, not the test)
check "diff --top --by share" "$TRAIL" diff --top 10 --by share --alpha 1 "$T"/a{1,2,3}.folded "$T"/b{1,2,3}.folded
grep -Eq '^cooler ' "$T/.out" && grep -q '^# by share' "$T/.out" && pass "--by share: shares of unchanged functions fall" ||
	fail "--by share: shares of unchanged functions fall" "$(cat "$T/.out")"
check "diff --top, one run a side" "$TRAIL" diff --top 10 "$T/a1.folded" "$T/b1.folded"
grep -q 'error: sampling-only lower bound' "$T/.out" && pass "one run a side: the error is a lower bound" ||
	fail "one run a side: the error is a lower bound" "$(head -3 "$T/.out")"

"$TRAIL" diff "$T/a1.folded" "$T/b1.folded" >"$T/d.folded" && "$TRAIL" flamegraph "$T/d.folded" >"$T/diff.svg" 2>"$T/err" ||
	fail "differential flame graph" "$(cat "$T/err")"
cat >"$T/coloured.py" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
names = set()
for g in ET.parse(sys.argv[1]).getroot().find(".//s:svg[@id='frames']", ns):
    title = g.find("s:title", ns).text
    fill = g.find("s:rect", ns).get("fill")
    name = title[:title.rfind(" (")]
    if fill != "rgb(235,235,235)" and name != "all":
        names.add(name)
print(" ".join(sorted(names)))
PY
coloured=$(python3 "$T/coloured.py" "$T/diff.svg")
case " $coloured " in
*" checksum "*) pass "diff.svg of real captures: checksum is coloured" ;;
*) fail "diff.svg of real captures: checksum is coloured" "coloured: $coloured" ;;
esac
# Which frames get colour is checked on exact counts: one run a side of a
# real capture has too few samples for a share test to be sure of the
# functions that only lost share (that flipped on a busy CI machine).
hdr='# trail-folded weight=samples type=cpu period=1000000 period_unit=ns unit=samples'
printf '%s\nprog;main;parse_input 4000\nprog;main;sort_records;qsort;msort_with_tmp 4000\nprog;main;checksum 2000\n' "$hdr" >"$T/e1.folded"
printf '%s\nprog;main;parse_input 4000\nprog;main;sort_records;qsort;msort_with_tmp 4000\nprog;main;checksum 6000\n' "$hdr" >"$T/e2.folded"
"$TRAIL" diff "$T/e1.folded" "$T/e2.folded" >"$T/e.folded" && "$TRAIL" flamegraph "$T/e.folded" >"$T/time.svg" 2>"$T/err" ||
	fail "differential flame graph of exact counts" "$(cat "$T/err")"
coloured=$(python3 "$T/coloured.py" "$T/time.svg")
[ "$coloured" = checksum ] && pass "diff.svg by time: checksum is the one coloured function" ||
	fail "diff.svg by time: checksum is the one coloured function" "coloured: $coloured"
grep -q 'inclusive time, full colour' "$T/time.svg" && pass "legend says time" || fail "legend says time"
"$TRAIL" flamegraph --by share "$T/e.folded" >"$T/share.svg"
coloured=$(python3 "$T/coloured.py" "$T/share.svg")
case " $coloured " in
*" checksum "*" parse_input "*) grep -q 'inclusive share, full colour' "$T/share.svg" &&
	pass "--by share colours the shares that fell too" || fail "--by share: legend says share" ;;
*) fail "--by share colours the shares that fell too" "coloured: $coloured" ;;
esac

# --- differently named binaries ------------------------------------------------
"$TRAIL" record -F 199 -o "$T/p1.folded" -- "$T/prog" >/dev/null 2>&1
"$TRAIL" record -F 199 -o "$T/p2.folded" -- "$T/prog_slow" >/dev/null 2>&1
check "diff of ./prog and ./prog_slow" "$TRAIL" diff --top 10 "$T/p1.folded" "$T/p2.folded"
grep -q "share no root frame ('prog' before, 'prog_slow' after).*--merge-processes" "$T/.err" &&
	pass "disjoint roots: warned, with the way out" || fail "disjoint roots: warned, with the way out" "$(cat "$T/.err")"
check "diff --merge-processes" "$TRAIL" diff --top 10 --merge-processes "$T/p1.folded" "$T/p2.folded"
grep -v '^#' "$T/.out" | sed -n 2p | grep -Eq '^hotter +self .* checksum$' &&
	pass "--merge-processes: the checksum row first" || fail "--merge-processes: the checksum row first" "$(cat "$T/.out")"
[ ! -s "$T/.err" ] && pass "--merge-processes: no root warning" || fail "--merge-processes: no root warning" "$(cat "$T/.err")"
"$TRAIL" diff --merge-processes "$T/p1.folded" "$T/p2.folded" >"$T/m.folded" &&
	! grep -q '^prog' "$T/m.folded" && pass "three columns without the process frame" ||
	fail "three columns without the process frame" "$(head -3 "$T/m.folded")"
"$TRAIL" diff "$T/p1.folded" "$T/p2.folded" 2>/dev/null | "$TRAIL" flamegraph --merge-processes >"$T/merged.svg"
grep -q '<title>prog (' "$T/merged.svg" && fail "flamegraph --merge-processes drops the process frame" ||
	pass "flamegraph --merge-processes drops the process frame"
check "top --merge-processes" "$TRAIL" top --merge-processes "$T/p1.folded" "$T/p2.folded"
grep -Eq ' prog(_slow)?$' "$T/.out" && fail "top --merge-processes: one tree" "$(cat "$T/.out")" ||
	pass "top --merge-processes: one tree"

# --- unsymbolised modules and where frame-pointer walks break ----------------
# The CPU recording above: the program has frame pointers, libc's qsort
# (msort_with_tmp) has none, so the warning must blame libc, not the program.
"$TRAIL" record -F 499 -o "$T/fp.folded" -- "$T/prog" >/dev/null 2>"$T/fp.err"
if grep -q 'call chains stop after the sampled function' "$T/fp.err"; then
	grep -q 'in [^ ]*libc\.so[^ ]*: that library has no frame pointers.*-g dwarf' "$T/fp.err" &&
		! grep -q 'program was probably built without' "$T/fp.err" &&
		pass "frame-pointer warning names libc, not the program" ||
		fail "frame-pointer warning names libc, not the program" "$(cat "$T/fp.err")"
else
	skip "frame-pointer warning names libc" "fewer than half the chains broke this time"
fi
cp "$T/prog" "$T/stripped" && strip "$T/stripped"
"$TRAIL" record -F 499 -o "$T/stripped.folded" -- "$T/stripped" >/dev/null 2>&1
check "explain a stripped program" "$TRAIL" explain "$T/stripped.folded"
grep -q 'no symbols for stripped: install its debug symbols' "$T/.out" &&
	pass "explain: no symbols for the module, and what to do" || fail "explain: no symbols for the module" "$(cat "$T/.out")"
sed -n '/^wide plateaus/,/^$/p' "$T/.out" | grep -q '\[stripped\]' &&
	fail "explain: a [module] frame is never a plateau" "$(cat "$T/.out")" || pass "explain: a [module] frame is never a plateau"
check "explain --json a stripped program" "$TRAIL" explain --json "$T/stripped.folded"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["no_symbols"]["modules"]
assert m and m[0]["module"] == "stripped" and m[0]["self_pct"] > 20, m
assert d["broken"]["no_symbols_pct"] > 20 and d["broken"]["pct"] >= d["broken"]["no_symbols_pct"], d["broken"]
assert all(p["function"] != "[stripped]" for p in d["plateaus"]["functions"]), d["plateaus"]
' "$T/.out" && pass "explain --json: no_symbols, counted as broken" || fail "explain --json: no_symbols, counted as broken" "$(head -c 600 "$T/.out")"

# --- Python: function names need perf support (3.12+ -X perf), else a hint ----
if have python3; then
	printf 'def work(n):\n    s = 0\n    for i in range(n):\n        s += i * i\n    return s\nwork(2000000)\n' >"$T/w.py"
	minor=$(python3 -c 'import sys; print(sys.version_info[1])')
	if [ "$minor" -lt 12 ]; then
		check "record a Python $minor script" "$TRAIL" record -F 199 -o "$T/py.folded" -- python3 "$T/w.py"
		grep -q "ran Python 3\.$minor, which has no perf support.*py-spy record -f raw.*Python 3\.12 or later with -X perf" "$T/.err" &&
			pass "Python 3.$minor: record says how to get Python frames" ||
			fail "Python 3.$minor: record says how to get Python frames" "$(cat "$T/.err")"
	else
		check "record a Python $minor script with -X perf" "$TRAIL" record -F 199 -o "$T/py.folded" -- python3 -X perf "$T/w.py"
		grep -q 'work' "$T/py.folded" && pass "Python 3.$minor -X perf: Python functions named" ||
			fail "Python 3.$minor -X perf: Python functions named" "$(head -3 "$T/py.folded")"
	fi
	check "record a C program" "$TRAIL" record -F 199 -o "$T/c.folded" -- "$T/prog"
	grep -q 'Python' "$T/.err" && fail "no Python hint for a C program" "$(cat "$T/.err")" ||
		pass "no Python hint for a C program"
else
	skip "Python frames" "no python3"
fi

echo "# done"
