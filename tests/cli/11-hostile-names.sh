#!/usr/bin/env bash
# tests/cli/11-hostile-names.sh - frame names that try to be something else:
# terminal control sequences (top and explain escape them as diff --top
# does), invalid UTF-8 (JSON output replaces it with U+FFFD, so every parser
# accepts it), names ending in " <digits>" (they must not read as a count in
# folded text), counts pprof cannot hold, and a UTF-8 byte order mark in
# front of JSON.
. "$(dirname "$0")/lib.sh"

have python3 || { skip "names" "python3 missing"; exit 0; }

# --- terminal control characters: never written raw by top or explain
printf 'main;\033]0;PWNED\007x 10\nmain;\033[2Jclear 4\n' >"$T/esc.folded"
for cmd in top explain; do
	check "$cmd reads names with escapes" "$TRAIL" $cmd "$T/esc.folded"
	LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$T/.out" &&
		fail "$cmd: no control character reaches the terminal" "$(cat -v "$T/.out" | head -5)" ||
		pass "$cmd: no control character reaches the terminal"
	grep -qF 'PWNED\x07x' "$T/.out" && pass "$cmd: the BEL is shown as \\x07" ||
		fail "$cmd: the BEL is shown as \\x07" "$(cat -v "$T/.out" | head -5)"
done
"$TRAIL" top "$T/esc.folded" | grep -qF '\x1b[2Jclear' && pass "top: ESC is shown as \\x1b" ||
	fail "top: ESC is shown as \\x1b"

# --- invalid UTF-8 never reaches a JSON string
printf 'main;bad\377\376name 5\nmain;ok\303\251 3\n' >"$T/utf8.folded"
jsonok() {	# NAME: $T/.out is JSON that python accepts, with U+FFFD and the valid é kept
	python3 -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read())
s = json.dumps(d, ensure_ascii=False)
assert "bad\ufffd\ufffdname" in s, s
assert "ok\u00e9" in s, s' "$T/.out" && pass "$1" || fail "$1" "$(head -c 300 "$T/.out")"
}
check "top --json with invalid UTF-8" "$TRAIL" top --json "$T/utf8.folded"
jsonok "top --json is valid JSON"
check "explain --json with invalid UTF-8" "$TRAIL" explain --json --plateau 1 "$T/utf8.folded"
jsonok "explain --json is valid JSON"
check "speedscope output with invalid UTF-8" "$TRAIL" collapse --output speedscope "$T/utf8.folded"
jsonok "speedscope output is valid JSON"

# --- names ending in " <digits>" keep the folded file's meaning
mkpprof() {	# PATH NAME: main -> NAME (10), main -> other (3); NAME with \n escapes
	PYTHONPATH=$ROOT/tests/cli python3 - "$@" <<'PY'
import gzip, sys
from pbwire import varint, fld
name = sys.argv[2].encode().decode("unicode_escape").encode("latin-1")
prof = fld(1, 2, fld(1, 0, 1) + fld(2, 0, 2))
prof += fld(2, 2, fld(1, 2, varint(2) + varint(1)) + fld(2, 2, varint(10)))
prof += fld(2, 2, fld(1, 2, varint(3) + varint(1)) + fld(2, 2, varint(3)))
for i in (1, 2, 3):
    prof += fld(4, 2, fld(1, 0, i) + fld(4, 2, fld(1, 0, i)))
    prof += fld(5, 2, fld(1, 0, i) + fld(2, 0, i + 2))
for s in [b"", b"samples", b"count", b"main", name, b"other"]:
    prof += fld(6, 2, s)
open(sys.argv[1], "wb").write(gzip.compress(prof))
PY
}
mkpprof "$T/nl.pb.gz" 'line\nbreak 5'
check "a pprof function named 'line\\nbreak 5'" "$TRAIL" collapse "$T/nl.pb.gz"
printf 'main;line break_5 10\nmain;other 3\n' | diff - "$T/.out" >/dev/null &&
	pass "its name is written 'line break_5' (docs/collapse.md)" ||
	fail "its name is written 'line break_5' (docs/collapse.md)" "$(cat "$T/.out")"
cp "$T/.out" "$T/nl.folded"
check "top of the folded text" "$TRAIL" top --json "$T/nl.folded"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] == 13, d
assert any(r["function"] == "line break_5" and r["self"] == 10 for r in d["rows"]), d' "$T/.out" &&
	pass "the counts are 10 and 3, not a differential 5 -> 10" || fail "the counts are 10 and 3" "$(cat "$T/.out")"
"$TRAIL" collapse "$T/nl.pb.gz" | "$TRAIL" flamegraph >"$T/nl.svg" 2>"$T/.err" &&
	! grep -q 'Differential' "$T/nl.svg" && ! grep -qi 'differential' "$T/.err" &&
	pass "flamegraph draws it as one profile" || fail "flamegraph draws it as one profile" "$(cat "$T/.err")"
mkpprof "$T/frac.pb.gz" 'f\t1.5'
check "a function named 'f<TAB>1.5'" "$TRAIL" collapse "$T/frac.pb.gz"
grep -qx 'main;f_1.5 10' "$T/.out" && pass "a fraction-like end is guarded too" || fail "a fraction-like end is guarded too" "$(cat "$T/.out")"
mkpprof "$T/v2.pb.gz" 'std::vector<int> 2x'
check "a name with digits not at its end" "$TRAIL" collapse "$T/v2.pb.gz"
grep -qx 'main;std::vector<int> 2x 10' "$T/.out" && pass "is kept as it is" || fail "is kept as it is" "$(cat "$T/.out")"
python3 - "$T/digits.speedscope.json" <<'PY'
import json, sys
json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json",
           "shared": {"frames": [{"name": "main"}, {"name": "worker 7"}]},
           "profiles": [{"type": "sampled", "name": "x", "unit": "none", "startValue": 0,
                         "endValue": 2, "samples": [[0, 1]], "weights": [2]}]},
          open(sys.argv[1], "w"))
PY
check "speedscope: a frame named 'worker 7'" "$TRAIL" collapse "$T/digits.speedscope.json"
grep -qx 'main;worker_7 2' "$T/.out" && pass "speedscope names are guarded" || fail "speedscope names are guarded" "$(cat "$T/.out")"

# Instruments XML can spell a line break (&#10;) in a frame name
X=$SHARED/corpus/collapse-xctrace/basic/input.xml
if [ -f "$X" ]; then
	sed 's|name="main"|name="line\&#10;break 5"|' "$X" >"$T/x.xml"
	check "xctrace: a frame named 'line&#10;break 5'" "$TRAIL" collapse "$T/x.xml"
	grep -q ';line break_5;' "$T/.out" && ! grep -q '^break' "$T/.out" &&
		pass "xctrace names are guarded" || fail "xctrace names are guarded" "$(head -3 "$T/.out")"
else
	skip "xctrace names" "no conformance corpus in $SHARED"
fi

# --- a UTF-8 byte order mark does not hide JSON
printf '\357\273\277' | cat - "$T/digits.speedscope.json" >"$T/bom.json"
check "collapse: speedscope JSON after a BOM" "$TRAIL" collapse "$T/bom.json"
grep -qx 'main;worker_7 2' "$T/.out" && pass "the BOM file folds as without it" || fail "the BOM file folds as without it"
check "top: speedscope JSON after a BOM" "$TRAIL" top "$T/bom.json"
check "collapse: a BOM on a pipe" sh -c '"$0" collapse <"$1"' "$TRAIL" "$T/bom.json"
printf '\357\273\277main;a 3\n' >"$T/bom.folded"
check "folded text after a BOM" "$TRAIL" collapse "$T/bom.folded"
grep -qx 'main;a 3' "$T/.out" && pass "the BOM is not part of the root frame" || fail "the BOM is not part of the root frame" "$(cat -v "$T/.out")"

# --- pprof output: counts above INT64_MAX are an error, not a wrapped number
printf 'main;a 18446744073709551615\nmain;b 5\n' >"$T/huge.folded"
check_exit "--output pprof of a count above 2^63-1" 1 sh -c '"$0" collapse --output pprof "$1" >"$2"' \
	"$TRAIL" "$T/huge.folded" "$T/huge.pb.gz"
grep -q 'above what pprof can hold (2^63-1)' "$T/.err" && pass "the pprof limit is named" ||
	fail "the pprof limit is named" "$(cat "$T/.err")"
[ ! -s "$T/huge.pb.gz" ] && pass "no pprof file with a wrong count" || fail "no pprof file with a wrong count"
printf 'main;a 9000000000000000000\nmain;b 5\n' >"$T/big.folded"
"$TRAIL" collapse --output pprof "$T/big.folded" >"$T/big.pb.gz" && "$TRAIL" collapse "$T/big.pb.gz" >"$T/.out" &&
	grep -qx 'main;a 9000000000000000000' "$T/.out" && pass "a count below 2^63 round-trips" ||
	fail "a count below 2^63 round-trips" "$(cat "$T/.out")"
