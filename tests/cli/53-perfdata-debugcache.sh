#!/usr/bin/env bash
# 53-perfdata-debugcache.sh - separate, zlib-compressed debug files
# (what Debian's -dbg packages ship) are inflated once into a prepared
# copy kept in the cache directory by build-id: the inline frames found
# through it, a second run from the cache, a damaged cache file replaced,
# and a cache that cannot be written costing nothing but time.  Skips
# without perf, a compiler, binutils or perf_event_open permission.
. "$(dirname "$0")/lib.sh"

need_perf_record "debug cache"
have objcopy && have readelf || { skip "debug cache" "binutils not installed"; exit 0; }

cd "$T" || exit 1
cat > dbg.c <<'EOF2'
volatile long sink;
static inline __attribute__((always_inline)) long churn(long x)
{
	long s = 0;
	for (long i = 0; i < 4000; i++)
		s += (x ^ i) * 5 + (s >> 2);
	return s;
}
__attribute__((noinline)) long work(long n)
{
	long t = 0;
	for (long i = 0; i < n; i++)
		t += churn(i);
	return t;
}
int main(void)
{
	for (int k = 0; k < 60; k++)
		sink = work(3000);
	return 0;
}
EOF2
cc -O2 -g -fno-omit-frame-pointer dbg.c -o dbg || { fail "build the program"; exit 0; }
objcopy --only-keep-debug --compress-debug-sections=zlib dbg dbg.debug &&
	objcopy --strip-debug --add-gnu-debuglink=dbg.debug dbg ||
	{ fail "split off compressed debug info"; exit 0; }
if readelf -SW dbg.debug | grep -q '\.debug_info.* C '; then
	pass "the debug file's sections are compressed"
else
	fail "the debug file's sections are compressed"
fi
id=$(readelf -n dbg | awk '/Build ID/ { print $3 }')
perf record -q --call-graph dwarf -F 999 -o dwarf.data ./dbg >/dev/null 2>&1 ||
	{ fail "perf record --call-graph dwarf"; exit 0; }

export XDG_CACHE_HOME=$T/cache
cached=$XDG_CACHE_HOME/trail/debuginfo-1/${id:0:2}/${id:2}.debug
trail_stacks dwarf.data > first.folded 2> first.err
if grep -q ';work;churn ' first.folded; then
	pass "inline frames come from the compressed separate debug file"
else
	fail "inline frames come from the compressed separate debug file" "$(grep -m3 work first.folded)"
fi
if [ -s "$cached" ] && ! readelf -SW "$cached" | grep -q '\.debug_info.* C '; then
	pass "the prepared copy is cached by build-id, inflated"
else
	fail "the prepared copy is cached by build-id, inflated" "$cached"
fi
perf script -i dwarf.data 2>/dev/null | "$TRAIL" collapse > script.folded
check "the stacks equal perf script | trail collapse" cmp first.folded script.folded
trail_stacks dwarf.data > second.folded 2> second.err
check "a run from the cache gives the same stacks" cmp first.folded second.folded

# a damaged cache file is not trusted: it is made again
printf 'not an ELF file' > "$cached"
trail_stacks dwarf.data > third.folded 2> third.err
check "a damaged cache file is replaced, same stacks" cmp first.folded third.folded
if readelf -h "$cached" >/dev/null 2>&1; then
	pass "the damaged cache file was rewritten"
else
	fail "the damaged cache file was rewritten"
fi

# a cache that cannot be written: same answer, no message
XDG_CACHE_HOME=/proc/trail-no-such-dir trail_stacks dwarf.data > nocache.folded 2> nocache.err
check "without a writable cache the stacks are the same" cmp first.folded nocache.folded
if [ ! -s nocache.err ]; then
	pass "an unwritable cache prints nothing"
else
	fail "an unwritable cache prints nothing" "$(head -3 nocache.err)"
fi
