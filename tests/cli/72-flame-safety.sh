#!/usr/bin/env bash
# tests/cli/72-flame-safety.sh - trail flame never changes the user's
# repository: with a bisect of the user's own in progress, a stash, staged
# and unstaged changes and an untracked file, the working tree, index,
# HEAD, stash, every ref (refs/bisect/* included), the bisect state files
# and the worktree list are byte for byte the same after a complete run,
# after Ctrl-C (SIGINT to the process group) in the middle of trail's
# bisect, and after SIGKILL there; a later run still works.
. "$(dirname "$0")/lib.sh"

if ! have perf || ! have python3 || ! have make || ! have cc; then
	skip "flame safety" "needs perf, python3, make and cc"; exit 0
fi
if ! perf record -q -o "$T/check.data" true >/dev/null 2>&1; then
	skip "flame safety" "perf record cannot sample here"; exit 0
fi
R=$T/repo
"$ROOT/tests/e2e/make-history" "$R" --shape slowdown --commits 10 --seed 21 --scale 0.5 >"$T/env" ||
	{ fail "generate history"; exit 0; }
. "$T/env"
g() { git -C "$R" -c user.name=u -c user.email=u@example.com "$@"; }

# The user's state: their own bisect, a stash, staged, unstaged, untracked.
g bisect start >/dev/null
g bisect bad "$BAD" >/dev/null
g bisect good "$GOOD" >/dev/null
echo "/* stashed */" >>"$R/main.c" && g stash -q
echo "/* staged */" >>"$R/util.c" && g add util.c
echo "/* unstaged */" >>"$R/work.c"
echo "notes" >"$R/notes.txt"

snapshot() {
	echo "HEAD $(g rev-parse HEAD) $(g symbolic-ref -q HEAD)"
	g status --porcelain=v1 --untracked-files=all
	g diff; g diff --cached; g stash list
	g for-each-ref --format='%(refname) %(objectname)'
	for f in BISECT_LOG BISECT_TERMS BISECT_START BISECT_EXPECTED_REV BISECT_NAMES BISECT_ANCESTORS_OK; do
		[ -f "$R/.git/$f" ] && { echo "== $f"; cat "$R/.git/$f"; }
	done
	g worktree list --porcelain
	ls -a "$R/.git" | grep -v -x -e index -e ORIG_HEAD   # no new state files (index: stat data only)
	g ls-files -s
	sha1sum "$R"/*.c "$R"/*.h "$R/notes.txt"
}
snapshot >"$T/before"
ARGS=(--good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" --cache "$T/cache"
      --repeat 4 --warmup-runs 0 --probe-runs 2 --strategy bisect)

same_as_before() {
	snapshot >"$T/after"
	if diff -u "$T/before" "$T/after" >"$T/diff"; then pass "$1"; else
		fail "$1" "the repository changed"; head -40 "$T/diff" >&2; fi
}

# Interrupt trail in the middle of its git bisect run.
interrupt() {
	local sig=$1 pid i
	(cd "$R" && exec setsid "$TRAIL" flame "${ARGS[@]}" --out "$T/report-$sig") >"$T/$sig.out" 2>"$T/$sig.err" &
	pid=$!
	for i in $(seq 1 1500); do
		grep -q "narrow: bisecting\|trail flame probe: probe" "$T/$sig.err" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	if ! grep -q "narrow: bisecting\|trail flame probe: probe" "$T/$sig.err"; then
		fail "$sig mid-bisect: reached the bisect" "$(tail -5 "$T/$sig.err")"
		wait "$pid"; return
	fi
	sleep 1
	kill -"$sig" -- -"$pid" 2>/dev/null	# the whole process group, like Ctrl-C
	wait "$pid"
	# Zombies do not count: in some containers PID 1 never reaps orphans.
	# (up to 30 s: the signal is immediate, a loaded machine's exits are not)
	for i in $(seq 60); do
		ps -o stat= -g "$pid" 2>/dev/null | grep -qv '^Z' || break
		sleep 0.5
	done
	if ps -o stat= -g "$pid" 2>/dev/null | grep -qv '^Z'; then
		fail "$sig mid-bisect: no process left behind" "$(ps -o pid,pgid,stat,args -g "$pid")"; pkill -KILL -g "$pid"
	else
		pass "$sig mid-bisect: no process left behind"
	fi
	same_as_before "$sig mid-bisect: repository unchanged"
}

interrupt INT
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "flame safety: SIGKILL and complete run" "reduced subset under sanitizers"; exit 0
fi
interrupt KILL

# A complete run after the interruptions: it recovers its cache and finds it.
(cd "$R" && "$TRAIL" flame "${ARGS[@]}" --out "$T/report") >"$T/full.out" 2>"$T/full.err"
rc=$?
[ $rc -eq 0 ] && pass "complete run after interruptions" ||
	{ fail "complete run after interruptions" "exit $rc"; tail -20 "$T/full.err" >&2; }
grep -q "^suspect commit: ${CULPRIT:0:12}" "$T/full.out" && pass "complete run names the culprit" ||
	fail "complete run names the culprit"
same_as_before "complete run: repository unchanged"
[ "$(g bisect log | grep -c '^git bisect')" -ge 3 ] && pass "the user's bisect is still in progress" ||
	fail "the user's bisect is still in progress"
