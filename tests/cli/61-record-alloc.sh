#!/usr/bin/env bash
# tests/cli/61-record-alloc.sh - 'trail record -e alloc' on C and C++
# programs whose allocation sites and byte counts are known: exact at
# --alloc-interval 1 (C, C++ new/new[]/std::vector/std::map/std::string,
# threads, a forked child, an exec'd child), expected shares when sampled,
# the leak view finds the one leak, the peak view the peak's allocations
# (also when the peak moves, and sites change after it), perf.data output
# folds to the same stacks, exit statuses pass through; at interval 1 the
# interposer folds as the program runs (a raw file of a few KB for a
# million events) and a killed process leaves what it did until its last
# checkpoint.
. "$(dirname "$0")/lib.sh"

if ! have cc; then
	skip "record-alloc" "no C compiler"
	exit 0
fi
LIB=$(dirname "$TRAIL")/libtrail-alloc.so
if [ ! -f "$LIB" ]; then
	fail "record-alloc: interposer built" "no $LIB"
	exit 0
fi

# the bytes (or objects) of the stacks whose innermost frame is $1
site() {
	awk -v f="$1" '{ n = $NF; s = $0; sub(/ [0-9.]+$/, "", s); k = split(s, a, ";");
		if (a[k] == f) t += n } END { printf "%d\n", t }' "$2"
}
# 1 when $1 is within $3 of $2 (shares in percent)
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= e) }'; }

cat >"$T/sites.c" <<'EOF'
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <pthread.h>
static void *volatile sink;
/* each site calls the allocator and then uses the block: no tail calls */
__attribute__((noinline)) void site_malloc(size_t n) { char *p = malloc(n); p[0] = 1; sink = p; free(p); }
__attribute__((noinline)) void site_calloc(size_t n) { char *p = calloc(n, 4); sink = p; free(p); }
__attribute__((noinline)) void site_realloc(size_t n) { char *p = malloc(16); p = realloc(p, n); sink = p; free(p); }
__attribute__((noinline)) void site_memalign(size_t n) { void *p = 0; if (posix_memalign(&p, 64, n)) abort(); sink = p; free(p);
	p = aligned_alloc(64, n); sink = p; free(p); }
__attribute__((noinline)) void site_strdup(void) { char *p = strdup("0123456789abcdef0123456789abcde"); sink = p; free(p); }
__attribute__((noinline)) void site_mmap(size_t n) { void *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sink = p; munmap(p, n); }
__attribute__((noinline)) void leak_here(int i) { char *p = malloc(1000); p[0] = (char)i; sink = p; }
__attribute__((noinline)) void keep_until_peak(char **keep, int i) { keep[i] = malloc(50000); keep[i][0] = 1; }
__attribute__((noinline)) void *thread_site(void *arg) { for (int i = 0; i < 1000; i++) { char *p = malloc(4096); p[0] = 1; sink = p; free(p); } return arg; }
__attribute__((noinline)) void forked_site(void) { for (int i = 0; i < 100; i++) site_malloc(7000); }
__attribute__((noinline)) void exec_site(void) { for (int i = 0; i < 100; i++) { char *p = malloc(9000); p[0] = 1; sink = p; free(p); } }
int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child")) { exec_site(); return 0; }
	if (argc > 1 && !strcmp(argv[1], "shares")) {
		/* 3:1 by bytes, in small objects */
		for (int i = 0; i < 300000; i++) site_malloc(96);
		for (int i = 0; i < 100000; i++) site_calloc(24);
		return 0;
	}
	for (int i = 0; i < 1000; i++) site_malloc(1000);	/* 1,000,000 */
	for (int i = 0; i < 1000; i++) site_calloc(500);	/* 2,000,000 */
	for (int i = 0; i < 1000; i++) site_realloc(3000);	/* 3,000,000 (+16,000 in site_realloc's malloc) */
	for (int i = 0; i < 1000; i++) site_memalign(2048);	/* 4,096,000 */
	for (int i = 0; i < 1000; i++) site_strdup();		/* 32,000 */
	for (int i = 0; i < 10; i++) site_mmap(1 << 20);	/* 10,485,760 */
	for (int i = 0; i < 100; i++) leak_here(i);		/* 100,000 never freed */
	char *keep[100];
	for (int i = 0; i < 100; i++) keep_until_peak(keep, i);	/* 5,000,000 live at the peak */
	for (int i = 0; i < 100; i++) free(keep[i]);
	pthread_t t[4];
	for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, thread_site, 0);	/* 4 x 4,096,000 */
	for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
	pid_t p = fork();
	if (p == 0) { forked_site(); _exit(0); }	/* 700,000 in the child */
	waitpid(p, 0, 0);
	p = fork();
	if (p == 0) { execl(argv[0], argv[0], "child", (char *)0); _exit(127); }	/* 900,000 */
	waitpid(p, 0, 0);
	return 3;
}
EOF
if ! cc -O2 -g -fno-omit-frame-pointer -pthread -o "$T/sites" "$T/sites.c" 2>"$T/cc.err"; then
	fail "record-alloc: compile" "$(head -3 "$T/cc.err")"
	exit 0
fi

# --- every allocation: exact bytes per site ---
check_exit "record-alloc: the command's exit status passes through" 3 \
	"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/all.folded" -- "$T/sites"
F=$T/all.folded
ok=1
for want in site_malloc:1700000 site_calloc:2000000 site_realloc:3016000 site_memalign:4096000 \
	    site_strdup:32000 site_mmap:10485760 leak_here:100000 keep_until_peak:5000000 \
	    thread_site:16384000 exec_site:900000; do
	name=${want%%:*} bytes=${want#*:}
	got=$(site "$name" "$F")
	if [ "$got" != "$bytes" ]; then
		ok=0
		fail "record-alloc: $name allocates $bytes bytes" "got $got"
	fi
done
[ $ok = 1 ] && pass "record-alloc: exact bytes per site at --alloc-interval 1 (malloc family, strdup, mmap, threads, exec)"
# the forked child's site_malloc calls sit under forked_site
got=$(grep ';forked_site;site_malloc ' "$F" | awk '{ t += $NF } END { print t + 0 }')
if [ "$got" = 700000 ]; then pass "record-alloc: a forked child is recorded"; else
	fail "record-alloc: a forked child is recorded" "forked_site;site_malloc: $got bytes, expected 700000"; fi
if grep -q '^sites;.*main;thread_site ' "$F" || grep -q '^sites;.*start_thread;thread_site ' "$F"; then
	pass "record-alloc: thread stacks reach the thread's start"
else
	fail "record-alloc: thread stacks reach the thread's start" "$(grep thread_site "$F" | head -2)"
fi

check_exit "record-alloc: objects view" 3 \
	"$TRAIL" record -e alloc --alloc-interval 1 --view alloc-objects -o "$T/objects.folded" -- "$T/sites"
got=$(site site_malloc "$T/objects.folded")
if [ "$got" = 1100 ]; then pass "record-alloc: alloc-objects counts allocations"; else
	fail "record-alloc: alloc-objects counts allocations" "site_malloc: $got, expected 1100 (1000 + 100 in the forked child)"; fi

check_exit "record-alloc: leak view" 3 \
	"$TRAIL" record -e alloc --alloc-interval 1 --view inuse-exit -o "$T/leak.folded" -- "$T/sites"
# (libc keeps each thread's TLS vector: pthread_create's allocate_dtv is a real leak)
if [ "$(site leak_here "$T/leak.folded")" = 100000 ] &&
   [ "$(grep -v ';pthread_create' "$T/leak.folded" | awk '{ t += $NF } END { print t }')" = 100000 ]; then
	pass "record-alloc: inuse-exit finds the leak and nothing else"
else
	fail "record-alloc: inuse-exit finds the leak and nothing else" "$(head -5 "$T/leak.folded")"
fi

check_exit "record-alloc: peak view" 3 \
	"$TRAIL" record -e alloc --alloc-interval 1 --view inuse-peak -o "$T/peak.folded" -- "$T/sites"
if [ "$(site keep_until_peak "$T/peak.folded")" = 5000000 ] &&
   [ "$(site leak_here "$T/peak.folded")" = 100000 ] && ! grep -q ';main;site_malloc ' "$T/peak.folded"; then
	pass "record-alloc: inuse-peak holds what was live at the peak"
else
	fail "record-alloc: inuse-peak holds what was live at the peak" "$(head -5 "$T/peak.folded")"
fi

# --- the peak moves: the interposer keeps each site's bytes at the latest peak ---
cat >"$T/phases.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
static char *a[40], *b[10];
__attribute__((noinline)) void site_a(int i) { a[i] = malloc(1000); a[i][0] = 1; }
__attribute__((noinline)) void site_b(int i) { b[i] = malloc(1000); b[i][0] = 1; }
int main(int argc, char **argv)
{
	int more = argc > 1 && !strcmp(argv[1], "higher") ? 20 : 5, i;
	for (i = 0; i < 10; i++) site_a(i);	/* 10,000 live */
	for (i = 0; i < 5; i++) site_b(i);	/* 15,000: a peak, a 10,000 and b 5,000 */
	for (i = 0; i < 5; i++) free(b[i]);
	for (i = 0; i < 5; i++) free(a[i]);	/* 5,000 */
	for (i = 10; i < 10 + more; i++) site_a(i);	/* 25,000 (a new peak, all a) or 10,000 */
	for (i = 5; i < 10 + more; i++) free(a[i]);
	for (i = 0; i < 3; i++) site_b(i);	/* 3,000 of b after both */
	return 0;
}
EOF
if cc -O2 -g -fno-omit-frame-pointer -o "$T/phases" "$T/phases.c" 2>"$T/cc.err"; then
	for how in lower:10000:5000 higher:25000:0; do
		arg=${how%%:*} rest=${how#*:}
		wa=${rest%%:*} wb=${rest#*:}
		"$TRAIL" record -e alloc --alloc-interval 1 --view inuse-peak -o "$T/phases.folded" -- \
			"$T/phases" "$arg" >"$T/.out" 2>&1
		ga=$(site site_a "$T/phases.folded") gb=$(site site_b "$T/phases.folded")
		if [ "$ga" = "$wa" ] && [ "$gb" = "$wb" ]; then
			pass "record-alloc: inuse-peak after a $arg second phase (site_a $wa, site_b $wb)"
		else
			fail "record-alloc: inuse-peak after a $arg second phase" "site_a $ga ($wa), site_b $gb ($wb)"
		fi
	done
else
	fail "record-alloc: compile phases.c" "$(head -3 "$T/cc.err")"
fi

# --- interval 1 folds in the program: a million events leave a small raw file ---
cat >"$T/many.c" <<'EOF'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
static void *volatile sink;
__attribute__((noinline)) void many_site(int i) { char *p = malloc(16 + i % 32); p[0] = 1; sink = p; free(p); }
int main(int argc, char **argv)
{
	int n = argc > 1 && !strcmp(argv[1], "killed") ? 1500000 : 500000;
	for (int i = 0; i < n; i++) many_site(i);
	if (n > 500000)
		raise(SIGKILL);	/* no exit handler, no final records */
	return 0;
}
EOF
if cc -O2 -g -fno-omit-frame-pointer -o "$T/many" "$T/many.c" 2>"$T/cc.err"; then
	mkdir -p "$T/rawdir"
	LD_PRELOAD=$LIB TRAIL_ALLOC_DIR=$T/rawdir TRAIL_ALLOC_INTERVAL=1 "$T/many"
	# (a record per event would take 56 bytes each, 28 MB; the maps text is a few KB)
	size=$(cat "$T"/rawdir/alloc.*.raw | wc -c)
	if [ "$size" -gt 0 ] && [ "$size" -lt 200000 ]; then
		pass "record-alloc: 1,000,000 events at interval 1 write $size bytes"
	else
		fail "record-alloc: 1,000,000 events at interval 1 write under 200 KB" "$size bytes"
	fi
	"$TRAIL" record -e alloc --alloc-interval 1 --view alloc-objects -o "$T/killed.folded" -- \
		"$T/many" killed >"$T/.out" 2>"$T/killed.err"
	n=$(site many_site "$T/killed.folded")
	# checkpoints every 2^20 events: the last before the kill comes after about 2^20 allocations
	if [ "$n" -ge 500000 ] && [ "$n" -lt 1500000 ]; then
		pass "record-alloc: a killed process leaves its allocations until the last checkpoint ($n of 1500000)"
	else
		fail "record-alloc: a killed process leaves its allocations until the last checkpoint" \
			"many_site $n; $(cat "$T/killed.err")"
	fi
else
	fail "record-alloc: compile many.c" "$(head -3 "$T/cc.err")"
fi

# --- sampled: expected shares (3:1 by bytes; about 1800 samples) ---
check "record-alloc: sampled run" "$TRAIL" record -e alloc --alloc-interval 20000 \
	-o "$T/shares.folded" -- "$T/sites" shares
a=$(site site_malloc "$T/shares.folded") b=$(site site_calloc "$T/shares.folded")
share=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + b) printf "%.1f", 100 * a / (a + b); else print 0 }')
total=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0f", (a + b) / 1e6 }')
if near "$share" 75 5 && near "$total" 38.4 4; then
	pass "record-alloc: sampled shares and totals are unbiased ($share% of ${total} MB; exact 75% of 38.4)"
else
	fail "record-alloc: sampled shares and totals are unbiased" "site_malloc $share% of $total MB, expected 75% of 38.4"
fi

# --- -g dwarf: the unwind tables alone give the same sites ---
check_exit "record-alloc: -g dwarf" 3 \
	"$TRAIL" record -e alloc -g dwarf --alloc-interval 1 -o "$T/dwarf.folded" -- "$T/sites"
if [ "$(site site_calloc "$T/dwarf.folded")" = 2000000 ] && [ "$(site thread_site "$T/dwarf.folded")" = 16384000 ]; then
	pass "record-alloc: -g dwarf finds the same sites"
else
	fail "record-alloc: -g dwarf finds the same sites" "$(sort -t' ' -k2 -rn "$T/dwarf.folded" | head -3)"
fi

# --- perf.data output: the same stacks through 'trail collapse' ---
check_exit "record-alloc: perf.data output" 3 \
	"$TRAIL" record -e alloc --alloc-interval 1 --view inuse-exit -o "$T/leak.data" -- "$T/sites"
# (the weight header names bytes in one and the perf.data event in the other)
if trail_stacks "$T/leak.data" >"$T/leak2.folded" 2>"$T/.err" &&
   cmp -s <(sed '/^# trail-folded /d' "$T/leak.folded") "$T/leak2.folded"; then
	pass "record-alloc: the perf.data file folds to the same stacks"
else
	fail "record-alloc: the perf.data file folds to the same stacks" "$(diff "$T/leak.folded" "$T/leak2.folded" | head -5)"
fi

# --- C++: operator new/delete, std::vector, std::map, std::string ---
if have c++; then
	cat >"$T/cxx.cc" <<'EOF'
#include <map>
#include <string>
#include <vector>
static void *volatile sink;
__attribute__((noinline)) void new_site() { for (int i = 0; i < 1000; i++) { char *p = new char[1000]; sink = p; delete[] p; } }
__attribute__((noinline)) void vector_site() { for (int i = 0; i < 1000; i++) { std::vector<int> v(250); sink = v.data(); } }
__attribute__((noinline)) std::map<int, std::string> *map_site(int n) {
	auto *m = new std::map<int, std::string>;
	for (int i = 0; i < n; i++) (*m)[i] = std::string(100, 'x');
	return m;
}
int main() { new_site(); vector_site(); delete map_site(1000); return 0; }
EOF
	if c++ -O2 -g -fno-omit-frame-pointer -o "$T/cxx" "$T/cxx.cc" 2>"$T/cc.err"; then
		check "record-alloc: C++ program" "$TRAIL" record -e alloc --alloc-interval 1 -o "$T/cxx.folded" -- "$T/cxx"
		nw=$(site new_site "$T/cxx.folded") vec=$(site vector_site "$T/cxx.folded")
		str=$(grep ';map_site' "$T/cxx.folded" | grep -E '_M_create|_M_construct|_M_mutate|_M_assign|map_site [0-9]+$' |
			awk '{ t += $NF } END { print t + 0 }')
		if [ "$nw" = 1000000 ] && [ "$vec" = 1000000 ] && [ "$str" -ge 101000 ]; then
			pass "record-alloc: C++ new[], std::vector, std::map and std::string sites"
		else
			fail "record-alloc: C++ new[], std::vector, std::map and std::string sites" \
				"new_site $nw, vector_site $vec (1000000 each); map_site $str (>= 101000)"
		fi
	# one libstdc++ call site (no frame pointers: the unwind tables, and
	# their cache) reached from two callers whose frames sit at the same
	# stack addresses: each must keep its own stack
	cat >"$T/twins.cc" <<'EOF'
#include <string>
static void *volatile sink;
#define TWIN(name) __attribute__((noinline)) void name() { std::string s(200, 'x'); sink = &s[0]; }
TWIN(twin_a)
TWIN(twin_b)
int main() { for (int i = 0; i < 1000; i++) { twin_a(); twin_b(); twin_b(); twin_b(); } return 0; }
EOF
	if c++ -O2 -g -fno-omit-frame-pointer -o "$T/twins" "$T/twins.cc" 2>"$T/cc.err"; then
		check "record-alloc: C++ twins" "$TRAIL" record -e alloc --alloc-interval 1 -o "$T/twins.folded" -- "$T/twins"
		a=$(grep ';twin_a' "$T/twins.folded" | awk '{ t += $NF } END { print t + 0 }')
		b=$(grep ';twin_b' "$T/twins.folded" | awk '{ t += $NF } END { print t + 0 }')
		if [ "$a" = 201000 ] && [ "$b" = 603000 ]; then
			pass "record-alloc: one library call site from two callers keeps both stacks"
		else
			fail "record-alloc: one library call site from two callers keeps both stacks" \
				"twin_a $a (201000), twin_b $b (603000)"
		fi
	fi
	else
		skip "record-alloc: C++" "the C++ compiler failed"
	fi
else
	skip "record-alloc: C++" "no C++ compiler"
fi

# --- usage ---
check_exit "record-alloc: -p is refused" 2 "$TRAIL" record -e alloc -p 1
check_exit "record-alloc: an unknown view is refused" 2 "$TRAIL" record -e alloc --view heap -- true
check_exit "record-alloc: --view needs -e alloc" 2 "$TRAIL" record --view inuse-peak -- true
check_exit "record-alloc: a missing command exits 127" 127 "$TRAIL" record -e alloc -o "$T/x.folded" -- "$T/no-such-program"
