#!/usr/bin/env bash
# tests/cli/21-flamegraph-limits.sh - 'trail flamegraph' at the edges of
# its numbers: counts, --factor and --total far beyond 2^64 still give a
# well-formed SVG (parsed with xmllint), and a total that overflows a
# double is an error rather than a picture of nothing.
. "$(dirname "$0")/lib.sh"

have xmllint || { skip "huge numbers" "xmllint not installed"; exit 0; }
digits60=$(printf '4%.0s' $(seq 60))
wellformed() {	# NAME FILE: pass if FILE is an SVG that xmllint accepts
	if [ -s "$2" ] && xmllint --noout "$2" 2>"$T/xml.err" && grep -q '<svg' "$2"; then
		pass "$1"
	else
		fail "$1" "$(head -3 "$T/xml.err")"
	fi
}

printf 'a;b %s\nc 1\n' "$digits60" >"$T/huge.folded"
check "a 60-digit count is drawn" "$TRAIL" flamegraph "$T/huge.folded"
cp "$T/.out" "$T/huge.svg"
wellformed "a 60-digit count gives well-formed SVG" "$T/huge.svg"
grep -q "total: ${digits60:0:15}" "$T/huge.svg" && pass "the script's total keeps the count's digits" ||
	fail "the script's total keeps the count's digits"

printf 'a;b 3\nc 2\n' >"$T/small.folded"
"$TRAIL" flamegraph --factor 1e300 "$T/small.folded" >"$T/factor.svg" 2>"$T/err"
wellformed "--factor 1e300 gives well-formed SVG" "$T/factor.svg"
"$TRAIL" flamegraph --total 1e299 "$T/small.folded" >"$T/total.svg" 2>"$T/err"
wellformed "--total 1e299 gives well-formed SVG" "$T/total.svg"
grep -q 'total: 1[0-9]\{299\}[^0-9]' "$T/total.svg" && pass "--total 1e299 is written in full" ||
	fail "--total 1e299 is written in full"

printf 'a;b 99999999999\nc 5\n' >"$T/over.folded"
check_exit "a total that overflows a double is a usage error" 2 \
	"$TRAIL" flamegraph --factor 1e300 "$T/over.folded"
grep -q 'overflows' "$T/.err" && pass "the overflow is named" || fail "the overflow is named"
