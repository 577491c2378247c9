#!/usr/bin/env bash
# tests/cli/40-bench-verdicts.sh - trail bench decides on real commands:
# sleep 0.1 vs sleep 0.3 is "slower" with the right ratio inside its
# interval, a command against itself is "no significant difference", a busy
# loop's CPU time is measured, --until-significant stops early, and the
# baseline guard fails on a real 4x slowdown but passes an identical rerun.
# Sleep-based ratios keep this robust on a shared, noisy machine; nothing
# asserts an absolute time.
. "$(dirname "$0")/lib.sh"

B=("$TRAIL" bench --min-time 0 -N)
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# sleep 0 measures the per-run overhead (spawn, exec, wait) in the same
# interleaved rounds, so the expected ratio of the two sleeps is
# (0.3 + o) / (0.1 + o) with o its median; the reported interval must hold it.
# (0.05 vs 0.1 s was "no significant difference" in 12 runs under stop 27's
# load: ~80 ms of overhead a run, 50 ms of spread; 200 ms apart is not.)
check "sleep 0.1 vs sleep 0.3" "${B[@]}" --runs 12 --warmup 1 'sleep 0.1' 'sleep 0.3' 'sleep 0' \
	--export-json "$T/s.json"
json "$T/s.json" '
r = d["results"]
c = r[1]["comparison"]
o = r[2]["median"]
expect = (0.3 + o) / (0.1 + o)
lo, hi = c["median_ratio_ci"]
assert c["verdict"] == "slower", c
assert lo <= c["median_ratio"] <= hi
# the interval holds the expected ratio, give or take 10% of scheduling noise
assert lo * 0.9 <= expect <= hi * 1.1, (lo, hi, expect)
assert 1 < c["median_ratio"] < 3.3, c["median_ratio"]
' && pass "slower, with the right ratio in its interval" || fail "slower, with the right ratio in its interval" "$(cat "$T/s.json" | head -c 400)"
grep -q "'sleep 0.3' vs reference: [0-9.]*x slower" "$T/.out" && pass "summary says slower" || fail "summary says slower"
grep -q "'sleep 0' vs reference: [0-9.]*x faster" "$T/.out" && pass "summary says faster" || fail "summary says faster"

# The same command twice: at 99.9% confidence a false "different" is a 1-in-1000 event.
check "a command against itself" "${B[@]}" --runs 10 --warmup 1 --confidence 0.999 'sleep 0.02' 'sleep 0.02' \
	--export-json "$T/same.json"
json "$T/same.json" '
c = d["results"][1]["comparison"]
assert c["verdict"] == "no significant difference", c
lo, hi = c["median_ratio_ci"]
assert lo <= 1 <= hi, (lo, hi)
' && pass "no significant difference with itself" || fail "no significant difference with itself"
grep -q "no significant difference" "$T/.out" && pass "summary says no difference" || fail "summary says no difference"

# A busy loop burns CPU time (user), a sleep of similar length does not; CPU
# time, unlike wall time, hardly depends on how busy the machine is.
check "busy loop" "$TRAIL" bench --min-time 0 --runs 3 'i=0; while [ $i -lt 50000 ]; do i=$((i+1)); done' \
	'sleep 0.02' --export-json "$T/busy.json"
json "$T/busy.json" '
busy, idle = d["results"]
cpu = lambda r: r["user"] + r["system"]
assert cpu(busy) > 2.5 * cpu(idle) and cpu(busy) > 0, (cpu(busy), cpu(idle))
assert d["shell"] == "sh" and d["shell_spawn"]["wall"] > 0
' && pass "busy loop burns CPU, shell spawn subtracted" || fail "busy loop burns CPU, shell spawn subtracted"

# (150 ms apart: 40 ms was within a loaded machine's spread of a run)
check "until significant" "${B[@]}" --until-significant --max-runs 30 'sleep 0.05' 'sleep 0.2' \
	--export-json "$T/u.json"
json "$T/u.json" '
r = d["results"]
assert r[1]["comparison"]["verdict"] == "slower"
assert r[0]["runs"] < 30 and d["looks"] >= 1 and d["confidence"] > 0.95
' && pass "until-significant decides early" || fail "until-significant decides early"

# --- the baseline guard
# Reruns are separate invocations (not interleaved), so a change of load
# shifts the per-run overhead between them: by tens of ms on a busy shared
# machine, by over 100 ms on a very busy one (stop 27: a 2x slowdown of
# 100 ms sleeps measured below +25% under load).  So 200 ms sleeps, a 4x
# slowdown and a 50% bound: the rerun passes unless the overhead moves by
# 100 ms, the slowdown fails unless it moves by 500 ms.
check "save baseline" "${B[@]}" --runs 8 -n work 'sleep 0.2' --save-baseline "$T/base.json"
json "$T/base.json" 'assert d["results"][0]["command"] == "work" and len(d["results"][0]["times"]) == 8' \
	&& pass "baseline saved" || fail "baseline saved"
check_exit "identical rerun passes" 0 "${B[@]}" --runs 8 -n work 'sleep 0.2' \
	--baseline "$T/base.json" --max-regression 50%
grep -q "^  ok 'work'" "$T/.out" && pass "rerun reported ok" || fail "rerun reported ok"
check_exit "4x slowdown fails" 3 "${B[@]}" --runs 6 -n work 'sleep 0.8' \
	--baseline "$T/base.json" --max-regression 50% --export-json "$T/reg.json"
grep -q "'work' regressed: [0-9.]*% slower than the baseline (95% interval [0-9.]*% … [0-9.]*%, allowed 50%)" "$T/.err" \
	&& pass "regression message gives the interval" || fail "regression message gives the interval" "$(cat "$T/.err")"
json "$T/reg.json" '
b = d["baseline"]["comparisons"][0]
assert b["regressed"] is True and b["median_ratio_ci"][0] > 1.5
' && pass "regression in json" || fail "regression in json"
check_exit "4x slowdown within a 1000% bound passes" 0 "${B[@]}" --runs 3 -n work 'sleep 0.8' \
	--baseline "$T/base.json" --max-regression 1000%

printf '{"results": [\n  {"command": "work", "times": [0.1,]}\n]}\n' > "$T/bad.json"
# one command on each side but a different command line: compared, with a note naming both
check "baseline of another command" "${B[@]}" --runs 3 'sleep 0.01' --baseline "$T/base.json" --max-regression 10000%
grep -q "comparing 'sleep 0.01' with a baseline of a different command, 'work'" "$T/.err" \
	&& pass "different command warned" || fail "different command warned" "$(cat "$T/.err")"
# --max-regression 5 could be 5% or 500%: refused; 5% and 0.05 are the same bound
check_exit "bare max-regression above 1" 2 "${B[@]}" --runs 2 true --baseline "$T/base.json" --max-regression 5
grep -q "ambiguous as '5': write a percentage ('5%') or a fraction below 1" "$T/.err" \
	&& pass "ambiguous max-regression explained" || fail "ambiguous max-regression explained" "$(cat "$T/.err")"
# a baseline of 0 µs: n/a, never nan
printf '{"results":[{"command":"work","times":[0,0,0,0,0]}]}\n' > "$T/zero.json"
check "zero baseline" "${B[@]}" --runs 3 -n work 'sleep 0.01' --baseline "$T/zero.json" --export-markdown "$T/zero.md"
if grep -qi "nan" "$T/.out" "$T/zero.md"; then fail "zero baseline has no nan" "$(cat "$T/.out")"; else pass "zero baseline has no nan"; fi
grep -q "n/a slower than the baseline \[n/a … n/a\]" "$T/.out" && grep -q "gate cannot judge" "$T/.out" \
	&& pass "zero baseline says n/a" || fail "zero baseline says n/a" "$(cat "$T/.out")"
check_exit "malformed baseline" 2 "${B[@]}" --runs 2 -n work true --baseline "$T/bad.json"
grep -q "bad.json:2:37: malformed JSON: trailing comma" "$T/.err" && pass "malformed baseline position" || fail "malformed baseline position" "$(cat "$T/.err")"
check_exit "unreadable baseline" 2 "${B[@]}" --runs 2 true --baseline "$T/missing.json"
grep -q "cannot read the baseline" "$T/.err" && pass "unreadable baseline named" || fail "unreadable baseline named"
echo '{"results": [{"command": "other", "times": [0.1]}, {"command": "x", "times": [1]}]}' > "$T/other.json"
check_exit "baseline without the command" 2 "${B[@]}" --runs 2 true --baseline "$T/other.json"
