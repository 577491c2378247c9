# tests/cli/lib.sh - sourced by every CLI test script.
#
# Provides $TRAIL (the binary under test), $SHARED (../shared, may be
# missing), a scratch directory $T removed at exit (XDG_CACHE_HOME points
# into it, so tests never write the user's caches), and the reporting
# helpers whose lines tests/run counts:
#   pass NAME          ok - NAME
#   fail NAME [WHY]    FAILED - NAME
#   skip NAME WHY      skip - NAME
#   check NAME CMD...  runs CMD; pass if it exits 0, else fail
#   check_exit NAME CODE CMD...  pass if CMD exits with CODE
#   group_begin; ...fail...; group_end NAME
#                      a check made of many (a loop of 'cond || fail'):
#                      ok - NAME only when no fail ran in between, even in
#                      a subshell; a bare 'pass' after such a loop would
#                      print ok whatever happened (tests/cli/01-test-lint.sh
#                      rejects that)
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${TRAIL_BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TRAIL=${TRAIL:-$BUILD/trail}
SHARED=${TRAIL_SHARED:-$ROOT/../shared}
SUITE=$(basename "$0" .sh)
T=$(mktemp -d "${TMPDIR:-/tmp}/trail-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
# caches (debug info, flame's clones) stay in the scratch directory
export XDG_CACHE_HOME=$T/cache

pass() { echo "ok - $SUITE: $1"; }
# every fail leaves a line in $T/.fails, so a group sees fails made in
# subshells (pipelines, $(...)) too
fail() {
	echo "FAILED - $SUITE: $1"; [ $# -gt 1 ] && echo "    $2" >&2
	echo x >>"$T/.fails"; return 0
}
fail_count() { [ -f "$T/.fails" ] && wc -l <"$T/.fails" || echo 0; }
group_begin() { GROUP_FAILS=$(fail_count); }
group_end() {
	if [ "$(fail_count)" -eq "${GROUP_FAILS:?group_end without group_begin}" ]; then
		pass "$1"
	else
		echo "FAILED - $SUITE: $1 (a part failed, above)"
	fi
	unset GROUP_FAILS
}
skip() { echo "skip - $SUITE: $1 ($2)"; }
check() {
	local name=$1; shift
	if "$@" >"$T/.out" 2>"$T/.err"; then pass "$name"; else
		fail "$name" "command failed: $*"; sed 's/^/    /' "$T/.err" | head -20 >&2; fi
}
check_exit() {
	local name=$1 want=$2 got; shift 2
	"$@" >"$T/.out" 2>"$T/.err"; got=$?
	if [ "$got" -eq "$want" ]; then pass "$name"; else
		fail "$name" "exit $got, expected $want: $*"; sed 's/^/    /' "$T/.err" | head -20 >&2; fi
}
have() { command -v "$1" >/dev/null 2>&1; }
# need_perf_record NAME: end the suite with a skip line unless perf, a C
# compiler and the permission to record are there
need_perf_record() {
	have perf || { skip "$1" "perf not installed"; exit 0; }
	have cc || { skip "$1" "no C compiler"; exit 0; }
	if ! perf record -q -o "$T/probe.data" -F 99 -- true >/dev/null 2>&1; then
		skip "$1" "perf record not permitted (perf_event_paranoid?)"
		exit 0
	fi
}
# awaited_line FILE PID: FILE's first line once something wrote it (up to
# 60 s), or nothing when PID ends first
awaited_line() {
	local i
	for i in $(seq 1 600); do
		[ -s "$1" ] && break
		kill -0 "$2" 2>/dev/null || break
		sleep 0.1
	done
	head -1 "$1" 2>/dev/null
}
# pid_ended PID: whether PID is gone (or a zombie) within 10 s; a kill is
# immediate, the wait only allows for a slow machine
pid_ended() {
	local i
	for i in $(seq 1 100); do
		if ! kill -0 "$1" 2>/dev/null || ps -o stat= -p "$1" | grep -q '^Z'; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}
# trail_stacks ARGS...: 'trail collapse ARGS' without its weight header
# (perf.data folded by period names the unit in a '# trail-folded' line that
# 'perf script | trail collapse' does not have); exit status kept
trail_stacks() {
	local rc
	"$TRAIL" collapse "$@" > "$T/.stacks"; rc=$?
	sed '/^# trail-folded /d' "$T/.stacks"
	return $rc
}
