#!/usr/bin/env bash
# tests/cli/01-symbols.sh - trail's own global symbols never shadow a
# function of libc or of the libraries linked into trail (elfutils is linked
# statically, so a trail function named like a libc one silently replaces it
# for elfutils too: our error() once took libdw's error(1, ENOMEM, fmt) and
# crashed on the first failed allocation inside libdw).
. "$(dirname "$0")/lib.sh"

have nm || { skip "global symbols" "nm not installed"; exit 0; }
objs=("$BUILD/libtrail.a" "$BUILD"/src/cmd/*.o "$BUILD/src/main.o")
for o in "${objs[@]}"; do
	[ -f "$o" ] || { skip "global symbols" "no $o (build first)"; exit 0; }
done
# every global symbol that trail's own objects define (the binary also holds
# the statically linked libraries' symbols, so read the objects, not it)
nm --defined-only -g "${objs[@]}" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[TDBRVWiu]$/ { print $3 }' | sort -u >"$T/ours"
[ -s "$T/ours" ] || { fail "global symbols" "nm listed nothing"; exit 0; }

# the exported symbols of every library the binary links, shared or static
: >"$T/theirs"
for lib in libc.so.6 libm.so.6 libdw.so.1 libelf.so.1 libz.so.1 libzstd.so.1 \
	liblzma.so.5 libbz2.so.1.0; do
	f=$(${CC:-cc} -print-file-name=$lib 2>/dev/null)
	[ -f "$f" ] || f=$(ls /lib/*-linux-gnu/$lib /usr/lib/*-linux-gnu/$lib 2>/dev/null | head -1)
	[ -n "$f" ] && [ -f "$f" ] || continue
	nm -D --defined-only "$f" 2>/dev/null | awk '{ sub(/@.*/, "", $NF); print $NF }' >>"$T/theirs"
done
# the static archives too: their internal (hidden) globals clash at link time
for lib in iberty dw elf z zstd lzma bz2; do
	a=$(${CC:-cc} -print-file-name=lib$lib.a 2>/dev/null)
	[ -f "$a" ] && nm --defined-only -g "$a" 2>/dev/null | awk 'NF == 3 { print $3 }' >>"$T/theirs"
done
grep -qx malloc "$T/theirs" || { skip "global symbols" "cannot read libc's symbol table"; exit 0; }
sort -u "$T/theirs" -o "$T/theirs"

# Allowed on purpose: the x* allocators have libiberty's exact contract
# (same prototypes, never return NULL, exit on failure), so libiberty's
# demangler calling ours instead of its own changes nothing.
printf '%s\n' xmalloc xcalloc xrealloc xstrdup xstrndup >"$T/allowed"
comm -12 "$T/ours" "$T/theirs" | grep -vxF -f "$T/allowed" >"$T/clash"
if [ -s "$T/clash" ]; then
	fail "no global symbol shadows libc, libm, elfutils or the compression libraries" \
		"defined by trail and by a linked library: $(tr '\n' ' ' <"$T/clash")"
else
	pass "no global symbol shadows libc, libm, elfutils or the compression libraries"
fi

# The crash itself: fail exactly libdw's block allocation (libdw_alloc asks
# for one page minus four pointers) under a DWARF recording whose binary
# has debug info, so libdw's out-of-memory handler runs.  glibc's error(3)
# then prints and exits 1; a shadowing error() crashes.
if [ -n "${TRAIL_SANITIZED:-}" ]; then
	skip "libdw out of memory is an error, not a crash" "LD_PRELOAD under ASan"
	exit 0
fi
need_perf_record "libdw out of memory is an error, not a crash"
cat >"$T/failmalloc.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
void *malloc(size_t n)
{
	static void *(*real)(size_t);
	static size_t fail;
	if (!real) {
		const char *s = getenv("FAIL_MALLOC_SIZE");
		fail = s ? strtoul(s, NULL, 10) : 0;
		real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	}
	return fail && n == fail ? NULL : real(n);
}
EOF
cat >"$T/loop.c" <<'EOF'
static int work(int n) { volatile int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int main(void) { int t = 0; for (int k = 0; k < 200; k++) t += work(100000); return t == 1; }
EOF
cc -shared -fPIC -o "$T/failmalloc.so" "$T/failmalloc.c" -ldl &&
	cc -O0 -g -o "$T/loop" "$T/loop.c" &&
	perf record -q --call-graph dwarf -F 999 -o "$T/dwarf.data" "$T/loop" >/dev/null 2>&1 ||
	{ skip "libdw out of memory is an error, not a crash" "cannot build or record"; exit 0; }
page=$(getconf PAGESIZE)
FAIL_MALLOC_SIZE=$((page - 32)) LD_PRELOAD=$T/failmalloc.so \
	"$TRAIL" collapse "$T/dwarf.data" >"$T/oom.out" 2>"$T/oom.err"
rc=$?
if [ "$rc" -ge 1 ] && [ "$rc" -lt 128 ]; then
	pass "libdw out of memory is an error, not a crash"
elif [ "$rc" -eq 0 ]; then
	skip "libdw out of memory is an error, not a crash" "libdw allocated no block"
else
	fail "libdw out of memory is an error, not a crash" "exit $rc: $(head -c 200 "$T/oom.err")"
fi
