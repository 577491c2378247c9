#!/usr/bin/env bash
# tests/cli/74-flame-go.sh - 'trail flame --profiler CMD' end to end with Go:
# a small Go program's git history where one commit makes main.hash 4x
# slower; the program profiles itself with runtime/pprof into
# $TRAIL_PROFILE, and trail flame must name that commit and main.hash.
# The effect is large so the answer does not depend on timing; nothing
# here asserts a time.  Skips without go.
. "$(dirname "$0")/lib.sh"

if ! have go || ! have git || ! have python3; then
	skip "flame go" "needs go (apt-get install golang-go), git and python3"; exit 0
fi
# the Go build cache outlives the scratch directory: the standard library
# is compiled once, not on every run of this test - nor again for the
# sanitized run (make check: build/ then build-san/), so it is in build/
# whichever trail is tested (Go's output does not depend on trail's build)
export GOCACHE=${GOCACHE:-$ROOT/build/go-cache} GOFLAGS=-mod=mod GOTOOLCHAIN=local
R=$T/gorepo
mkdir -p "$R" && cd "$R" || exit 1
git init -q . && git config user.email t@example.com && git config user.name t
cat >go.mod <<'GO'
module goflame

go 1.19
GO
# work(N) units in three functions; HASH is the knob the culprit turns
write_main() {
	cat >main.go <<GO
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

var sink uint64

// each function does its own work: trail flame compares self time
//go:noinline
func parse() {
	for i := 0; i < 3000000; i++ {
		sink = sink*6364136223846793005 + uint64(i)
	}
}

//go:noinline
func render() {
	for i := 0; i < 3000000; i++ {
		sink = sink*2862933555777941757 + uint64(i)
	}
}

//go:noinline
func hash() {
	for i := 0; i < $1; i++ {
		sink = (sink ^ uint64(i)) * 1099511628211
	}
}

func main() {
	prof := flag.String("cpuprofile", "", "write a CPU profile here")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			panic(err)
		}
		runtime.SetCPUProfileRate(1000)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// ~0.5 s of CPU a run at the good end (1 s at the bad), sampled at
	// 1000 Hz: hundreds of samples, so a probe's share is not decided by
	// a handful of them on a busy machine
	for i := 0; i < 24; i++ {
		parse()
		render()
		hash()
	}
	fmt.Println(sink != 0)
}
GO
}
commit() { git add -A && git commit -qm "$1" && git rev-parse HEAD; }
write_main 3000000
GOOD=$(commit "three equal parts")
echo "// tidy" >>main.go; commit "tidy" >/dev/null
echo "# goflame" >README; commit "readme" >/dev/null
write_main 12000000
CULPRIT=$(commit "hash: more rounds")
echo "more docs" >>README; commit "docs" >/dev/null
echo "// note" >>main.go; BAD=$(commit "note")
cd "$ROOT" || exit 1

(cd "$R" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build 'go build -o app .' \
	--run './app' --profiler './app -cpuprofile "$TRAIL_PROFILE"' \
	--out "$T/report" --repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache") \
	>"$T/flame.out" 2>"$T/flame.err"
rc=$?
if [ "$rc" -ne 0 ]; then
	fail "go: trail flame exits 0" "exit $rc"; sed 's/^/    /' "$T/flame.err" | tail -25 >&2
	exit 0
fi
pass "go: trail flame exits 0"
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
got=$(json "$T/report/report.json" 'd["suspect"]["commit"]')
fn=$(json "$T/report/report.json" 'd["suspect"]["function"]')
[ "$got" = "$CULPRIT" ] && pass "go: names the culprit commit" ||
	fail "go: names the culprit commit" "got $got, expected $CULPRIT"
[ "$fn" = "main.hash" ] && pass "go: names main.hash" || fail "go: names main.hash" "got $fn"
grep -q "profiler ./app -cpuprofile" "$T/flame.err" && pass "go: the scope line names the profiler" ||
	fail "go: the scope line names the profiler"
# Go names functions package.function: the repository's "func hash" is main.hash
grep -q "narrow: main.hash is defined in main.go:" "$T/flame.err" &&
	pass "go: finds main.hash's definition (func hash in main.go)" ||
	fail "go: finds main.hash's definition (func hash in main.go)" "$(grep narrow: "$T/flame.err" | head -3)"
grep -q "changed hash, not main.hash" "$T/flame.err" &&
	fail "go: the suspect changed main.hash itself" "$(grep 'changed hash' "$T/flame.err")" ||
	pass "go: the suspect changed main.hash itself"
