#!/usr/bin/env bash
# tests/cli/10-collapse.sh - 'trail collapse' behaviour: stdin and files,
# gzip, threads, unrecognised lines and --strict, --skip-after, errors.
# (Conformance with the reference outputs is 10-collapse-corpus.sh.)
. "$(dirname "$0")/lib.sh"

# two samples of one stack, one of another, and an unterminated last one
cat >"$T/a.txt" <<'IN'
# header comment
app 100/101 [000] 1.000001: 10 cycles:
	    7f0001 leaf+0x10 (/usr/lib/libx.so)
	    7f0002 mid (/usr/lib/libx.so)
	    7f0003 main (/usr/bin/app)

app 100/101 [000] 1.000002: 5 cycles:
	    7f0001 leaf+0x11 (/usr/lib/libx.so)
	    7f0002 mid (/usr/lib/libx.so)
	    7f0003 main (/usr/bin/app)

app 100/102 [001] 1.000003: 7 cycles:
	ffffffff81000001 do_syscall_64 ([kernel.kallsyms])
	    7f0009 [unknown] (/usr/lib/libz.so)
	    7f0003 main (/usr/bin/app)
IN

check "collapse a file" "$TRAIL" collapse "$T/a.txt"
cat >"$T/want" <<'OUT'
app;main;[libz.so];do_syscall_64 7
app;main;mid;leaf 15
OUT
cmp -s "$T/.out" "$T/want" && pass "folds, sums periods, counts the unterminated last sample" ||
	{ fail "folds, sums periods, counts the unterminated last sample"; diff "$T/.out" "$T/want" >&2; }
cp "$T/.out" "$T/file.out"
# --weight samples (and its alias --samples) counts samples on perf script text
# too; the default, periods, stays stackcollapse-perf.pl's output (no header)
check "--weight samples on text" "$TRAIL" collapse --weight samples "$T/a.txt"
printf 'app;main;[libz.so];do_syscall_64 1\napp;main;mid;leaf 2\n' | diff - "$T/.out" >/dev/null &&
	pass "--weight samples counts text samples" || fail "--weight samples counts text samples" "$(cat "$T/.out")"
check "--samples on text" "$TRAIL" collapse --samples "$T/a.txt"
grep -qx 'app;main;mid;leaf 2' "$T/.out" && pass "--samples is --weight samples" || fail "--samples is --weight samples"
check "--weight period on text" "$TRAIL" collapse --weight period "$T/a.txt"
diff "$T/want" "$T/.out" >/dev/null && pass "--weight period is the default" || fail "--weight period is the default"
check_exit "--weight bogus" 2 "$TRAIL" collapse --weight bogus "$T/a.txt"

"$TRAIL" collapse <"$T/a.txt" >"$T/stdin.out" 2>/dev/null
cmp -s "$T/stdin.out" "$T/file.out" && pass "stdin gives the same as a file" || fail "stdin gives the same as a file"
cat "$T/a.txt" | "$TRAIL" collapse - >"$T/pipe.out" 2>/dev/null
cmp -s "$T/pipe.out" "$T/file.out" && pass "'-' reads a pipe" || fail "'-' reads a pipe"
gzip -c "$T/a.txt" >"$T/a.txt.gz"
"$TRAIL" collapse "$T/a.txt.gz" >"$T/gz.out" 2>/dev/null
cmp -s "$T/gz.out" "$T/file.out" && pass "gzip input" || fail "gzip input"
gzip -dc "$T/a.txt.gz" | gzip -c | "$TRAIL" collapse >"$T/gzpipe.out" 2>/dev/null
cmp -s "$T/gzpipe.out" "$T/file.out" && pass "gzip on stdin" || fail "gzip on stdin"

check "options" "$TRAIL" collapse --tid --kernel "$T/a.txt"
grep -qx 'app-100/102;main;\[libz.so\];do_syscall_64_\[k\] 7' "$T/.out" &&
	pass "--tid and --kernel" || fail "--tid and --kernel" "$(cat "$T/.out")"
check "--addrs" "$TRAIL" collapse --addrs "$T/a.txt"
grep -q ';\[libz.so <7f0009>\];' "$T/.out" && pass "--addrs shows the address" || fail "--addrs shows the address"
check "--skip-after" "$TRAIL" collapse --skip-after mid "$T/a.txt"
grep -qx 'mid;leaf 15' "$T/.out" && ! grep -q '^app;main;mid' "$T/.out" &&
	pass "--skip-after drops the callers and the process name" || fail "--skip-after drops the callers" "$(cat "$T/.out")"

# empty input
: >"$T/empty.txt"
check "empty input" "$TRAIL" collapse "$T/empty.txt"
[ ! -s "$T/.out" ] && pass "empty input gives empty output" || fail "empty input gives empty output"
printf '# only\n# comments\n' | "$TRAIL" collapse >"$T/c.out" 2>"$T/c.err"
[ $? -eq 0 ] && [ ! -s "$T/c.out" ] && pass "headers only give empty output" || fail "headers only"

# unrecognised lines: a warning with path:line, capped, and --strict
{
	cat "$T/a.txt"
	echo
	echo "this is not perf script output"
	for i in $(seq 14); do echo "   !! junk $i"; done
} >"$T/bad.txt"
check_exit "bad lines are skipped without --strict" 0 "$TRAIL" collapse "$T/bad.txt"
cmp -s "$T/.out" "$T/file.out" && pass "bad lines do not change the result" || fail "bad lines do not change the result"
grep -q "bad.txt:17: unrecognized line: this is not perf script output" "$T/.err" &&
	pass "warning names path:line" || fail "warning names path:line" "$(head -3 "$T/.err")"
n=$(grep -c "unrecognized line:" "$T/.err")
[ "$n" -eq 10 ] && grep -q "5 more unrecognized lines" "$T/.err" &&
	pass "warnings are capped, then counted" || fail "warnings are capped, then counted" "$n shown"
check_exit "--strict fails when lines were ignored" 1 "$TRAIL" collapse --strict "$T/bad.txt"
check_exit "--strict passes on clean input" 0 "$TRAIL" collapse --strict "$T/a.txt"

# errors
check_exit "unknown option is a usage error" 2 "$TRAIL" collapse --frobnicate "$T/a.txt"
check_exit "a bad --jobs is a usage error" 2 "$TRAIL" collapse -j 0 "$T/a.txt"
check_exit "a missing file fails" 1 "$TRAIL" collapse "$T/missing.txt"
grep -q "missing.txt" "$T/.err" && pass "the error names the missing file" || fail "the error names the missing file"
printf 'PERFILE2\0\0\0\0' >"$T/perf.data"
check_exit "a truncated perf.data is an error" 1 "$TRAIL" collapse "$T/perf.data"
grep -q "perf.data" "$T/.err" && pass "the error says perf.data" || fail "the error says perf.data"
if [ -w /dev/full ]; then
	"$TRAIL" collapse "$T/a.txt" >/dev/full 2>"$T/err"; rc=$?
	[ $rc -ne 0 ] && pass "write errors are reported" || fail "write errors are reported" "exit $rc"
fi
check "help" "$TRAIL" collapse --help
grep -q "^usage: trail collapse" "$T/.out" && pass "help prints the synopsis" || fail "help prints the synopsis"

# threads: a larger input split into many work items gives the same bytes
awk 'BEGIN {
	for (i = 0; i < 4000; i++) {
		printf "w%d %d/%d [000] %d.%06d: %d cycles:\n", i % 3, 10 + i % 7, 20 + i % 11, i, i, 1000 + i
		d = 2 + i % 9
		for (j = 0; j < d; j++)
			printf "\t    %x f%d_%d+0x%x (/lib/m%d.so)\n", 4096 + j, (i * 7 + j) % 23, j, i % 5, j % 3
		if (i % 13 == 0) printf "\t    %x [unknown] ([unknown])\n", i
		print ""
	}
}' >"$T/big.txt"
TRAIL_COLLAPSE_CHUNK=4096 "$TRAIL" collapse -j1 "$T/big.txt" >"$T/j1" 2>&1
TRAIL_COLLAPSE_CHUNK=4096 "$TRAIL" collapse -j2 "$T/big.txt" >"$T/j2" 2>&1
TRAIL_COLLAPSE_CHUNK=4096 "$TRAIL" collapse -j3 --pid --all "$T/big.txt" >"$T/j3" 2>&1
"$TRAIL" collapse -j1 --pid --all "$T/big.txt" >"$T/j3ref" 2>&1
[ -s "$T/j1" ] && cmp -s "$T/j1" "$T/j2" && pass "-j2 output equals -j1" || fail "-j2 output equals -j1"
cmp -s "$T/j3" "$T/j3ref" && pass "-j3 with options equals one thread" || fail "-j3 with options equals one thread"
[ "$(awk '{ s += $NF } END { print s }' "$T/j2")" = "$(awk '/cycles:/ { s += $(NF-1) } END { print s }' "$T/big.txt")" ] &&
	pass "threaded counts add up to the input's periods" || fail "threaded counts add up"

# an unrecognised line is quoted with its control characters visible
printf 'app 1/1 [000] 1.0: 1 cycles:\n\t    7f01 main (/bin/app)\n\033]0;owned\007\n' >"$T/esc.txt"
"$TRAIL" collapse "$T/esc.txt" >/dev/null 2>"$T/esc.err"
if grep -q $'\033' "$T/esc.err"; then fail "unrecognised line: no raw escape"; else pass "unrecognised line: no raw escape"; fi
grep -qF '\x1b]0;owned\x07' "$T/esc.err" && pass "unrecognised line shown escaped" || fail "unrecognised line shown escaped" "$(cat "$T/esc.err")"
# Every diagnostic goes through one writer that escapes: a file name
# with a terminal escape sequence in an error message arrives escaped.
"$TRAIL" collapse "$T/no such"$'\033[2J\r'file >/dev/null 2>"$T/esc-name.err"
! grep -q $'\033' "$T/esc-name.err" && ! grep -q $'\r' "$T/esc-name.err" &&
	grep -qF 'no such\x1b[2J\rfile' "$T/esc-name.err" &&
	pass "a hostile file name in an error is shown escaped" ||
	fail "a hostile file name in an error is shown escaped" "$(od -c "$T/esc-name.err" | head -5)"
