#!/usr/bin/env bash
# tests/cli/12-collapse-formats.sh - the input formats of 'trail collapse'
# beyond the corpus: --format list and errors, every format guessed on
# standard input and through gzip, zstd and xz, already-folded input
# (py-spy, async-profiler, bcc profile -f) passed through merged and
# sorted, bpftrace stack maps (written here, a real one from
# tests/data/profilers, and a fresh one where bpftrace runs), several
# formats in one run, and perf.data compressed or on a pipe (when perf can
# record here).
. "$(dirname "$0")/lib.sh"

CORPUS=$SHARED/corpus

# --format list: one line per format, name first
check "--format list" "$TRAIL" collapse --format list
for f in perf perfdata dtrace sample vtune vsprof xctrace ghcprof bpftrace massif callgrind heaptrack folded recursive; do
	grep -q "^$f " "$T/.out" && pass "--format list names $f" || fail "--format list names $f"
done
check_exit "an unknown --format is a usage error" 2 "$TRAIL" collapse --format nope /dev/null
check_exit "a bad --ghc-cost is a usage error" 2 "$TRAIL" collapse --ghc-cost nope /dev/null
# inferno-collapse-ghcprof's --time/--ticks/--bytes are --ghc-cost's values
GHC=$SHARED/corpus/collapse-ghcprof/ticks/input.prof
if [ -f "$GHC" ]; then
	for c in time ticks bytes; do
		"$TRAIL" collapse --format ghcprof --ghc-cost "$c" "$GHC" >"$T/ghc-$c.long" 2>&1
		"$TRAIL" collapse --format ghcprof "--$c" "$GHC" >"$T/ghc-$c.short" 2>&1
		cmp -s "$T/ghc-$c.long" "$T/ghc-$c.short" && pass "ghcprof: --$c is --ghc-cost $c" ||
			fail "ghcprof: --$c is --ghc-cost $c"
	done
	cmp -s "$T/ghc-ticks.short" "$T/ghc-bytes.short" && fail "ghcprof: --ticks and --bytes differ" ||
		pass "ghcprof: --ticks and --bytes differ"
else
	skip "ghcprof --time/--ticks/--bytes" "no shared corpus"
fi
check_exit "--ticks contradicts --ghc-cost bytes" 2 "$TRAIL" collapse --ticks --ghc-cost bytes /dev/null
printf 'what\nis this\n' >"$T/unknown.txt"
check_exit "an unknown format fails" 2 "$TRAIL" collapse "$T/unknown.txt"
grep -q "cannot tell the format of '$T/unknown.txt'" "$T/.err" && pass "the refusal names the file" ||
	fail "the refusal names the file" "$(cat "$T/.err")"
printf '\n\n  \n' >"$T/blank.txt"
check "blank input is no error" "$TRAIL" collapse "$T/blank.txt"
[ ! -s "$T/.out" ] && pass "blank input folds to nothing" || fail "blank input folds to nothing"

# already folded: py-spy record -f raw, async-profiler -o collapsed, bcc profile -f
cat >"$T/pyspy.txt" <<'EOT'
process 4242:"python3 app.py";<module> (app.py:10);main (app.py:7);work (app.py:3) 12
process 4242:"python3 app.py";<module> (app.py:10);main (app.py:8) 3
process 4242:"python3 app.py";<module> (app.py:10);main (app.py:7);work (app.py:3) 5
EOT
check "py-spy raw output is guessed" "$TRAIL" collapse "$T/pyspy.txt"
printf '%s\n' 'process 4242:"python3 app.py";<module> (app.py:10);main (app.py:7);work (app.py:3) 17' \
	'process 4242:"python3 app.py";<module> (app.py:10);main (app.py:8) 3' >"$T/pyspy.want"
cmp -s "$T/.out" "$T/pyspy.want" && pass "folded input is merged and sorted" ||
	fail "folded input is merged and sorted" "$(cat "$T/.out")"
cat >"$T/async.txt" <<'EOT'
java/lang/Thread.run;com/example/Server.handle;com/example/Json.parse_[j] 40
java/lang/Thread.run;com/example/Server.handle;java/util/HashMap.get_[i] 2
EOT
check "async-profiler collapsed output passes through" "$TRAIL" collapse "$T/async.txt"
cmp -s "$T/.out" "$T/async.txt" && pass "async-profiler lines are kept as they are" ||
	fail "async-profiler lines are kept as they are" "$(cat "$T/.out")"
printf 'swapper/0;secondary_startup_64;do_idle;default_idle 210\nnode;uv_run;uv__io_poll;epoll_wait 4\n' >"$T/bcc.txt"
check "bcc profile -f output passes through" "$TRAIL" collapse "$T/bcc.txt"
sort "$T/bcc.txt" | cmp -s "$T/.out" - && pass "bcc lines are kept" || fail "bcc lines are kept" "$(cat "$T/.out")"
printf 'a;b 1\na;b 2.5\n' >"$T/frac.txt"
check_exit "fractional counts are reported, not folded" 1 "$TRAIL" collapse --strict --format folded "$T/frac.txt"

# bpftrace: @[comm, ustack] and @[kstack, comm] keys, offsets dropped
cat >"$T/bpftrace.txt" <<'EOT'
Attaching 1 probe...
^C

@[myprog,
        work+20
        main+36
        __libc_start_main+243
]: 42
@[
        do_syscall_64+59
        entry_SYSCALL_64_after_hwframe+68
, myprog]: 3
@[
        work+24
        main+36
        __libc_start_main+243
, myprog]: 8
EOT
check "bpftrace stack maps are guessed" "$TRAIL" collapse "$T/bpftrace.txt"
printf '%s\n' 'myprog;__libc_start_main;main;work 50' \
	'myprog;entry_SYSCALL_64_after_hwframe;do_syscall_64 3' >"$T/bpftrace.want"
cmp -s "$T/.out" "$T/bpftrace.want" && pass "bpftrace keys fold root first, comm as the root" ||
	fail "bpftrace keys fold root first" "$(cat "$T/.out")"

# every format on stdin and compressed (the corpus's inputs)
if [ -f "$CORPUS/cases.tsv" ]; then
	for in in collapse-dtrace/example-dtrace-stacks/input.txt collapse-sample/sample/input.txt \
		collapse-vtune/vtune/input.csv collapse-vsprof/CallTreeSummary/input.csv \
		collapse-xctrace/basic/input.xml collapse-ghcprof/ticks/input.prof \
		collapse-perf/go-stacks/input.txt; do
		"$TRAIL" collapse "$CORPUS/$in" >"$T/ref" 2>/dev/null
		[ -s "$T/ref" ] || { fail "$in folds"; continue; }
		"$TRAIL" collapse <"$CORPUS/$in" >"$T/stdin" 2>"$T/err"
		cmp -s "$T/ref" "$T/stdin" && pass "$in guessed on stdin" ||
			fail "$in guessed on stdin" "$(head -1 "$T/err")"
		for z in "gzip -c" "zstd -q -c" "xz -c"; do
			have "${z%% *}" || { skip "$in through ${z%% *}" "no ${z%% *}"; continue; }
			$z <"$CORPUS/$in" >"$T/in.z"
			"$TRAIL" collapse "$T/in.z" >"$T/z" 2>"$T/err"
			cmp -s "$T/ref" "$T/z" && pass "$in through ${z%% *}" ||
				fail "$in through ${z%% *}" "$(head -1 "$T/err")"
			cat "$T/in.z" | "$TRAIL" collapse >"$T/z" 2>"$T/err"
			cmp -s "$T/ref" "$T/z" && pass "$in through ${z%% *} on a pipe" ||
				fail "$in through ${z%% *} on a pipe" "$(head -1 "$T/err")"
		done
	done
	# a truncated compressed stream is an error, not a short profile
	head -c 2000 "$CORPUS/collapse-perf/go-stacks/input.txt" | zstd -q -c | head -c 300 >"$T/cut.zst"
	check_exit "a truncated zstd stream fails" 1 "$TRAIL" collapse --format perf "$T/cut.zst"
	# several formats in one run fold into one answer
	"$TRAIL" collapse "$CORPUS/collapse-dtrace/java/input.txt" "$T/pyspy.txt" >"$T/mixed" 2>&1
	grep -q '^test`main;test`foo;bar_\[i\];test`baz 1$' "$T/mixed" && grep -q '^process 4242' "$T/mixed" &&
		pass "files of different formats fold together" || fail "files of different formats fold together"
	# --format applies to every input, even one that looks like another format
	check "--format recursive on folded input" "$TRAIL" collapse --format recursive \
		"$CORPUS/collapse-recursive/basic/input.txt"
	grep -q '^main;recursive;helper 3$' "$T/.out" && pass "--format overrides the guess" ||
		fail "--format overrides the guess" "$(cat "$T/.out")"
else
	skip "formats on stdin and compressed" "no $CORPUS/cases.tsv"
fi

# perf.data compressed and on a pipe: the same stacks as the file
if have perf && perf record -q -o "$T/probe.data" -F 99 -- true >/dev/null 2>&1 && have cc; then
	printf 'volatile long s;\nint main(void){for(long i=0;i<200000000;i++)s+=i;return 0;}\n' >"$T/spin.c"
	cc -O1 -fno-omit-frame-pointer -o "$T/spin" "$T/spin.c"
	perf record -q -g -F 499 -o "$T/spin.data" -- "$T/spin" >/dev/null 2>&1
	"$TRAIL" collapse "$T/spin.data" >"$T/pd.ref" 2>/dev/null
	grep -q '^spin;' "$T/pd.ref" && pass "perf.data folds" || fail "perf.data folds" "$(head -3 "$T/pd.ref")"
	zstd -q -c "$T/spin.data" >"$T/spin.data.zst"
	"$TRAIL" collapse "$T/spin.data.zst" >"$T/pd.z" 2>"$T/err"
	cmp -s "$T/pd.ref" "$T/pd.z" && pass "zstd-compressed perf.data" ||
		fail "zstd-compressed perf.data" "$(head -1 "$T/err")"
	"$TRAIL" collapse <"$T/spin.data" >"$T/pd.stdin" 2>"$T/err"
	cmp -s "$T/pd.ref" "$T/pd.stdin" && pass "perf.data on standard input" ||
		fail "perf.data on standard input" "$(head -1 "$T/err")"
else
	skip "perf.data compressed and on a pipe" "perf cannot record here"
fi

# the manual's SYNOPSIS is the -h text
"$TRAIL" collapse -h >"$T/help" 2>&1
awk '/^## SYNOPSIS/ { s = 1; next } s && /^```$/ { if (in_block) exit; in_block = 1; next }
     in_block { print }' "$ROOT/docs/collapse.md" >"$T/synopsis"
cmp -s "$T/help" "$T/synopsis" && pass "docs/collapse.md synopsis is the -h text" ||
	fail "docs/collapse.md synopsis is the -h text" "$(diff "$T/help" "$T/synopsis" | head -5)"
# every format of --format list has a row in the manual's table
"$TRAIL" collapse --format list | while read -r name _; do
	grep -q "^| \`$name\` |" "$ROOT/docs/collapse.md" && pass "docs/collapse.md lists $name" ||
		fail "docs/collapse.md lists $name"
done

# a real bpftrace profile (tests/data/profilers/README.md): comm, then the
# user stack root first, then the kernel stack below the system call
BT=$ROOT/tests/data/profilers/bpftrace-btwork.txt
check "a real bpftrace profile is guessed" "$TRAIL" collapse "$BT"
grep -vq '^btwork;' "$T/.out" && fail "every bpftrace stack starts with the comm" "$(grep -v '^btwork;' "$T/.out" | head -2)" ||
	pass "every bpftrace stack starts with the comm"
grep -q '^btwork;__libc_start_call_main;main;__GI___write;entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_write;vfs_write' "$T/.out" &&
	pass "kernel frames fold below the user frame that made the system call" ||
	fail "kernel frames fold below the user frame" "$(head -3 "$T/.out")"
total=$(awk '{ s += $NF } END { print s }' "$T/.out")
want=$(grep -o ']: [0-9]*$' "$BT" | awk '{ s += $2 } END { print s }')
[ "$total" = "$want" ] && pass "bpftrace counts are kept ($total)" || fail "bpftrace counts are kept" "$total != $want"
# and a fresh one, where bpftrace can run here
if have bpftrace && have cc && [ "$(id -u)" = 0 ]; then
	cc -O1 -fno-omit-frame-pointer -o "$T/btwork" "$ROOT/tests/data/profilers/btwork.c"
	"$T/btwork" forever & pid=$!
	timeout 30 bpftrace -e 'profile:hz:199 /pid == '"$pid"'/ { @[comm, ustack] = count(); } interval:s:2 { exit(); }' \
		>"$T/bt.txt" 2>"$T/bt.err"
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	if grep -q '^@\[' "$T/bt.txt"; then
		"$TRAIL" collapse "$T/bt.txt" >"$T/bt.folded" 2>"$T/err"
		grep -q '^btwork;.*;\(spin\|main\)' "$T/bt.folded" && pass "a fresh bpftrace profile folds" ||
			fail "a fresh bpftrace profile folds" "$(head -3 "$T/bt.folded") $(head -1 "$T/err")"
	else
		skip "a fresh bpftrace profile" "bpftrace cannot attach here: $(head -1 "$T/bt.err")"
	fi
else
	skip "a fresh bpftrace profile" "needs bpftrace, cc and root"
fi
