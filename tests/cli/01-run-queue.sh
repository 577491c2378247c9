#!/usr/bin/env bash
# tests/cli/01-run-queue.sh - tests/run's queue (make check: the plain and
# the sanitized suite, and CI's fuzz targets, in one queue on every CPU),
# on a made-up tree of tiny suites: with TRAIL_JOBS=2 the costliest by
# tests/costs start first and two run at once; each suite's lines come out
# together after its "== NAME (BUILD)" line; the sanitized build's suites
# see TRAIL_SANITIZED=1 and its skip list; a summary line per build and the
# totals last; a failing suite fails the run with its stderr shown; Ctrl-C
# stops every running suite.  TRAIL_JOBS=1 keeps the file order.  Nothing
# asserts a time: the suites wait for each other's marks (up to 60 s).
. "$(dirname "$0")/lib.sh"

Q=$T/tree
mkdir -p "$Q/tests/cli" "$Q/tests/fuzz" "$Q/b/tests/unit" "$Q/bs/tests/unit" "$Q/bf" "$T/m"
cp "$ROOT/tests/run" "$Q/tests/run"
# suite NAME BODY: a CLI suite that marks its start, then runs BODY
suite() {
	printf 'echo "$TRAIL_BUILD" >>%q/m/started-%s; echo "%s" >>%q/m/order\n%s\n' \
		"$T" "$1" "$1" "$T" "$2" >"$Q/tests/cli/$1.sh"
}
# wait_mark NAME: up to 60 s for suite NAME to start in some build
wait_mark='for i in $(seq 600); do [ -s '"$T"'/m/started-$1 ] && break; sleep 0.1; done; [ -s '"$T"'/m/started-$1 ]'
suite 10-cheap 'echo "ok - 10-cheap: one ${TRAIL_SANITIZED:-plain}"; echo "ok - 10-cheap: two"'
# the long one waits for the middle one: both run at once, or it times out
suite 20-long "w() { $wait_mark; }"'
w 30-mid && echo "ok - 20-long: saw 30-mid running" || echo "FAILED - 20-long: 30-mid never started beside it"
echo "ok - 20-long: end"'
suite 30-mid 'echo "ok - 30-mid: one"; echo "ok - 30-mid: two"'
suite 40-skipped 'echo "ok - 40-skipped: ran"'
printf '#!/bin/sh\necho "ok - unit: $TRAIL_BUILD"\n' >"$Q/b/tests/unit/test_u"
cp "$Q/b/tests/unit/test_u" "$Q/bs/tests/unit/test_u"
chmod +x "$Q/b/tests/unit/test_u" "$Q/bs/tests/unit/test_u"
touch "$Q/tests/fuzz/fuzz_one.c"
printf '#!/bin/sh\necho "ok - fuzz-smoke: $1 in $FUZZ_BUILD, ${FUZZ_SECONDS}s"\n' >"$Q/tests/fuzz/smoke"
chmod +x "$Q/tests/fuzz/smoke"
printf '# costs\n90s 90.0s 20-long plain\n40s 40.0s 30-mid plain\n1s 1.0s 10-cheap plain\n' >"$Q/tests/costs"
printf '5s 4.0s 20-long san\n4s 4.0s 30-mid san\n' >>"$Q/tests/costs"
# qrun VAR=VALUE... [FILTER]: tests/run in the made-up tree, none of make
# check's settings for this run inherited
qrun() {
	local -a vars=()
	while [ $# -gt 0 ]; do case $1 in *=*) vars+=("$1"); shift ;; *) break ;; esac; done
	(cd "$Q" && exec env -u TRAIL_JOBS -u TRAIL_SAN_BUILD -u TRAIL_SAN_SKIP_SUITES -u TRAIL_FUZZ_BUILD \
		-u TRAIL_SKIP_SUITES -u TRAIL_TIMINGS -u TRAIL_SANITIZED -u FUZZ_BUDGET -u FUZZ_SECONDS \
		-u TEST_VERBOSE "${vars[@]}" tests/run "$@")
}

qrun TRAIL_JOBS=2 TRAIL_BUILD=b TRAIL_SAN_BUILD=bs TRAIL_SAN_SKIP_SUITES=40-skipped \
	TRAIL_FUZZ_BUILD=bf FUZZ_BUDGET=3 TRAIL_TIMINGS="$T/tim" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass "two builds and the fuzz targets: exit 0" || fail "two builds and the fuzz targets: exit 0" "exit $rc: $(tail -3 "$T/out")"
# (the two first ones start together: either may write its mark first)
[ "$(head -2 "$T/m/order" | sort | tr '\n' ' ')" = "20-long 30-mid " ] &&
	pass "the costliest first (tests/costs)" ||
	fail "the costliest first" "$(tr '\n' ' ' <"$T/m/order")"
grep -q '^ok - 20-long: saw 30-mid running' "$T/out" && pass "two suites at once" ||
	fail "two suites at once" "$(grep 20-long "$T/out")"
# every suite's lines right after its own "== NAME (BUILD)" line
awk '/^== / { n = $2; next } /^(ok|FAILED|skip) - / { s = $3; sub(/:$/, "", s)
	if (s != n && !(n == "test_u" && s == "unit") && !(n ~ /^fuzz-smoke:/ && s == "fuzz-smoke")) bad = 1 }
	END { exit bad }' "$T/out" && [ "$(grep -c '^== ' "$T/out")" -eq 11 ] &&
	pass "each suite's lines together after its == line" || fail "each suite's lines together" "$(cat "$T/out")"
grep -q '^ok - 10-cheap: one 1$' "$T/out" && grep -q '^ok - 10-cheap: one plain$' "$T/out" &&
	grep -q '^ok - unit: bs$' "$T/out" && pass "the sanitized build's suites: TRAIL_BUILD and TRAIL_SANITIZED" ||
	fail "the sanitized build's suites: TRAIL_BUILD and TRAIL_SANITIZED" "$(grep 10-cheap "$T/out")"
grep -q '^skip - 40-skipped: left out of this run' "$T/out" && [ "$(grep -c '^ok - 40-skipped' "$T/out")" -eq 1 ] &&
	pass "TRAIL_SAN_SKIP_SUITES leaves a suite out of the sanitized build only" ||
	fail "TRAIL_SAN_SKIP_SUITES leaves a suite out of the sanitized build only"
grep -q '^ok - fuzz-smoke: fuzz_one in bf, 3s$' "$T/out" && pass "a fuzz target is a job of its build" ||
	fail "a fuzz target is a job" "$(grep fuzz "$T/out")"
[ "$(tail -4 "$T/out" | tr '\n' '|')" = "# b: 8 passed, 0 failed, 0 skipped|# bs: 7 passed, 0 failed, 1 skipped|# bf: 1 passed, 0 failed, 0 skipped|16 passed, 0 failed, 1 skipped|" ] &&
	pass "a summary line per build, the totals last" || fail "a summary line per build, the totals last" "$(tail -4 "$T/out")"
grep -q '^[0-9]*s [0-9.]*s 30-mid san$' "$T/tim" && [ "$(wc -l <"$T/tim")" -eq 10 ] &&
	pass "TRAIL_TIMINGS: a WALLs CPUs name kind line per job" || fail "TRAIL_TIMINGS: a line per job" "$(cat "$T/tim")"

# a failing suite fails the run, its stderr shown with its build
suite 50-fails 'echo "FAILED - 50-fails: it broke"; echo "the reason" >&2'
rm -f "$T/m/"*
qrun TRAIL_JOBS=2 TRAIL_BUILD=b TRAIL_SAN_BUILD=bs fails >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q '^    \[50-fails bs\] the reason$' "$T/out" &&
	grep -q '^failing suites: .*50-fails(bs)' "$T/out" && pass "a failing suite: exit 1, its stderr and build named" ||
	fail "a failing suite: exit 1, its stderr and build named" "exit $rc: $(cat "$T/out")"

# one worker: the file order (30-mid's mark made first: 20-long, which
# waits for it, would otherwise wait its whole minute, one suite at a time)
rm -f "$T/m/"* "$Q/tests/cli/50-fails.sh"
echo preset >"$T/m/started-30-mid"
qrun TRAIL_BUILD=b >"$T/out" 2>"$T/err"
[ "$(tr '\n' ' ' <"$T/m/order")" = "10-cheap 20-long 30-mid 40-skipped " ] && ! grep -q '^== ' "$T/out" &&
	pass "TRAIL_JOBS=1: file order, the lines as before" || fail "TRAIL_JOBS=1: file order" "$(tr '\n' ' ' <"$T/m/order")"

# Ctrl-C: every running suite stops (they run in their own sessions).
# SIGINT back to its default first, as for make check in a terminal's
# foreground: a script's background job starts with it ignored (this
# suite's too, under make check), and bash cannot trap a signal ignored
# at its start.
have python3 || { skip "Ctrl-C stops the running suites" "no python3 (resets SIGINT)"; exit 0; }
rm -f "$T/m/"* "$Q"/tests/cli/*.sh
suite 60-hangs 'echo $$ >>'"$T"'/m/pids; for i in $(seq 600); do sleep 0.1; done; echo "ok - 60-hangs: not stopped"'
(cd "$Q" && exec env -u TRAIL_SAN_SKIP_SUITES -u TRAIL_FUZZ_BUILD -u TRAIL_SKIP_SUITES -u TRAIL_TIMINGS \
	-u TRAIL_SANITIZED TRAIL_JOBS=2 TRAIL_BUILD=b TRAIL_SAN_BUILD=bs python3 -c \
	'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
	tests/run) >"$T/out" 2>"$T/err" &
tp=$!
for _ in $(seq 600); do [ "$(cat "$T/m/pids" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1; done
kill -INT $tp
wait $tp
rc=$?
ok=1
for p in $(cat "$T/m/pids" 2>/dev/null); do pid_ended "$p" || ok=0; done
[ $rc -eq 130 ] && [ "$(cat "$T/m/pids" 2>/dev/null | wc -l)" -eq 2 ] && [ $ok = 1 ] &&
	pass "Ctrl-C: exit 130, both running suites stopped" ||
	fail "Ctrl-C: exit 130, both running suites stopped" "exit $rc, pids $(tr '\n' ' ' <"$T/m/pids" 2>/dev/null), ended $ok"
