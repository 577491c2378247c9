# bench/lib.sh - helpers shared by the bench scripts (sourced, not run;
# bench/flamegraph, in Python, calls inferno_tool through bash): finding
# inferno, a C workload to record, replicating an input to a size, and
# timing a command by its CPU time.
#
# inferno_tool NAME prints the path of inferno's tool NAME (for example
# inferno-diff-folded), or nothing and returns 1 when there is none.  Where
# it looks, in order:
#   $INFERNO_BIN   a directory holding NAME, or a binary: NAME itself, or
#                  another inferno tool, whose directory must hold NAME
#   PATH           NAME as a command
#   /work/ref/inferno/bin/NAME
# A set INFERNO_BIN without NAME is reported on stderr, not searched past.
inferno_tool() {
	local name=$1 cand
	if [ -n "${INFERNO_BIN:-}" ]; then
		if [ -d "$INFERNO_BIN" ]; then
			cand=$INFERNO_BIN/$name
		elif [ "${INFERNO_BIN##*/}" = "$name" ]; then
			cand=$INFERNO_BIN
		else
			cand=$(dirname "$INFERNO_BIN")/$name
		fi
		[ -x "$cand" ] && [ ! -d "$cand" ] && { echo "$cand"; return 0; }
		echo "bench: INFERNO_BIN=$INFERNO_BIN: no executable $name" >&2
		return 1
	fi
	cand=$(command -v "$name") && { echo "$cand"; return 0; }
	cand=/work/ref/inferno/bin/$name
	[ -x "$cand" ] && { echo "$cand"; return 0; }
	return 1
}

# bench_c_workload DIR: DIR/work, a C program of two threads recursing to
# random depths for ARGV[1] seconds (default 2), built with frame pointers
# and -g: a recording of it has deep stacks and real symbols.
bench_c_workload() {
	cat >"$1/work.c" <<'EOF'
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
volatile long sink;
static double secs;
__attribute__((noinline)) static void leaf(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) static void rec(int d, int n) { if (d) rec(d - 1, n); else leaf(n); sink++; }
__attribute__((noinline)) static void a(int k) { rec(k % 13, 2000); }
__attribute__((noinline)) static void b(int k) { rec(k % 29, 3000); a(k); }
static void *run(void *arg)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int k = (int)(long)arg;; k++) {
		if (k & 1) a(k); else b(k);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > secs) break;
	}
	return 0;
}
int main(int argc, char **argv)
{
	pthread_t t[2];
	secs = argc > 1 ? atof(argv[1]) : 2;
	for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, run, (void *)i);
	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
	return 0;
}
EOF
	cc -O1 -g -fno-omit-frame-pointer "$1/work.c" -o "$1/work" -lpthread
}

# bench_replicate SRC DST MB: DST is SRC repeated to at least MB MB.
bench_replicate() {
	local src=$1 dst=$2 want=$(($3 * 1024 * 1024)) size
	size=$(stat -c %s "$src")
	[ "$size" -gt 0 ] || return 1
	: >"$dst"
	while [ "$(stat -c %s "$dst")" -lt "$want" ]; do cat "$src" >>"$dst"; done
}

# time_cmd OUTVAR CMD... : "cpu wall" seconds of one run, in $W (the caller's
# scratch directory); stdout to $BENCH_OUT when set, else /dev/null.  CPU is perf
# stat's task-clock (children included: perf script runs addr2line; to the
# millisecond, where /usr/bin/time rounds to 10 ms), wall the clock around it.
time_cmd() {
	local __v=$1 __t0 __t1 __ms; shift
	__t0=$EPOCHREALTIME
	perf stat -x, -e task-clock -o "$W/stat" -- "$@" >"${BENCH_OUT:-/dev/null}" 2>"$W/stderr" || {
		printf -v "$__v" 'failed'; return 1; }
	__t1=$EPOCHREALTIME
	__ms=$(awk -F, '/task-clock/ { print $1 }' "$W/stat")
	printf -v "$__v" '%.3f %.3f' "$(echo "${__ms:-0} / 1000" | bc -l)" "$(echo "$__t1 - $__t0" | bc -l)"
}
# best_of OUTVAR N CMD... : the least CPU time of N runs, with its wall time
best_of() {
	local __v=$1 __n=$2 __i __best="" __r; shift 2
	for ((__i = 0; __i < __n; __i++)); do
		time_cmd __r "$@" || { printf -v "$__v" 'failed'; return 1; }
		if [ -z "$__best" ] || [ "$(echo "${__r% *} < ${__best% *}" | bc)" = 1 ]; then
			__best=$__r
		fi
	done
	printf -v "$__v" '%s' "$__best"
}
