#!/usr/bin/env bash
# tests/cli/21-flamegraph-aliases.sh - inferno's option spellings: the same
# SVG as trail's own options, --colordiffusion colouring by width, and
# inferno-collapse-perf's -n/--nthreads.
. "$(dirname "$0")/lib.sh"

printf 'main;a;b 90\nmain;c 10\nmain;a 5\n' >"$T/in.folded"
svg() { "$TRAIL" flamegraph "$@" "$T/in.folded"; }
svg --inverted >"$T/long.svg" && svg -i >"$T/short.svg" && cmp -s "$T/long.svg" "$T/short.svg" &&
	grep -q 'Icicle Graph' "$T/short.svg" && pass "-i is --inverted" || fail "-i is --inverted"
svg --colors java >"$T/long.svg" && svg -c java >"$T/short.svg" && cmp -s "$T/long.svg" "$T/short.svg" &&
	pass "-c is --colors" || fail "-c is --colors"
svg >"$T/plain.svg"
svg --deterministic --no-sort >"$T/noop.svg" && cmp -s "$T/plain.svg" "$T/noop.svg" &&
	pass "--deterministic and --no-sort are accepted and change nothing" || fail "--deterministic --no-sort"
"$TRAIL" flamegraph -h | grep -q -- '--deterministic' && fail "aliases stay out of --help" || pass "aliases stay out of --help"
"$TRAIL" help --options flamegraph | grep -qx -- '--deterministic' && pass "aliases are completed" ||
	fail "aliases are completed"
# --colordiffusion: the wider frame is the redder (less green); b (90) vs c (10)
svg --colordiffusion >"$T/cd.svg"
green() {
	python3 - "$T/cd.svg" "$1" <<'X'
import re, sys
svg = open(sys.argv[1]).read()
for g in re.finditer(r'<g[^>]*>\s*<title>([^<]*)</title>\s*<rect[^>]*fill="rgb\((\d+),(\d+),(\d+)\)"', svg):
    if g.group(1).split(' (')[0] == sys.argv[2]:
        print(g.group(3)); break
X
}
if have python3; then
	gb=$(green b) gc=$(green c)
	[ -n "$gb" ] && [ -n "$gc" ] && [ "$gb" -lt "$gc" ] && pass "--colordiffusion: wider is redder" ||
		fail "--colordiffusion: wider is redder" "b green=$gb c green=$gc"
	cmp -s "$T/cd.svg" "$T/plain.svg" && fail "--colordiffusion changes the colours" ||
		pass "--colordiffusion changes the colours"
fi
# collapse: inferno-collapse-perf's -n/--nthreads is -j/--jobs
printf 'app 1 1.0: 1 cycles:\n\t1 f (/bin/a)\n\t2 main (/bin/a)\n\n' >"$T/p.txt"
"$TRAIL" collapse -j 2 "$T/p.txt" >"$T/j" && "$TRAIL" collapse -n 2 "$T/p.txt" >"$T/n" &&
	"$TRAIL" collapse --nthreads=1 "$T/p.txt" >"$T/n1" && cmp -s "$T/j" "$T/n" && cmp -s "$T/j" "$T/n1" &&
	pass "collapse -n/--nthreads" || fail "collapse -n/--nthreads"
check_exit "collapse --nthreads is range-checked" 2 "$TRAIL" collapse --nthreads 0 "$T/p.txt"
