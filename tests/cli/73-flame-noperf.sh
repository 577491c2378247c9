#!/usr/bin/env bash
# tests/cli/73-flame-noperf.sh - trail flame --profiler trail needs no perf
# binary: with perf hidden from PATH (a directory of links to every other
# program), it still names the culprit of a small generated history
# (tests/e2e/make-history), while --profiler perf fails with a clear
# message.  That run is on a terminal (util-linux script) when it can be,
# so it also checks the progress lines.  Skips without python3, make, cc or
# a usable trail record.
. "$(dirname "$0")/lib.sh"

if ! have python3 || ! have make || ! have cc || ! have git; then
	skip "flame without perf" "needs python3, make, cc and git"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "flame without perf" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
GEN=$ROOT/tests/e2e/make-history
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# PATH without perf: link every program of every PATH directory but perf*.
# One ln per directory (a link per program would fork thousands of times);
# an earlier directory wins, as in PATH lookup, because ln keeps existing links.
mkdir -p "$T/bin"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[ -d "$d" ] && ln -s "$d"/* "$T/bin/" 2>/dev/null
done
rm -f "$T/bin/perf" "$T/bin"/perf_* "$T/bin"/perf-*
if PATH=$T/bin command -v perf >/dev/null 2>&1; then
	fail "perf hidden from PATH"; exit 0
fi
pass "perf hidden from PATH"

"$GEN" "$T/repo" --shape slowdown --commits 4 --seed 3 --scale 0.35 >"$T/env" ||
	{ fail "generate history"; exit 0; }
. "$T/env"
# On a terminal when util-linux's script can give it one: then the same run
# also shows the progress lines (capture, and the bisect's "probe i of ~n").
FLAME=(env PATH="$T/bin" "$TRAIL" flame --profiler trail --good "$GOOD" --bad "$BAD"
	--build "$BUILD" --run "$RUN" --out "$T/report" --repeat 4 --warmup-runs 0
	--probe-runs 2 --cache "$T/cache" --strategy bisect)
if have script && script --version 2>/dev/null | grep -q util-linux; then
	TTY=1
	(cd "$T/repo" && script -qec "$(printf '%q ' "${FLAME[@]}")" "$T/flame.tty" >/dev/null 2>&1)
	rc=$?
	cp "$T/flame.tty" "$T/flame.err"
else
	TTY=
	(cd "$T/repo" && "${FLAME[@]}") >"$T/flame.out" 2>"$T/flame.err"
	rc=$?
fi
if [ "$rc" -eq 0 ]; then pass "flame --profiler trail without perf: exit 0"; else
	fail "flame --profiler trail without perf: exit 0" "exit $rc"
	sed 's/^/    /' "$T/flame.err" | tail -20 >&2
fi
got=$(json "$T/report/report.json" 'd["suspect"]["commit"]' 2>/dev/null)
[ "$got" = "$CULPRIT" ] && pass "names the culprit commit without perf" ||
	fail "names the culprit commit without perf" "got '$got', expected $CULPRIT"
grep -q "perf script\|'perf'" "$T/flame.err" &&
	fail "no mention of perf" "$(grep -m1 perf "$T/flame.err")" || pass "no mention of perf"
if [ -n "$TTY" ]; then
	grep -q $'\r\033\[Kcapture: [0-9]*/8' "$T/flame.tty" && pass "terminal: capture progress line" ||
		fail "terminal: capture progress line" "$(tr '\r' '\n' <"$T/flame.tty" | grep -m3 capture)"
	grep -q $'\r\033\[Knarrow (bisect): probe 1 of ~[0-9]' "$T/flame.tty" &&
		pass "terminal: bisect progress line (probe i of ~n)" ||
		fail "terminal: bisect progress line (probe i of ~n)" "$(tr '\r' '\n' <"$T/flame.tty" | grep -m3 narrow)"
	# -q on a terminal: no progress line, no notes.  Two pairs of runs
	# rarely decide (exit 4), but a large change can be shown even so
	# (Student's t on one degree of freedom: exit 0 after narrowing) and a
	# change's interval may already lie below --min-effect (3).
	(cd "$T/repo" && script -qec "$(printf '%q ' env PATH="$T/bin" "$TRAIL" -q flame --good "$GOOD" \
		--bad "$BAD" --build "$BUILD" --run "$RUN" --out "$T/report-q" --repeat 2 --max-repeat 2 \
		--warmup-runs 0 --cache "$T/cache")" "$T/quiet.tty" >/dev/null 2>&1)
	rc=$?
	if { [ "$rc" -eq 0 ] || [ "$rc" -eq 6 ] || [ "$rc" -eq 4 ]; } &&
		! grep -q $'\033\[K\|trail flame:' "$T/quiet.tty"; then
		pass "terminal with -q: no progress line"
	else
		fail "terminal with -q: no progress line" "exit $rc: $(tr '\r' '\n' <"$T/quiet.tty" | grep -m2 'trail flame\|capture')"
	fi
else
	skip "terminal progress lines" "no util-linux script"
fi

(cd "$T/repo" && PATH=$T/bin "$TRAIL" flame --profiler perf --good "$GOOD" --bad "$BAD" \
	--build "$BUILD" --run "$RUN" --out "$T/report-perf" --cache "$T/cache") \
	>"$T/perf.out" 2>"$T/perf.err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "'perf' is not installed" "$T/perf.err"; then
	pass "--profiler perf without perf: clear error"
else
	fail "--profiler perf without perf: clear error" "exit $rc: $(tail -1 "$T/perf.err")"
fi
