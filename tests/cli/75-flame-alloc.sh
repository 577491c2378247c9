#!/usr/bin/env bash
# tests/cli/75-flame-alloc.sh - trail flame on memory regressions, on git
# histories generated here: --metric alloc where one commit makes tokenize()
# strdup every token instead of scanning one buffer (+15 MiB, a third more
# bytes; the allocation-site profiles must name that commit and tokenize),
# --metric rss where one commit quadruples the memory fill_table() touches
# (page-fault profiles, one sample per 16 faults of 4 KiB pages: ~1150 a
# run, none lost), and --metric peak-heap on that history (inuse-peak
# profiles); a history where nothing allocated changes is "no regression"
# (exit 6) on exact bytes.  The effects are megabytes, so nothing depends
# on timing.
. "$(dirname "$0")/lib.sh"

have cc && have git && have python3 || { skip "flame-alloc" "needs cc, git and python3"; exit 0; }
[ -f "$(dirname "$TRAIL")/libtrail-alloc.so" ] || { fail "flame-alloc: interposer built"; exit 0; }
FAST=(--repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache")
BUILD='cc -O1 -g -fno-omit-frame-pointer -fno-inline -o app app.c'
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# commit REPO MESSAGE: commit app.c as it is now
commit() { git -C "$1" add app.c && git -C "$1" -c user.name=t -c user.email=t@t commit -q -m "$2"; }

# app.c with the parts given: $1 the body of tokenize(), $2 the bytes
# fill_table() touches, $3 a version number (unrelated edits)
write_app() {
	cat >"$R/app.c" <<EOF
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#define ROUNDS 60
#define INPUT (256 * 1024)
static const int version = $3;
__attribute__((noinline)) static char *load_input(void)
{
	char *buf = malloc(INPUT + 1);
	for (int i = 0; i < INPUT; i++)
		buf[i] = i % 16 == 15 ? ' ' : (char)('a' + i % 26);
	buf[INPUT] = 0;
	return buf;
}
__attribute__((noinline)) static long tokenize(char *buf)
{
	long n = 0;
$1
	return n;
}
/* 4 KiB pages whatever transparent huge pages say: one fault a page */
static void small_pages(volatile char *t, size_t len)
{
	uintptr_t a = ((uintptr_t)t + 4095) & ~(uintptr_t)4095;
	madvise((void *)a, ((uintptr_t)t + len - a) & ~(uintptr_t)4095, MADV_NOHUGEPAGE);
}
__attribute__((noinline)) static long fill_table(void)
{
	size_t len = $2;
	volatile char *t = malloc(len);
	small_pages(t, len);
	for (size_t i = 0; i < len; i += 4096)
		t[i] = 1;
	long s = t[len - 1];
	free((void *)t);
	return s;
}
__attribute__((noinline)) static long base_table(void)
{
	size_t len = 24u << 20;
	volatile char *t = malloc(len);
	small_pages(t, len);
	for (size_t i = 0; i < len; i += 4096)
		t[i] = 2;
	long s = t[0];
	free((void *)t);
	return s;
}
int main(void)
{
	long total = version + base_table() + fill_table();
	for (int r = 0; r < ROUNDS; r++) {
		char *buf = load_input();
		total += tokenize(buf);
		free(buf);
	}
	printf("%ld\n", total);
	return 0;
}
EOF
}
SCAN='	for (char *p = buf; *p; p++)
		n += *p == '"' '"';'
DUP='	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *copy = strdup(tok);
		n += (long)strlen(copy);
		free(copy);
	}'

# history NAME TOKENIZE_BAD FILL_GOOD FILL_BAD: 6 commits, the culprit 4th
history() {
	R=$T/repo-$1
	git init -q "$R"
	write_app "$SCAN" "$3" 1 && commit "$R" "start"
	GOOD=$(git -C "$R" rev-parse HEAD)
	write_app "$SCAN" "$3" 2 && commit "$R" "version 2"
	write_app "$SCAN" "$3" 3 && commit "$R" "version 3"
	write_app "$2" "$4" 3 && commit "$R" "the change"
	CULPRIT=$(git -C "$R" rev-parse HEAD)
	write_app "$2" "$4" 4 && commit "$R" "version 4"
	write_app "$2" "$4" 5 && commit "$R" "version 5"
	BAD=$(git -C "$R" rev-parse HEAD)
}

# run_flame NAME METRIC [options]: trail flame in the history; 0 when it exits 0
run_flame() {
	local name=$1 metric=$2 rc; shift 2
	(cd "$R" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run ./app \
		--metric "$metric" --out "$T/report-$name" "${FAST[@]}" "$@") >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit $rc, expected 0"; sed 's/^/    /' "$T/$name.err" | tail -25 >&2
		return 1
	fi
	pass "$name: exit 0"
}

# expect NAME FUNCTION: the report names the culprit commit and FUNCTION
expect() {
	local out=$T/report-$1/report.json got fn
	got=$(json "$out" 'd["suspect"]["commit"]')
	fn=$(json "$out" 'd["suspect"]["function"]')
	[ "$got" = "$CULPRIT" ] && pass "$1: names the culprit commit" ||
		fail "$1: names the culprit commit" "got $got, expected $CULPRIT"
	[ "$fn" = "$2" ] && pass "$1: names $2" || fail "$1: names $2" "got $fn"
}

# No change in what is allocated (only the version number moves): the
# bytes are exact, the same at every run, so the interval of the change is
# 0 wide and trail says "no regression" (exit 6) however busy the machine
# - the load-free counterpart of tests/cli/71-flame-e2e.sh's "none".
R=$T/repo-same
git init -q "$R"
for v in 1 2 3 4; do
	write_app "$SCAN" '(8u << 20)' "$v" && commit "$R" "version $v"
	[ "$v" = 1 ] && GOOD=$(git -C "$R" rev-parse HEAD)
done
BAD=$(git -C "$R" rev-parse HEAD)
(cd "$R" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --build "$BUILD" --run ./app \
	--metric alloc --alloc-interval 16384 --out "$T/report-same" "${FAST[@]}") >"$T/same.out" 2>"$T/same.err"
rc=$?
[ "$rc" = 6 ] && grep -q "^no-regression" "$T/same.out" &&
	[ "$(json "$T/report-same/report.json" 'd["suspect"]')" = None ] &&
	pass "same: no regression (exit 6), no suspect" ||
	fail "same: no regression (exit 6), no suspect" "exit $rc: $(head -3 "$T/same.out"; tail -5 "$T/same.err")"

# Under sanitizers the alloc and peak cases are left out: every line of C
# they reach is reached sanitized by other suites but two (gcov, stop 31:
# cmd/flame.c's count format of a probe's value, svg.c's "(new)" label) -
# trail flame on the interposer's bytes is 74-flame-culprits-alloc, the peak
# heap 77-history-suite's peak-heap; they were 22 of the 39 s of CPU here
history alloc "$DUP" '(8u << 20)' '(8u << 20)'
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "alloc, peak" "reduced subset under sanitizers"
elif run_flame alloc alloc --alloc-interval 16384 --strategy bisect; then
	expect alloc tokenize
	out=$T/report-alloc
	[ "$(json "$out/report.json" 'd["metric"]["name"]')" = alloc ] &&
		[ "$(json "$out/report.json" 'd["profile"]')" = alloc-space ] &&
		pass "alloc: report names the metric and the view" || fail "alloc: report names the metric and the view"
	# bytes: 60 x 256 KiB + 32 MiB before, plus 60 x 256 KiB of 16-byte tokens after
	json "$out/report.json" '1.2 < d["metric"]["bad"]["value"] / d["metric"]["good"]["value"] < 2' |
		grep -q True && pass "alloc: bytes allocated rose" || fail "alloc: bytes allocated rose"
	grep -q "^- profiles: allocation sites" "$out/report.md" && pass "alloc: report.md says what the profiles count" ||
		fail "alloc: report.md says what the profiles count"
	# the scope line names the allocation profiler and its interval, not a CPU rate
	scope=$(grep "scope: metric alloc" "$T/alloc.err")
	case $scope in
	*"trail record -e alloc"*"per 16384 bytes"*) case $scope in *Hz*) ok=0 ;; *) ok=1 ;; esac ;;
	*) ok=0 ;;
	esac
	[ "$ok" = 1 ] && pass "alloc: scope names the allocation profiler and its interval" ||
		fail "alloc: scope names the allocation profiler and its interval" "$scope"
fi

history rss "$SCAN" '(12u << 20)' '(48u << 20)'
# peak-heap on the same history: the heap peaks in fill_table, 24 -> 48 MiB
if [ -z "${TRAIL_SANITIZED:-}" ] && run_flame peak peak-heap --alloc-interval 16384; then
	expect peak fill_table
	[ "$(json "$T/report-peak/report.json" 'd["profile"]')" = inuse-peak ] &&
		pass "peak: report names the inuse-peak view" || fail "peak: report names the inuse-peak view"
	json "$T/report-peak/report.json" '1.5 < d["metric"]["bad"]["value"] / d["metric"]["good"]["value"] < 2.5' |
		grep -q True && pass "peak: peak heap doubled" || fail "peak: peak heap doubled"
fi
# (the workload runs from trail's small helper, core/child.h own_rusage,
# so even a sanitized trail's ~200 MB does not hide its 36 -> 72 MB)
if ! "$TRAIL" record -e page-faults -o "$T/pf.folded" -- true >/dev/null 2>&1; then
	skip "rss" "trail record -e page-faults cannot sample here"
elif run_flame rss rss; then
	expect rss fill_table
	[ "$(json "$T/report-rss/report.json" 'd["profile"]')" = page-faults ] &&
		pass "rss: report names the page-fault profiles" || fail "rss: report names the page-fault profiles"
fi
# the same history with perf sampling the page faults (not under
# sanitizers: trail's part is reading perf.data, which 50-perfdata and
# 60-record run sanitized; this case is a third of the suite's time there)
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "rss-perf" "reduced subset under sanitizers"
elif ! have perf || ! perf record -q -e page-faults -g -o "$T/pf.data" -- true >/dev/null 2>&1; then
	skip "rss-perf" "perf record -e page-faults cannot sample here"
elif run_flame rss-perf rss --profiler perf; then
	expect rss-perf fill_table
	[ "$(json "$T/report-rss-perf/report.json" 'd["profile"]')" = page-faults ] &&
		pass "rss-perf: report names the page-fault profiles" ||
		fail "rss-perf: report names the page-fault profiles"
	grep -q "scope: metric rss, profiler perf record -e page-faults" "$T/rss-perf.err" &&
		pass "rss-perf: scope names perf's page-fault sampling" ||
		fail "rss-perf: scope names perf's page-fault sampling" "$(grep scope: "$T/rss-perf.err")"
	# trail's sampler in flame and perf record take one fault in the same
	# period: the good side's samples agree (every fault, or a lost share,
	# would be 16 times as many or far fewer)
	if [ -s "$T/report-rss/good.folded" ]; then
		nt=$(awk '!/^#/ { s += $NF } END { print s + 0 }' "$T/report-rss/good.folded")
		np=$(awk '!/^#/ { s += $NF } END { print s + 0 }' "$T/report-rss-perf/good.folded")
		[ "$np" -gt 0 ] && [ $((nt * 3)) -ge $((np * 2)) ] && [ $((nt * 2)) -le $((np * 3)) ] &&
			pass "rss: trail samples page faults at perf's period" ||
			fail "rss: trail samples page faults at perf's period" "trail $nt, perf $np samples"
	fi
fi
