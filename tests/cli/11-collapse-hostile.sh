#!/usr/bin/env bash
# tests/cli/11-collapse-hostile.sh - 'trail collapse' on input that is
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
