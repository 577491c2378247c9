#!/usr/bin/env bash
# tests/cli/12-memory.sh - peak memory on many distinct stacks (measured by
# GNU time): 'trail collapse' holds each distinct stack once (at most 1.5x
# the distinct-stack text, plus a fixed allowance for the program), and
# 'trail diff --top' holds no stack at all, only per-function sums.
# Sizes, not times: the limits hold on a loaded machine.  bench/memory
# measures the same at larger sizes, against inferno.
. "$(dirname "$0")/lib.sh"

[ -x /usr/bin/time ] || { skip "peak memory" "no GNU time (/usr/bin/time)"; exit 0; }
[ -n "${TRAIL_SANITIZED:-}" ] && { skip "peak memory" "sanitizer builds use more memory by design"; exit 0; }
STACKS=${TRAIL_TEST_MEMORY_STACKS:-200000}
BASE_KB=8192	# the program itself, its buffers and tables of frame names

# every sample is its own stack: its first two frames spell i in base 3000
gen() {	# FROM
	awk -v n="$STACKS" -v from="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			v = i + from
			printf "app 1/1 [000] 1.%06d: 1 cycles:\n", i % 1000000
			for (k = 0; k < 8; k++) {
				printf "\t    7f%06x func_%05d+0x1 (/usr/lib/libx.so)\n", k,
					(k < 2 ? v : v * 7 + k) % 3000
				if (k == 0) v = int(v / 3000)
			}
			print ""
		}
	}'
}
gen 0 >"$T/a.txt"
gen $((STACKS / 2)) >"$T/b.txt"
peak_kb() {	# CMD...: run it; print its peak RSS in KB
	/usr/bin/time -f '%M' -o "$T/rss" "$@" || return 1
	tail -1 "$T/rss"
}
rss=$(peak_kb sh -c '"$0" collapse -j 2 "$1" >"$2"' "$TRAIL" "$T/a.txt" "$T/a.folded") ||
	{ fail "collapse ran" "exit status $?"; exit 0; }
"$TRAIL" collapse "$T/b.txt" >"$T/b.folded"
[ "$(wc -l <"$T/a.folded")" -eq "$STACKS" ] && pass "$STACKS distinct stacks" || fail "$STACKS distinct stacks"
text_kb=$(awk '{ n += length($0) - length($NF) - 1 } END { printf "%d", n / 1024 }' "$T/a.folded")
limit=$((text_kb * 3 / 2 + BASE_KB))
[ "$rss" -le "$limit" ] && pass "collapse peak ${rss} KB <= 1.5 x ${text_kb} KB of stack text + ${BASE_KB} KB" ||
	fail "collapse peak memory" "${rss} KB > 1.5 x ${text_kb} KB of stack text + ${BASE_KB} KB"

rss=$(peak_kb sh -c '"$0" diff --top 20 "$1" "$2" >/dev/null' "$TRAIL" "$T/a.folded" "$T/b.folded") ||
	{ fail "diff --top ran" "exit status $?"; exit 0; }
limit=$((text_kb / 4 + BASE_KB))
[ "$rss" -le "$limit" ] && pass "diff --top peak ${rss} KB: no stack held (<= ${limit} KB)" ||
	fail "diff --top peak memory" "${rss} KB > ${limit} KB: are the stacks held?"
