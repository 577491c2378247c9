#!/usr/bin/env bash
# tests/cli/11-hostile-limits.sh - the input budget (docs/collapse.md, LIMITS):
# zip bombs, a pprof that names a 50 KB function 20,000 times, stacks that
# grow quadratically.  Each must end with an error that names the limit's
# option, exit 1, write nothing, and stay within a (generous) peak memory;
# the option must raise the limit.  Also: folded input whose first line is
# longer than the 64 KiB read ahead to guess the format, and --format for
# top and explain.
. "$(dirname "$0")/lib.sh"

have timeout || { skip "limits" "timeout not installed"; exit 0; }
have python3 || { skip "limits" "python3 missing"; exit 0; }
[ -x /usr/bin/time ] || { skip "limits" "no GNU time (/usr/bin/time)"; exit 0; }
LIMIT=${TRAIL_TEST_TIMEOUT:-120}	# seconds: only a hang reaches it
RSS_MAX=$((700 * 1024))	# KiB: generous (sanitizer builds), far below what the inputs ask for

# bounded NAME WANT-EXIT OPTION-IN-MESSAGE CMD...: exit code, message, empty
# stdout and peak RSS of CMD (run under timeout; 124 is a hang)
bounded() {
	local name=$1 want=$2 opt=$3 got rss
	shift 3
	timeout "$LIMIT" /usr/bin/time -f '%M' -o "$T/rss" "$@" >"$T/.out" 2>"$T/.err"; got=$?
	rss=$(tail -1 "$T/rss")
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit $want" "exit $got: $*"; sed 's/^/    /' "$T/.err" | head -3 >&2
	else pass "$name: exit $want"; fi
	grep -q -- "$opt raises the limit" "$T/.err" && pass "$name: names $opt" ||
		fail "$name: names $opt" "$(head -3 "$T/.err")"
	[ ! -s "$T/.out" ] && pass "$name: writes nothing" || fail "$name: writes nothing"
	[ "${rss:-0}" -gt 0 ] && [ "$rss" -lt "$RSS_MAX" ] && pass "$name: peak RSS bounded" ||
		fail "$name: peak RSS bounded" "${rss:-?} KiB"
}

# --- a zstd bomb: 200 MB of folded text in ~20 KB
yes 'main;f 1' | head -c 200M | zstd -q -1 >"$T/bomb.zst" 2>/dev/null ||
	{ skip "zstd bomb" "zstd missing"; rm -f "$T/bomb.zst"; }
if [ -s "$T/bomb.zst" ]; then
	bounded "zstd bomb" 1 --max-expansion "$TRAIL" collapse "$T/bomb.zst"
	grep -q "200 times its compressed size" "$T/.err" && pass "zstd bomb: the ratio is named" ||
		fail "zstd bomb: the ratio is named" "$(cat "$T/.err")"
	bounded "zstd bomb, top" 1 --max-expansion "$TRAIL" top "$T/bomb.zst"
	timeout "$LIMIT" "$TRAIL" collapse --max-expansion 100000 "$T/bomb.zst" >"$T/.out" 2>"$T/.err" &&
		grep -q '^main;f [0-9]*$' "$T/.out" && pass "--max-expansion raises the limit" ||
		fail "--max-expansion raises the limit" "$(head -3 "$T/.err")"
fi

# --- a .pb.gz of zeros: ~150 KB that decompress to 150 MB
head -c 150M /dev/zero | gzip -9 >"$T/zeros.pb.gz"
bounded "gzip of zeros as pprof" 1 --max-expansion "$TRAIL" collapse --format pprof "$T/zeros.pb.gz"
bounded "gzip of zeros, over --max-input-size" 1 --max-input-size \
	"$TRAIL" collapse --format pprof --max-expansion 100000 --max-input-size 32M "$T/zeros.pb.gz"
grep -q "more than 33554432 bytes" "$T/.err" && pass "--max-input-size takes an M suffix" ||
	fail "--max-input-size takes an M suffix" "$(cat "$T/.err")"

# --- pprof: one location with LINES lines, each naming a function of NAMELEN bytes
mkpprof() {
	PYTHONPATH=$ROOT/tests/cli python3 - "$@" <<'PY'
import gzip, sys
from pbwire import varint, fld
path, lines, namelen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
loc = fld(1, 0, 1) + fld(4, 2, fld(1, 0, 1)) * lines
prof = (fld(1, 2, fld(1, 0, 1) + fld(2, 0, 2)) +
        fld(2, 2, fld(1, 2, varint(1)) + fld(2, 2, varint(1))) +
        fld(4, 2, loc) + fld(5, 2, fld(1, 0, 1) + fld(2, 0, 3)))
for s in [b"", b"samples", b"count", b"f" * namelen]:
    prof += fld(6, 2, s)
open(path, "wb").write(gzip.compress(prof, 9))
PY
}
mkpprof "$T/hostile.pb.gz" 20000 50000
[ "$(wc -c <"$T/hostile.pb.gz")" -lt 400 ] && pass "the hostile pprof is a few hundred bytes" ||
	fail "the hostile pprof is a few hundred bytes"
bounded "pprof naming a 50 KB function 20,000 times" 1 --max-stack-size "$TRAIL" collapse "$T/hostile.pb.gz"
bounded "the same through top" 1 --max-stack-size "$TRAIL" top "$T/hostile.pb.gz"
bounded "the same through explain" 1 --max-stack-size "$TRAIL" explain "$T/hostile.pb.gz"
mkpprof "$T/small.pb.gz" 3 10
check "a small pprof is read" "$TRAIL" collapse "$T/small.pb.gz"
[ "$(cat "$T/.out")" = "ffffffffff;ffffffffff;ffffffffff 1" ] && pass "its stack is whole" ||
	fail "its stack is whole" "$(cat "$T/.out")"
check_exit "--max-stack-size below the stack" 1 "$TRAIL" collapse --max-stack-size 20 "$T/small.pb.gz"
grep -q -- "--max-stack-size raises the limit" "$T/.err" && pass "the stack limit is named" ||
	fail "the stack limit is named" "$(cat "$T/.err")"
check "--max-stack-size 1K keeps it" "$TRAIL" collapse --max-stack-size 1K "$T/small.pb.gz"
check_exit "--max-input-size 0 is a usage error" 2 "$TRAIL" collapse --max-input-size 0 "$T/small.pb.gz"
check_exit "--max-input-size 1X is a usage error" 2 "$TRAIL" top --max-input-size 1X "$T/small.pb.gz"

# --- quadratic stacks: a .cpuprofile chain of 20,000 nodes, every one hit
python3 - "$T/chain.cpuprofile" <<'PY'
import json, sys
n = 20000
nodes = [{"id": i + 1, "callFrame": {"functionName": "fn%05d_" % i + "x" * 60, "url": ""},
          "hitCount": 1, "children": [i + 2] if i + 1 < n else []} for i in range(n)]
json.dump({"nodes": nodes, "startTime": 0, "endTime": 1}, open(sys.argv[1], "w"))
PY
bounded "a cpuprofile chain builds too much" 1 --max-input-size \
	"$TRAIL" collapse --max-input-size 64M "$T/chain.cpuprofile"
# speedscope: one sample naming a frame 100,000 times
python3 - "$T/deep.speedscope.json" <<'PY'
import json, sys
json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json",
           "shared": {"frames": [{"name": "g" * 1000}]},
           "profiles": [{"type": "sampled", "name": "x", "unit": "none", "startValue": 0,
                         "endValue": 1, "samples": [[0] * 100000], "weights": [1]}]},
          open(sys.argv[1], "w"))
PY
bounded "speedscope: a frame named 100,000 times" 1 --max-stack-size "$TRAIL" collapse "$T/deep.speedscope.json"
bounded "speedscope over --max-input-size" 1 --max-input-size \
	"$TRAIL" collapse --max-input-size 100K "$T/deep.speedscope.json"

# --- folded input whose first line is longer than the 64 KiB guessing window
python3 -c "
n = 'std::vector<' + 'T' * 70000 + '>'
print('main;' + n + ';leaf 7')
print('main;other 3')" >"$T/long.folded"
for cmd in top explain collapse; do
	check "$cmd reads a 70 KB first line" "$TRAIL" $cmd "$T/long.folded"
done
"$TRAIL" top "$T/long.folded" | grep -q ' leaf$' && pass "top counts its leaf" || fail "top counts its leaf"
gzip -c "$T/long.folded" >"$T/long.folded.gz"
check "top reads it gzipped" "$TRAIL" top "$T/long.folded.gz"
{ echo '# trail-folded weight=samples'; cat "$T/long.folded"; } | gzip >"$T/hdr-long.folded.gz"
check "explain reads it after a header line" "$TRAIL" explain "$T/hdr-long.folded.gz"
grep -q ' leaf$' "$T/.out" && pass "the header does not hide the long line" ||
	fail "the header does not hide the long line"
printf 'main;foo 5' >"$T/nonl.folded"
check "collapse: one line without a newline" "$TRAIL" collapse "$T/nonl.folded"
[ "$(cat "$T/.out")" = "main;foo 5" ] && pass "its stack is kept" || fail "its stack is kept" "$(cat "$T/.out")"
printf 'main;foo 5' | "$TRAIL" collapse >"$T/.out" 2>"$T/.err" && [ "$(cat "$T/.out")" = "main;foo 5" ] &&
	pass "the same on a pipe" || fail "the same on a pipe" "$(cat "$T/.err")"

# --- top and explain take --format as collapse does
check "top --format pprof" "$TRAIL" top --format pprof "$T/small.pb.gz"
grep -q 'ffffffffff$' "$T/.out" && pass "top --format pprof reads the profile" || fail "top --format pprof reads the profile"
check "explain --format pprof" "$TRAIL" explain --format pprof "$T/small.pb.gz"
check_exit "top --format folded on pprof finds no samples" 2 "$TRAIL" top --format folded "$T/small.pb.gz"
check_exit "top --format nonsense" 2 "$TRAIL" top --format nonsense "$T/small.pb.gz"
grep -q "unknown format 'nonsense'" "$T/.err" && pass "the unknown format is named" || fail "the unknown format is named"
check "explain --format list" "$TRAIL" explain --format list
grep -q '^pprof ' "$T/.out" && pass "--format list lists pprof" || fail "--format list lists pprof"
printf 'a;b 3\n' >"$T/ab.txt"
check "top --format folded" "$TRAIL" top --format folded "$T/ab.txt"

