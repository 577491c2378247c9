#!/usr/bin/env bash
# tests/cli/63-record-alloc-hostile.sh - 'trail record -e alloc' never harms
# the program it measures, whatever the program does: it takes descriptor 3
# or closes every descriptor, allocates in a signal handler, sets its own
# LD_PRELOAD, execs through execl/execlp/execle/fexecve/execveat, forks
# with a raw clone(), runs out of memory in C++, chdirs under a relative
# TMPDIR, or is signalled (the workload dies with trail).
. "$(dirname "$0")/lib.sh"

have cc || { skip "record-alloc-hostile" "no C compiler"; exit 0; }
LIB=$(dirname "$TRAIL")/libtrail-alloc.so
[ -f "$LIB" ] || { fail "record-alloc-hostile: interposer built" "no $LIB"; exit 0; }

# the bytes of the stacks that pass through frame $1
through() {
	awk -v f="$1" '{ n = $NF; s = $0; sub(/ [0-9.]+$/, "", s); k = split(s, a, ";");
		for (i = 1; i <= k; i++) if (a[i] == f) { t += n; break } } END { printf "%d\n", t }' "$2"
}
compile() {	# compile NAME SOURCE [flags]: 0 when built
	local name=$1 src=$2; shift 2
	if ! cc -O2 -g -fno-omit-frame-pointer -o "$T/$name" "$src" "$@" 2>"$T/cc.err"; then
		fail "record-alloc-hostile: compile $name" "$(head -3 "$T/cc.err")"
		return 1
	fi
}

# --- 1. the program's descriptors are its own ---
(cd "$T" && "$TRAIL" record -e alloc -o a.folded -- sh -c 'exec 3>log.txt; echo hello >&3' \
	>"$T/.out" 2>"$T/.err")
if [ "$(wc -c <"$T/log.txt")" = 6 ]; then pass "record-alloc-hostile: a file the program opens on descriptor 3 stays its own"
else fail "record-alloc-hostile: a file the program opens on descriptor 3 stays its own" \
	"log.txt is $(wc -c <"$T/log.txt") bytes, expected 6"; fi
(cd "$T" && "$TRAIL" record -e alloc --alloc-interval 1 -o b.folded -- sh -c 'exec 3>log1.txt; echo hello >&3' \
	>"$T/.out" 2>"$T/.err")
if [ "$(wc -c <"$T/log1.txt")" = 6 ] && [ -s "$T/b.folded" ]; then
	pass "record-alloc-hostile: every allocation recorded, and descriptor 3 still the program's"
else fail "record-alloc-hostile: every allocation recorded, and descriptor 3 still the program's" \
	"log1.txt $(wc -c <"$T/log1.txt") bytes, profile $(wc -l <"$T/b.folded") lines"; fi

cat >"$T/closer.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void *volatile sink;
__attribute__((noinline)) void before_close(void) { for (int i = 0; i < 1000; i++) { char *p = malloc(1000); p[0] = 1; sink = p; free(p); } }
__attribute__((noinline)) void after_close(void) { for (int i = 0; i < 1000; i++) { char *p = malloc(2000); p[0] = 1; sink = p; free(p); } }
/* closer OUT LIMIT all|few: close every descriptor, open OUT, dup2 it onto all others or a few */
int main(int argc, char **argv)
{
	int hi = atoi(argv[2]), fd;
	before_close();
	for (fd = 3; fd < hi; fd++)
		close(fd);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int i = fd + 1; i < (argv[3][0] == 'a' ? hi : fd + 10); i++)
		dup2(fd, i);
	after_close();
	if (write(fd, "data\n", 5) != 5)
		return 1;
	return 0;
}
EOF
if compile closer "$T/closer.c"; then
	lim=$(ulimit -n)
	[ "$lim" = unlimited ] && lim=65536
	[ "$lim" -gt 65536 ] && lim=65536
	"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/closer.folded" -- "$T/closer" "$T/closer.out" "$lim" few \
		>"$T/.out" 2>"$T/.err"
	if [ "$(cat "$T/closer.out")" = data ] && [ "$(through after_close "$T/closer.folded")" = 2000000 ] &&
	   [ "$(through before_close "$T/closer.folded")" = 1000000 ]; then
		pass "record-alloc-hostile: a program that closes every descriptor and reopens its own gets no records"
	else
		fail "record-alloc-hostile: a program that closes every descriptor and reopens its own gets no records" \
			"output $(wc -c <"$T/closer.out") bytes; before_close $(through before_close "$T/closer.folded"), after_close $(through after_close "$T/closer.folded")"
	fi
	# every descriptor the program's: nothing can be written, and trail says so
	"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/closer-all.folded" -- "$T/closer" "$T/closer-all.out" "$lim" all \
		>"$T/.out" 2>"$T/closer-all.err"
	if [ "$(cat "$T/closer-all.out")" = data ] && grep -q 'did not finish their allocation records' "$T/closer-all.err"; then
		pass "record-alloc-hostile: a program that takes every descriptor gets no records, and trail says what is missing"
	else
		fail "record-alloc-hostile: a program that takes every descriptor gets no records, and trail says what is missing" \
			"output $(wc -c <"$T/closer-all.out") bytes; $(cat "$T/closer-all.err")"
	fi
	# the program takes the descriptor and deletes trail's file: the
	# records are lost, and trail says so
	cat >"$T/lose.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void *volatile sink;
int main(void)
{
	char cmd[4096];
	snprintf(cmd, sizeof(cmd), "rm -f '%s'/alloc.%d.*", getenv("TRAIL_ALLOC_DIR"), (int)getpid());
	if (system(cmd)) return 1;
	for (int fd = 3; fd < 1024; fd++) close(fd);
	for (int i = 0; i < 1000; i++) { char *p = malloc(1000); sink = p; free(p); }
	return 0;
}
EOF
	if compile lose "$T/lose.c"; then
		"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/lose.folded" -- "$T/lose" >"$T/.out" 2>"$T/lose.err"
		if grep -q '1 process image lost its allocation records' "$T/lose.err"; then
			pass "record-alloc-hostile: lost records are reported"
		else fail "record-alloc-hostile: lost records are reported" "$(cat "$T/lose.err")"; fi
	fi
fi

# --- 2. a signal handler that allocates ---
cat >"$T/sig.c" <<'EOF'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
static void *volatile sink;
static volatile sig_atomic_t ticks;
/* a size the loop never uses: glibc's per-thread cache serves it without a lock */
static void on_alarm(int sig) { (void)sig; void *p = malloc(1000); sink = p; free(p); ticks++; }
__attribute__((noinline)) void loop_site(int i) { char *p = malloc(32 + i % 64); p[0] = 1; sink = p; free(p); }
int main(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 50 }, { 0, 50 } }, off = { { 0, 0 }, { 0, 0 } };
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, 0);
	/* the handler's size in the per-thread cache before the first tick:
	 * otherwise that first malloc(1000) may take the arena while the loop
	 * is inside it (no lock for a single thread), and glibc aborts in
	 * sysmalloc - the test program's race, seen once in a full run */
	sink = malloc(1000);
	free(sink);
	setitimer(ITIMER_REAL, &it, 0);
	for (int i = 0; i < 2000000; i++) loop_site(i);
	setitimer(ITIMER_REAL, &off, 0);
	return ticks > 0 ? 0 : 1;
}
EOF
if compile sig "$T/sig.c"; then
	check_exit "record-alloc-hostile: a signal handler that allocates does not deadlock the program" 0 \
		timeout 120 "$TRAIL" record -e alloc --alloc-interval 1 -o "$T/sig.folded" -- "$T/sig"
	if [ "$(through loop_site "$T/sig.folded")" -gt 100000000 ]; then
		pass "record-alloc-hostile: the interrupted loop is recorded"
	else fail "record-alloc-hostile: the interrupted loop is recorded" "loop_site $(through loop_site "$T/sig.folded")"; fi
fi

# --- 3. the program's own LD_PRELOAD is kept, and composed with trail's ---
cat >"$T/tag.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void tag(void)
{
	const char *out = getenv("TAG_OUT");
	FILE *f = out ? fopen(out, "a") : NULL;
	if (f) { fprintf(f, "tag\n"); fclose(f); }
}
EOF
cat >"$T/leaf.c" <<'EOF'
#include <stdlib.h>
static void *volatile sink;
__attribute__((noinline)) void leaf_site(void) { for (int i = 0; i < 100; i++) { char *p = malloc(3000); p[0] = 1; sink = p; free(p); } }
int main(void) { leaf_site(); return 0; }
EOF
if compile libtag.so "$T/tag.c" -shared -fPIC && compile leaf "$T/leaf.c"; then
	TAG_OUT=$T/tag.out "$TRAIL" record -e alloc --alloc-interval 1 -o "$T/pre.folded" -- \
		sh -c 'LD_PRELOAD="$0" exec "$1"' "$T/libtag.so" "$T/leaf" >"$T/.out" 2>"$T/.err"
	if [ "$(cat "$T/tag.out" 2>/dev/null)" = tag ] && [ "$(through leaf_site "$T/pre.folded")" = 300000 ]; then
		pass "record-alloc-hostile: an exec'd child keeps the program's LD_PRELOAD and trail's"
	else fail "record-alloc-hostile: an exec'd child keeps the program's LD_PRELOAD and trail's" \
		"tag: '$(cat "$T/tag.out" 2>/dev/null)', leaf_site $(through leaf_site "$T/pre.folded")"; fi
fi

# --- 4. every exec function writes what the image allocated before it ---
cat >"$T/execs.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
static void *volatile sink;
__attribute__((noinline)) void work(void) { for (int i = 0; i < 1000; i++) { char *p = malloc(1000); p[0] = 1; sink = p; free(p); } }
int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	char *const args[] = { "true", NULL };
	if (!strcmp(how, "spawn")) {
		/* a child that clears its environment: trail's LD_PRELOAD still reaches it */
		char *const env[] = { "A=1", NULL };
		char *const self[] = { argv[0], "leaf", NULL };
		pid_t pid;
		int st;
		if (posix_spawn(&pid, argv[0], NULL, NULL, self, env)) return 1;
		waitpid(pid, &st, 0);
		return WEXITSTATUS(st);
	}
	work();
	if (!strcmp(how, "leaf")) return 0;
	if (!strcmp(how, "execl")) execl("/bin/true", "true", (char *)0);
	if (!strcmp(how, "execlp")) execlp("true", "true", (char *)0);
	if (!strcmp(how, "execle")) execle("/bin/true", "true", (char *)0, environ);
	if (!strcmp(how, "fexecve")) { int fd = open("/bin/true", O_RDONLY | O_CLOEXEC); fexecve(fd, args, environ); }
	if (!strcmp(how, "execveat")) syscall(0, 0); /* placeholder replaced below */
	return 1;
}
EOF
sed -i 's|syscall(0, 0); /\* placeholder replaced below \*/|execveat(AT_FDCWD, "/bin/true", args, environ, 0);|' "$T/execs.c"
if compile execs "$T/execs.c"; then
	for how in execl execlp execle fexecve execveat; do
		if [ "$how" = execveat ] && ! grep -qw execveat /usr/include/unistd.h; then
			skip "record-alloc-hostile: $how" "no execveat in this libc"
			continue
		fi
		"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/$how.folded" -- "$T/execs" "$how" >"$T/.out" 2>"$T/.err"
		got=$(through work "$T/$how.folded")
		if [ "$got" = 1000000 ]; then pass "record-alloc-hostile: allocations before $how are recorded"
		else fail "record-alloc-hostile: allocations before $how are recorded" "work: $got bytes, expected 1000000"; fi
	done
	"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/spawn.folded" -- "$T/execs" spawn >"$T/.out" 2>"$T/.err"
	got=$(through work "$T/spawn.folded")
	if [ "$got" = 1000000 ]; then pass "record-alloc-hostile: posix_spawn with its own environment is recorded"
	else fail "record-alloc-hostile: posix_spawn with its own environment is recorded" "work: $got bytes"; fi
fi

# --- 5. C++ out of memory ---
if have c++; then
	cat >"$T/oom.cc" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <new>
static void *volatile sink;
static volatile size_t huge = (size_t)1 << 62;
__attribute__((noinline)) void after_oom() { for (int i = 0; i < 1000; i++) { char *p = new char[1000]; p[0] = 1; sink = p; delete[] p; } }
int main()
{
	int caught = 0;
	try { sink = ::operator new(huge); } catch (const std::bad_alloc &) { caught++; }
	after_oom();
	try { sink = ::operator new(huge, std::align_val_t(64)); } catch (const std::bad_alloc &) { caught++; }
	try { sink = ::operator new[](huge, std::align_val_t(64)); } catch (const std::bad_alloc &) { caught++; }
	if (::operator new(huge, std::align_val_t(64), std::nothrow) == nullptr) caught++;
	if (::operator new[](huge, std::align_val_t(64), std::nothrow) == nullptr) caught++;
	if (::operator new(huge, std::nothrow) == nullptr) caught++;
	std::printf("%d\n", caught);
	return caught == 6 ? 0 : 1;
}
EOF
	if c++ -std=c++17 -O2 -g -fno-omit-frame-pointer -o "$T/oom" "$T/oom.cc" 2>"$T/cc.err"; then
		check_exit "record-alloc-hostile: failing C++ new throws std::bad_alloc (aligned too; nothrow gives NULL)" 0 \
			"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/oom.folded" -- "$T/oom"
		got=$(through after_oom "$T/oom.folded")
		if [ "$got" = 1000000 ]; then pass "record-alloc-hostile: a thread is sampled again after a caught std::bad_alloc"
		else fail "record-alloc-hostile: a thread is sampled again after a caught std::bad_alloc" "after_oom: $got bytes"; fi
	else
		fail "record-alloc-hostile: compile oom" "$(head -3 "$T/cc.err")"
	fi
else
	skip "record-alloc-hostile: C++ out of memory" "no C++ compiler"
fi

# --- 6. a raw clone() fork: each process its own file ---
cat >"$T/rawclone.c" <<'EOF'
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
static void *volatile sink;
__attribute__((noinline)) void parent_work(int n) { for (int i = 0; i < n; i++) { char *p = malloc(100); p[0] = 1; sink = p; free(p); } }
__attribute__((noinline)) void child_work(int n) { for (int i = 0; i < n; i++) { char *p = malloc(300); p[0] = 1; sink = p; free(p); } }
int main(void)
{
	parent_work(1000);
	/* fork-like clone: no fork handlers run in either process */
	long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) { child_work(100000); exit(0); }
	parent_work(100000);
	waitpid((pid_t)pid, 0, 0);
	return 0;
}
EOF
if compile rawclone "$T/rawclone.c"; then
	check "record-alloc-hostile: a raw clone() fork" \
		"$TRAIL" record -e alloc --alloc-interval 1 -o "$T/clone.folded" -- "$T/rawclone"
	p=$(through parent_work "$T/clone.folded") c=$(through child_work "$T/clone.folded")
	if [ "$p" = 10100000 ] && [ "$c" = 30000000 ]; then
		pass "record-alloc-hostile: both sides of a raw clone() are recorded, each in its own file"
	else fail "record-alloc-hostile: both sides of a raw clone() are recorded, each in its own file" \
		"parent_work $p (expected 10100000), child_work $c (expected 30000000)"; fi
fi

# --- 8. a relative TMPDIR and a workload that chdirs and forks ---
cat >"$T/wander.c" <<'EOF'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void *volatile sink;
__attribute__((noinline)) void forked_work(void) { for (int i = 0; i < 1000; i++) { char *p = malloc(500); p[0] = 1; sink = p; free(p); } }
int main(void)
{
	if (chdir("/")) return 1;
	pid_t p = fork();
	if (p == 0) { forked_work(); _exit(0); }
	waitpid(p, 0, 0);
	return 0;
}
EOF
if compile wander "$T/wander.c"; then
	mkdir -p "$T/reltmp"
	(cd "$T" && TMPDIR=reltmp "$TRAIL" record -e alloc --alloc-interval 1 -o "$T/wander.folded" -- "$T/wander" \
		>"$T/.out" 2>"$T/.err")
	got=$(through forked_work "$T/wander.folded")
	if [ "$got" = 500000 ]; then pass "record-alloc-hostile: a relative TMPDIR keeps a chdir'd workload's forked children"
	else fail "record-alloc-hostile: a relative TMPDIR keeps a chdir'd workload's forked children" "forked_work $got bytes"; fi
	if [ -z "$(ls -A "$T/reltmp")" ]; then pass "record-alloc-hostile: the relative TMPDIR is cleaned"
	else fail "record-alloc-hostile: the relative TMPDIR is cleaned" "$(ls -A "$T/reltmp")"; fi
fi

# --- 7. a signal to trail ends the workload too (a SIGINT sent to trail
# alone, not the terminal's, which reaches the workload by itself) ---
# wait_for FILE: up to 60 s for FILE to appear (the workload started)
wait_for() { local i; for i in $(seq 600); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }
gone() { local i; for i in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; return 1; }
for sig in TERM HUP INT; do
	rm -f "$T/wl.pid"
	"$TRAIL" record -e alloc -o "$T/sig-$sig.folded" -- sh -c 'echo $$ > "$0"; exec sleep 300' "$T/wl.pid" \
		>"$T/.out" 2>"$T/.err" &
	tp=$!
	if ! wait_for "$T/wl.pid"; then fail "record-alloc-hostile: SIG$sig: the workload started"; kill -KILL $tp; continue; fi
	wp=$(cat "$T/wl.pid")
	kill -"$sig" $tp
	wait $tp
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	if gone "$wp" && [ "$rc" = "$want" ] && [ -e "$T/sig-$sig.folded" ]; then
		pass "record-alloc-hostile: SIG$sig to trail record -e alloc ends the workload, and trail exits $want with the profile"
	else fail "record-alloc-hostile: SIG$sig to trail record -e alloc ends the workload, and trail exits $want with the profile" \
		"exit $rc; $(kill -0 "$wp" 2>/dev/null && echo "pid $wp still running"); $(tail -1 "$T/.err")"; kill -KILL "$wp" 2>/dev/null; fi
done
