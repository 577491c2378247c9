#!/usr/bin/env bash
# tests/cli/11-collapse-profiles.sh - 'trail collapse' on the profile formats
# other profilers write (pprof, .cpuprofile, JFR JSON, speedscope) and its
# --output pprof|speedscope, read back by trail and by the real consumers:
# 'go tool pprof' and the speedscope app in headless Chromium.  Real
# profiles from tests/data/profilers; fresh ones when node or java are here.
. "$(dirname "$0")/lib.sh"
D=$ROOT/tests/data/profilers

# --- the checked-in real profiles ---
for f in go-cpu.pb.gz go-heap.pb.gz node-work.cpuprofile java-work.jfr.json.gz; do
	check "reads $f" "$TRAIL" collapse "$D/$f"
	[ -s "$T/.out" ] || fail "$f folds to something" "empty output"
	cp "$T/.out" "$T/$f.folded"
done
grep -q '^runtime.main;main.main;main.work;main.hash [0-9]*$' "$T/go-cpu.pb.gz.folded" &&
	pass "go cpu: the hot function, root first" || fail "go cpu: the hot function, root first"
grep -q ';main.work;main.mix' "$T/go-cpu.pb.gz.folded" &&
	pass "go cpu: inlined functions are frames" || fail "go cpu: inlined functions are frames"
grep -q ';work;hash [0-9]*$' "$T/node-work.cpuprofile.folded" &&
	pass "node: work calls hash" || fail "node: work calls hash"
grep -q '^Work.main;Work.hash' "$T/java-work.jfr.json.gz.folded" &&
	pass "jfr: Work.main calls Work.hash" || fail "jfr: Work.main calls Work.hash"
check "go heap: --sample-type alloc_space" "$TRAIL" collapse --sample-type alloc_space "$D/go-heap.pb.gz"
cmp -s "$T/.out" "$T/go-heap.pb.gz.folded" &&
	fail "alloc_space differs from the default inuse_space" || pass "alloc_space differs from the default inuse_space"
check_exit "unknown sample type" 1 "$TRAIL" collapse --sample-type nope "$D/go-heap.pb.gz"
grep -q "alloc_objects, alloc_space, inuse_objects, inuse_space" "$T/.err" &&
	pass "unknown sample type lists the types" || fail "unknown sample type lists the types"
check "jfr: allocation samples weigh bytes" "$TRAIL" collapse --sample-type jdk.ObjectAllocationSample "$D/java-work.jfr.json.gz"
awk '$NF > 1000 { big = 1 } END { exit !big }' "$T/.out" &&
	pass "jfr: allocation weights are bytes" || fail "jfr: allocation weights are bytes"
check_exit "--output bogus is a usage error" 2 "$TRAIL" collapse --output bogus "$D/go-cpu.pb.gz"

# --- round trips: folded -> pprof / speedscope -> folded ---
for f in go-cpu.pb.gz java-work.jfr.json.gz; do
	"$TRAIL" collapse --output pprof "$T/$f.folded" >"$T/rt.pb.gz" &&
		"$TRAIL" collapse "$T/rt.pb.gz" >"$T/rt1.folded" &&
		cmp -s "$T/$f.folded" "$T/rt1.folded" &&
		pass "round trip via pprof ($f)" || fail "round trip via pprof ($f)"
	# speedscope has a unit but no sample type: the stacks, counts and unit come back
	"$TRAIL" collapse --output speedscope "$T/$f.folded" >"$T/rt.json" &&
		"$TRAIL" collapse "$T/rt.json" >"$T/rt2.folded" &&
		cmp -s <(grep -v '^#' "$T/$f.folded") <(grep -v '^#' "$T/rt2.folded") &&
		{ ! grep -q '^# trail-folded' "$T/$f.folded" ||
		  [ "$(head -1 "$T/$f.folded" | sed 's/ type=[^ ]*//')" = "$(head -1 "$T/rt2.folded")" ]; } &&
		pass "round trip via speedscope ($f)" || fail "round trip via speedscope ($f)"
done
# perf script text converts too (through the same folding engine)
printf 'app 1 [000] 1.0: 1 cycles:\n\t1 leaf (/bin/app)\n\t2 main (/bin/app)\n\n' >"$T/p.txt"
"$TRAIL" collapse "$T/p.txt" >"$T/p.folded"
"$TRAIL" collapse --output speedscope "$T/p.txt" >"$T/p.json" &&
	"$TRAIL" collapse "$T/p.json" | cmp -s - "$T/p.folded" &&
	pass "perf script text to speedscope" || fail "perf script text to speedscope"
# a frame whose name ends in a number keeps its name and count (the
# stacks were once printed and parsed back, which took "foo 12 5" for two
# count columns: frame "foo", 12)
printf 'main;foo 12 5\nmain;bar 3\n' >"$T/num.folded"
"$TRAIL" collapse --format folded --output speedscope "$T/num.folded" >"$T/num.json" &&
	grep -qF '{"name":"foo 12"}' "$T/num.json" && grep -qF '"weights":[3,5]' "$T/num.json" &&
	pass "a frame ending in a number survives --output speedscope" ||
	fail "a frame ending in a number survives --output speedscope" "$(cat "$T/num.json")"

# --- go tool pprof reads trail's pprof ---
if have go; then
	"$TRAIL" collapse --output pprof "$T/go-cpu.pb.gz.folded" >"$T/out.pb.gz"
	if go tool pprof -top -nodecount=1000 "$T/out.pb.gz" >"$T/top.txt" 2>"$T/top.err"; then
		# flat of main.hash = the counts of stacks that end in it
		want=$(awk '{ n = split($1, f, ";") } f[n] == "main.hash" { s += $NF } END { printf "%.0f", s }' \
			"$T/go-cpu.pb.gz.folded")
		got=$(awk '$NF == "main.hash" { print $1 }' "$T/top.txt")
		total=$(awk '{ s += $NF } END { printf "%.0f", s }' "$T/go-cpu.pb.gz.folded")
		# the profile is cpu/nanoseconds, and stays so: pprof shows seconds
		want=$(awk -v n="$want" 'BEGIN { printf "%.2fs", n / 1e9 }')
		total=$(awk -v n="$total" 'BEGIN { printf "%.0fs", n / 1e9 }')
		grep -q '^Type: cpu$' "$T/top.txt" && pass "go tool pprof -top: Type: cpu" ||
			fail "go tool pprof -top: Type: cpu" "$(head -3 "$T/top.txt")"
		[ -n "$want" ] && [ "$got" = "$want" ] &&
			pass "go tool pprof -top: main.hash flat $got" ||
			fail "go tool pprof -top: main.hash flat" "got '$got', expected '$want'"
		grep -q "of $total total" "$T/top.txt" &&
			pass "go tool pprof -top: total $total" ||
			fail "go tool pprof -top: total" "$(grep total "$T/top.txt")"
	else
		fail "go tool pprof reads trail's pprof" "$(head -3 "$T/top.err")"
	fi
else
	skip "go tool pprof reads trail's pprof" "go not installed (apt-get install golang-go)"
fi

# --- speedscope (the npm package) in headless Chromium ---
release=${TRAIL_SPEEDSCOPE:-$BUILD/speedscope/node_modules/speedscope}/dist/release
if [ ! -f "$release/index.html" ] && have npm && [ -z "${TRAIL_SPEEDSCOPE:-}" ]; then
	# one install at a time (make check runs suites side by side; the other
	# one that installs it may be running): under a lock, if still missing
	mkdir -p "$BUILD/speedscope" && flock "$BUILD/speedscope/.lock" \
		sh -c '[ -f "$1" ] || npm install --silent --no-audit --no-fund --prefix "$2" speedscope' \
		_ "$release/index.html" "$BUILD/speedscope" >/dev/null 2>&1 || true
fi
if [ ! -f "$release/index.html" ]; then
	skip "speedscope loads trail's JSON" "speedscope npm package not installed (npm install --prefix build/speedscope speedscope)"
elif ! have python3 || ! { have chromium || have chromium-browser || have google-chrome; }; then
	skip "speedscope loads trail's JSON" "python3 or chromium missing"
else
	"$TRAIL" collapse --output speedscope "$D/go-cpu.pb.gz" >"$T/go.json"
	check "speedscope shows the Go profile" python3 "$ROOT/tests/browser/speedscope_check.py" \
		"$release" "$T/go.json" go-cpu.pb.gz main.hash main.mix main.build runtime.main
fi

# --- fresh profiles from the profilers on this machine ---
if have node; then
	node --cpu-prof --cpu-prof-dir="$T/node" --cpu-prof-name=w.cpuprofile "$D/work.js" 300 >/dev/null &&
		"$TRAIL" collapse "$T/node/w.cpuprofile" | grep -q ';work' &&
		pass "node --cpu-prof, fresh" || fail "node --cpu-prof, fresh"
else
	skip "node --cpu-prof, fresh" "node not installed"
fi
if have java && have javac && have jfr; then
	mkdir -p "$T/java" && cp "$D/Work.java" "$T/java/" &&
		(cd "$T/java" && javac Work.java &&
		 java -XX:StartFlightRecording=filename=w.jfr,settings=profile Work 1 >/dev/null 2>&1) &&
		jfr print --json --events jdk.ExecutionSample "$T/java/w.jfr" >"$T/java/w.json" &&
		"$TRAIL" collapse "$T/java/w.json" | grep -q '^Work.main' &&
		pass "jfr print --json, fresh" || fail "jfr print --json, fresh"
else
	skip "jfr print --json, fresh" "java, javac or jfr missing (openjdk-17-jdk-headless)"
fi
