#!/usr/bin/env bash
# tests/cli/01-test-lint.sh - every "ok" line of the CLI tests depends on
# its assertion: scripts/check-test-lint finds no bare pass after a loop or
# a failing if-block, catches ones planted in a copy, and group_end turns a
# fail made inside a loop or a subshell into a FAILED line.
. "$(dirname "$0")/lib.sh"

LINT=$ROOT/scripts/check-test-lint
have python3 || { skip "test lint" "python3 not installed"; exit 0; }
check "no ok line in tests/cli prints without its assertion" "$LINT" "$ROOT"/tests/cli/*.sh
[ -s "$T/.err" ] && sed 's/^/    /' "$T/.err" >&2

cat >"$T/planted.sh" <<'PLANTED'
for x in a b; do
	[ "$x" = a ] || fail "x is a"
done
pass "every x is a"
if [ -e /nonexistent ]; then
	fail "nothing there"
fi
pass "nothing there"
if ! true; then
	fail "true works"; exit 0
fi
pass "true works"
PLANTED
check_exit "a planted bare pass is caught" 1 "$LINT" "$T/planted.sh"
[ "$(grep -c 'planted.sh:' "$T/.err")" -eq 2 ] && grep -q 'planted.sh:4: pass after a loop' "$T/.err" &&
	grep -q 'planted.sh:8: pass after an if-block' "$T/.err" &&
	pass "the lint names both, not the guarded one" || fail "the lint names both" "$(cat "$T/.err")"

# group_end: a fail inside the group, even in a subshell, is not an ok
out=$(
	SUITE=inner T=$(mktemp -d "$T/g.XXXXXX")
	group_begin
	for x in a b; do echo "$x"; done | while read -r x; do [ "$x" = a ] || fail "x is a"; done
	group_end "every x is a"
	group_begin
	group_end "an empty group passes"
)
printf '%s\n' "$out" | grep -q '^FAILED - inner: every x is a (a part failed' &&
	printf '%s\n' "$out" | grep -q '^ok - inner: an empty group passes' &&
	! printf '%s\n' "$out" | grep -q '^ok - inner: every x is a' &&
	pass "group_end sees a fail made in a pipeline's subshell" ||
	fail "group_end sees a fail made in a pipeline's subshell" "$out"
