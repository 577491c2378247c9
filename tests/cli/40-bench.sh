#!/usr/bin/env bash
# tests/cli/40-bench.sh - trail bench: usage errors, commands that fail or
# cannot start, exports (JSON structure, CSV, Markdown, SVG), parameter
# scans, I/O redirection, timeouts and Ctrl-C.  Verdicts and the baseline
# guard are in 40-bench-verdicts.sh.  Small run counts, --min-time 0.
. "$(dirname "$0")/lib.sh"

B=("$TRAIL" bench --min-time 0)
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2" "$1"; }

# --- usage errors: exit 2 with a message that names the problem
check "help" "$TRAIL" bench --help
grep -q -- "--until-significant" "$T/.out" && pass "help lists --until-significant" || fail "help lists --until-significant"
check_exit "unknown option" 2 "${B[@]}" --frobnicate true
grep -q "unknown option '--frobnicate'" "$T/.err" && pass "unknown option named" || fail "unknown option named"
check_exit "non-numeric run count" 2 "${B[@]}" --runs abc true
grep -q "'--runs' expects a non-negative whole number, not 'abc'" "$T/.err" && pass "non-numeric named" || fail "non-numeric named"
check_exit "negative run count" 2 "${B[@]}" --runs -3 true
check_exit "zero runs" 2 "${B[@]}" --runs 0 true
check_exit "min-runs above max-runs" 2 "${B[@]}" --min-runs 5 --max-runs 3 true
check_exit "no command" 2 "${B[@]}"
check_exit "runs with min-runs" 2 "${B[@]}" --runs 3 --min-runs 2 true
check_exit "until-significant needs two commands" 2 "${B[@]}" --until-significant true
check_exit "bad max-regression" 2 "${B[@]}" --baseline x.json --max-regression lots true
check_exit "parameter scan with too few values" 2 "${B[@]}" -P n 1
check_exit "parameter scan end before start" 2 "${B[@]}" -P n 5 1 'echo {n}'
check_exit "unterminated quote without a shell" 2 "${B[@]}" -N --runs 1 "echo 'oops"

# --- commands that fail or cannot start
check_exit "program that cannot start (-N)" 1 "${B[@]}" -N --runs 2 /nonexistent/trail-prog
grep -q "cannot run '/nonexistent/trail-prog'" "$T/.err" && pass "cannot-start message" || fail "cannot-start message"
check_exit "cannot start even with --ignore-failure" 1 "${B[@]}" -N -i --runs 2 /nonexistent/trail-prog
check_exit "command not found by the shell" 1 "${B[@]}" --runs 2 trail_no_such_command_xyz
grep -q "status 127" "$T/.err" && pass "shell 127 explained" || fail "shell 127 explained"
check_exit "failing command" 1 "${B[@]}" -N --runs 2 false
grep -q "ignore-failure" "$T/.err" && pass "failure suggests --ignore-failure" || fail "failure suggests --ignore-failure"
check "failing command with --ignore-failure" "${B[@]}" -N -i --runs 3 false --export-json "$T/f.json"
json "$T/f.json" 'r=d["results"][0]; assert r["exit_codes"]==[1,1,1] and r["failed_runs"]==3' \
	&& pass "exit codes recorded" || fail "exit codes recorded"
check_exit "timeout" 1 "${B[@]}" -N --runs 1 --timeout 0.1 'sleep 10'
grep -q "timed out" "$T/.err" && pass "timeout message" || fail "timeout message"
# the timeout ends the command's children too, not only the shell
mark="9$$.25"	# a sleep duration no other process uses
check_exit "timeout with children" 1 "${B[@]}" --runs 1 --timeout 0.2 "sh -c 'sleep $mark & sleep $mark'"
left=
for i in $(seq 300); do	# SIGKILL is immediate; wait for the exits (up to 30 s on a busy machine)
	left=$(pgrep -f "sleep $mark" || true)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ] && pass "timeout kills the process group" || fail "timeout kills the process group" "left: $left"
[ -n "$left" ] && kill $left 2>/dev/null

# --- exports: structure of the JSON, the other formats exist and parse
check "exports" "${B[@]}" -N --runs 4 --warmup 1 'sleep 0.01' 'sleep 0.02' \
	--export-json "$T/r.json" --export-csv "$T/r.csv" --export-markdown "$T/r.md" --export-svg "$T/r.svg"
grep -q "^Benchmark 2: sleep 0.02" "$T/.out" && pass "report names commands" || fail "report names commands"
grep -q "Summary" "$T/.out" && pass "report has a summary" || fail "report has a summary"
json "$T/r.json" '
r = d["results"]
assert len(r) == 2 and d["confidence"] == 0.95 and d["interleaved"] is True
for x in r:
    assert x["runs"] == 4 and len(x["times"]) == 4 and len(x["user_times"]) == 4
    assert len(x["max_rss_kib_runs"]) == 4 and x["max_rss_kib"] > 0
    assert x["min"] <= x["median"] <= x["max"] and x["min"] <= x["mean"] <= x["max"]
    assert all(k in x for k in ("stddev", "p95", "p99", "mad", "outliers", "user", "system"))
c = r[1]["comparison"]
assert "comparison" not in r[0] and c["reference"] == 0
assert c["median_ratio_ci"][0] <= c["median_ratio"] <= c["median_ratio_ci"][1]
assert c["verdict"] in ("faster", "slower", "no significant difference")
assert 0 <= c["p_value"] <= 1
' && pass "json structure" || fail "json structure"
[ "$(wc -l < "$T/r.csv")" -eq 3 ] && head -1 "$T/r.csv" | grep -q '^command,mean,stddev,median,user,system,min,max' \
	&& pass "csv rows" || fail "csv rows"
grep -q '^| `sleep 0.02` |' "$T/r.md" && pass "markdown table" || fail "markdown table"
if have xmllint; then
	xmllint --noout "$T/r.svg" 2>"$T/x.err" && pass "svg is well-formed" || fail "svg is well-formed" "$(head -3 "$T/x.err")"
else
	skip "svg is well-formed" "no xmllint"
fi
grep -q "median" "$T/r.svg" && pass "svg marks the median" || fail "svg marks the median"
check "json to stdout" "${B[@]}" -N --runs 2 true --export-json -
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/.out" && pass "only json on stdout" || fail "only json on stdout"
grep -q "^Benchmark 1: true" "$T/.err" && pass "report moves to stderr" || fail "report moves to stderr"
check_exit "export to an unwritable path" 1 "${B[@]}" -N --runs 2 true --export-csv /nonexistent/dir/x.csv

# --- parameter scans
check "parameter scan" "${B[@]}" -N --runs 2 -P n 1 3 'sleep 0.00{n}' -L w a,b 'echo {w}' --export-json "$T/p.json"
json "$T/p.json" '
cmds = [x["command"] for x in d["results"]]
assert cmds == ["sleep 0.001", "sleep 0.002", "sleep 0.003", "echo a", "echo b"], cmds
assert d["results"][4]["parameters"] == {"w": "b"}
' && pass "parameter scan expands each command" || fail "parameter scan expands each command"
check "scan with step" "${B[@]}" -N --runs 1 -P t 0 0.01 -D 0.005 'sleep {t}' --export-json "$T/s.json"
json "$T/s.json" 'assert [x["command"] for x in d["results"]] == ["sleep 0.000", "sleep 0.005", "sleep 0.010"]' \
	&& pass "scan step values" || fail "scan step values"

# --- input and output redirection, hooks
printf 'hello\n' > "$T/in.txt"
check "input and output file" "${B[@]}" -N --runs 3 --input "$T/in.txt" --output "$T/out.txt" cat
[ "$(grep -c hello "$T/out.txt")" -eq 3 ] && pass "each run read the input" || fail "each run read the input"
check "output pipe" "${B[@]}" -N --runs 2 --output pipe 'seq 100000'
check_exit "unreadable input" 2 "${B[@]}" -N --runs 2 --input "$T/missing" cat
check "hooks" "${B[@]}" --runs 2 --setup "echo s >> $T/hooks" --prepare "echo p >> $T/hooks" \
	--cleanup "echo c >> $T/hooks" --no-interleave true
# no warm-up, 2 measured runs: setup, prepare before each run, cleanup
[ "$(tr -d '\n' < "$T/hooks")" = "sppc" ] && pass "hook order" || fail "hook order" "$(tr -d '\n' < "$T/hooks")"
check_exit "failing prepare" 1 "${B[@]}" --runs 2 --prepare 'exit 3' true
grep -q "prepare command 'exit 3' failed" "$T/.err" && pass "failing prepare named" || fail "failing prepare named"

# --- command names from outside are escaped for each output
evil=$'printf "<img src=x onerror=alert(1)> | `x` \033[2K\r"; true'
check "hostile command name" "${B[@]}" --runs 2 -n "$evil" true -n base true \
	--export-markdown "$T/evil.md" --export-svg "$T/evil.svg"
if grep -q $'\033' "$T/.out" "$T/.err"; then fail "no raw escape on the terminal"; else pass "no raw escape on the terminal"; fi
grep -qF 'Benchmark 1: printf "<img src=x onerror=alert(1)> | `x` \x1b[2K\r"; true' "$T/.out" \
	&& pass "escape shown visibly" || fail "escape shown visibly" "$(head -2 "$T/.out")"
# one table row per command: the pipe does not split a cell, the backticks do not end the span
python3 - "$T/evil.md" <<'PY' && pass "markdown cell holds the name" || fail "markdown cell holds the name" "$(cat "$T/evil.md")"
import re, sys
rows = open(sys.argv[1]).read().splitlines()[2:]
assert len(rows) == 2, rows
cells = re.split(r"(?<!\\)\|", rows[0])
assert len(cells) == 9, cells          # 7 columns between 8 pipes
assert cells[1].strip().startswith("``") and "\033" not in rows[0], cells[1]
PY
python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); assert not d.getElementsByTagName("img")' "$T/evil.svg" \
	&& pass "svg export well-formed, no injected element" || fail "svg export well-formed, no injected element"

# runs_seen FILE N: wait (up to 60 s) until FILE has N lines - a command
# that appends a line per run has run N times, however busy the machine
runs_seen() {
	local i
	for i in $(seq 600); do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# --- Ctrl-C: stops cleanly, still reports and exports what was measured
# (sent once two runs are done, not after a fixed time: a loaded machine may
# not have finished one run in a second)
"${B[@]}" --runs 100000 -n 'sleep 0.01' "sleep 0.01; echo >>$T/int.runs" --export-json "$T/int.json" \
	>"$T/int.out" 2>"$T/int.err" &
pid=$!
runs_seen "$T/int.runs" 2
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && pass "interrupted exit status" || fail "interrupted exit status" "exit $rc"
grep -q "^Benchmark 1: sleep 0.01" "$T/int.out" && pass "interrupted report printed" || fail "interrupted report printed"
grep -q "interrupted" "$T/int.err" && pass "interruption noted" || fail "interruption noted"
json "$T/int.json" 'assert d["interrupted"] is True and 0 < d["results"][0]["runs"] < 100000' \
	&& pass "interrupted json" || fail "interrupted json"

# SIGTERM to trail alone (not its process group) also ends a long run
# (sent once the second command has started, so the first has its 3 runs)
"${B[@]}" --runs 3 -n 'sleep 0.01' -n 'sleep 30' 'sleep 0.01' "echo >>$T/term.runs; sleep 30" --no-interleave \
	--export-json "$T/term.json" >"$T/term.out" 2>&1 &
pid=$!
runs_seen "$T/term.runs" 1
kill -TERM $pid
wait $pid; rc=$?
[ $rc -eq 143 ] && pass "SIGTERM stops a long run (exit 128+15)" || fail "SIGTERM stops a long run (exit 128+15)" "exit $rc"
json "$T/term.json" 'r = d["results"]; assert r[0]["runs"] == 3 and r[1]["runs"] == 0' \
	&& pass "SIGTERM keeps the finished command" || fail "SIGTERM keeps the finished command"

# --- perf counters: used when available, a plain note otherwise
check "perf counters" "${B[@]}" -N --runs 2 --perf true --export-json "$T/perf.json"
if json "$T/perf.json" 'assert "perf_context_switches" in d["results"][0]' 2>/dev/null; then
	pass "perf counters in json"
else
	grep -q "perf" "$T/.err" && pass "perf unavailability explained" || fail "perf unavailability explained"
fi
