#!/usr/bin/env bash
# tests/cli/13-collapse-memory.sh - 'trail collapse' on real captures of
# the memory profilers: a massif out file and heaptrack_print's flame-graph
# stacks of a small C program with two known allocation sites, guessed
# without --format; the sites and their bytes must come out.  Skips each
# tool that is not installed.
. "$(dirname "$0")/lib.sh"

if ! have cc; then
	skip "collapse-memory" "no C compiler"
	exit 0
fi
cat >"$T/two.c" <<'EOF2'
#include <stdlib.h>
static void *volatile sink;
__attribute__((noinline)) void *site_small(void) { void *p = malloc(1000); sink = p; return p; }
__attribute__((noinline)) void *site_large(void) { void *p = malloc(3000); sink = p; return p; }
int main(void)
{
	void *a[200];
	for (int i = 0; i < 100; i++) { a[i] = site_small(); a[100 + i] = site_large(); }
	for (int i = 0; i < 200; i++) free(a[i]);
	return 0;
}
EOF2
cc -O1 -g -fno-omit-frame-pointer -o "$T/two" "$T/two.c" || { fail "collapse-memory: compile"; exit 0; }
# the bytes of stacks whose innermost frame is $1
site() { awk -v f="$1" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, a, ";"); if (a[k] == f) t += n } END { print t + 0 }' "$2"; }

if have valgrind; then
	if valgrind --tool=massif --massif-out-file="$T/massif.out" "$T/two" >/dev/null 2>&1; then
		check "collapse-memory: massif out file" "$TRAIL" collapse "$T/massif.out"
		cp "$T/.out" "$T/massif.folded"
		if [ "$(site site_small "$T/massif.folded")" = 100000 ] && [ "$(site site_large "$T/massif.folded")" = 300000 ] &&
		   grep -q '^main;site_large 300000$' "$T/massif.folded"; then
			pass "collapse-memory: massif's peak heap by site"
		else
			fail "collapse-memory: massif's peak heap by site" "$(cat "$T/massif.folded")"
		fi
	else
		skip "collapse-memory: massif" "valgrind failed here"
	fi
else
	skip "collapse-memory: massif" "no valgrind"
fi

if have heaptrack && have heaptrack_print; then
	if heaptrack -o "$T/ht" "$T/two" >/dev/null 2>&1; then
		f=$(ls "$T"/ht.* | head -1)
		heaptrack_print "$f" --flamegraph-cost-type peak -F "$T/ht.stacks" >/dev/null 2>&1
		check "collapse-memory: heaptrack stacks" "$TRAIL" collapse "$T/ht.stacks"
		cp "$T/.out" "$T/ht.folded"
		if [ "$(site site_small "$T/ht.folded")" = 100000 ] && [ "$(site site_large "$T/ht.folded")" = 300000 ]; then
			pass "collapse-memory: heaptrack's peak by site, file names dropped"
		else
			fail "collapse-memory: heaptrack's peak by site, file names dropped" "$(cat "$T/ht.folded")"
		fi
	else
		skip "collapse-memory: heaptrack" "heaptrack failed here"
	fi
else
	skip "collapse-memory: heaptrack" "no heaptrack"
fi
