#!/usr/bin/env bash
# tests/cli/62-record-exec.sh - 'trail record -g dwarf' of a program without
# frame pointers that is exec'd a second time inside the recording (through
# sh -c, after cd, with exec, or by a launcher that mapped libc itself): its
# libc leaf (memcmp) keeps its caller and its stacks reach main as often as
# when it is recorded directly.  The process's pre-exec maps (the shell's
# libc) must not stand in for its own, nor a second mapping of libc in the
# same process.  Skips when sampling is not possible.
. "$(dirname "$0")/lib.sh"

if ! have cc; then
	skip "record after exec" "no C compiler"
	exit 0
fi
if ! "$TRAIL" record -o "$T/probe.data" -- true >/dev/null 2>"$T/probe.err"; then
	skip "record after exec" "perf_event_open not usable here: $(head -1 "$T/probe.err")"
	exit 0
fi

# table_find spends its time in libc's memcmp; a CPU budget keeps it short.
cat >"$T/prog.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define LEN 4096
static char *keys[64];
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
__attribute__((noinline)) int table_find(const char *k)
{
	int i, hits = 0;
	for (i = 0; i < 64; i++)
		hits += memcmp(keys[i], k, LEN) == 0;
	return hits;
}
int main(int argc, char **argv)
{
	double end = cpu_now() + (argc > 1 ? atof(argv[1]) : 0.3);
	char *probe = malloc(LEN);
	long hits = 0, i;
	for (i = 0; i < 64; i++) { keys[i] = malloc(LEN); memset(keys[i], 'a', LEN); }
	memset(probe, 'a', LEN);
	for (i = 0; cpu_now() < end; i++) {
		probe[LEN - 1] = i & 1 ? 'a' : 'b';
		hits += table_find(probe);
		__asm__ volatile("" ::: "memory");
	}
	return hits > 0 ? 0 : 1;
}
EOF
# maplibc.c maps the process's own libc a second time, executable, at a
# low address (below the live libc, whatever ASLR picks): as a launcher
# that then execs its arguments, the stale copy that the shell cases leave
# only by chance, every time; as an LD_PRELOAD constructor, a file mapped
# twice in one live address space.
cat >"$T/maplibc.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
static int map_libc_low(void)
{
	char line[4096], path[4096] = "";
	FILE *f = fopen("/proc/self/maps", "r");
	int fd;
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "/libc.so") || strstr(line, "/libc-")) {
			sscanf(strchr(line, '/'), "%4095s", path);
			break;
		}
	if (f)
		fclose(f);
	if (!*path || (fd = open(path, O_RDONLY)) < 0)
		return -1;
	return mmap((void *)0x10000000, 1 << 20, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0) == MAP_FAILED ? -1 : 0;
}
#ifdef LAUNCH
int main(int argc, char **argv)
{
	if (argc < 2 || map_libc_low())
		return 126;
	execv(argv[1], argv + 1);
	return 127;
}
#else
__attribute__((constructor)) static void at_load(void)
{
	if (map_libc_low())
		_exit(126);
}
#endif
EOF
cc -O2 -g -fomit-frame-pointer -o "$T/prog" "$T/prog.c" || { fail "build prog"; exit 0; }
cc -O2 -DLAUNCH -o "$T/launch" "$T/maplibc.c" || { fail "build launch"; exit 0; }
cc -O2 -shared -fPIC -o "$T/maplibc.so" "$T/maplibc.c" || { fail "build maplibc.so"; exit 0; }

# stats FILE: "MAIN CALLER": the percentage of samples whose stack reaches
# main, and of the samples in memcmp (any variant) those with table_find
# among their callers; "- -" without memcmp samples.
stats() {
	awk '/^#/ { next } { n = $NF; t += n; st = $0; sub(/ [0-9]+$/, "", st)
		if (st ~ /(^|;)main(;|$)/) m += n
		if (st ~ /memcmp/) { c += n; if (st ~ /(^|;)table_find;/) tf += n } }
		END { if (!t || !c) print "- -"; else printf "%.1f %.1f\n", 100 * m / t, 100 * tf / c }' "$1"
}
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

cd "$T" || exit 1
if ! "$TRAIL" record -g dwarf --folded -o direct.folded -- ./prog >/dev/null 2>direct.err; then
	fail "direct exec records" "$(head -3 direct.err)"
	exit 0
fi
read -r base_main base_caller <<<"$(stats direct.folded)"
if [ "$base_main" = - ]; then
	skip "record after exec" "no memcmp samples when recorded directly (libc without CFI?)"
	exit 0
fi
if at_least "$base_caller" 80; then
	pass "direct exec: memcmp's caller table_find is known ($base_caller%)"
else
	fail "direct exec: memcmp's caller table_find is known" "$base_caller% of memcmp samples"
fi

# Each way of exec'ing the program a second time.  A share of stacks that
# reach main 15 points below the direct run's is a broken unwind, not noise
# (they were ~1% against ~99% with the pre-exec maps kept).
mode() {
	local name=$1 got_main got_caller; shift
	if ! "$TRAIL" record -g dwarf --folded -o "$T/mode.folded" -- "$@" >/dev/null 2>"$T/mode.err"; then
		fail "$name records" "$(head -3 "$T/mode.err")"
		return
	fi
	read -r got_main got_caller <<<"$(stats "$T/mode.folded")"
	if [ "$got_main" = - ]; then
		fail "$name: memcmp sampled" "$(head -3 "$T/mode.folded")"
		return
	fi
	if at_least "$got_caller" 80; then
		pass "$name: memcmp's caller table_find is known ($got_caller%)"
	else
		fail "$name: memcmp's caller table_find is known" "$got_caller% of memcmp samples"
		sort -t' ' -k2 -nr "$T/mode.folded" | head -3 | sed 's/^/    /' >&2
	fi
	if at_least "$got_main" "$(awk -v b="$base_main" 'BEGIN { print b - 15 }')"; then
		pass "$name: stacks reach main ($got_main%, direct $base_main%)"
	else
		fail "$name: stacks reach main" "$got_main%, direct $base_main%"
	fi
}
mode "sh -c" sh -c './prog'
mode "sh -c 'cd && prog'" sh -c "cd / && '$T/prog'"
mode "sh -c 'exec prog'" sh -c 'exec ./prog'
mode "a launcher with a stale libc" ./launch ./prog
# no exec: the same file at two places in one address space
mode "libc mapped twice" env LD_PRELOAD="$T/maplibc.so" ./prog
