#!/usr/bin/env bash
# tests/cli/76-history-git-door.sh - no argument a user gives reaches git
# as an option (issue 29): every command and option that takes a revision,
# a range or a repository URL (history show/plot/detect/backfill --range,
# record/guard --rev, backfill --commit and --remote-repo, flame --good,
# --bad and --remote-repo) is walked with the spellings git would obey
# (--output=FILE, --all, -n1, --exec=...), alone and as a range's end:
# each is refused with an error naming the option, and nothing is written.
# On the old code 'show --range --output=victim' replaced the file with
# git log's output.
. "$(dirname "$0")/lib.sh"

if ! have git; then skip "git door" "needs git"; exit 0; fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com

R=$T/repo
git init -q -b main "$R"
for i in 1 2 3; do echo "$i" >"$R/f"; git -C "$R" add f; git -C "$R" commit -q -m "c$i"; done
printf 'main;work 10\n' >"$T/p.folded"
"$TRAIL" history record -C "$R" --profile "$T/p.folded" --value 5 --unit ms >/dev/null 2>&1 ||
	fail "a result to read" "record --profile failed"
cd "$T" || exit 1
echo DATA >"$T/victim"
B="--build true --run true"

# option: the command before it; the spelling follows the option
cases=(
	"--range|history show -C $R"
	"--range|history plot -C $R -o $T/plot.svg"
	"--range|history detect -C $R"
	"--range|history backfill -C $R $B"
	"--rev|history record -C $R $B"
	"--rev|history record -C $R --profile $T/p.folded"
	"--rev|history guard -C $R"
	"--commit|history backfill -C $R $B"
	"--remote-repo|history backfill -C $R $B --range HEAD --hosts $T/hosts"
	"--good|flame -C $R --bad HEAD $B"
	"--bad|flame -C $R --good HEAD~2 $B"
	"--remote-repo|flame -C $R --good HEAD~2 --bad HEAD $B --hosts $T/hosts"
)
printf 'local\n' >"$T/hosts"
spellings=("--output=$T/victim" "--all" "-n1" "--exec=touch $T/pwned" "--output=$T/new")
ranges=("HEAD~1..--output=$T/victim" "--output=$T/victim..HEAD" "HEAD...HEAD~1")

group_begin
for c in "${cases[@]}"; do
	opt=${c%%|*}; cmd=${c#*|}
	list=("${spellings[@]}")
	[ "$opt" = --range ] && list+=("${ranges[@]}")
	for s in "${list[@]}"; do
		# shellcheck disable=SC2086  # cmd is words
		"$TRAIL" $cmd "$opt" "$s" >"$T/.out" 2>"$T/.err"; code=$?
		what="trail $cmd $opt '$s'"
		[ "$code" -ne 0 ] || fail "$what: refused" "exit 0"
		grep -q -- "$opt" "$T/.err" || fail "$what: the error names $opt" "$(cat "$T/.err")"
		[ "$(cat "$T/victim")" = DATA ] || { fail "$what: nothing written"; echo DATA >"$T/victim"; }
		[ ! -e "$T/pwned" ] && [ ! -e "$T/new" ] || { fail "$what: nothing run or created"; rm -f "$T/pwned" "$T/new"; }
	done
done
group_end "every revision, range and URL option refuses option spellings, naming the option"

# what is allowed still works: A..B, A.., a bare revision
check "show --range HEAD~2..HEAD" "$TRAIL" history show -C "$R" --range HEAD~2..HEAD
check "show --range HEAD~1.." "$TRAIL" history show -C "$R" --range HEAD~1..
check "show --range main" "$TRAIL" history show -C "$R" --range main
check_exit "show --range no-such-rev: exit 1" 1 "$TRAIL" history show -C "$R" --range no-such-rev
grep -q -- "--range 'no-such-rev'" "$T/.err" && pass "an unknown revision names --range" ||
	fail "an unknown revision names --range" "$(cat "$T/.err")"
[ -z "$(git -C "$R" status --porcelain)" ] && pass "work tree untouched" || fail "work tree untouched"
