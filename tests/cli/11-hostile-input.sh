#!/usr/bin/env bash
# tests/cli/11-hostile-input.sh - trail collapse, flamegraph and diff on input that is
# short, slow, damaged or not what it expects: it must end (every run is
# under `timeout`, so a hang fails instead of stalling the suite), and it
# must say so instead of printing a shorter profile with exit 0.
. "$(dirname "$0")/lib.sh"

have timeout || { skip "hostile input" "timeout not installed"; exit 0; }
LIMIT=${TRAIL_TEST_TIMEOUT:-60}	# seconds: generous, only a hang reaches it
# tcheck NAME WANT-EXIT SHELL-CMD: run under timeout; 124 means it hung
tcheck() {
	local name=$1 want=$2 got
	timeout "$LIMIT" bash -c "$3" >"$T/.out" 2>"$T/.err"; got=$?
	if [ "$got" -eq 124 ]; then fail "$name" "hung (killed after ${LIMIT}s): $3"
	elif [ "$got" -eq "$want" ]; then pass "$name"
	else fail "$name" "exit $got, expected $want: $3"; sed 's/^/    /' "$T/.err" | head -5 >&2; fi
}
export TRAIL T

# --- short and slow pipes: the perf.data sniffing on stdin must not hang
tcheck "echo | collapse ends" 0 'echo | "$TRAIL" collapse'
tcheck "an empty pipe ends" 0 'true | "$TRAIL" collapse'
tcheck "a 1-byte pipe ends" 0 'printf "#" | "$TRAIL" collapse'
tcheck "a 7-byte pipe ends" 0 'printf "# abcd\n" | "$TRAIL" collapse'
# more than 16 short reads of the same bytes filled the peek pipe's slots
tcheck "a slow first line ends" 0 '(printf "#"; sleep 1; printf " x\n") | "$TRAIL" collapse'
cat >"$T/one.txt" <<'IN'
app 100/101 [000] 1.000001: 10 cycles:
	    7f0001 leaf (/usr/lib/libx.so)
	    7f0003 main (/usr/bin/app)
IN
tcheck "a slow pipe in 1-byte pieces is folded" 0 \
	'while IFS= read -r -n1 c; do printf "%s" "${c:-
}"; sleep 0.01; done <"$T/one.txt" | "$TRAIL" collapse'
[ "$(cat "$T/.out")" = "app;main;leaf 10" ] && pass "the slow pipe's sample is complete" ||
	fail "the slow pipe's sample is complete" "got: $(head -c 200 "$T/.out")"

# --- a gzip stream cut short is an error, never a shorter profile
for i in $(seq 1 3000); do
	printf 'app 1/1 [000] 1.%d: 10 cycles:\n\t 7f01 leaf%d (/x)\n\t 7f02 main (/x)\n\n' "$i" $((i % 97))
done >"$T/big.txt"
gzip -c "$T/big.txt" >"$T/big.gz"
head -c $(($(wc -c <"$T/big.gz") / 2)) "$T/big.gz" >"$T/cut.gz"
check "a whole gzip file is read" "$TRAIL" collapse "$T/big.gz"
[ "$(wc -l <"$T/.out")" -eq 97 ] && pass "all 97 stacks of the gzip file" || fail "all 97 stacks of the gzip file"
check_exit "a truncated gzip file fails" 1 "$TRAIL" collapse "$T/cut.gz"
grep -q "cut.gz: truncated gzip stream" "$T/.err" && pass "the truncation is named" ||
	fail "the truncation is named" "$(cat "$T/.err")"
tcheck "a truncated gzip stream on stdin fails" 1 '"$TRAIL" collapse <"$T/cut.gz"'
tcheck "a truncated gzip pipe fails" 1 'cat "$T/cut.gz" | "$TRAIL" collapse'
for i in $(seq 1 5000); do echo "main;f$i;g 3"; done >"$T/f.folded"
gzip -c "$T/f.folded" | head -c 4000 >"$T/f-cut.gz"
check_exit "flamegraph: a truncated gzip file fails" 1 "$TRAIL" flamegraph "$T/f-cut.gz"
check_exit "diff: a truncated gzip file fails" 1 "$TRAIL" diff "$T/f-cut.gz" "$T/f.folded"
check_exit "diff --top: a truncated gzip file fails" 1 "$TRAIL" diff --top 5 "$T/f.folded" "$T/f-cut.gz"
# nothing at all is written: not the part decoded before the cut (which
# lies well beyond the 64 KiB read ahead to guess the format)
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "main;f%d;g%d %d\n", i % 50, i, i }' >"$T/many.folded"
gzip -c "$T/many.folded" | head -c 24711 >"$T/m-cut.gz"
for cmd in collapse flamegraph diff top explain; do
	case $cmd in diff) args="$T/m-cut.gz $T/f.folded" ;; *) args="$T/m-cut.gz" ;; esac
	tcheck "$cmd: a truncated gzip file writes nothing" 1 "\"\$TRAIL\" $cmd $args"
	[ ! -s "$T/.out" ] && pass "$cmd: no partial output" ||
		fail "$cmd: no partial output" "$(wc -c <"$T/.out") bytes written"
done
tcheck "collapse: a truncated pipe writes nothing" 1 '"$TRAIL" collapse <"$T/m-cut.gz"'
[ ! -s "$T/.out" ] && pass "collapse: no partial stacks from a pipe" ||
	fail "collapse: no partial stacks from a pipe" "$(wc -l <"$T/.out") lines written"
tcheck "collapse | flamegraph of a truncated file is no SVG" 2 \
	'set -o pipefail; "$TRAIL" collapse "$T/m-cut.gz" | "$TRAIL" flamegraph'
# (an empty input gets flamegraph.pl's error image, exit 2: no frame of the cut profile)
grep -q "main" "$T/.out" && fail "no graph of a cut profile" || pass "no graph of a cut profile"
tcheck "collapse: a missing second input withholds the first" 1 \
	'"$TRAIL" collapse "$T/f.folded" "$T/missing.folded"'
[ ! -s "$T/.out" ] && pass "no stacks from the readable half" || fail "no stacks from the readable half"

# --- CRLF perf script text: each sample is still its own stack
printf 'app 1/1 [000] 1.0: 10 cycles:\r\n\t 7f01 leaf (/x)\r\n\t 7f02 main (/x)\r\n\r\napp 1/1 [000] 1.1: 7 cycles:\r\n\t 7f03 other (/x)\r\n\t 7f02 main (/x)\r\n\r\n' >"$T/crlf.txt"
printf 'app;main;leaf 10\napp;main;other 7\n' >"$T/crlf.want"
check "CRLF text from a file" "$TRAIL" collapse --strict "$T/crlf.txt"
cmp -s "$T/.out" "$T/crlf.want" && pass "CRLF samples stay apart (file)" ||
	fail "CRLF samples stay apart (file)" "got: $(cat "$T/.out")"
tcheck "CRLF text from a pipe" 0 'cat "$T/crlf.txt" | "$TRAIL" collapse --strict'
cmp -s "$T/.out" "$T/crlf.want" && pass "CRLF samples stay apart (pipe)" ||
	fail "CRLF samples stay apart (pipe)" "got: $(cat "$T/.out")"
for i in $(seq 1 400); do cat "$T/crlf.txt"; done >"$T/crlf-big.txt"
check "CRLF text on several threads" env TRAIL_COLLAPSE_CHUNK=512 "$TRAIL" collapse -j 4 "$T/crlf-big.txt"
printf 'app;main;leaf 4000\napp;main;other 2800\n' | cmp -s "$T/.out" - &&
	pass "CRLF samples stay apart (threads)" || fail "CRLF samples stay apart (threads)" "got: $(head -3 "$T/.out")"

# --- input that cannot be folded at all: exit 2 saying what was expected
check_exit "--event-filter naming no event present is an error" 2 \
	"$TRAIL" collapse --event-filter page-faults "$T/crlf.txt"
grep -q "no 'page-faults' samples; the input has 'cycles'" "$T/.err" &&
	pass "the events present are listed" || fail "the events present are listed" "$(cat "$T/.err")"
check "--event-filter naming an event present" "$TRAIL" collapse --event-filter cycles "$T/crlf.txt"
printf 'hello world\nthis is not perf script\n' >"$T/junk.txt"
check_exit "unrecognisable text is an error" 2 "$TRAIL" collapse "$T/junk.txt"
grep -q "cannot tell the format" "$T/.err" && grep -q -- "--format" "$T/.err" &&
	pass "what was expected is said" || fail "what was expected is said" "$(cat "$T/.err")"
# perf script text named as such, of which no line is understood
check_exit "--format perf on text without samples is an error" 2 \
	"$TRAIL" collapse --format perf "$T/junk.txt"
grep -q "no samples found (2 lines not understood)" "$T/.err" &&
	pass "how many lines were not understood is said" ||
	fail "how many lines were not understood is said" "$(cat "$T/.err")"
tcheck "unrecognisable text on a pipe is an error" 2 'cat "$T/junk.txt" | "$TRAIL" collapse'
head -c 4096 /dev/zero >"$T/zero.data"
check_exit "an all-zero file is an error" 2 "$TRAIL" collapse "$T/zero.data"
grep -q "NUL bytes" "$T/.err" && pass "an all-zero file is called binary" ||
	fail "an all-zero file is called binary" "$(cat "$T/.err")"
check_exit "flamegraph: unrecognisable input is exit 2" 2 "$TRAIL" flamegraph "$T/junk.txt"
grep -q "expected folded stacks" "$T/.err" && pass "flamegraph says what it expected" ||
	fail "flamegraph says what it expected" "$(cat "$T/.err")"
check_exit "diff: unrecognisable input is exit 2" 2 "$TRAIL" diff "$T/junk.txt" "$T/junk.txt"
grep -q "expected lines such as" "$T/.err" && pass "diff says what it expected" ||
	fail "diff says what it expected" "$(cat "$T/.err")"
check "empty input is an empty profile" "$TRAIL" collapse /dev/null
printf '# comment\n\n' >"$T/comments.txt"
check "comments only are an empty profile" "$TRAIL" collapse "$T/comments.txt"

# --- a record whose command cannot run leaves no file (and keeps the old)
if "$TRAIL" record -o "$T/ok.data" -- true >/dev/null 2>&1; then
	check_exit "record: a command that cannot run is exit 127" 127 \
		"$TRAIL" record -o "$T/fail.data" -- "$T/no-such-program"
	[ ! -e "$T/fail.data" ] && pass "record: no file is left behind" ||
		fail "record: no file is left behind" "$(od -c "$T/fail.data" | head -2)"
	cp "$T/ok.data" "$T/keep.data"
	"$TRAIL" record -o "$T/keep.data" -- "$T/no-such-program" >/dev/null 2>&1
	cmp -s "$T/ok.data" "$T/keep.data" && [ ! -e "$T/keep.data.old" ] &&
		pass "record: the previous recording stays in place" ||
		fail "record: the previous recording stays in place"
	check "collapse reads the good recording" "$TRAIL" collapse "$T/keep.data"
else
	skip "record: a command that cannot run" "trail record cannot record here"
fi

# --- a recording whose MMAP file name is now a FIFO: the symbolizer must
# not open() it and wait for a writer forever
if have perf && have cc && have mkfifo && perf record -q -o "$T/probe.data" -F 99 -- true >/dev/null 2>&1; then
	mkdir -p "$T/fifo"
	printf 'int main(void) { volatile long s = 0; for (long i = 0; i < 200000000; i++) s += i; return s == 1; }\n' >"$T/fifo/p.c"
	if cc -O0 -o "$T/fifo/prog" "$T/fifo/p.c" &&
		perf record -q --no-buildid-cache -g -F 499 -o "$T/fifo.data" "$T/fifo/prog" >/dev/null 2>&1; then
		# pipe-mode perf.data whose first write is 3 bytes: still perf.data
		if perf record -q --no-buildid-cache -g -F 499 -o - "$T/fifo/prog" 2>/dev/null >"$T/pipe.data"; then
			"$TRAIL" collapse "$T/pipe.data" >"$T/pipe.want" 2>/dev/null
			tcheck "a slow pipe of perf.data is read as perf.data" 0 \
				'(head -c 3 "$T/pipe.data"; sleep 1; tail -c +4 "$T/pipe.data") | "$TRAIL" collapse'
			[ -s "$T/.out" ] && cmp -s "$T/.out" "$T/pipe.want" &&
				pass "the slow pipe folds as the file does" ||
				fail "the slow pipe folds as the file does" "$(head -3 "$T/.err")"
		fi
		rm "$T/fifo/prog"
		mkfifo "$T/fifo/prog"
		tcheck "collapse: a FIFO where a mapped binary was does not hang" 0 \
			'"$TRAIL" collapse "$T/fifo.data"'
		grep -q '^prog;' "$T/.out" && pass "the samples of the FIFO-named binary are kept" ||
			fail "the samples of the FIFO-named binary are kept" "$(head -3 "$T/.out")"
	else
		skip "a FIFO where a mapped binary was" "cannot build or record"
	fi
else
	skip "a FIFO where a mapped binary was" "perf record not available"
fi
