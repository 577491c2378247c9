#!/usr/bin/env bash
# tests/cli/78-history-hosts.sh - trail history backfill --hosts: a
# backfill's commits dealt out over build hosts over plain ssh (the real
# sshd's of tests/cli/sshd-hosts.sh, as 77-flame-hosts).  Host 1 has two
# slots; host 2's measuring job dies (its build kills the trail
# running it), so its commits must be measured on host 1; host 3 has other
# CFLAGS, so another environment fingerprint: it must be left out, not
# start a series of its own.  Every commit of a 7-commit history must be
# stored once, in this machine's environment (identical "machines"), the
# hosts' private directories removed (also on Ctrl-C), their build caches
# kept.  Small builds, two runs a commit: seconds.  Nothing asserts a time.
. "$(dirname "$0")/lib.sh"

# --- usage: no ssh needed ---
printf 'box\n0/box2\n' >"$T/bad-hosts"
"$TRAIL" history backfill --range HEAD --build true --run true --hosts "$T/bad-hosts" >/dev/null 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] && grep -q "bad-hosts:2:" "$T/bad.err" && pass "bad hosts line: exit 2 with file:line" ||
	fail "bad hosts line: exit 2 with file:line" "exit $rc: $(cat "$T/bad.err")"
check_exit "--print does not go with --hosts" 2 "$TRAIL" history backfill --range HEAD --build true \
	--run true --hosts "$T/bad-hosts" --print
"$TRAIL" history -h | grep -q -- "--hosts FILE" && pass "-h lists --hosts" || fail "-h lists --hosts"

# --- real sshd ---
. "$(dirname "$0")/sshd-hosts.sh"
why=$(sshd_hosts_check)
[ -z "$why" ] || { skip "history over ssh" "$why"; exit 0; }
if ! have python3 || ! have make || ! have cc || ! have git; then
	skip "history over ssh" "needs python3, make, cc and git"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "history over ssh" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
sshd_keys || { skip "history over ssh" "ssh-keygen failed"; exit 0; }
if ! start_sshd 1 "" || ! start_sshd 2 "TRAIL_TEST_LOSE=1" || ! start_sshd 3 "CFLAGS=-O1"; then
	skip "history over ssh" "sshd does not start here: $(tail -1 "$T/host1/log" 2>/dev/null)"
	exit 0
fi
printf '2/%s -p %s 127.0.0.1\n%s -p %s 127.0.0.1\n%s -p %s 127.0.0.1\n' "$SSHCMD" "${PORT[1]}" \
	"$SSHCMD" "${PORT[2]}" "$SSHCMD" "${PORT[3]}" >"$T/hosts"
unset CC CFLAGS
export XDG_CACHE_HOME=$T/cache XDG_STATE_HOME=$T/state
R=$T/repo
"$ROOT/tests/e2e/gen-kinds" "$R" --kind dominant --seed 1 --commits 5 --scale 0.05 >"$T/gen.env" ||
	{ fail "generate"; exit 0; }
. "$T/gen.env"
# on host 2 the build kills the trail that runs it (its parent): the
# host's job dies mid-run, as when trail crashes or is killed there
BUILD="$BUILD && { [ -z \"\${TRAIL_TEST_LOSE:-}\" ] || kill -KILL \$PPID; }"
# two runs a commit; one under the sanitizers (the same code, half the
# sanitized profile reading: nothing here asserts on the numbers)
REP=2
[ -z "${TRAIL_SANITIZED:-}" ] || REP=1
ncommits=$(git -C "$R" rev-list --first-parent "$BAD" | wc -l)
key=$("$TRAIL" history backfill --print -C "$R" --build "$BUILD" --run "$RUN" | sed -n 's/^trail-history-env \([0-9a-f]*\).*/\1/p')

"$TRAIL" history backfill -C "$R" --range "$BAD" --build "$BUILD" --run "$RUN" --repeat "$REP" \
	--hosts "$T/hosts" --remote-trail "$HOST_TRAIL" >"$T/bf.out" 2>"$T/bf.err"
rc=$?
[ $rc -eq 0 ] && grep -q "^backfill: $ncommits commit(s) measured, 0 already stored, 0 failed" "$T/bf.out" &&
	pass "backfill --hosts: every commit measured" ||
	fail "backfill --hosts: every commit measured" "exit $rc: $(cat "$T/bf.out"; tail -20 "$T/bf.err")"
stored=0 inkey=0
for c in $(git -C "$R" rev-list --first-parent "$BAD"); do
	n=$(git -C "$R" notes --ref=trail show "$c" 2>/dev/null) || continue
	stored=$((stored + 1))
	[ "$(printf '%s\n' "$n" | wc -l)" -eq 1 ] && printf '%s' "$n" | grep -q "\"key\":\"$key\"" &&
		inkey=$((inkey + 1))
done
[ -n "$key" ] && [ $stored -eq "$ncommits" ] && [ $inkey -eq "$ncommits" ] &&
	pass "backfill --hosts: one result a commit, in this machine's environment" ||
	fail "backfill --hosts: one result a commit, in this machine's environment" \
		"key '$key', $stored stored, $inkey in it, of $ncommits"
grep -q "host 127.0.0.1 -p ${PORT[3]}: its environment [0-9a-f]* is not .*'s $key (its CFLAGS differs)" "$T/bf.err" &&
	! grep -q "host 127.0.0.1 -p ${PORT[3]} measured" "$T/bf.err" &&
	pass "other CFLAGS: the host is left out, named with what differs" ||
	fail "other CFLAGS: the host is left out, named with what differs" "$(grep "${PORT[3]}" "$T/bf.err")"
grep -q "host 127.0.0.1 -p ${PORT[2]}: measuring failed" "$T/bf.err" &&
	grep -q "host 127.0.0.1 -p ${PORT[1]} measured [1-9]" "$T/bf.err" &&
	pass "lost host: reported, its commits measured on another" ||
	fail "lost host: reported, its commits measured on another" "$(grep "backfill\|warning" "$T/bf.err")"
dirs=$(grep -o "$T/host1/tmp/trail-flame\.[A-Za-z0-9]*" "$T/bf.err" | sort -u | wc -l)
[ "$dirs" -ge 2 ] && pass "backfill --hosts: two slots' private directories on host 1" ||
	fail "backfill --hosts: two slots' private directories on host 1" "$dirs"
[ -z "$(find "$T/host1/tmp" "$T/host2/tmp" "$T/host3/tmp" -mindepth 1 2>/dev/null | head -1)" ] &&
	pass "backfill --hosts: private directories removed, also on the lost host" ||
	fail "backfill --hosts: private directories removed" "$(find "$T"/host*/tmp -mindepth 1)"
[ -d "$T/host1/cache/trail/flame-hosts" ] && pass "backfill --hosts: the build cache stays" ||
	fail "backfill --hosts: the build cache stays"
[ -z "$(git -C "$R" status --porcelain --ignored)" ] && pass "work tree untouched" ||
	fail "work tree untouched" "$(git -C "$R" status --porcelain --ignored)"

if [ -n "${TRAIL_SANITIZED:-}" ]; then
	# the same command again; its already-stored path runs sanitized in the
	# --commit case below ("1 already stored")
	skip "again: nothing left to measure" "a repeat of the backfill above; --commit below runs the already-stored path"
else
	check "again: nothing left to measure" "$TRAIL" history backfill -C "$R" --range "$BAD" \
		--build "$BUILD" --run "$RUN" --repeat "$REP" --hosts "$T/hosts" --remote-trail "$TRAIL"
	grep -q "^backfill: 0 commit(s) measured, $ncommits already stored" "$T/.out" &&
		pass "again: every commit already stored" || fail "again: every commit already stored" "$(cat "$T/.out")"
fi
check_exit "--env KEY no host has: exit 1" 1 "$TRAIL" history backfill -C "$R" --range "$BAD" \
	--build "$BUILD" --run "$RUN" --hosts "$T/hosts" --remote-trail "$HOST_TRAIL" --env 0123456789abcdef

# --commit: commits that are not ancestors of the last one given reach the host too
# (the host runs this build's trail: its --print side, history_hosts.c, runs
# sanitized here even where HOST_TRAIL is the plain build's)
printf '%s -p %s 127.0.0.1\n' "$SSHCMD" "${PORT[1]}" >"$T/hosts1"
side=$(git -C "$R" commit-tree -p "$GOOD" -m "a side branch" "$GOOD^{tree}") &&
	git -C "$R" update-ref refs/heads/side "$side"
check "--commit over ssh: a side branch's commit and an older one" "$TRAIL" history backfill -C "$R" \
	--commit "$side" --commit "$GOOD" --build "$BUILD" --run "$RUN" --repeat "$REP" --hosts "$T/hosts1" \
	--remote-trail "$TRAIL"
grep -q "^backfill: 1 commit(s) measured, 1 already stored, 0 failed" "$T/.out" &&
	git -C "$R" notes --ref=trail show "$side" | grep -q "\"key\":\"$key\"" &&
	pass "--commit over ssh: the side commit stored" ||
	fail "--commit over ssh: the side commit stored" "$(cat "$T/.out" "$T/.err" | tail -5)"

# Ctrl-C while host 1 measures: its job is cancelled and its directory removed
if [ -z "${TRAIL_SANITIZED:-}" ]; then
	"$TRAIL" history backfill -C "$R" --range "$BAD" --build "$BUILD && sleep 30" --run "$RUN" \
		--repeat "$REP" --hosts "$T/hosts1" --remote-trail "$TRAIL" --remote-repo "file://$R" \
		>/dev/null 2>"$T/int.err" &
	tp=$!
	during=0
	for _ in $(seq 600); do
		grep -q "commit(s) on " "$T/int.err" 2>/dev/null &&
			during=$(find "$T/host1/tmp" -mindepth 1 -maxdepth 1 -name 'trail-flame.*' | wc -l)
		[ "$during" -ge 1 ] && break
		kill -0 $tp 2>/dev/null || break
		sleep 0.1
	done
	kill -INT $tp
	wait $tp
	rc=$?
	[ "$during" -ge 1 ] && pass "Ctrl-C: the host measured in a private directory" ||
		fail "Ctrl-C: the host measured in a private directory" "$(tail -5 "$T/int.err")"
	[ $rc -ne 0 ] && pass "Ctrl-C: trail stops" || fail "Ctrl-C: trail stops" "exit $rc"
	gone=1
	for _ in $(seq 600); do	# up to 60 s on a loaded machine
		[ -z "$(find "$T/host1/tmp" -mindepth 1 2>/dev/null | head -1)" ] && { gone=0; break; }
		sleep 0.1
	done
	[ $gone -eq 0 ] && pass "Ctrl-C: the host's private directory removed" ||
		fail "Ctrl-C: the host's private directory removed" "$(find "$T/host1/tmp" -mindepth 1)"
fi

# a bench suite (.trail) over ssh: each bench's commits measured on the host, in that
# bench's environment (its key: this machine's for the bench), results of benches apart
S=$T/suite
"$ROOT/tests/e2e/gen-suite" "$S" 3 2 || { fail "generate the suite"; exit 0; }
check "backfill --hosts with .trail: two benches over ssh" "$TRAIL" history backfill -C "$S" \
	--range HEAD --bench alpha --bench beta --repeat 1 --hosts "$T/hosts1" --remote-trail "$HOST_TRAIL"
[ "$(grep -c '^backfill: 3 commit(s) measured, 0 already stored, 0 failed' "$T/.out")" = 2 ] &&
	grep -q "host 127.0.0.1 -p ${PORT[1]} measured" "$T/.err" &&
	pass "backfill --hosts: every commit of each bench measured on the host" ||
	fail "backfill --hosts: every commit of each bench measured on the host" "$(cat "$T/.out"; tail -5 "$T/.err")"
for b in alpha beta; do
	m=cpu; [ $b = beta ] && m=rss
	k=$("$TRAIL" history backfill --print -C "$S" --bench $b --metric $m |
		sed -n 's/^trail-history-env \([0-9a-f]*\).*/\1/p')
	n=0
	for c in $(git -C "$S" rev-list HEAD); do
		git -C "$S" notes --ref=trail show "$c" | grep "\"bench\":\"$b\"" | grep -q "\"key\":\"$k\"" &&
			n=$((n + 1))
	done
	[ -n "$k" ] && [ $n = 3 ] && pass "--hosts: bench $b's 3 results in its own environment ($k)" ||
		fail "--hosts: bench $b's 3 results in its own environment" "key '$k', $n of 3"
done
[ "$(git -C "$S" notes --ref=trail show HEAD | wc -l)" = 2 ] &&
	[ "$(git -C "$S" notes --ref=trail show HEAD | grep -o '"key":"[0-9a-f]*"' | sort -u | wc -l)" = 2 ] &&
	pass "--hosts: two benches, two results a commit, two keys (never mixed)" ||
	fail "--hosts: two benches, two results a commit, two keys (never mixed)" "$(git -C "$S" notes --ref=trail show HEAD)"
