#!/usr/bin/env bash
# tests/cli/77-flame-hosts-shared.sh - two host lines that reach one build
# cache (issue 29): the same user on one machine, here both lines naming
# one loopback sshd, so both set the cache up and measure both ends in it
# at once.  The hosts' setup and each build directory are locked (flock):
# the build command notes any build that starts while another of the same
# commit runs, and none may; each commit is built once in the hosts' cache
# (the second line waits, then finds it built).  On the old code both
# lines built the ends in one directory, each removing what the other had
# started.
. "$(dirname "$0")/lib.sh"
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

. "$(dirname "$0")/sshd-hosts.sh"
why=$(sshd_hosts_check)
[ -z "$why" ] || { skip "shared host cache" "$why"; exit 0; }
if ! have perf || ! have python3 || ! have make || ! have cc; then
	skip "shared host cache" "needs perf, python3, make and cc"; exit 0
fi
if ! perf record -q -o "$T/check.data" true >/dev/null 2>&1; then
	skip "shared host cache" "perf record cannot sample here (perf_event_paranoid?)"; exit 0
fi
sshd_keys || { skip "shared host cache" "ssh-keygen failed"; exit 0; }
start_sshd 1 "" || { skip "shared host cache" "sshd does not start here: $(tail -1 "$T/host1/log")"; exit 0; }
printf '%s -p %s 127.0.0.1\n%s -p %s -o ConnectTimeout=30 127.0.0.1\n' \
	"$SSHCMD" "${PORT[1]}" "$SSHCMD" "${PORT[1]}" >"$T/hosts"

"$ROOT/tests/e2e/make-history" "$T/repo" --shape slowdown --commits 3 --seed 11 --scale 0.2 >"$T/env" ||
	{ fail "generate history"; exit 0; }
. "$T/env"
# a build that finds another build of its commit running says so
BUILD="c=\$(git rev-parse HEAD); m=$T/building-\$c; echo \"\$c \$PWD\" >>$T/builds;
[ -e \"\$m\" ] && echo \"\$c\" >>$T/overlap; touch \"\$m\"; sleep 1; $BUILD; rc=\$?; rm -f \"\$m\"; exit \$rc"
(cd "$T/repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" \
	--hosts "$T/hosts" --remote-trail "$TRAIL" --out "$T/out" --repeat 3 --warmup-runs 0 \
	--probe-runs 2 --strategy bisect --cache "$T/cache") >"$T/run.out" 2>"$T/run.err"
rc=$?
[ ! -s "$T/overlap" ] && pass "two host lines on one cache: no two builds of a commit at once" ||
	fail "two host lines on one cache: no two builds of a commit at once" "$(cat "$T/overlap")"
dups=$(grep "$T/host1/" "$T/builds" | cut -d' ' -f1 | sort | uniq -d)
[ -s "$T/builds" ] && [ -z "$dups" ] && pass "two host lines on one cache: each commit built once there" ||
	fail "two host lines on one cache: each commit built once there" "built twice: $dups"
! grep -q "build failed\|no host could be used\|dropped" "$T/run.err" && [ -s "$T/out/report.json" ] &&
	[ "$(json "$T/out/report.json" 'len(d["fleet"]["hosts"])')" = 2 ] &&
	pass "two host lines on one cache: both hosts measure, no build fails" ||
	fail "two host lines on one cache: both hosts measure, no build fails" "exit $rc: $(tail -15 "$T/run.err")"
