#!/usr/bin/env bash
# tests/cli/76-history-untrusted.sh - notes are untrusted input from the
# whole team (issue 29): a malformed note (even outside --range), one over
# the size budget (--max-note-size names the way to raise it) and one
# with numbers no measurement gives (a negative run, 1e308, all-zero runs)
# are each skipped with a warning naming the commit and the reason, and
# show, detect, plot and guard go on with the rest; guard says how many it
# skipped and 'trail history check' lists them.  What trail would store
# itself is held to the same bounds (record --profile of an empty file,
# --value -5).  On the old code one bad note made every command exit 1.
. "$(dirname "$0")/lib.sh"

if ! have git || ! have python3; then skip "untrusted notes" "needs git and python3"; exit 0; fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

R=$T/repo
git init -q -b main "$R"
for i in $(seq 1 10); do echo "$i" >"$R/f"; git -C "$R" add f; git -C "$R" commit -q -m "c$i"; done
printf 'main;work 60\nmain;io 40\n' >"$T/p.folded"
for i in $(seq 1 10); do
	"$TRAIL" history record -C "$R" --rev "HEAD~$((10 - i))" --profile "$T/p.folded" --metric wall \
		--unit ms --value $((100 + i % 3)) --value $((101 + i % 2)) --value 102 >/dev/null 2>&1 ||
		fail "record commit $i"
done
# mutate COMMIT PYTHON-EXPRESSION-ON-d: rewrite the commit's note
mutate() {
	git -C "$R" notes --ref=trail show "$1" | python3 -c '
import json, sys
d = json.loads(sys.stdin.readline())
'"$2"'
print(json.dumps(d))' >"$T/note" && git -C "$R" notes --ref=trail add -f -F "$T/note" "$1" 2>/dev/null
}
short() { git -C "$R" rev-parse --short=12 "$1"; }
mutate HEAD~9 'd["runs"] = [-5, 100, 101]'
mutate HEAD~8 'd["runs"] = [1e308, 100, 101]'
mutate HEAD~7 'd["runs"] = [0, 0, 0]'
git -C "$R" notes --ref=trail add -f -m '{"v":1,"status":"ok"' HEAD~6 2>/dev/null
# a 2 MiB note: a valid result whose one function name is 2 MiB long
mutate HEAD~5 'd["functions"][0][0] = "x" * (2 << 20)'

for sub in show detect "plot -o $T/p.svg" guard; do
	# shellcheck disable=SC2086
	check_exit "$sub with bad notes outside --range: exit 0" 0 "$TRAIL" history $sub -C "$R" --range HEAD~3..HEAD
done
check_exit "show: exit 0" 0 "$TRAIL" history show -C "$R"
grep -c "^[0-9a-f]\{12\} " "$T/.out" | grep -qx 5 && pass "show: the 5 sound notes are shown" ||
	fail "show: the 5 sound notes are shown" "$(cat "$T/.out")"
group_begin
for c in "HEAD~9:run 1 is -5" "HEAD~8:run 1 is 1e+308" "HEAD~7:every run is 0" \
	"HEAD~6:line 1:" "HEAD~5:--max-note-size"; do
	grep "warning: note of $(short "${c%%:*}") skipped" "$T/.err" | grep -q -- "${c#*:}" ||
		fail "a warning for ${c%%:*} says '${c#*:}'" "$(cat "$T/.err")"
done
[ "$(grep -c 'warning: note of' "$T/.err")" = 5 ] || fail "one warning per bad note" "$(cat "$T/.err")"
group_end "each bad note: one warning naming the commit and the reason"

check_exit "guard: exit 0" 0 "$TRAIL" history guard -C "$R"
grep -q "^guard: 5 note(s) skipped" "$T/.out" && pass "guard says how many notes it skipped" ||
	fail "guard says how many notes it skipped" "$(cat "$T/.out")"
check_exit "check: exit 1 when notes are skipped" 1 "$TRAIL" history check -C "$R"
[ "$(grep -c "^[0-9a-f]\{40\} skipped" "$T/.out")" = 5 ] && grep -q "^$(git -C "$R" rev-parse HEAD~9) skipped" "$T/.out" &&
	pass "check lists each skipped note by full id" || fail "check lists each skipped note by full id" "$(cat "$T/.out")"
"$TRAIL" history show -C "$R" --max-note-size 4000000 >"$T/.out" 2>"$T/.err"
! grep -q "$(short HEAD~5) skipped" "$T/.err" && [ "$(grep -c "^[0-9a-f]\{12\} " "$T/.out")" = 6 ] &&
	pass "--max-note-size raises the budget" || fail "--max-note-size raises the budget" "$(cat "$T/.err")"

# what trail itself would store: the same bounds
check_exit "record --profile /dev/null: refused" 1 "$TRAIL" history record -C "$R" --profile /dev/null --value 3 --unit ms
grep -q "no samples" "$T/.err" && pass "an empty profile: says so" || fail "an empty profile: says so" "$(cat "$T/.err")"
check_exit "record --value -5: refused" 1 "$TRAIL" history record -C "$R" --profile "$T/p.folded" --value -5 --unit ms
check_exit "record --value 0 alone: refused" 1 "$TRAIL" history record -C "$R" --profile "$T/p.folded" --value 0 --unit ms
check_exit "record --value 1e300: refused" 1 "$TRAIL" history record -C "$R" --profile "$T/p.folded" --value 1e300 --unit ms

# after cleanup with the command check names, everything is sound again
for c in HEAD~9 HEAD~8 HEAD~7 HEAD~6 HEAD~5; do git -C "$R" notes --ref=trail remove "$c" 2>/dev/null; done
check_exit "check after removing them: exit 0" 0 "$TRAIL" history check -C "$R"

# hostile strings in notes and subjects never reach the terminal raw:
# colour, an OSC window title ended by BEL, in a function name, the unit,
# the metric, env fields and a commit subject; every printer is run
echo 11 >"$R/f"; git -C "$R" commit -q -am "$(printf 'c11 \033]0;pwned\007 \033[31mred')"
"$TRAIL" history record -C "$R" --profile "$T/p.folded" --metric wall --unit ms --value 130 --value 131 \
	--value 132 >/dev/null 2>&1 || fail "record the hostile commit"
EVIL='"\u001b[31mevil\u0007;\u001b]0;title\u0007"'
for c in $(git -C "$R" notes --ref=trail list | cut -d' ' -f2); do
	mutate "$c" 'd["unit"] = "\u001b]0;u\u0007ms"; d["functions"][0][0] = '"$EVIL"'; d["env"]["cpu"] = "\u001b[2J"'
done
raw() { LC_ALL=C grep -q "$(printf '[\033\007]')" "$@"; }
group_begin
for sub in show "show --function $(printf '\033[31mevil\007;\033]0;title\007')" detect guard check \
	"backfill --range HEAD~1..HEAD --print --build true --run true --repeat 1"; do
	# shellcheck disable=SC2086
	"$TRAIL" history $sub -C "$R" >"$T/.out" 2>"$T/.err"
	! raw "$T/.out" "$T/.err" || fail "history ${sub%% *}: no raw escape reaches the terminal" \
		"$(cat -v "$T/.out" "$T/.err" | grep -m3 '\^\[\|\^G')"
done
"$TRAIL" history guard -C "$R" >"$T/.out" 2>&1
grep -q 'x1b\]0;u\\x07ms' "$T/.out" || fail "guard shows the unit, escaped" "$(cat -v "$T/.out")"
"$TRAIL" history show -C "$R" >"$T/.out" 2>&1
grep -q 'x1b\]0;u\\x07ms' "$T/.out" && grep -q 'x1b\[31mevil' "$T/.out" ||
	fail "show shows the unit and the function, escaped" "$(cat -v "$T/.out")"
group_end "every history printer escapes what notes and subjects hold"
