#!/usr/bin/env bash
# tests/cli/77-flame-hosts.sh - trail flame --hosts: probes on build hosts
# over plain ssh.  Usage errors first (a bad hosts line names file:line,
# --jobs beyond this machine's CPUs is refused with why), then two real
# sshd's (Debian's openssh-server) on 127.0.0.1 at unprivileged ports,
# with a throw-away host key and authorized key, are two "hosts" of 2
# slots each.  On a generated 8-commit history the k-ary bisection must
# name the generator's commit and function, as a local run does, with
# each probe's host in report.json, the hosts' private directories
# created and removed; the second host's sshd (and its sessions) is
# killed mid-run, so its probe must be rescheduled; Ctrl-C must cancel
# the remote probes and remove their directories.  Nothing asserts a
# time.  Skips (named) when sshd cannot run here.
. "$(dirname "$0")/lib.sh"

json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# --- usage: no ssh needed ---
printf '# hosts\nbox1\n0/box2\n' >"$T/bad-hosts"
"$TRAIL" flame --good A --bad B --build true --run true --hosts "$T/bad-hosts" >/dev/null 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] && grep -q "bad-hosts:3:" "$T/bad.err" && pass "bad hosts line: exit 2 with file:line" ||
	fail "bad hosts line: exit 2 with file:line" "exit $rc: $(cat "$T/bad.err")"
cpus=$(nproc)
"$TRAIL" flame --good A --bad B --build true --run true --jobs "$cpus" >/dev/null 2>"$T/jobs.err"
rc=$?
if [ "$cpus" -ge 2 ]; then
	[ $rc -eq 2 ] && grep -q "need $((2 * cpus)) CPUs" "$T/jobs.err" &&
		grep -q "corrupt each other's measurements" "$T/jobs.err" &&
		pass "--jobs beyond the CPUs: refused with why" ||
		fail "--jobs beyond the CPUs: refused with why" "exit $rc: $(cat "$T/jobs.err")"
else
	skip "--jobs beyond the CPUs" "one CPU: --jobs 1 is the only value"
fi
check_exit "--clean-hosts needs --hosts" 2 "$TRAIL" flame --clean-hosts
"$TRAIL" flame -h | grep -q -- "--hosts FILE" && pass "-h lists --hosts" || fail "-h lists --hosts"
"$TRAIL" flame probe -h | grep -q -- "--json" && pass "probe -h lists --json" || fail "probe -h lists --json"

# --- real sshd ---
. "$(dirname "$0")/sshd-hosts.sh"
why=$(sshd_hosts_check)
[ -z "$why" ] || { skip "flame over ssh" "$why"; exit 0; }
if ! have perf || ! have python3 || ! have make || ! have cc; then
	skip "flame over ssh" "needs perf, python3, make and cc"; exit 0
fi
if ! perf record -q -o "$T/check.data" true >/dev/null 2>&1; then
	skip "flame over ssh" "perf record cannot sample here (perf_event_paranoid?)"; exit 0
fi
sshd_keys || { skip "flame over ssh" "ssh-keygen failed"; exit 0; }
if ! start_sshd 1 "" || ! start_sshd 2 "TRAIL_TEST_HOLD=1" || ! start_sshd 3 "TRAIL_TEST_BREAK=1"; then
	skip "flame over ssh" "sshd does not start here: $(tail -1 "$T/host1/log" "$T/host2/log" 2>/dev/null | tr '\n' ' ')"
	exit 0
fi
printf '# three loopback build hosts and this machine\n\n2/%s -p %s 127.0.0.1\n2/%s -p %s 127.0.0.1\n%s -p %s 127.0.0.1\n:\n' \
	"$SSHCMD" "${PORT[1]}" "$SSHCMD" "${PORT[2]}" "$SSHCMD" "${PORT[3]}" >"$T/hosts"

"$ROOT/tests/e2e/make-history" "$T/repo" --shape slowdown --commits 8 --seed 11 --scale 0.35 >"$T/env" ||
	{ fail "generate history"; exit 0; }
. "$T/env"
# host 2 builds slowly (1 s more a build), so it is surely mid-build when
# killed; host 3 cannot build any commit but the ends (a missing compiler)
BUILD="$BUILD && { [ -z \"\${TRAIL_TEST_HOLD:-}\" ] || sleep 1; } && case \$(git rev-parse HEAD) in
$GOOD|$BAD) ;; *) [ -z \"\${TRAIL_TEST_BREAK:-}\" ] ;; esac"
FAST=(--repeat 4 --warmup-runs 0 --probe-runs 2 --strategy bisect --cache "$T/cache")

# The local answer the remote run must match: the --jobs 2 run's below
# (this machine, two slots); a run of its own only where there is no
# --jobs 2 (one CPU), and not under sanitizers (71-flame-e2e's code)
LOCAL=$T/jobs
if [ "$(nproc)" -lt 2 ] && [ -z "${TRAIL_SANITIZED:-}" ]; then
	LOCAL=$T/local
	(cd "$T/repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" \
		--out "$T/local" "${FAST[@]}") >"$T/local.out" 2>"$T/local.err"
	check "local run names the culprit" test "$(json "$T/local/report.json" 'd["suspect"]["commit"]')" = "$CULPRIT"
fi

# --jobs 2 --cpus-per-job 1 (this machine has 2 CPUs): two local probe
# slots, each pinned to CPUs of its own.  Each probe's build records its
# affinity; the first two pinned builds (round 1) wait for each other, so
# "together" shows they ran at once (the wait only bounds a deadlock).
all=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
JBUILD="$BUILD && a=\$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status) &&
	echo \"\$a\" >>$T/aff && if [ \"\$a\" != '$all' ] && [ \$(grep -vcx '$all' $T/aff) -le 2 ]; then
	for i in \$(seq 600); do [ \$(grep -vcx '$all' $T/aff) -ge 2 ] && { echo yes >>$T/together; break; }; sleep 0.1; done; fi"
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	# the slots' CPUs and two pinned jobs at once run sanitized in
	# tests/unit/test_fleet_jobs.c; fleet.c's rounds, in the run over ssh below
	skip "--jobs 2: probes pinned apart" "sanitized: test_fleet_jobs pins two jobs; the run over ssh below drives the rounds"
elif [ "$(nproc)" -ge 2 ]; then
	(cd "$T/repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$JBUILD" --run "$RUN" \
		--out "$T/jobs" "${FAST[@]}" --jobs 2 --cpus-per-job 1) >"$T/jobs.out" 2>"$T/jobs.err"
	check "--jobs 2: names the culprit" test "$(json "$T/jobs/report.json" 'd["suspect"]["commit"]')" = "$CULPRIT"
	python3 - "$T/aff" "$all" <<-'PY' && pass "--jobs 2: probes pinned to disjoint CPUs" ||
		import sys
		def cpus(t):
		    s = set()
		    for part in t.split(","):
		        a, _, b = part.partition("-")
		        s.update(range(int(a), int(b or a) + 1))
		    return s
		every = cpus(sys.argv[2])
		pinned = {frozenset(cpus(l)) for l in open(sys.argv[1]).read().split() if cpus(l) != every}
		ok = len(pinned) == 2 and all(p < every for p in pinned) and not set.intersection(*map(set, pinned))
		sys.exit(0 if ok else 1)
	PY
		fail "--jobs 2: probes pinned to disjoint CPUs" "all $all; $(sort "$T/aff" | uniq -c | tr '\n' ' ')"
	[ -s "$T/together" ] && grep -q "round 1: probing 2 of" "$T/jobs.err" &&
		pass "--jobs 2: two probes at once" || fail "--jobs 2: two probes at once" "$(grep round "$T/jobs.err")"
	json "$T/jobs/report.json" '[(h["name"], h["slots"]) for h in d["fleet"]["hosts"]] == [("local", 2)]' |
		grep -q True && pass "--jobs 2: report.json's fleet: local, 2 slots" ||
		fail "--jobs 2: report.json's fleet: local, 2 slots" "$(json "$T/jobs/report.json" 'd["fleet"]')"
fi
if [ "$(nproc)" -lt 3 ]; then
	"$TRAIL" flame --good A --bad B --build true --run true --jobs 3 --cpus-per-job 1 >/dev/null 2>"$T/j3.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "need 3 CPUs (1 each" "$T/j3.err" &&
		pass "--jobs 3 --cpus-per-job 1 beyond the CPUs: refused" ||
		fail "--jobs 3 --cpus-per-job 1 beyond the CPUs: refused" "exit $rc: $(cat "$T/j3.err")"
fi

(cd "$T/repo" && exec "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" \
	--out "$T/remote" "${FAST[@]}" --hosts "$T/hosts" --remote-trail "$HOST_TRAIL") >"$T/remote.out" 2>"$T/remote.err" &
tp=$!
# stop host 2 (its sshd and every session of it) once a probe of round 1
# is under way there (its private directory exists; its builds take 1 s more)
for _ in $(seq 1200); do
	grep -q "round 1:" "$T/remote.err" 2>/dev/null &&
		[ -n "$(find "$T/host2/tmp" -mindepth 1 -maxdepth 1 -name 'trail-flame.*' 2>/dev/null)" ] && break
	kill -0 $tp 2>/dev/null || break
	sleep 0.1
done
sessions=$(sshd_below "${SPID[2]}")
kill "${SPID[2]}" $sessions 2>/dev/null || true
wait $tp
rc=$?
if [ $rc -ne 0 ]; then
	fail "over ssh: exit 0" "exit $rc"; sed 's/^/    /' "$T/remote.err" | tail -30 >&2
else
	pass "over ssh: exit 0"
fi
R=$T/remote/report.json
if [ -f "$R" ]; then
	check "over ssh: names the culprit commit" test "$(json "$R" 'd["suspect"]["commit"]')" = "$CULPRIT"
	check "over ssh: names the hot function" test "$(json "$R" 'd["suspect"]["function"]')" = "$FUNCTION"
	[ -f "$LOCAL/report.json" ] && check "over ssh: the same answer as the local run" test \
		"$(json "$R" 'd["suspect"]["commit"]')" = "$(json "$LOCAL/report.json" 'd["suspect"]["commit"]')"
	json "$R" 'any(p["host"] == "127.0.0.1 -p '"${PORT[1]}"'" for p in d["probes"])' | grep -q True &&
		pass "over ssh: probes name their host" || fail "over ssh: probes name their host"
	json "$R" 'any(p["host"] == "local" for p in d["probes"])' | grep -q True &&
		pass "over ssh: ':' probes on this machine too" || fail "over ssh: ':' probes on this machine too"
	json "$R" 'd["fleet"]["slots"] == 6 and d["fleet"]["rounds"] >= 1 and d["fleet"]["sequential_probes"] == 3' |
		grep -q True && pass "over ssh: rounds and slots reported" ||
		fail "over ssh: rounds and slots reported" "$(json "$R" 'd["fleet"]')"
	json "$R" '[h["dropped"] is not None for h in d["fleet"]["hosts"]] == [False, True, False, False]' | grep -q True &&
		pass "killed sshd: host reported, others went on" ||
		fail "killed sshd: host reported, others went on" "$(json "$R" 'd["fleet"]["hosts"]')"
	# host 3's failed build is reported and the commit probed on another host
	json "$R" '[p["commit"] for p in d["probes"] if p["host"].endswith(" '"${PORT[3]}"'") and p["verdict"] == "skip"]' >"$T/broken"
	json "$R" 'all(any(q["commit"] == c and q["verdict"] != "skip" for q in d["probes"]) for c in '"$(cat "$T/broken")"') and len('"$(cat "$T/broken")"') >= 1' |
		grep -q True && pass "failed build: reported and probed on another host" ||
		fail "failed build: reported and probed on another host" "$(cat "$T/broken")"
	# report.md and report.html: the Hosts section and the probes' host column
	M=$T/remote/report.md
	grep -q "^## Hosts (k-ary bisection)" "$M" &&
		grep -q "round.* of up to 6 probes at once (6 slots on 4 hosts)" "$M" &&
		grep -q "Sequential probing: 3 probes in a row" "$M" &&
		pass "report.md: hosts, rounds, slots, sequential estimate" ||
		fail "report.md: hosts, rounds, slots, sequential estimate" "$(sed -n '/## Hosts/,$p' "$M" | head -12)"
	grep -q "^| commit | measured | stderr | share | verdict | runs | host |" "$M" &&
		grep -q "| \`127.0.0.1 -p ${PORT[1]}\` |$" "$M" &&
		pass "report.md: the probe table has a host column" ||
		fail "report.md: the probe table has a host column" "$(grep "^| " "$M" | head -20)"
	grep -q "| \`127.0.0.1 -p ${PORT[2]}\` | 2 | .* | .*lost the connection" "$M" &&
		pass "report.md: the killed host and why" || fail "report.md: the killed host and why" "$(grep "${PORT[2]}" "$M")"
	H=$T/remote/report.html
	grep -q '<section id="hosts"><h2>Hosts</h2>' "$H" && grep -q '<th>host</th></tr>' "$H" &&
		grep -q "<td><code>127.0.0.1 -p ${PORT[1]}</code></td></tr>" "$H" &&
		pass "report.html: Hosts section and host column" || fail "report.html: Hosts section and host column"
else
	fail "over ssh: report.json written"
fi
grep -q "round 1: probing 6 of" "$T/remote.err" && pass "over ssh: 6 probes at once, rounds printed" ||
	fail "over ssh: 6 probes at once, rounds printed"
# host 2 was building when it went away: its probe failed and ran elsewhere
grep -q "probing failed: ssh could not reach it or lost the connection" "$T/remote.err" &&
	pass "killed sshd: the probe under way is rescheduled" ||
	fail "killed sshd: the probe under way is rescheduled" "$(grep "warning" "$T/remote.err")"
# every private directory the hosts reported existed under their TMPDIR and is gone
dirs=$(grep -o "$T/host[12]/tmp/trail-flame\.[A-Za-z0-9]*" "$T/remote.err" | sort -u)
[ -n "$dirs" ] && pass "over ssh: private directories on the hosts" || fail "over ssh: private directories on the hosts"
# (up to 60 s: the hosts' clean-up is prompt, a loaded machine may not be)
gone() {
	local _
	for _ in $(seq 600); do
		[ -z "$(find "$T/host1/tmp" "$T/host2/tmp" -mindepth 1 2>/dev/null | head -1)" ] && return 0
		sleep 0.1
	done
	return 1
}
gone && pass "over ssh: private directories removed, also on the killed host" ||
	fail "over ssh: private directories removed" "$(find "$T/host1/tmp" "$T/host2/tmp" -mindepth 1)"
[ -d "$T/host1/cache/trail/flame-hosts" ] && pass "over ssh: the build cache stays" ||
	fail "over ssh: the build cache stays"

# Ctrl-C while host 1 probes: its probes are cancelled and their directories removed
if [ -z "${TRAIL_SANITIZED:-}" ]; then
	printf '%s -p %s 127.0.0.1\n' "$SSHCMD" "${PORT[1]}" >"$T/hosts1"
	# another build command (nothing is cached), which takes 30 s once round 1
	# starts: removed within 10 s, the directories were removed by the cancel
	(cd "$T/repo" && exec "$TRAIL" flame --good "$GOOD" --bad "$BAD" \
		--build "$BUILD && { [ ! -e $T/slow ] || sleep 30; }" \
		--run "$RUN" --out "$T/int" "${FAST[@]}" --hosts "$T/hosts1" --remote-trail "$TRAIL" \
		--remote-repo "file://$T/repo") \
		>/dev/null 2>"$T/int.err" &
	tp=$!
	for _ in $(seq 1200); do
		grep -q "round 1:" "$T/int.err" 2>/dev/null && break
		kill -0 $tp 2>/dev/null || break
		sleep 0.1
	done
	touch "$T/slow"
	# the probe's private directory appears on the host once ssh is connected
	during=0
	for _ in $(seq 600); do
		during=$(find "$T/host1/tmp" -mindepth 1 -maxdepth 1 -name 'trail-flame.*' | wc -l)
		[ "$during" -ge 1 ] && break
		sleep 0.1
	done
	kill -INT $tp
	wait $tp
	rc=$?
	grep -q "host 127.0.0.1 -p ${PORT[1]}: build cache" "$T/int.err" &&
		pass "--remote-repo: the host fetched the history" || fail "--remote-repo: the host fetched the history"
	[ "$during" -ge 1 ] && pass "Ctrl-C: probes were running in private directories on the host" ||
		fail "Ctrl-C: probes were running in private directories on the host" "$(tail -5 "$T/int.err")"
	[ $rc -ne 0 ] && pass "Ctrl-C: trail stops" || fail "Ctrl-C: trail stops" "exit $rc"
	gone && pass "Ctrl-C: the host's private directories removed" ||
		fail "Ctrl-C: the host's private directories removed" "$(find "$T/host1/tmp" -mindepth 1)"
	"$TRAIL" flame --clean-hosts --hosts "$T/hosts1" 2>"$T/clean.err"
	[ ! -e "$T/host1/cache/trail/flame-hosts" ] && pass "--clean-hosts removes the build cache" ||
		fail "--clean-hosts removes the build cache" "$(cat "$T/clean.err")"
fi
