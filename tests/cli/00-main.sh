#!/usr/bin/env bash
# tests/cli/00-main.sh - the trail binary itself: help, version, command
# table, usage errors and the stdout write check.
. "$(dirname "$0")/lib.sh"

check "version prints" "$TRAIL" --version
grep -q '^trail [0-9]' "$T/.out" && pass "version format" || fail "version format"
check "help lists commands" "$TRAIL" --help
group_begin
for c in collapse flamegraph diff record bench flame; do
	grep -q "^    $c " "$T/.out" || fail "help lists $c"
done
group_end "help lists every command"
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

# --- common options: every command takes --version, -q, -v ------------------
declare -A seen=()
group_begin
for c in $("$TRAIL" help --commands); do
	out=$("$TRAIL" $c --version 2>&1)
	case $out in "trail "[0-9]*) ;; *) fail "$c --version" "$out"; continue ;; esac
	"$TRAIL" help --options $c >"$T/opts" 2>"$T/opts.err" || { fail "help --options $c"; continue; }
	grep -qx -- '--verbose' "$T/opts" && grep -qx -- '-h' "$T/opts" ||
		fail "help --options $c lists the common options" "$(head -3 "$T/opts")"
	# every long option the list gives is accepted by the parser (no "unknown
	# option").  Sanitized, one option per value word (N, FILE, ...) across
	# the commands, one flag, one --no- flag and the common ones: a trail
	# start costs 0.1 s of CPU there, and the ~300 options' run was 35 of
	# the suite's 44 s; options of one word share their parse (gcov: these
	# ~55 reach every line of src/ that the ~300 reach), and every name is
	# checked by the plain run
	while read -r o arg; do
		case $o in --*) ;; *) continue ;; esac
		if [ -n "${TRAIL_SANITIZED:-}" ]; then
			case $o in
			--no-*) w=negated ;;
			--quiet | --verbose | --version | --help) w=$o ;;
			*) w=w$arg ;;
			esac
			[ -z "${seen[$w]:-}" ] || continue
			seen[$w]=1
		fi
		"$TRAIL" $c "$o${arg:+=x}" --help >/dev/null 2>"$T/o.err"
		err=; read -r -d '' err <"$T/o.err"
		case $err in *"unknown option"*) fail "$c accepts $o" "$err" ;; esac
	done <"$T/opts"
done
group_end "every command takes --version and lists its options"
[ -z "${TRAIL_SANITIZED:-}" ] ||
	skip "the parser accepts every listed option" "sanitized: one option per value word, the names in the plain run"
"$TRAIL" help --commands >"$T/cmds"
[ "$(wc -l <"$T/cmds")" -eq "$(grep -c '^    [a-z]' <("$TRAIL" --help | sed -n '/^commands:/,/^$/p'))" ] &&
	pass "help --commands lists the command table" || fail "help --commands lists the command table"
printf 'a;b 1\n' >"$T/one.folded"
"$TRAIL" top -q "$T/one.folded" >/dev/null 2>"$T/q.err" && [ ! -s "$T/q.err" ] && pass "command -q" || fail "command -q"
"$TRAIL" top -v "$T/one.folded" >/dev/null 2>"$T/v.err" && grep -q "read '.*' as folded stacks" "$T/v.err" &&
	pass "command -v prints notes" || fail "command -v prints notes" "$(cat "$T/v.err")"
"$TRAIL" -v top "$T/one.folded" >/dev/null 2>"$T/v.err" && grep -q "as folded stacks" "$T/v.err" &&
	pass "global -v" || fail "global -v"
"$TRAIL" bench --help | grep -q -- '--quiet' && pass "a command's own --quiet wins" || fail "a command's own --quiet wins"

# --- every command's manual: docs/CMD.md's SYNOPSIS block is the -h text ----
for c in $("$TRAIL" help --commands); do
	[ -f "$ROOT/docs/$c.md" ] || { fail "docs/$c.md exists"; continue; }
	"$TRAIL" $c -h | sed 's/[[:space:]]*$//' >"$T/help"
	awk '/^## SYNOPSIS/ { s = 1; next } s && /^```$/ { if (in_block) exit; in_block = 1; next }
	     in_block { print }' "$ROOT/docs/$c.md" >"$T/synopsis"
	cmp -s "$T/help" "$T/synopsis" && pass "docs/$c.md synopsis is the -h text" ||
		fail "docs/$c.md synopsis is the -h text" "$(diff "$T/help" "$T/synopsis" | head -5)"
done
"$TRAIL" --help | sed 's/[[:space:]]*$//' >"$T/help"
awk '/^## SYNOPSIS/ { s = 1; next } s && /^```$/ { if (in_block) exit; in_block = 1; next }
     in_block { print }' "$ROOT/docs/trail.md" >"$T/synopsis"
cmp -s "$T/help" "$T/synopsis" && pass "docs/trail.md synopsis is trail --help" ||
	fail "docs/trail.md synopsis is trail --help" "$(diff "$T/help" "$T/synopsis" | head -5)"

# --- one exit-code table: trail help exit-codes and docs/trail.md agree ----
"$TRAIL" help exit-codes >"$T/codes" && pass "help exit-codes: exit 0" || fail "help exit-codes: exit 0"
awk '{ print $1 }' "$T/codes" | sort -n | uniq | tr '\n' ' ' >"$T/codes.nums"
sed -n '/^## EXIT STATUS/,/^## /p' "$ROOT/docs/trail.md" | awk -F'|' '/^\| [0-9]/ { gsub(/ /, "", $2); print $2 }' |
	sort -n | uniq | tr '\n' ' ' >"$T/doc.nums"
cmp -s "$T/codes.nums" "$T/doc.nums" && grep -q "^125 " "$T/codes" && grep -q "^255 " "$T/codes" &&
	pass "help exit-codes lists docs/trail.md's codes" ||
	fail "help exit-codes lists docs/trail.md's codes" "$(cat "$T/codes.nums") vs $(cat "$T/doc.nums")"
# one meaning per code: no status listed twice (flame's "no regression" was
# 3, the status of bench's and guard's "a regression", until 0.2)
dups=$(awk '$1 ~ /^[0-9]+$/ { print $1 }' "$T/codes" | sort | uniq -d | tr '\n' ' ')
[ -z "$dups" ] && pass "help exit-codes: each status has one meaning" ||
	fail "help exit-codes: each status has one meaning" "listed twice: $dups"
