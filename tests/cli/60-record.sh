#!/usr/bin/env bash
# tests/cli/60-record.sh - 'trail record' on small C programs with a known
# call tree, threads, fork+exec, blocking and a running process: the
# functions they are known to spend their time in must dominate, the
# perf.data must open in perf report / perf script, exit statuses pass
# through.  Skips when perf_event_open is not permitted or there is no C
# compiler; perf-dependent checks skip without perf.
. "$(dirname "$0")/lib.sh"

if ! have cc; then
	skip "record" "no C compiler"
	exit 0
fi
"$TRAIL" record -o "$T/probe.data" -- true >"$T/probe.out" 2>"$T/probe.err"
if [ $? -ne 0 ]; then
	skip "record" "perf_event_open not usable here: $(head -1 "$T/probe.err")"
	exit 0
fi
HAVE_PERF=0
have perf && perf --version >/dev/null 2>&1 && HAVE_PERF=1

# A CPU-time budget per program keeps the tests short on any machine.
cat >"$T/budget.h" <<'EOF'
#include <time.h>
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
static volatile unsigned long sink;
EOF
# hot_a takes 3/4 of calltree's CPU time, hot_b 1/4, in calls of 30 and
# 10 ms: each call spans many samples, so a share is off by at most a
# sample a call.  (Calls of a fixed number of loops made a cycle of about
# 1 ms that could run in step with the 1 ms sampling period: every sample
# then fell at one point of the cycle, 118 samples in a row in hot_b, and
# hot_a's share came out 44 % in 1 run of 30.)
cat >"$T/calltree.c" <<'EOF'
#include "budget.h"
__attribute__((noinline)) void hot_a(void)
{ double end = cpu_now() + 0.030; do for (long i = 0; i < 100000; i++) sink += i * i; while (cpu_now() < end); }
__attribute__((noinline)) void hot_b(void)
{ double end = cpu_now() + 0.010; do for (long i = 0; i < 100000; i++) sink ^= i * 7; while (cpu_now() < end); }
__attribute__((noinline)) void work(void) { hot_a(); hot_b(); }
#include <stdlib.h>
int main(int argc, char **argv) { double end = cpu_now() + (argc > 1 ? atof(argv[1]) : 0.3);
	while (cpu_now() < end) work(); return 3; }
EOF
cat >"$T/threads.c" <<'EOF'
#include <pthread.h>
#include "budget.h"
__attribute__((noinline)) void thr_x_leaf(void) { for (long i = 0; i < 100000; i++) sink += i; }
__attribute__((noinline)) void thr_y_leaf(void) { for (long i = 0; i < 100000; i++) sink ^= i; }
static void *thr_x(void *a) { double end = cpu_now() + 0.2; while (cpu_now() < end) thr_x_leaf(); return a; }
static void *thr_y(void *a) { double end = cpu_now() + 0.2; while (cpu_now() < end) thr_y_leaf(); return a; }
int main(void) { pthread_t a, b; pthread_create(&a, 0, thr_x, 0); pthread_create(&b, 0, thr_y, 0);
	pthread_join(a, 0); pthread_join(b, 0); return 0; }
EOF
cat >"$T/forkexec.c" <<'EOF'
#include <sys/wait.h>
#include <unistd.h>
#include "budget.h"
__attribute__((noinline)) void parent_leaf(void) { for (long i = 0; i < 100000; i++) sink += i; }
int main(int argc, char **argv) {
	pid_t p = fork();
	if (p == 0) { execl(argv[1], argv[1], (char *)0); _exit(127); }
	double end = cpu_now() + 0.2; while (cpu_now() < end) parent_leaf();
	int st; waitpid(p, &st, 0); return WIFEXITED(st) && WEXITSTATUS(st) == 3 ? 0 : 1; }
EOF
cat >"$T/spin.c" <<'EOF'
#include <unistd.h>
#include "budget.h"
__attribute__((noinline)) void spin_leaf(void) { for (long i = 0; i < 100000; i++) sink += i; }
int main(void) { double end = cpu_now() + 20; while (cpu_now() < end) spin_leaf(); return 0; }
EOF
cat >"$T/block.c" <<'EOF'
#include <time.h>
#include "budget.h"
__attribute__((noinline)) void nap(void) { struct timespec ts = { 0, 20000000 }; nanosleep(&ts, 0); }
__attribute__((noinline)) void burn(void) { double end = cpu_now() + 0.005; while (cpu_now() < end) sink++; }
int main(void) { for (int i = 0; i < 10; i++) { nap(); burn(); } return 0; }
EOF
CFLAGS_FP="-O1 -g -fno-omit-frame-pointer"
for p in calltree threads forkexec spin block; do
	cc $CFLAGS_FP -pthread -o "$T/$p" "$T/$p.c" || { fail "build $p"; exit 0; }
done
cc -O2 -g -fomit-frame-pointer -o "$T/calltree_nofp" "$T/calltree.c" || { fail "build calltree_nofp"; exit 0; }

# folded FILE: perf script | trail collapse of FILE, computed once per file.
folded() {
	[ -f "$1.via-perf" ] || perf script -i "$1" 2>/dev/null | "$TRAIL" collapse >"$1.via-perf" 2>/dev/null
	cat "$1.via-perf"
}
# share SYMBOL FILE: percentage of the weight (sampled time) in stacks that
# pass through SYMBOL, via perf script | trail collapse.
share() {
	folded "$2" | awk -v s="$1" '{ n = $NF; t += n; st = $0; sub(/ [0-9.]+$/, "", st)
			k = split(st, f, ";"); for (i = 1; i <= k; i++) if (f[i] == s) { m += n; break } }
			END { printf "%.1f\n", t ? 100 * m / t : 0 }'
}
# weight SUBSTRING FILE: total weight of the stacks with a frame containing SUBSTRING.
weight() {
	folded "$2" | awk -v s="$1" 'index($0, s) { t += $NF } END { printf "%.0f\n", t + 0 }'
}
# at_least A B: A >= B (decimals)
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
# child_named PID COMM: whether PID gets a child process named COMM (up to
# 60 s; no when PID ends first) - a wait for a state, not a fixed sleep
child_named() {
	local i
	for i in $(seq 1 600); do
		ps -o comm= --ppid "$1" 2>/dev/null | grep -qx "$2" && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# runs_exe PID FILE: whether PID has exec'd FILE (up to 60 s)
runs_exe() {
	local i
	for i in $(seq 1 600); do
		[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$(readlink -f "$2")" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# --- a known call tree; the exit status passes through ---
check_exit "command's exit status passes through" 3 "$TRAIL" record -o "$T/calltree.data" -- "$T/calltree"
grep -q "samples of" "$T/.err" && pass "summary on stderr" || fail "summary on stderr" "$(cat "$T/.err")"
[ ! -s "$T/.out" ] && pass "nothing on stdout" || fail "nothing on stdout"
if [ $HAVE_PERF = 1 ]; then
	perf report -i "$T/calltree.data" --stdio >"$T/report.txt" 2>"$T/report.err"
	rc=$?
	if [ $rc -eq 0 ] && ! grep -qiE 'warning|error|corrupt|failed' "$T/report.err"; then
		pass "perf report opens the file cleanly"
	else
		fail "perf report opens the file cleanly" "rc $rc: $(head -3 "$T/report.err")"
	fi
	a=$(share hot_a "$T/calltree.data"); b=$(share hot_b "$T/calltree.data")
	if at_least "$a" 50 && at_least "$b" 8 && at_least "$a" "$b"; then
		pass "leaf functions dominate"
	else
		fail "leaf functions dominate" "hot_a $a%, hot_b $b%"
	fi
	perf script -i "$T/calltree.data" >"$T/script.txt" 2>"$T/script.err"
	check "perf script reads the file" test -s "$T/script.txt"
	# hot_a's callers: work (or main when hot_a had no frame yet), then main.
	if awk '/cpu-clock|cycles/ { s = "" } { s = s " " $2 } /^$/ { if (s ~ /hot_a.*main/) n++; s = "" } END { exit !(n > 0) }' "$T/script.txt"; then
		pass "call chains reach main"
	else
		fail "call chains reach main"
	fi
	perf report -i "$T/calltree.data" --header-only 2>/dev/null >"$T/header.txt"
	grep -q "cmdline : trail record" "$T/header.txt" && grep -q "event : name = " "$T/header.txt" &&
		pass "header carries cmdline and event description" ||
		fail "header carries cmdline and event description" "$(head -20 "$T/header.txt")"
else
	skip "perf report checks" "perf is not installed"
fi

# --- threads ---
check "threads" "$TRAIL" record -o "$T/threads.data" -- "$T/threads"
if [ $HAVE_PERF = 1 ]; then
	x=$(share thr_x_leaf "$T/threads.data"); y=$(share thr_y_leaf "$T/threads.data")
	at_least "$x" 25 && at_least "$y" 25 && pass "both threads sampled" ||
		fail "both threads sampled" "thr_x_leaf $x%, thr_y_leaf $y%"
	n=$(perf script -i "$T/threads.data" -F tid 2>/dev/null | sort -u | wc -l)
	[ "$n" -ge 2 ] && pass "samples from several threads" || fail "samples from several threads" "$n"
fi

# --- fork + exec: the child is followed through exec ---
check "fork and exec" "$TRAIL" record -o "$T/forkexec.data" -- "$T/forkexec" "$T/calltree"
if [ $HAVE_PERF = 1 ]; then
	a=$(share hot_a "$T/forkexec.data"); p=$(share parent_leaf "$T/forkexec.data")
	at_least "$a" 25 && at_least "$p" 15 && pass "parent and exec'd child sampled" ||
		fail "parent and exec'd child sampled" "hot_a $a%, parent_leaf $p%"
	perf script -i "$T/forkexec.data" -F comm 2>/dev/null | awk '{ print $1 }' | sort -u >"$T/comms"
	grep -qx calltree "$T/comms" && grep -qx forkexec "$T/comms" && pass "exec'd command named" ||
		fail "exec'd command named" "$(tr '\n' ' ' <"$T/comms")"
fi

# --- build-ids: the BUILD_ID feature names each module with its id ---
# elf_build_id FILE: the id readelf -n prints.  listed_id NAME FILE.data:
# the id perf buildid-list gives NAME (empty when not listed).
elf_build_id() { readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }'; }
listed_id() {
	perf buildid-list -i "$2" 2>/dev/null |
		awk -v n="$1" '{ id = $1; sub(/^[^ ]+ /, ""); if ($0 == n) print id }'
}
# same_id WHAT NAME FILE.data EXPECTED
same_id() {
	got=$(listed_id "$2" "$3")
	[ -n "$4" ] && [ "$got" = "$4" ] && pass "build-id of $1 is readelf's" ||
		fail "build-id of $1 is readelf's" "listed '$got', readelf '$4' for $2"
}
HAVE_BUILDID_TOOLS=0
if [ $HAVE_PERF = 1 ] && have readelf; then
	libc=$(ldd "$T/calltree" 2>/dev/null | awk '/libc\.so/ { print $3; exit }')
	libc=$(readlink -f "$libc")
	perf buildid-list -i "$T/calltree.data" >"$T/buildids.txt" 2>"$T/buildids.err"
	same_id "the recorded program" "$T/calltree" "$T/calltree.data" "$(elf_build_id "$T/calltree")"
	same_id "libc (its frames are in every call chain)" "$libc" "$T/calltree.data" "$(elf_build_id "$libc")"
	dups=$(awk '{ print $2 }' "$T/buildids.txt" | sort | uniq -d)
	[ -z "$dups" ] && pass "each module listed once" || fail "each module listed once" "$dups"
	# The kernel: listed when it was sampled, with the running kernel's id.
	if perf script -i "$T/calltree.data" 2>/dev/null | grep -q '(\[kernel\.kallsyms\])'; then
		k=$(perf buildid-list -k 2>/dev/null)
		got=$(listed_id "[kernel.kallsyms]" "$T/calltree.data")
		[ -n "$k" ] && [ "$got" = "$k" ] && pass "kernel build-id is the running kernel's" ||
			fail "kernel build-id is the running kernel's" "listed '$got', perf buildid-list -k '$k'"
	else
		skip "kernel build-id is the running kernel's" "no kernel samples (kernel.perf_event_paranoid?)"
	fi
	# perf record of the same program: every module both list has the same id.
	mkdir -p "$T/home"
	# (perf record exits with the program's status: calltree's is 3)
	HOME="$T/home" perf record -N -g -o "$T/ref.data" -- "$T/calltree" 0.1 >/dev/null 2>&1
	if [ $? -eq 3 ] && [ -s "$T/ref.data" ]; then
		perf buildid-list -i "$T/ref.data" 2>/dev/null >"$T/ref-buildids.txt"
		diff=$(awk 'NR == FNR { id[$2] = $1; next } ($2 in id) && id[$2] != $1 { print $2 ": " id[$2] " vs " $1 }' \
			"$T/ref-buildids.txt" "$T/buildids.txt")
		common=$(awk 'NR == FNR { id[$2] = 1; next } ($2 in id) { n++ } END { print n + 0 }' \
			"$T/ref-buildids.txt" "$T/buildids.txt")
		# Which modules perf lists depends on the machine and on luck: the
		# kernel only when it may be sampled; perf marks only the module of
		# a sample's own address, so libc and ld.so only when a sample
		# landed in them (trail marks every module of the call chain).
		# Every module both list has one id, the program is in both, and
		# the vdso is in trail's list whenever it is in perf's.
		in_both() { grep -qF " $1" "$T/ref-buildids.txt" && grep -qF " $1" "$T/buildids.txt"; }
		vdso_ok=1
		grep -q ' \[vdso\]$' "$T/ref-buildids.txt" && ! grep -q ' \[vdso\]$' "$T/buildids.txt" && vdso_ok=0
		[ -z "$diff" ] && [ $vdso_ok = 1 ] && in_both "$T/calltree" &&
			pass "ids agree with perf record's" ||
			fail "ids agree with perf record's" "common $common; differ: $diff; vdso_ok $vdso_ok; trail: $(tr '\n' ' ' <"$T/buildids.txt"); perf: $(tr '\n' ' ' <"$T/ref-buildids.txt")"
	else
		skip "ids agree with perf record's" "perf record failed"
	fi
	HAVE_BUILDID_TOOLS=1
else
	HAVE_BUILDID_TOOLS=0
	skip "build-id lists" "needs perf and readelf"
fi
# A binary rebuilt after recording: its new symbols must not be used.
cp "$T/calltree" "$T/rebuilt"
check_exit "record a program later rebuilt" 3 "$TRAIL" record -o "$T/rebuilt.data" -- "$T/rebuilt" 0.1
HOME="$T/home" "$TRAIL" collapse "$T/rebuilt.data" >"$T/rebuilt-before.folded" 2>/dev/null
sed 's/hot_a/renamed_a/g; s/hot_b/renamed_b/g; s/100000/100001/g' "$T/calltree.c" >"$T/rebuilt.c"
cc $CFLAGS_FP -o "$T/rebuilt" "$T/rebuilt.c" || fail "build rebuilt"
HOME="$T/home" "$TRAIL" collapse "$T/rebuilt.data" >"$T/rebuilt-after.folded" 2>/dev/null
grep -q ';hot_a' "$T/rebuilt-before.folded" && ! grep -q 'renamed_' "$T/rebuilt-after.folded" &&
	grep -q ';\[rebuilt\]' "$T/rebuilt-after.folded" &&
	pass "trail collapse: a rebuilt binary's symbols are not used (build-id mismatch)" ||
	fail "trail collapse: a rebuilt binary's symbols are not used" "$(grep -m3 rebuilt "$T/rebuilt-after.folded")"
if [ $HAVE_PERF = 1 ]; then
	HOME="$T/home" perf script -i "$T/rebuilt.data" >"$T/rebuilt.txt" 2>/dev/null
	grep -q "(${T}/rebuilt)" "$T/rebuilt.txt" && ! grep -q 'renamed_' "$T/rebuilt.txt" &&
		pass "perf script: a rebuilt binary's symbols are not used" ||
		fail "perf script: a rebuilt binary's symbols are not used" "$(grep -m3 rebuilt "$T/rebuilt.txt")"
fi

# --- folded output (trail's own perf.data reader, no perf needed) ---
"$TRAIL" record --folded -- "$T/calltree" 0.1 >"$T/stdout.folded" 2>"$T/folded.err"
rc=$?
[ $rc -eq 3 ] && grep -q ';main;.*hot_a [0-9][0-9]*$' "$T/stdout.folded" &&
	pass "--folded writes folded stacks to stdout" || fail "--folded writes folded stacks to stdout" "rc $rc: $(cat "$T/folded.err")"
check_exit "-o FILE.folded" 3 "$TRAIL" record -o "$T/ct.folded" -- "$T/calltree" 0.1
a=$(awk '/hot_a/ { a += $NF } { t += $NF } END { printf "%.0f", t ? 100 * a / t : 0 }' "$T/ct.folded")
at_least "$a" 50 && pass "folded file: hot_a dominates" || fail "folded file: hot_a dominates" "$a%"
# counts are samples by default: they add up to the samples recorded (not 1001001 ns each);
# the header says so, and what one sample stands for (so trail diff compares time)
n=$(sed -n 's/.* \([0-9][0-9]*\) samples of .*/\1/p' "$T/.err" | head -1)
t=$(awk '!/^#/ { t += $NF } END { printf "%.0f", t }' "$T/ct.folded")
{ head -1 "$T/ct.folded" | grep -Eqx '# trail-folded weight=samples type=[a-z-]+( period=[0-9]+ period_unit=[a-z-]+)? unit=samples' &&
  [ "$(grep -c '^#' "$T/ct.folded")" = 1 ] && [ -n "$n" ] && [ "$t" -le "$n" ] && [ "$t" -gt 0 ]; } &&
	pass "folded counts are samples" || fail "folded counts are samples" "counts $t, samples $n"
# --weight period: the summed periods, under a header naming the unit
check_exit "--weight period" 3 "$TRAIL" record -e cpu-clock --weight period -o "$T/per.folded" -- "$T/calltree" 0.1
head -1 "$T/per.folded" | grep -qx '# trail-folded weight=period type=cpu unit=ns' &&
	awk 'NR > 1 { n++ } END { exit !(n > 0) }' "$T/per.folded" &&
	pass "--weight period: header names ns" || fail "--weight period: header names ns" "$(head -2 "$T/per.folded")"
check_exit "--weight time" 3 "$TRAIL" record -e cpu-clock --weight time -o "$T/time.folded" -- "$T/calltree" 0.1
head -1 "$T/time.folded" | grep -qx '# trail-folded weight=time type=cpu unit=us' &&
	pass "--weight time: header names us" || fail "--weight time: header names us" "$(head -2 "$T/time.folded")"
check_exit "--weight time needs a clock" 2 "$TRAIL" record -e page-faults --weight time -o "$T/x.folded" -- true
check_exit "--weight needs folded output" 2 "$TRAIL" record --weight period -o "$T/x.data" -- true
check_exit "--weight unknown" 2 "$TRAIL" record --weight bogus -o "$T/x.folded" -- true
# the folded file feeds trail diff --top and trail flamegraph directly
check "diff --top on recorded counts" "$TRAIL" diff --top 3 "$T/ct.folded" "$T/ct.folded"
check_exit "diff --top refuses periods" 2 "$TRAIL" diff --top 3 "$T/per.folded" "$T/ct.folded"
grep -q "is weighted by period (ns), not sample counts" "$T/.err" && grep -q -- "--weight samples" "$T/.err" &&
	pass "refusal says how to get counts" || fail "refusal says how to get counts" "$(cat "$T/.err")"
check "offcpu folded" "$TRAIL" record -e offcpu -o "$T/off.folded" -- "$T/block"
head -1 "$T/off.folded" | grep -qx '# trail-folded weight=time type=off-cpu unit=us' &&
	pass "off-CPU folded: time header" || fail "off-CPU folded: time header" "$(head -1 "$T/off.folded")"
us=$(awk '/nanosleep/ { t += $NF } END { print t + 0 }' "$T/off.folded")
at_least "$us" 190000 && pass "off-CPU folded counts are microseconds" ||
	fail "off-CPU folded counts are microseconds" "$us"
if have strip; then
	cp "$T/calltree_nofp" "$T/stripped" && strip "$T/stripped"
	check_exit "stripped binary" 3 "$TRAIL" record -g dwarf --folded -o "$T/stripped.folded" -- "$T/stripped" 0.1
	grep -q "have no symbol" "$T/.err" && grep -q "$T/stripped: [0-9]* of its [0-9]* frames unknown" "$T/.err" &&
		pass "missing symbols are reported per module" ||
		fail "missing symbols are reported per module" "$(cat "$T/.err")"
fi
if [ $HAVE_PERF = 1 ]; then
	# The same stacks as perf's own symbolization, via trail collapse.
	perf script -i "$T/calltree.data" 2>/dev/null | "$TRAIL" collapse >"$T/via-perf.folded" 2>/dev/null
	a2=$(awk '/hot_a/ { a += $NF } { t += $NF } END { printf "%.0f", t ? 100 * a / t : 0 }' "$T/via-perf.folded")
	at_least "$a2" 50 && pass "perf script | trail collapse agrees" || fail "perf script | trail collapse agrees" "$a2%"
fi

# --- exit statuses ---
check_exit "killed by a signal: 128+N" 143 "$TRAIL" record -o "$T/sig.data" -- sh -c 'kill -TERM $$'
check_exit "command not found: 127" 127 "$TRAIL" record -o "$T/nf.data" -- "$T/no-such-program"
grep -q "cannot run" "$T/.err" && pass "command not found is explained" || fail "command not found is explained" "$(cat "$T/.err")"

# --- a signal to trail stops the command and still writes a valid file ---
# (SIGTERM: background jobs of a script start with SIGINT ignored; Ctrl-C
# takes the same path.)
# The signal goes once trail's child has become sleep: trail has taken
# its signals and records by then (a fixed 0.3 s could hit a trail still
# starting on a busy machine, killing it with the same status 143).
"$TRAIL" record -o "$T/int.data" -- sleep 5 >/dev/null 2>"$T/int.err" &
tp=$!
child_named $tp sleep || fail "signal: trail's command started" "$(cat "$T/int.err")"
kill -TERM $tp
wait $tp
rc=$?
[ $rc -eq 143 ] && pass "signal: the command gets it, status 143" || fail "signal: the command gets it, status 143" "rc $rc"
if [ $HAVE_PERF = 1 ]; then
	check "file written after a signal opens in perf report" perf report -i "$T/int.data" --stdio
fi

# --- --duration with a command ---
check_exit "--duration ends the command (SIGTERM)" 143 "$TRAIL" record --duration 0.2 -o "$T/dur.data" -- sleep 5

# --- attach to a running process ---
"$T/spin" &
sp=$!
# attach to spin itself, not to the shell about to exec it
runs_exe $sp "$T/spin" || fail "attach: spin started"
check "attach with -p" "$TRAIL" record -p $sp --duration 0.3 -o "$T/attach.data"
kill $sp 2>/dev/null; wait $sp 2>/dev/null
if [ $HAVE_PERF = 1 ]; then
	[ $HAVE_BUILDID_TOOLS = 1 ] &&
		same_id "the attached program" "$T/spin" "$T/attach.data" "$(elf_build_id "$T/spin")"
	s=$(share spin_leaf "$T/attach.data")
	at_least "$s" 50 && pass "attached process's hot function found" || fail "attached process's hot function found" "$s%"
fi
check_exit "-p of a missing process" 1 "$TRAIL" record -p 999999999 -o "$T/x.data"

# --- off-CPU: blocked time as the sample weight ---
check "offcpu" "$TRAIL" record -e offcpu -o "$T/offcpu.data" -- "$T/block"
if [ $HAVE_PERF = 1 ]; then
	# 10 naps of >= 20 ms each: at least 200 ms blocked in nanosleep.
	ns=$(weight nanosleep "$T/offcpu.data")
	at_least "$ns" 190000000 && pass "off-CPU weight is the blocked time" ||
		fail "off-CPU weight is the blocked time" "$ns ns"
	b=$(share burn "$T/offcpu.data")
	at_least 1 "$b" && pass "on-CPU code is not off-CPU" || fail "on-CPU code is not off-CPU" "burn $b%"
fi

# --- dwarf unwinding of a program without frame pointers ---
check_exit "-g dwarf" 3 "$TRAIL" record -g dwarf -o "$T/dwarf.data" -- "$T/calltree_nofp" 0.1
if [ $HAVE_PERF = 1 ]; then
	perf script -i "$T/dwarf.data" 2>/dev/null >"$T/dwarf.txt"
	if awk '/cpu-clock|cycles/ { s = "" } { s = s " " $2 } /^$/ { if (s ~ /hot_a.*main/) n++; s = "" } END { exit !(n > 0) }' "$T/dwarf.txt"; then
		pass "dwarf call chains reach main"
	else
		fail "dwarf call chains reach main"
	fi
fi
if [ $HAVE_BUILDID_TOOLS = 1 ]; then
	# User call chains are unwound only when the file is read: every executable module is listed.
	same_id "the program (-g dwarf)" "$T/calltree_nofp" "$T/dwarf.data" "$(elf_build_id "$T/calltree_nofp")"
	same_id "libc (-g dwarf)" "$libc" "$T/dwarf.data" "$(elf_build_id "$libc")"
fi
check_exit "frame pointers missing" 3 "$TRAIL" record -o "$T/nofp.data" -- "$T/calltree_nofp" 0.15
grep -q -- "-fno-omit-frame-pointer" "$T/.err" && grep -q -- "-g dwarf" "$T/.err" &&
	pass "missing frame pointers are detected" || fail "missing frame pointers are detected" "$(cat "$T/.err")"

# --- events ---
if "$TRAIL" record -e cycles -o "$T/cyc.data" -- true 2>"$T/cyc.err"; then
	pass "-e cycles (hardware counters available)"
else
	grep -q "cpu-clock" "$T/cyc.err" && pass "-e cycles unsupported: says to use cpu-clock" ||
		fail "-e cycles unsupported: says to use cpu-clock" "$(cat "$T/cyc.err")"
fi
check_exit "-e page-faults" 3 "$TRAIL" record -e page-faults -o "$T/pf.data" -- "$T/calltree" 0.05
# -c N samples one fault in N: 4096 fresh 4 KiB pages are 64 samples at -c
# 64 in touch(), not one a fault (a software event asked to carry its
# period samples every event, whatever the period: every fault overflowed
# the rings)
cat >"$T/touch.c" <<'EOF'
#include <sys/mman.h>
__attribute__((noinline)) static void touch(volatile char *p, unsigned long len)
{
	for (unsigned long i = 0; i < len; i += 4096)
		p[i] = 1;
}
int main(void)
{
	unsigned long len = 4096ul * 4096;
	char *p = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || madvise(p, len, MADV_NOHUGEPAGE))
		return 1;
	touch(p, len);
	return 0;
}
EOF
if cc $CFLAGS_FP -o "$T/touch" "$T/touch.c"; then
	check "-e page-faults -c 64" "$TRAIL" record -e page-faults -c 64 -o "$T/pf64.folded" -- "$T/touch"
	n=$(awk '/;touch / { n += $NF } END { print n + 0 }' "$T/pf64.folded")
	[ "$n" -ge 63 ] && [ "$n" -le 65 ] && pass "-c 64: one sample per 64 faults" ||
		fail "-c 64: one sample per 64 faults" "$n samples in touch, expected 64: $(cat "$T/.err")"
else
	fail "build touch"
fi
check_exit "unknown event" 1 "$TRAIL" record -e frobs -o "$T/x.data" -- true
grep -q "known:" "$T/.err" && pass "unknown event lists the known ones" || fail "unknown event lists the known ones"

# --- a full disk is an error, and the command does not run on ---
if [ -w /dev/full ]; then
	check_exit "cannot write the output" 1 "$TRAIL" record -o /dev/full -- true
	grep -q "cannot write" "$T/.err" && pass "write error is explained" || fail "write error is explained" "$(cat "$T/.err")"
fi

# --- usage errors ---
check_exit "no command" 2 "$TRAIL" record
check_exit "command and -p" 2 "$TRAIL" record -p 1 -- true
check_exit "bad -g" 2 "$TRAIL" record -g frames -- true
check_exit "bad -g dwarf size" 2 "$TRAIL" record -g dwarf,13 -- true
check_exit "-m not a power of two" 2 "$TRAIL" record -m 3 -- true
check_exit "-F and -c" 2 "$TRAIL" record -F 99 -c 1000 -- true
check "help" "$TRAIL" record --help
grep -q "trail record \[options\] -p PID" "$T/.out" && pass "help synopsis" || fail "help synopsis"

# --- permissions: another user's process ---
if [ "$(id -u)" = 0 ] && have setpriv && id nobody >/dev/null 2>&1; then
	cp "$TRAIL" "$T/trail-copy" && chmod 755 "$T" "$T/trail-copy"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$T/trail-copy" record -p 1 -o /dev/null \
		>/dev/null 2>"$T/perm.err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "no permission to attach" "$T/perm.err" &&
		pass "attaching to another user's process is explained" ||
		fail "attaching to another user's process is explained" "rc $rc: $(cat "$T/perm.err")"
else
	skip "attaching to another user's process is explained" "needs root and setpriv"
fi
