#!/usr/bin/env bash
# tests/cli/00-main.sh - the trail binary itself: help, version, command
# table, usage errors and the stdout write check.
. "$(dirname "$0")/lib.sh"

check "version prints" "$TRAIL" --version
grep -q '^trail [0-9]' "$T/.out" && pass "version format" || fail "version format"
check "help lists commands" "$TRAIL" --help
for c in collapse flamegraph diff record bench flame; do
	grep -q "^    $c " "$T/.out" || fail "help lists $c"
done
pass "help lists every command"
check_exit "no command is a usage error" 2 "$TRAIL"
check_exit "unknown command is a usage error" 2 "$TRAIL" frobnicate
grep -q "unknown command 'frobnicate'" "$T/.err" && pass "unknown command named" || fail "unknown command named"
check_exit "unknown global option" 2 "$TRAIL" --frob
if [ -w /dev/full ]; then
	"$TRAIL" --help >/dev/full 2>"$T/err"; rc=$?
	[ $rc -ne 0 ] && grep -q "cannot write" "$T/err" && pass "full disk is an error" || fail "full disk is an error" "exit $rc"
else
	skip "full disk is an error" "no /dev/full"
fi
