#!/usr/bin/env bash
# tests/cli/30-diff.sh - 'trail diff': the difffolded.pl rows of the shared
# corpus byte for byte, -n and -s on hand-made input, the --top table and
# --json on a pair where one function clearly got hotter, and bad input.
. "$(dirname "$0")/lib.sh"

# --- the shared corpus (difffolded.pl's expected outputs, sorted) ---------
CORPUS=$SHARED/corpus
if [ -f "$CORPUS/cases.tsv" ]; then
	rows=0 bad=0
	# columns: tool case inputs perl_options inferno_options expected expected_from ...
	while IFS='|' read -r case inputs popts expected from; do
		if [ "$from" = inferno ]; then
			# inferno truncates fractional counts; trail follows Perl (docs/diff.md)
			skip "corpus $case ($expected)" "inferno-only behaviour, trail follows difffolded.pl"
			continue
		fi
		rows=$((rows + 1))
		set -- $inputs
		# shellcheck disable=SC2086
		if ! (cd "$CORPUS" && "$TRAIL" diff $popts "$1" "$2") >"$T/out" 2>"$T/err"; then
			fail "corpus $case $popts" "exit status $?"; bad=$((bad + 1)); continue
		fi
		if ! LC_ALL=C sort "$T/out" | cmp -s - "$T/out"; then
			fail "corpus $case $popts: output sorted" ; bad=$((bad + 1)); continue
		fi
		if cmp -s "$T/out" "$CORPUS/$expected"; then
			pass "corpus $case ${popts:-(no options)}"
		else
			fail "corpus $case ${popts:-(no options)}" "differs from $expected"
			diff "$T/out" "$CORPUS/$expected" | head -5 >&2
			bad=$((bad + 1))
		fi
	done < <(awk -F'\t' '$1 == "diff-folded" { print $2 "|" $3 "|" $4 "|" $6 "|" $7 }' "$CORPUS/cases.tsv")
	[ "$rows" -gt 0 ] && pass "corpus has diff-folded rows ($rows)" || fail "corpus has diff-folded rows"
	if [ -f "$CORPUS/diff-folded/bad-line/folded1.txt" ]; then
		"$TRAIL" diff "$CORPUS/diff-folded/bad-line/folded1.txt" \
			"$CORPUS/diff-folded/bad-line/folded2.txt" >/dev/null 2>"$T/err"
		grep -q 'bad-line/folded1.txt:3: ignoring line without a sample count' "$T/err" &&
			pass "corpus bad line warned with path:line" ||
			fail "corpus bad line warned with path:line" "$(cat "$T/err")"
	fi
else
	skip "corpus diff-folded rows" "no $CORPUS/cases.tsv"
fi

# --- hand-made inputs -----------------------------------------------------
printf 'main;a;0x1f 2\nmain;b 4\nmain;a;0xA0 3\n' >"$T/b1"
printf 'main;a;0x2e 10\nmain;c 6\n' >"$T/a1"
check "three columns" "$TRAIL" diff "$T/b1" "$T/a1"
printf 'main;a;0x1f 2 0\nmain;a;0x2e 0 10\nmain;a;0xA0 3 0\nmain;b 4 0\nmain;c 0 6\n' >"$T/want"
cmp -s "$T/.out" "$T/want" && pass "three columns content" || fail "three columns content" "$(cat "$T/.out")"

# BEFORE already in byte order (as 'trail collapse' writes) is merged with
# AFTER's new stacks instead of sorted again: same lines as from BEFORE in
# another order, and in LC_ALL=C sort's order (names that are prefixes of
# others, blanks and tabs after them)
awk 'BEGIN { split("a|a b|a\tb|a;b|ab|a |b", n, "|")
	for (i = 0; i < 300; i++) printf "%s;%s;f%d %d\n", n[i % 7 + 1], n[(i * 3) % 7 + 1], i % 40, i + 1 }' |
	LC_ALL=C sort -u >"$T/b2"
awk 'BEGIN { split("a|a b|a\tb|a;b|ab|a |c", n, "|")
	for (i = 299; i >= 0; i--) printf "%s;%s;f%d %d\n", n[i % 7 + 1], n[(i * 5) % 7 + 1], i % 45, i }' >"$T/a2"
tac "$T/b2" >"$T/b2r"
"$TRAIL" diff "$T/b2" "$T/a2" >"$T/d-sorted" && "$TRAIL" diff "$T/b2r" "$T/a2" >"$T/d-shuffled" &&
	cmp -s "$T/d-sorted" "$T/d-shuffled" && LC_ALL=C sort -c "$T/d-sorted" &&
	[ "$(wc -l <"$T/d-sorted")" -gt 300 ] &&
	pass "sorted BEFORE: same lines as unsorted, in byte order" ||
	fail "sorted BEFORE: same lines as unsorted, in byte order"

check "-s strips hex" "$TRAIL" diff -s "$T/b1" "$T/a1"
printf 'main;a;0x... 5 10\nmain;b 4 0\nmain;c 0 6\n' >"$T/want"
cmp -s "$T/.out" "$T/want" && pass "-s content" || fail "-s content" "$(cat "$T/.out")"

# -n: BEFORE total 9, AFTER 16: int(c * 16 / 9): 2 -> 3, 4 -> 7, 3 -> 5
check "-n normalizes" "$TRAIL" diff -n "$T/b1" "$T/a1"
printf 'main;a;0x1f 3 0\nmain;a;0x2e 0 10\nmain;a;0xA0 5 0\nmain;b 7 0\nmain;c 0 6\n' >"$T/want"
cmp -s "$T/.out" "$T/want" && pass "-n content" || fail "-n content" "$(cat "$T/.out")"
check "-ns bundled" "$TRAIL" diff -ns "$T/b1" "$T/a1"
printf 'main;a;0x... 8 10\nmain;b 7 0\nmain;c 0 6\n' >"$T/want"
cmp -s "$T/.out" "$T/want" && pass "-ns content" || fail "-ns content" "$(cat "$T/.out")"

check "stdin as BEFORE" sh -c "'$TRAIL' diff - '$T/a1' <'$T/b1'"
printf 'main;a;0x1f 2 0\n' >"$T/want"
head -1 "$T/.out" | cmp -s - "$T/want" && pass "stdin content" || fail "stdin content"
gzip -c "$T/b1" >"$T/b1.gz"
check "gzip input" "$TRAIL" diff "$T/b1.gz" "$T/a1"
grep -qx 'main;b 4 0' "$T/.out" && pass "gzip content" || fail "gzip content"

# --- mapped files (one pass, hash table) vs stdin (folded_profile) ---------
# Regular files take the mapped fast path, '-' the line reader: both must
# print the same bytes, on input with stacks that are prefixes of others
# (with and without a following blank), blanks inside stacks, CRLF, a
# malformed line, a blank line, fractions, duplicates and, in AFTER (whose
# pages are released behind the parser), new stacks past the first 256 KB.
{
	printf 'a 1\na b 2\na 9 3\na\t4 1\na;b 5\r\nmain;0x1f;x 2\nnot a count\n\n'
	printf 'a;b 2.5\na b 7 1\nmain;0x1F;x 1\n'
	i=0; while [ $i -lt 3000 ]; do printf 'root;mid%d;leaf%d %d\n' $((i % 37)) $i $((i % 7 + 1)); i=$((i + 1)); done
} >"$T/fb"
{
	printf 'a 3\na b 2\na;b 1\nmain;0x2e;x 4\n\n'
	i=0; while [ $i -lt 12000 ]; do printf 'root;mid%d;leaf%d %d\n' $((i % 37)) $i $((i % 5 + 1)); i=$((i + 1)); done
	printf 'late;new;stack 3\na 9 1\n'
} >"$T/fa"
for opt in "" -n -s; do
	# shellcheck disable=SC2086
	"$TRAIL" diff $opt "$T/fb" "$T/fa" >"$T/fast" 2>"$T/fast.err"
	# shellcheck disable=SC2086
	"$TRAIL" diff $opt - "$T/fa" <"$T/fb" >"$T/slow" 2>/dev/null
	[ -s "$T/fast" ] && cmp -s "$T/fast" "$T/slow" &&
		pass "mapped and stdin paths agree ${opt:-(no options)}" ||
		fail "mapped and stdin paths agree ${opt:-(no options)}" "$(diff "$T/fast" "$T/slow" | head -5)"
done
grep -q 'fb:7: ignoring line without a sample count' "$T/fast.err" &&
	pass "mapped path warns with path:line" || fail "mapped path warns with path:line" "$(cat "$T/fast.err")"
grep -qx 'late;new;stack 0 3' "$T/fast" && pass "new stack past the released pages" ||
	fail "new stack past the released pages"

# --- the hotter/cooler table ----------------------------------------------
# hash: self 10% -> 40% of 1000 samples; io 60% -> 30%; work total 40% -> 70%
printf 'main;work;hash 100\nmain;work 300\nmain;io 600\nmain;r;r;r 0\n' >"$T/before"
printf 'main;work;hash 400\nmain;work 300\nmain;io 300\n' >"$T/after"
check "--top table" "$TRAIL" diff --top 3 "$T/before" "$T/after"
first=$(grep -v '^#' "$T/.out" | sed -n 2p)
set -- $first
[ "${1:-}" = hotter ] && [ "${2:-}" = self ] && [ "${3:-}" = 10.00 ] && [ "${4:-}" = 40.00 ] &&
	[ "${5:-}" = +30.00 ] && [ "${8:-}" = yes ] && [ "${9:-}" = hash ] &&
	pass "--top: hash is the hottest, confirmed" || fail "--top: hash is the hottest" "$first"
# se = sqrt(.1*.9/1000 + .4*.6/1000) = 1.8166 pp
[ "${6:-}" = 1.82 ] && pass "--top: standard error" || fail "--top: standard error" "$first"
grep -Eq '^cooler +self +60\.00 +30\.00 +-30\.00 .* io$' "$T/.out" && pass "--top: io cooler" ||
	fail "--top: io cooler" "$(cat "$T/.out")"
grep -Eq '^hotter +total +40\.00 +70\.00 .* work$' "$T/.out" && pass "--top: work inclusive" ||
	fail "--top: work inclusive" "$(cat "$T/.out")"
grep -Eq ' main$' "$T/.out" && fail "--top: unchanged main hidden" || pass "--top: unchanged main hidden"
check "--top 1 --measure self" "$TRAIL" diff --top 1 --measure self "$T/before" "$T/after"
[ "$(grep -vc '^#' "$T/.out")" -eq 3 ] && pass "--top 1: one row per direction" ||
	fail "--top 1: one row per direction" "$(cat "$T/.out")"
check "--min-delta above every change" "$TRAIL" diff --top 5 --min-delta 31 "$T/before" "$T/after"
grep -q "^# no function's share changed" "$T/.out" && pass "--min-delta hides all" ||
	fail "--min-delta hides all" "$(cat "$T/.out")"
# few samples: +10 points but not significant: counted, not listed (a change
# within the noise is not named as one); --alpha 1 lists it, unconfirmed
printf 'a 1\nb 9\n' >"$T/small1"; printf 'a 2\nb 8\n' >"$T/small2"
check "small samples" "$TRAIL" diff --top 5 "$T/small1" "$T/small2"
! grep -Eq '^hotter' "$T/.out" && grep -q '^# [0-9]* more changes* above the floor within the noise, not listed' "$T/.out" &&
	pass "--top: a change within the noise is counted, not listed" ||
	fail "--top: a change within the noise is counted, not listed" "$(cat "$T/.out")"
check "small samples, --alpha 1" "$TRAIL" diff --top 5 --alpha 1 "$T/small1" "$T/small2"
grep -Eq '^hotter +self +10\.00 +20\.00 .* a$' "$T/.out" && pass "--top --alpha 1: listed" ||
	fail "--top --alpha 1: listed" "$(cat "$T/.out")"

if have python3; then
	check "--json" "$TRAIL" diff --json "$T/before" "$T/after"
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hotter"][0]
assert h["function"] == "hash" and h["measure"] == "self", h
assert abs(h["delta_pp"] - 30) < 1e-9 and h["confirmed"] is True, h
assert abs(h["se_pp"] - 1.816590212) < 1e-6, h
assert d["before"]["samples"] == 1000 and d["after"]["samples"] == 1000, d
assert any(r["function"] == "io" for r in d["cooler"]), d
for r in d["hotter"] + d["cooler"]:
    for k in ("before_pct", "after_pct", "before_se_pp", "after_se_pp", "delta_pp",
              "se_pp", "z", "p_value", "significant", "confirmed"):
        assert k in r, k
' "$T/.out" 2>"$T/py"; then pass "--json parses, content"; else fail "--json parses, content" "$(cat "$T/py")"; fi
	printf 'we"ird\\name 5\nx 5\n' >"$T/q1"; printf 'x 5\n' >"$T/q2"
	check "--json escapes names" "$TRAIL" diff --json --alpha 1 "$T/q1" "$T/q2"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["cooler"][0]["function"] == "we\"ird\\name"' "$T/.out" &&
		pass "--json escaped name round-trips" || fail "--json escaped name round-trips" "$(cat "$T/.out")"
else
	skip "--json" "no python3"
fi

# --- bad input ------------------------------------------------------------
check_exit "missing file is a failure" 1 "$TRAIL" diff "$T/nonexistent" "$T/a1"
grep -q "nonexistent" "$T/.err" && pass "missing file named" || fail "missing file named"
printf 'main;a 1\nthis line has no count\nmain;b 2\n' >"$T/mal"
check "malformed line is a warning" "$TRAIL" diff "$T/mal" "$T/a1"
grep -q "$T/mal:2: ignoring line without a sample count" "$T/.err" &&
	pass "malformed line warned with path:line" || fail "malformed line warned with path:line" "$(cat "$T/.err")"
check_exit "one argument is a usage error" 2 "$TRAIL" diff "$T/a1"
check_exit "three arguments is a usage error" 2 "$TRAIL" diff "$T/a1" "$T/a1" "$T/a1"
check_exit "no arguments is a usage error" 2 "$TRAIL" diff
check_exit "unknown option is a usage error" 2 "$TRAIL" diff --frob "$T/a1" "$T/a1"
check_exit "bad --measure" 2 "$TRAIL" diff --measure all "$T/a1" "$T/a1"
check_exit "bad --top" 2 "$TRAIL" diff --top x "$T/a1" "$T/a1"
printf 'garbage\nmore garbage\n' >"$T/junk"
check_exit "no valid input is exit 2" 2 "$TRAIL" diff "$T/junk" "$T/junk"
: >"$T/empty"
check_exit "table with an empty side is exit 2" 2 "$TRAIL" diff --top 3 "$T/empty" "$T/a1"
check_exit "-h exits 0" 0 "$TRAIL" diff -h
grep -q '^usage: trail diff \[-n\] \[-s\] \[--merge-processes\] BEFORE AFTER' "$T/.out" && pass "-h synopsis" || fail "-h synopsis"
if [ -w /dev/full ]; then
	"$TRAIL" diff "$T/b1" "$T/a1" >/dev/full 2>"$T/err"; rc=$?
	[ $rc -eq 1 ] && pass "full disk is exit 1" || fail "full disk is exit 1" "exit $rc"
fi

# --- the manual's SYNOPSIS is the -h text -----------------------------------
if [ -f "$ROOT/docs/diff.md" ]; then
	"$TRAIL" diff -h | sed 's/[[:space:]]*$//' >"$T/help"
	awk '/^## SYNOPSIS/ { s = 1; next } s && /^```$/ { if (in_block) exit; in_block = 1; next }
	     in_block { print }' "$ROOT/docs/diff.md" >"$T/synopsis"
	cmp -s "$T/help" "$T/synopsis" && pass "docs/diff.md synopsis is the -h text" ||
		fail "docs/diff.md synopsis is the -h text" "$(diff "$T/help" "$T/synopsis" | head -5)"
fi

# --- input paths: CRLF, pipes and FIFOs, a missing final newline ------------
printf 'main;b 4\r\nmain;c 1\r\n' >"$T/crlf"
check "CRLF input" "$TRAIL" diff "$T/crlf" "$T/a1"
grep -qx 'main;b 4 0' "$T/.out" && pass "CRLF: carriage return dropped" || fail "CRLF: carriage return dropped" "$(cat -A "$T/.out")"
printf 'main;b 4\nmain;c 1' >"$T/nonl"
check "no final newline" "$TRAIL" diff "$T/nonl" "$T/a1"
grep -qx 'main;c 1 6' "$T/.out" && pass "last line without newline counted" || fail "last line without newline counted"
if mkfifo "$T/fifo" 2>/dev/null; then
	(cat "$T/b1" >"$T/fifo" &)
	check "FIFO input" "$TRAIL" diff "$T/fifo" "$T/a1"
	grep -qx 'main;b 4 0' "$T/.out" && pass "FIFO content" || fail "FIFO content" "$(cat "$T/.out")"
fi
cat "$T/b1" | "$TRAIL" diff - "$T/a1" >"$T/pipe.out" 2>"$T/err" && "$TRAIL" diff "$T/b1" "$T/a1" >"$T/file.out" &&
	cmp -s "$T/pipe.out" "$T/file.out" && pass "pipe and file give the same output" ||
	fail "pipe and file give the same output"
printf 'main;  5\nmain;x 5\n' >"$T/blank1"; printf 'main;x 10\n' >"$T/blank2"
check "blank frame name" "$TRAIL" diff --top 5 "$T/blank1" "$T/blank2"
grep -q "  ' '$" "$T/.out" && pass "blank frame name quoted" || fail "blank frame name quoted" "$(cat "$T/.out")"
# the same function, cloned differently by two builds
printf 'main;hash.isra.0 50\nmain;io 50\n' >"$T/clone1"; printf 'main;hash.constprop.0 80\nmain;io 20\n' >"$T/clone2"
check "--strip-clones" "$TRAIL" diff --top 5 --measure self --strip-clones "$T/clone1" "$T/clone2"
grep -Eq '^hotter +self +50\.00 +80\.00 .* hash$' "$T/.out" && pass "--strip-clones merges hash.isra.0 and hash.constprop.0" ||
	fail "--strip-clones merges hash.isra.0 and hash.constprop.0" "$(cat "$T/.out")"
check "without --strip-clones" "$TRAIL" diff --top 5 --measure self "$T/clone1" "$T/clone2"
grep -Eq ' hash\.isra\.0$' "$T/.out" && pass "clones differ without --strip-clones" || fail "clones differ without --strip-clones"

# --- names from the profiles reach the terminal escaped
printf 'main;evil\033[2K\rfake 5\nmain;x 5\n' >"$T/esc1"; printf 'main;evil\033[2K\rfake 50\nmain;x 5\n' >"$T/esc2"
check "escape sequence in a function name" "$TRAIL" diff --top 5 "$T/esc1" "$T/esc2"
if grep -q $'\033' "$T/.out"; then fail "no raw escape in the table"; else pass "no raw escape in the table"; fi
grep -qF 'evil\x1b[2K\rfake' "$T/.out" && pass "escape shown visibly in the table" ||
	fail "escape shown visibly in the table" "$(cat "$T/.out")"

# --- weights that are not counts: no significance test on them
printf '# trail-folded weight=period unit=ns\nmain;a 50050050\nmain;b 50050050\n' >"$T/per1"
printf '# trail-folded weight=period unit=ns\nmain;a 60060060\nmain;b 40040040\n' >"$T/per2"
printf 'main;a 50\nmain;b 50\n' >"$T/cnt1"
check_exit "--top refuses periods" 2 "$TRAIL" diff --top 5 "$T/per1" "$T/per2"
grep -q "'$T/per1' is weighted by period (ns), not sample counts" "$T/.err" && grep -q -- "--period N" "$T/.err" &&
	pass "refusal names the file, the unit and the way out" || fail "refusal names the file, the unit and the way out" "$(cat "$T/.err")"
check_exit "--json refuses periods too" 2 "$TRAIL" diff --json "$T/cnt1" "$T/per2"
check "--period turns periods into counts" "$TRAIL" diff --top 5 --period 1001001 "$T/per1" "$T/per2"
grep -q "(100 samples)" "$T/.out" && pass "--period: 100 samples each" || fail "--period: 100 samples each" "$(head -1 "$T/.out")"
check "three columns keep the header" "$TRAIL" diff "$T/per1" "$T/per2"
head -1 "$T/.out" | grep -qx '# trail-folded weight=period unit=ns' && grep -qx 'main;a 50050050 60060060' "$T/.out" &&
	pass "header passed through" || fail "header passed through" "$(cat "$T/.out")"
cp "$T/.out" "$T/perdiff"
check "differential flame graph of periods" "$TRAIL" flamegraph "$T/perdiff"
grep -q "not sample counts: no noise test" "$T/.err" && pass "flamegraph warns: no noise test" ||
	fail "flamegraph warns: no noise test" "$(cat "$T/.err")"
grep -q '60,060,060 ns' "$T/.out" && ! grep -q '60,060,060 samples' "$T/.out" &&
	pass "tooltips name the unit" || fail "tooltips name the unit"
check_exit "flamegraph --noise-alpha refuses periods" 2 "$TRAIL" flamegraph --noise-alpha 0.05 "$T/perdiff"
printf 'main;a 50 60\nmain;b 50 40\n' >"$T/cntdiff"
check "differential flame graph of counts" "$TRAIL" flamegraph "$T/cntdiff"
if grep -q "noise test" "$T/.err"; then fail "counts: no weight warning"; else pass "counts: no weight warning"; fi

# time-weighted input (issue 29): -n would scale BEFORE's time to AFTER's
# total and move functions that did not change (an unchanged one was
# painted dark blue, z = -1708 on nanoseconds): refused, nothing written;
# the differential graph of the counts as they are shows no z and leaves
# the unchanged function grey
printf '# trail-folded weight=time unit=ns\nmain;same 5000000000\nmain;grew 5000000000\n' >"$T/tw0.folded"
printf '# trail-folded weight=time unit=ns\nmain;same 5000000000\nmain;grew 5500000000\n' >"$T/tw1.folded"
check_exit "diff -n on time-weighted input: usage error" 2 "$TRAIL" diff -n "$T/tw0.folded" "$T/tw1.folded"
[ ! -s "$T/.out" ] && grep -q "weighted by time (ns).*--weight samples" "$T/.err" &&
	pass "diff -n on time: nothing written, says why and what to do" ||
	fail "diff -n on time: nothing written, says why and what to do" "$(cat "$T/.out" "$T/.err")"
"$TRAIL" diff "$T/tw0.folded" "$T/tw1.folded" | "$TRAIL" flamegraph >"$T/tw.svg" 2>/dev/null
tw="time-weighted differential graph: no z on nanoseconds, the unchanged function grey"
python3 - "$T/tw.svg" <<'PY' && pass "$tw" || fail "$tw"
import re, sys
svg = open(sys.argv[1]).read()
assert "z=" not in svg, "a z is shown"
same = re.search(r'<title>same \(([^<]*)</title>\s*<rect[^>]*fill="([^"]*)"', svg)
grew = re.search(r'<title>grew \(([^<]*)</title>\s*<rect[^>]*fill="([^"]*)"', svg)
assert same and grew, "frames not found"
assert "noise" in same.group(1) and same.group(2) == "rgb(235,235,235)", same.groups()
assert grew.group(2) != "rgb(235,235,235)", grew.groups()
PY
