#!/usr/bin/env bash
# 50-perfdata.sh - 'trail collapse perf.data' against 'perf script | trail
# collapse' on real recordings made here with the installed perf: known
# call trees, threads, fork+exec, a shared library with dlopen, C++
# templates, time calls in the [vdso], a signal handler; frame pointers
# (-g), --call-graph dwarf, -z and pipe mode.
# Prints the agreement (sum over stacks of min(A,B) / total weight).
# Skips cleanly without perf, a compiler or perf_event_open permission.
. "$(dirname "$0")/lib.sh"

need_perf_record "perfdata conformance"
if ! "$TRAIL" collapse "$T/probe.data" >/dev/null 2>&1; then
	skip "perfdata conformance" "trail collapse cannot read perf.data in this build"
	exit 0
fi

cd "$T" || exit 1
F="-O1 -fno-omit-frame-pointer -g"
cat > lib.c <<'EOF'
volatile long lsink;
__attribute__((noinline)) static void lib_inner(long n) { for (long i = 0; i < n; i++) lsink += i; }
void lib_work(long n) { lib_inner(n); lsink++; }
EOF
cat > child.c <<'EOF'
volatile long csink;
__attribute__((noinline)) void child_leaf(long n) { for (long i = 0; i < n; i++) csink += i; }
__attribute__((noinline)) void child_mid(long n) { child_leaf(n); csink++; }
int main(void) { child_mid(60000000); return 0; }
EOF
cat > prog.c <<'EOF'
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
volatile long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void worker_b(void) { spin(25000000); sink++; }
__attribute__((noinline)) void worker_a(void) { spin(15000000); worker_b(); }
static void *thread_main(void *a) { (void)a; worker_a(); return 0; }
int main(int argc, char **argv)
{
	pthread_t t[3];
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, thread_main, 0);
		for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
	}
	void *h = dlopen("./libwork.so", RTLD_NOW);
	void (*f)(long) = h ? (void (*)(long))dlsym(h, "lib_work") : 0;
	if (f) f(50000000);
	pid_t p = fork();
	if (p == 0) { execl("./child", "child", (char *)0); _exit(1); }
	waitpid(p, 0, 0);
	return 0;
}
EOF
cat > tmpl.cc <<'EOF'
namespace ns {
template <typename T> struct Acc {
	__attribute__((noinline)) T run(T n) { volatile T s = 0; for (T i = 0; i < n; i++) s += i; return s; }
};
}
__attribute__((noinline)) long drive(int k) { ns::Acc<long> a; ns::Acc<int> b; return a.run(k) + b.run(k / 2); }
int main() { long t = 0; for (int i = 0; i < 1500; i++) t += drive(200000); return t == 1; }
EOF
if ! { cc $F -shared -fPIC lib.c -o libwork.so && cc $F child.c -o child &&
       cc $F prog.c -o prog -ldl -lpthread; } 2>cc.err; then
	skip "perfdata conformance" "cannot build the workloads: $(head -1 cc.err)"
	exit 0
fi
have c++ && c++ $F tmpl.cc -o tmpl 2>/dev/null
# the time calls run in the [vdso]; time() there makes no frame at all.
# -fno-plt: perf 6.1 names a sample in a PLT stub of the program after
# _init, the zero-sized symbol before .plt (not what this check is about)
cat > vdso.c <<'EOF'
#include <sys/time.h>
#include <time.h>
volatile long sink;
__attribute__((noinline)) static void hot(void)
{
	struct timespec t; struct timeval tv;
	for (int i = 0; i < 100; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t); gettimeofday(&tv, 0);
		sink += t.tv_nsec + tv.tv_usec + time(0);
	}
}
__attribute__((noinline)) static void rec(int d) { if (d) rec(d - 1); else hot(); sink++; }
int main(void) { for (int k = 0; k < 40000; k++) rec(k % 7); return 0; }
EOF
cc $F -fno-plt vdso.c -o vdso 2>/dev/null
# a SIGPROF handler that works: stacks through the signal trampoline
cat > sig.c <<'EOF'
#include <signal.h>
#include <string.h>
#include <sys/time.h>
volatile long sink;
__attribute__((noinline)) static void in_handler(int n) { for (int i = 0; i < n; i++) sink += i; }
static void handler(int sig) { (void)sig; in_handler(200000); }
__attribute__((noinline)) static void spin(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) static void rec(int d) { if (d) rec(d - 1); else spin(100000); sink++; }
int main(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGPROF, &sa, 0);
	setitimer(ITIMER_PROF, &it, 0);
	for (int k = 0; k < 2000; k++) rec(k % 11);
	return 0;
}
EOF
cc $F -fno-plt sig.c -o sig 2>/dev/null

# agreement A B: prints sum over stacks of min(a,b) / max(total a, total b)
agreement() {
	awk 'FNR == NR { n = $NF; $NF = ""; a[$0] += n; ta += n; next }
	     { n = $NF; $NF = ""; b[$0] += n; tb += n }
	     END { for (s in a) if (s in b) m += (a[s] < b[s] ? a[s] : b[s]);
		   t = ta > tb ? ta : tb; printf "%.4f\n", t ? m / t : 0 }' "$1" "$2"
}

# conform NAME MIN_AGREEMENT DATA [collapse options...]
conform() {
	local name=$1 min=$2 data=$3 agr; shift 3
	perf script -i "$data" ${PS_FIELDS:+-F "$PS_FIELDS"} 2>/dev/null |
		"$TRAIL" collapse "$@" 2>/dev/null | grep -Ev "${SKIP_STACKS:-^\$}" > ref.folded
	if ! trail_stacks "$@" "$data" > native.all 2>native.err; then
		fail "$name" "trail collapse failed: $(head -3 native.err)"; return
	fi
	grep -Ev "${SKIP_STACKS:-^\$}" native.all > native.folded
	if [ ! -s ref.folded ]; then
		skip "$name" "perf script produced no stacks"; return
	fi
	agr=$(agreement ref.folded native.folded)
	echo "    $name: agreement $agr ($(wc -l < native.folded) stacks)" >&2
	if awk -v a="$agr" -v m="$min" 'BEGIN { exit !(a >= m) }'; then
		pass "$name (agreement $agr)"
	else
		fail "$name (agreement $agr < $min)" "$(diff ref.folded native.folded | head -10)"
	fi
}

record() { perf record -q -F 999 "$@" >/dev/null 2>&1; }

if record -g -o fp.data ./prog; then
	conform "frame pointers: threads, dlopen, fork+exec" 1 fp.data
	# perf script prints no PID by default (stackcollapse then says "?");
	# trail knows it, so compare with the fields that carry it
	PS_FIELDS=comm,pid,tid,time,period,event,ip,sym,dso
	conform "frame pointers --pid --kernel" 1 fp.data --pid --kernel
	conform "frame pointers --tid --all --addrs" 1 fp.data --tid --all --addrs
	PS_FIELDS=
	# the known call tree is there
	if "$TRAIL" collapse fp.data | grep -Eq '^prog;start_thread;thread_main;worker_a;(worker_b;)?spin '; then
		pass "frame pointers: known call tree thread_main;worker_a;spin"
	else
		fail "frame pointers: known call tree thread_main;worker_a;spin"
	fi
	if "$TRAIL" collapse fp.data | grep -q '^child;.*main;child_mid;child_leaf \|^child;.*main;child_leaf '; then
		pass "frame pointers: exec'd child resolved in its own binary"
	else
		fail "frame pointers: exec'd child resolved in its own binary"
	fi
	if "$TRAIL" collapse fp.data | grep -q 'lib_work;lib_inner \|lib_inner '; then
		pass "frame pointers: dlopen'ed library resolved"
	else
		fail "frame pointers: dlopen'ed library resolved"
	fi
else
	skip "frame pointers" "perf record -g failed"
fi
# two events in one file: the first is folded by default, --event-filter picks
if record -g -e cpu-clock -e page-faults -o events.data ./prog; then
	conform "two events: the first by default" 1 events.data
	conform "two events: --event-filter page-faults" 1 events.data --event-filter page-faults
else
	skip "two events" "perf record -e cpu-clock -e page-faults failed"
fi
if [ -x tmpl ] && record -g -o cxx.data ./tmpl; then
	conform "frame pointers: C++ templates (demangled)" 1 cxx.data
	if "$TRAIL" collapse cxx.data | grep -q 'drive;ns::Acc<long>::run '; then
		pass "C++ names demangled like perf"
	else
		fail "C++ names demangled like perf"
	fi
fi
# labels inside functions: each outerN calls leaf and the return address
# is a label's (a zero-sized symbol perf stretches to the next symbol), so
# two symbols hold it; perf names whichever its symbol tree meets first,
# which the order of the symbol table decides (local outerN come before
# their label, global ones after all the locals)
if [ "$(uname -m)" = x86_64 ]; then
	cat > labels.S <<'EOF'
	.text
	.macro OUTER n, vis
	.ifc \vis, global
	.globl outer\n
	.endif
	.type outer\n, @function
outer\n:
	push %rbp
	mov %rsp, %rbp
	call leaf@PLT
after_call_\n:
	nop
	pop %rbp
	ret
	.size outer\n, .-outer\n
	.endm
	OUTER 0, local
	OUTER 1, global
	OUTER 2, local
	OUTER 3, global
	OUTER 4, local
	OUTER 5, global
	OUTER 6, local
	OUTER 7, global
	.section .data.rel.ro,"aw"
	.align 8
	.globl outers
	.type outers, @object
outers:
	.quad outer0, outer1, outer2, outer3, outer4, outer5, outer6, outer7
	.size outers, .-outers
	.section .note.GNU-stack,"",@progbits
EOF
	cat > labels.c <<'EOF'
volatile long sink;
__attribute__((noinline)) void spin(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void leaf(long n) { spin(n); sink++; }
extern void (*const outers[8])(long);
int main(void)
{
	for (int r = 0; r < 25; r++)
		for (int i = 0; i < 8; i++)
			outers[i](1000000);
	return 0;
}
EOF
	if cc $F labels.c labels.S -o labels 2>/dev/null && record -g -o labels.data ./labels; then
		conform "labels inside functions: the symbol perf's tree meets first" 1 labels.data
	fi
fi
if record -g -z -o z.data ./prog; then
	conform "zstd-compressed (-z)" 1 z.data
fi
if perf record -q -F 999 -g -o - ./prog 2>/dev/null > pipe.data; then
	conform "pipe mode" 1 pipe.data
	perf script -i pipe.data 2>/dev/null | "$TRAIL" collapse > ref.folded 2>/dev/null
	if trail_stacks < pipe.data > stdin.folded 2>/dev/null && cmp -s ref.folded stdin.folded; then
		pass "pipe mode on standard input"
	else
		fail "pipe mode on standard input"
	fi
fi
# a longer run: the steady state, not the dynamic loader, dominates
if [ -z "${TRAIL_SANITIZED:-}" ] && record --call-graph dwarf -o dwarf.data ./prog 3; then
	# perf keeps a process's pre-exec maps (so does trail): the exec'd
	# child holds prog's libc and its own, and perf 6.1's libdw unwinder
	# loses the child's libc frames whenever ASLR put prog's copy first.
	# trail reports each mapping as its own module (perf/unwind.c), so the
	# child is checked on its own: every stack of child_leaf runs from _start.
	SKIP_STACKS='^child;'
	conform "--call-graph dwarf" 0.99 dwarf.data
	SKIP_STACKS=
	if grep -q 'child_leaf' native.all && ! grep 'child_leaf' native.all | grep -qv '^child;_start;.*main;child_mid;child_leaf'; then
		pass "--call-graph dwarf: exec'd child's stacks run from _start to child_leaf"
	else
		fail "--call-graph dwarf: exec'd child's stacks run from _start to child_leaf" \
			"$(grep child_leaf native.all | head -3)"
	fi
	# the cached-CFI fast path must unwind exactly as libdw's unwinder
	"$TRAIL" collapse dwarf.data > dwarf-fast.folded 2>/dev/null
	TRAIL_UNWIND=libdw "$TRAIL" collapse dwarf.data > dwarf-libdw.folded 2>/dev/null
	if [ -s dwarf-fast.folded ] && cmp -s dwarf-fast.folded dwarf-libdw.folded; then
		pass "cached CFI rows unwind as libdw's unwinder does"
	else
		fail "cached CFI rows unwind as libdw's unwinder does" \
			"$(diff dwarf-fast.folded dwarf-libdw.folded | head -5)"
	fi
fi
# same_dwarf NAME PROG FRAME [SIZE]: a --call-graph dwarf recording of PROG
# (SIZE bytes of stack a sample), whose stacks pass through FRAME (a regex),
# folded as perf script's lines are
same_dwarf() {
	local name=$1 prog=$2
	[ -x "$prog" ] && record --call-graph "dwarf${4:+,$4}" -o "$prog.data" "./$prog" || return 0
	perf script -i "$prog.data" 2>/dev/null | "$TRAIL" collapse > "$prog-ref.folded" 2>/dev/null
	trail_stacks "$prog.data" > "$prog-native.folded" 2>/dev/null
	if ! grep -Eq "$3" "$prog-ref.folded"; then
		skip "--call-graph dwarf: $name" "no such stacks recorded"
	elif cmp -s "$prog-ref.folded" "$prog-native.folded"; then
		pass "--call-graph dwarf: $name as perf script's"
	else
		fail "--call-graph dwarf: $name as perf script's" \
			"$(diff "$prog-ref.folded" "$prog-native.folded" | head -6)"
	fi
}
# samples in the [vdso]: perf unwinds through its .eh_frame (frameless
# __vdso_time included) to the caller
same_dwarf "stacks through the [vdso]" vdso ';__vdso_'
# samples in a signal handler: perf shows the trampoline one byte back
# (before __restore_rt: [libc.so.6]), the interrupted pc as it is
same_dwarf "stacks through a signal frame" sig ';handler;'
# copies of 256 bytes: most stacks are deeper; perf ends them with a frame
# at ~0 ([unknown], in no map) and cannot read the copy's last word
cp vdso vdso-256 2>/dev/null
same_dwarf "stacks deeper than their copy" vdso-256 '^vdso-256;\[unknown\];' 256

# hostile input: a clear error with file and offset, exit 1, no crash
head -c 3000 fp.data > trunc.data 2>/dev/null
check_exit "truncated perf.data is an error" 1 "$TRAIL" collapse trunc.data
if grep -q 'trunc.data: offset [0-9]' "$T/.err"; then
	pass "error names the file and byte offset"
else
	fail "error names the file and byte offset" "$(cat "$T/.err")"
fi
