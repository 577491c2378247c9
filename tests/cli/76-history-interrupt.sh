#!/usr/bin/env bash
# tests/cli/76-history-interrupt.sh - an interrupted backfill keeps its work
# (issue 29): each commit's note is stored as soon as it is measured, so a
# SIGINT (or SIGTERM) after three commits leaves three notes and says so,
# with how to go on; running the same command again measures only the
# rest.  The workload itself sends the signal once three notes exist, so
# nothing depends on timing.  A failed run's log is kept outside the
# scratch directory and named.  On the old code the backfill stored nothing
# before its last round and exited 130 silently, and the log named was gone.
. "$(dirname "$0")/lib.sh"

if ! have git; then skip "interrupted backfill" "needs git"; exit 0; fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "interrupted backfill" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export R=$T/repo
git init -q -b main "$R"
for i in 1 2 3 4 5 6; do echo "$i" >"$R/f"; git -C "$R" add f; git -C "$R" commit -q -m "c$i"; done
cat >"$T/run.sh" <<'SH'
i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done
n=$(git -C "$R" notes --ref=trail list 2>/dev/null | wc -l)
[ "$n" -ge 3 ] && [ -s "$PIDF" ] && kill -"$SIG" "$(cat "$PIDF")"
exit 0
SH
notes() { git -C "$R" notes --ref=trail list 2>/dev/null | wc -l; }
backfill() {
	"$TRAIL" history backfill -C "$R" --range HEAD --build true --run "sh $T/run.sh" --repeat 2 \
		--metric wall >"$T/.out" 2>"$T/.err" &
	echo $! >"$PIDF.tmp"
	[ "$PIDF" = "$T/pid.none" ] || mv "$PIDF.tmp" "$PIDF"
	wait $!
}

for sig in INT TERM; do
	git -C "$R" update-ref -d refs/notes/trail
	export SIG=$sig PIDF=$T/pid.$sig	# its own: a workload still ending signals no later run
	backfill; code=$?
	[ "$code" -ne 0 ] && [ "$(notes)" = 3 ] && pass "SIG$sig after three commits: three notes kept" ||
		fail "SIG$sig after three commits: three notes kept" "exit $code, $(notes) note(s); $(cat "$T/.err")"
	grep -q "backfill stopped: 3 result(s) stored.*run the same command again" "$T/.err" &&
		pass "SIG$sig: says how many were stored and how to go on" ||
		fail "SIG$sig: says how many were stored and how to go on" "$(cat "$T/.err")"
done
export PIDF=$T/pid.none
backfill
grep -q "^backfill: 3 commit(s) measured, 3 already stored" "$T/.out" && [ "$(notes)" = 6 ] &&
	pass "the same command again measures only the rest" ||
	fail "the same command again measures only the rest" "$(cat "$T/.out" "$T/.err")"
! grep -q "stopped" "$T/.err" && pass "a backfill that ends says nothing of stopping" ||
	fail "a backfill that ends says nothing of stopping" "$(cat "$T/.err")"

# a failed run's log outlives the run (issue 29): the path the error names
# is under $XDG_STATE_HOME/trail/logs and holds what the workload wrote
export XDG_STATE_HOME=$T/state
"$TRAIL" history record -C "$R" --rev HEAD~1 --build true --run 'echo the-workload-said-this; exit 7' \
	--repeat 1 --metric wall >"$T/.out" 2>"$T/.err"
log=$(sed -n 's/.*exited with status 7 (log: \(.*\))$/\1/p' "$T/.err" | head -1)
case $log in "$T/state/trail/logs/"*) ok=1 ;; *) ok=0 ;; esac
[ "$ok" = 1 ] && grep -q the-workload-said-this "$log" &&
	pass "a failed run's log is kept under \$XDG_STATE_HOME/trail/logs and named" ||
	fail "a failed run's log is kept under \$XDG_STATE_HOME/trail/logs and named" "log '$log'; $(cat "$T/.err")"
