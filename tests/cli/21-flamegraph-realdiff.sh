#!/usr/bin/env bash
# tests/cli/21-flamegraph-realdiff.sh - the differential flame graph on a
# real compiler diff: gcc compiling some of trail's own sources at -O1 and
# at -O2, recorded with 'trail record -g dwarf'.  The picture must show the
# signal the table finds: the most saturated functions are the strongest
# confirmed rows of 'trail diff --top', and few frames are coloured merely
# for being new.  Skips without gcc or perf_event_open.
. "$(dirname "$0")/lib.sh"

if ! have gcc || ! have python3; then
	skip "real diff" "no gcc or python3"
	exit 0
fi
"$TRAIL" record -o "$T/probe.data" -- true >"$T/probe.out" 2>"$T/probe.err"
if [ $? -ne 0 ]; then
	skip "real diff" "perf_event_open not usable here: $(head -1 "$T/probe.err")"
	exit 0
fi

# the sources that were symbols.c and perfdata.c before they were split (issue 16)
srcs="$ROOT/src/symbols/symbols.c $ROOT/src/symbols/symbols_elf.c $ROOT/src/symbols/symbols_inline.c"
srcs="$srcs $ROOT/src/perf/perfdata.c $ROOT/src/perf/perfdata_records.c $ROOT/src/perf/sampler.c"
srcs="$srcs $ROOT/src/stats/describe.c $ROOT/src/stats/two_sample.c"
for o in 1 2; do
	"$TRAIL" record -F 2999 -g dwarf -o "$T/O$o.data" -- sh -c "for f in $srcs; do
		gcc -O$o -std=c11 -D_GNU_SOURCE -I$ROOT/src -I/usr/include/libiberty -c \$f -o /dev/null || exit 1; done" \
		>"$T/rec$o.out" 2>"$T/rec$o.err" || { fail "record gcc -O$o" "$(tail -3 "$T/rec$o.err")"; exit 0; }
	"$TRAIL" collapse --samples "$T/O$o.data" >"$T/O$o.folded" 2>/dev/null
done
"$TRAIL" diff "$T/O1.folded" "$T/O2.folded" >"$T/d.folded"
"$TRAIL" flamegraph "$T/d.folded" >"$T/d.svg" 2>"$T/fg.err" && xmllint --noout --nonet "$T/d.svg" \
	&& pass "real diff: well-formed differential graph" || fail "real diff: well-formed differential graph"
"$TRAIL" flamegraph --diff-by-frame "$T/d.folded" >"$T/byframe.svg" 2>>"$T/fg.err"
"$TRAIL" diff --top 1000 --json "$T/O1.folded" "$T/O2.folded" >"$T/top.json"

python3 - "$T/d.svg" "$T/top.json" "$T/byframe.svg" >"$T/check" 2>&1 <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
clone = re.compile(r"\.(isra|constprop|part|cold|lto_priv|llvm|localalias)(\.\d+)?")
def norm(n):
    return clone.sub("", n)
def frames(path):
    for g in ET.parse(path).getroot().find(".//s:svg[@id='frames']", ns):
        title = g.find("s:title", ns).text
        rect = g.find("s:rect", ns)
        rgb = tuple(map(int, re.match(r"rgb\((\d+),(\d+),(\d+)\)", rect.get("fill")).groups()))
        yield title[:title.rfind(" (")], title, rect.get("class"), rgb
# by frame: a frame that is new is coloured only when its own change is significant
drawn = new_coloured = 0
for name, title, cls, rgb in frames(sys.argv[3]):
    drawn += 1
    new_coloured += cls == "new" and rgb != (235, 235, 235)
# by function (default): saturation per function; no coloured frame is "noise"
sat = {}
noise_coloured = 0
for name, title, cls, (r, gr, b) in frames(sys.argv[1]):
    if (r, gr, b) == (235, 235, 235) or name == "all":
        continue
    noise_coloured += title.endswith("noise)")
    s = 210 - (gr if r == 255 else r)
    sat[norm(name)] = max(sat.get(norm(name), -1), s)
top = json.load(open(sys.argv[2]))
rows = [r for r in top["hotter"] + top["cooler"] if r["measure"] == "total" and r["confirmed"]]
rows.sort(key=lambda r: -abs(r["delta_pp"]))
want = [norm(r["function"]) for r in rows[:3]]
got = sorted(sat, key=lambda n: -sat[n])[:len(want)]
# saturation is quantised: names tied with the last of the top count as top
edge = sat[got[-1]] if got else 0
tied = {n for n in sat if sat[n] >= edge}
print("drawn", drawn, "new coloured", new_coloured)
print("table top", want)
print("graph top", got, [sat[n] for n in got])
ok_new = new_coloured < 0.05 * drawn
ok_top = len(want) > 0 and set(want) <= tied and {n for n in sat if sat[n] > edge} <= set(want)
print("coloured but marked noise", noise_coloured)
print("RESULT", "new-ok" if ok_new else "new-bad", "top-ok" if ok_top else "top-bad",
      "noise-ok" if noise_coloured == 0 else "noise-bad")
PY
grep -q 'new-ok' "$T/check" && pass "real diff, by frame: under 5% of drawn frames are new and coloured" \
	|| fail "real diff, by frame: under 5% of drawn frames are new and coloured" "$(cat "$T/check")"
grep -q 'noise-ok' "$T/check" && pass "real diff: no coloured frame is one the test calls noise" \
	|| fail "real diff: no coloured frame is one the test calls noise" "$(cat "$T/check")"
grep -q 'top-ok' "$T/check" && pass "real diff: the most saturated functions are diff --top's strongest confirmed changes" \
	|| fail "real diff: the most saturated functions are diff --top's strongest confirmed changes" "$(cat "$T/check")"
[ -n "${TEST_VERBOSE:-}" ] && cat "$T/check" >&2
exit 0
