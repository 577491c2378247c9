#!/usr/bin/env bash
# tests/cli/79-flame-inprocess.sh - trail flame samples its runs with
# trail's sampler in its own process, not by running 'trail record': the
# workload's parent is trail flame itself, and it gets what a measured run
# is promised - its worktree as the directory, /dev/null as input, the
# user's environment, trail's process group (apart from the caller's).
# SIGINT to trail during an in-process recording stops trail (not just
# that run), ends the workload and leaves no scratch directory behind.
# Cheap: a two-commit repository, builds of 'true', a workload of 'sh'.
. "$(dirname "$0")/lib.sh"

have git || { skip "flame in-process" "needs git"; exit 0; }
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "flame in-process" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
R=$T/repo
gc() { git -C "$R" -c user.name=t -c user.email=t@t "$@"; }
git init -q "$R" && gc commit -q --allow-empty -m one && gc commit -q --allow-empty -m two ||
	{ fail "make repository"; exit 0; }

# What each run sees, one line of fields per run.
cat >"$T/seen.sh" <<EOS
parent=\$(tr '\\0' ' ' </proc/\$PPID/cmdline)
set -- \$parent
printf '%s|%s|%s|%s|%s\\n' "\$2" "\$(pwd)" "\$(readlink /proc/self/fd/0)" "\$TRAIL_TEST_MARK" \\
	"\$(cut -d' ' -f5 /proc/self/stat)" >>'$T/seen'
EOS
mine=$(cut -d' ' -f5 /proc/self/stat)
(cd "$R" && TRAIL_TEST_MARK=from-the-user "$TRAIL" flame --good HEAD~1 --bad HEAD --build true \
	--run "sh $T/seen.sh" --metric cpu --profiler trail --repeat 2 --max-repeat 2 \
	--warmup-runs 0 --cache "$T/cache" --out "$T/out") >/dev/null 2>"$T/flame.err"
rc=$?
runs=$(wc -l <"$T/seen" 2>/dev/null || echo 0)
# any verdict (two empty commits: mostly inconclusive, at times "no
# regression", exit 6, when the interval falls below the minimum) - not a
# failure (1) or a usage error (2)
if [ "$rc" -le 6 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ] && [ "$runs" -ge 4 ]; then
	pass "flame measured $runs runs with --profiler trail"
else
	fail "flame measured the runs" "exit $rc, $runs runs: $(tail -2 "$T/flame.err")"
fi
bad=$(awk -F'|' '$1 != "flame"' "$T/seen")
[ "$runs" -ge 4 ] && [ -z "$bad" ] && pass "the workload's parent is trail flame, not trail record" ||
	fail "the workload's parent is trail flame, not trail record" "$bad"
bad=$(awk -F'|' -v c="$T/cache/" 'index($2, c) != 1 || $3 != "/dev/null" || $4 != "from-the-user"' "$T/seen")
[ "$runs" -ge 4 ] && [ -z "$bad" ] &&
	pass "the workload runs in its worktree, stdin /dev/null, the user's environment" ||
	fail "the workload runs in its worktree, stdin /dev/null, the user's environment" "$bad"
groups=$(cut -d'|' -f5 "$T/seen" | sort -u)
[ "$runs" -ge 4 ] && [ "$(echo "$groups" | wc -l)" -eq 1 ] && [ "$groups" != "$mine" ] &&
	pass "the workload is in trail's process group, not the caller's" ||
	fail "the workload is in trail's process group, not the caller's" "groups $groups, ours $mine"

# SIGINT to trail's pid alone, mid-recording: trail stops (killed by
# SIGINT, not going on to the next run), the workload goes, no scratch left.
mkdir -p "$T/tmp"
rm -f "$T/pids"
(cd "$R" && TMPDIR=$T/tmp exec "$TRAIL" flame --good HEAD~1 --bad HEAD --build true \
	--run "echo \$\$ >>'$T/pids'; exec sleep 120" --profiler trail --cache "$T/cache" \
	--out "$T/out-int") >/dev/null 2>"$T/int.err" &
pid=$!
work=$(awaited_line "$T/pids" "$pid")
if [ -z "$work" ]; then
	fail "SIGINT stops trail flame" "the workload never started: $(tail -2 "$T/int.err")"
else
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	gone=
	pid_ended "$work" && gone=1
	[ "$rc" -eq 130 ] && [ "$(wc -l <"$T/pids")" -eq 1 ] && pass "SIGINT stops trail flame (exit 130, no further run)" ||
		fail "SIGINT stops trail flame (exit 130, no further run)" "exit $rc, $(wc -l <"$T/pids") runs: $(tail -2 "$T/int.err")"
	[ -n "$gone" ] && pass "SIGINT to trail ends the workload" ||
		{ fail "SIGINT to trail ends the workload" "$(ps -o pid,pgid,stat,args -p "$work")"; kill -KILL "$work" 2>/dev/null; }
	left=$(ls -A "$T/tmp")
	[ -z "$left" ] && pass "SIGINT leaves no scratch directory" ||
		fail "SIGINT leaves no scratch directory" "$left"
fi
