#!/usr/bin/env bash
# tests/cli/71-flame-e2e.sh - trail flame end to end on generated git
# histories (tests/e2e/make-history) with a known culprit: it must name the
# right commit and function, say "no regression" when there is none, skip a
# commit that does not build, and handle inlined code, threads and a
# regression that only shows off-CPU (whose function the off-CPU profiles
# name).  The effect sizes are large (3-5x in one function, 600 ms of sleep)
# so the named commit does not depend on timing; nothing here asserts a
# time.  Under TRAIL_SANITIZED=1 a reduced subset runs.
. "$(dirname "$0")/lib.sh"

if ! have perf || ! have python3 || ! have make || ! have cc; then
	skip "flame e2e" "needs perf, python3, make and cc"; exit 0
fi
if ! perf record -q -o "$T/check.data" true >/dev/null 2>&1; then
	skip "flame e2e" "perf record cannot sample here (perf_event_paranoid?)"; exit 0
fi
GEN=$ROOT/tests/e2e/make-history
FAST=(--repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache")

# json FILE EXPR: print a value of report.json (python3, no dependencies).
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# shape NAME SHAPE SEED EXPECTED_EXIT [trail flame options...]
# Small histories (8 commits) and short runs (~0.05-0.1 s of CPU) keep CI fast;
# the sleeping shape keeps more CPU work so its runs are not all start-up.
shape() {
	local name=$1 sh=$2 seed=$3 want=$4 rc scale=0.35; shift 4
	local repo=$T/repo-$name out=$T/report-$name
	[ "$sh" = sleep ] && scale=0.5
	"$GEN" "$repo" --shape "$sh" --commits 8 --seed "$seed" --scale "$scale" >"$T/$name.env" || {
		fail "$name: generate history"; return 1; }
	. "$T/$name.env"
	(cd "$repo" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run "$RUN" \
		--out "$out" "${FAST[@]}" "$@") >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name: exit $rc, expected $want"; sed 's/^/    /' "$T/$name.err" | tail -25 >&2
		return 1
	fi
	pass "$name: exit $want"
	[ -f "$out/report.json" ] && [ -f "$out/report.md" ] && [ -f "$out/report.html" ] &&
		pass "$name: report written" || fail "$name: report written"
}

# expect_suspect NAME: the report names the generator's culprit and function.
expect_suspect() {
	local name=$1 out=$T/report-$1 got fn
	got=$(json "$out/report.json" 'd["suspect"]["commit"]')
	fn=$(json "$out/report.json" 'd["suspect"]["function"]')
	[ "$got" = "$CULPRIT" ] && pass "$name: names the culprit commit" ||
		fail "$name: names the culprit commit" "got $got, expected $CULPRIT"
	[ "$fn" = "$FUNCTION" ] && pass "$name: names the hot function" ||
		fail "$name: names the hot function" "got $fn, expected $FUNCTION"
	[ "$(json "$out/report.json" 'd["verdict"]')" = regression ] && pass "$name: verdict" || fail "$name: verdict"
	json "$out/report.json" '0.5 <= d["suspect"]["confidence"] <= 1' | grep -q True &&
		pass "$name: confidence in range" || fail "$name: confidence in range"
	grep -q "^suspect commit: ${CULPRIT:0:12}" "$T/$name.out" && pass "$name: three-line summary" ||
		fail "$name: three-line summary"
}

# same_graphs NAME: the graphs trail flame drew from its profiles in memory
# are, byte for byte, what trail flamegraph draws from the folded files it
# wrote beside them (off-CPU: microseconds, the io palette but for diff).
same_graphs() {
	local name=$1 out=$T/report-$1 side ok=1
	local -a opts
	for side in good bad diff; do
		[ -f "$out/$side.folded" ] || { ok=0; continue; }
		case $name:$side in
		sleep-offcpu:diff) opts=(--title "off-CPU time, good -> bad (differential)" --countname us) ;;
		sleep-offcpu:*) opts=(--title "$side: off-CPU time" --countname us --colors io) ;;
		*:diff) opts=(--title "good -> bad (differential)") ;;
		*) opts=(--title "$side") ;;
		esac
		if [ -f "$out/$side.svg" ]; then
			"$TRAIL" flamegraph "${opts[@]}" "$out/$side.folded" >"$T/$name-$side.svg" 2>/dev/null &&
				cmp -s "$out/$side.svg" "$T/$name-$side.svg" || ok=0
		else
			# no graph only for a profile without a stack (nothing sampled)
			grep -qv '^#' "$out/$side.folded" && ok=0
		fi
	done
	[ $ok = 1 ] && pass "$name: graphs drawn in memory = trail flamegraph on the folded files" ||
		fail "$name: graphs drawn in memory = trail flamegraph on the folded files"
}

if shape slowdown slowdown 11 0; then
	expect_suspect slowdown
	same_graphs slowdown
	json "$T/report-slowdown/report.json" 'd["hotspots"][0]["function"]' | grep -qx checksum_block &&
		pass "slowdown: top hotspot" || fail "slowdown: top hotspot"
	json "$T/report-slowdown/report.json" 'len(d["probes"]) > 0 and all(p["verdict"] in ("fast","slow","skip") for p in d["probes"])' |
		grep -q True && pass "slowdown: probes reported" || fail "slowdown: probes reported"
	json "$T/report-slowdown/report.json" 'd["recommendation"]["action"]' | grep -qE '^(revert|patch)$' &&
		pass "slowdown: recommendation" || fail "slowdown: recommendation"
	# stderr is a file here: notes only, no progress line (tests/cli/73 checks a terminal).
	grep -q $'\033\[K' "$T/slowdown.err" && fail "slowdown: no progress line off a terminal" ||
		pass "slowdown: no progress line off a terminal"
	# The report's bisect-run line is the probe's request as written
	# (measure/probe_request.c): pasted into sh, in the clone, at the culprit,
	# 'trail flame probe' reads every word of it and answers.
	line=$(json "$T/report-slowdown/report.json" 'd["reproduce"][1]')
	clone=${line#git -C }; clone=${clone%% bisect start*}
	(eval "cd $clone" && eval "${line#* bisect run } --rev $CULPRIT --json") \
		>"$T/probe.json" 2>"$T/probe.err"
	rc=$?
	{ [ $rc = 0 ] || [ $rc = 1 ] || [ $rc = 125 ]; } && ! grep -q "error" "$T/probe.err" &&
		[ "$(json "$T/probe.json" 'd["commit"]')" = "$CULPRIT" ] &&
		pass "slowdown: the reproduce line's probe reads back and answers" ||
		fail "slowdown: the reproduce line's probe reads back and answers" \
			"exit $rc: $(tail -3 "$T/probe.err")"
fi
if shape none none 12 6; then
	[ "$(json "$T/report-none/report.json" 'd["suspect"]')" = None ] && pass "none: no false suspect" ||
		fail "none: no false suspect"
	grep -q "^no-regression" "$T/none.out" && pass "none: says so" || fail "none: says so"
fi

if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "flame e2e: shift, inline, threads, broken, sleep" "reduced subset under sanitizers"
	exit 0
fi

shape shift shift 13 0 && expect_suspect shift
shape inline inline 14 0 && expect_suspect inline
shape threads threads 15 0 && expect_suspect threads
if shape broken broken 16 0 --strategy bisect; then
	expect_suspect broken
	json "$T/report-broken/report.json" 'any(p["verdict"] == "skip" for p in d["probes"]) or d["strategy"] != "bisect"' |
		grep -q True && pass "broken: the unbuildable commit was skipped" || fail "broken: the unbuildable commit was skipped"
fi
# Sleeping: the CPU profile is flat; trail says which metric to use ...
# (more runs: off-CPU time includes waiting for a CPU on a busy machine)
if shape sleep-cpu sleep 17 4 --repeat 8 --max-repeat 8; then
	grep -q -- "--metric wall" "$T/sleep-cpu.out" && pass "sleep-cpu: suggests --metric wall" ||
		fail "sleep-cpu: suggests --metric wall"
	# the reason given is the verdict's own (the ends' CPU interval), not a
	# p-value that could read 'not significant' at p = 2e-7
	grep -q "CPU time did not rise beyond the noise (.*interval \[" "$T/sleep-cpu.out" &&
		pass "sleep-cpu: says CPU time did not rise, with its interval" ||
		fail "sleep-cpu: says CPU time did not rise, with its interval" "$(head -3 "$T/sleep-cpu.out")"
fi
# ... and finds it with the off-CPU metric, naming the function that sleeps
# from the off-CPU profiles (not from the suspect's diff).
if shape sleep-offcpu sleep 17 0 --metric offcpu --repeat 8 --probe-runs 3; then
	expect_suspect sleep-offcpu
	R=$T/report-sleep-offcpu/report.json
	if ! "$TRAIL" record -e offcpu -g dwarf -o "$T/offcpu-check.folded" -- true >/dev/null 2>&1; then
		# trail flame fell back to CPU profiles and the suspect's diff.
		skip "sleep-offcpu: off-CPU profiles" "trail record -e offcpu cannot record here"
		exit 0
	fi
	same_graphs sleep-offcpu
	[ "$(json "$R" 'd["suspect"]["function_source"]')" = "off-CPU profile" ] &&
		pass "sleep-offcpu: named from the off-CPU profile" ||
		fail "sleep-offcpu: named from the off-CPU profile" "$(json "$R" 'd["suspect"]')"
	json "$R" 'd["profile"] == "offcpu" and d["hotspots"][0]["function"] == "'"$FUNCTION"'" and d["hotspots"][0]["confirmed"]' |
		grep -q True && pass "sleep-offcpu: top off-CPU hotspot" ||
		fail "sleep-offcpu: top off-CPU hotspot" "$(json "$R" 'd["hotspots"][:2]')"
	# The culprit adds 4 x 150 ms of nanosleep per run; good never sleeps.
	json "$R" 'd["blocked"]["function"] == "'"$FUNCTION"'" and d["blocked"]["bad_ms"] > 300 > d["blocked"]["good_ms"]' |
		grep -q True && pass "sleep-offcpu: blocked time per run" ||
		fail "sleep-offcpu: blocked time per run" "$(json "$R" 'd["blocked"]')"
	grep -q "^[^ ]*;$FUNCTION;[^ ]*nanosleep" "$T/report-sleep-offcpu/bad.folded" &&
		pass "sleep-offcpu: off-CPU stacks through nanosleep" ||
		fail "sleep-offcpu: off-CPU stacks through nanosleep" "$(head -3 "$T/report-sleep-offcpu/bad.folded")"
	if [ -f "$T/report-sleep-offcpu/diff.svg" ]; then
		grep -q "Differential off-CPU flame graph" "$T/report-sleep-offcpu/report.html" &&
			pass "sleep-offcpu: differential off-CPU flame graph in the report" ||
			fail "sleep-offcpu: differential off-CPU flame graph in the report"
	fi
fi
