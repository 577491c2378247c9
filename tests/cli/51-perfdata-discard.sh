#!/usr/bin/env bash
# tests/cli/51-perfdata-discard.sh - 'trail collapse --discard P --samples'
# on a real trail record recording: --discard 0 keeps every sample,
# --discard 50 keeps a part near half of them, and the folded output equals
# 'perf script --time 50%-100% | trail collapse' on the same file (skipped
# without perf).  Skips when perf_event_open is not permitted.
. "$(dirname "$0")/lib.sh"

"$TRAIL" record -F 499 -o "$T/rec.data" -- \
	sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' >"$T/rec.out" 2>"$T/rec.err"
if [ $? -ne 0 ]; then
	skip "discard" "trail record cannot sample here: $(head -1 "$T/rec.err")"
	exit 0
fi
total() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
# the sample count trail record reports on stderr
recorded=$(sed -n 's/.*: \([0-9][0-9]*\) samples of .*/\1/p' "$T/rec.err")

check "discard 0" "$TRAIL" collapse --samples --discard 0 "$T/rec.data"
cp "$T/.out" "$T/all.folded"
check "no discard" "$TRAIL" collapse --samples "$T/rec.data"
if cmp -s "$T/.out" "$T/all.folded"; then pass "discard 0 is no discard"; else
	fail "discard 0 is no discard"; fi
all=$(total "$T/all.folded")
if [ -n "$recorded" ] && [ "$all" -eq "$recorded" ]; then pass "--samples counts samples"; else
	fail "--samples counts samples" "folded total $all, trail record said '$recorded'"; fi

# --weight samples is the long form of --samples; the default sums the periods
# under a header that names their unit (cpu-clock: ns)
check "--weight samples" "$TRAIL" collapse --weight samples "$T/rec.data"
cmp -s "$T/.out" "$T/all.folded" && pass "--weight samples = --samples" || fail "--weight samples = --samples"
check "periods" "$TRAIL" collapse "$T/rec.data"
ev=$(sed -n 's/.* samples of \([^ ]*\) .*/\1/p' "$T/rec.err")
case $ev in cpu-clock|task-clock) unit=ns ;; *) unit=$ev ;; esac
# (type= and period= may stand between: the profile model's fields; unit= is last)
head -1 "$T/.out" | grep -Eqx "# trail-folded weight=period( [a-z_]+=[^ ]+)* unit=$unit" &&
	pass "perf.data periods: header names $unit" || fail "perf.data periods: header names $unit" "$(head -1 "$T/.out")"
check_exit "--samples with --weight period" 2 "$TRAIL" collapse --samples --weight period "$T/rec.data"
check_exit "--weight time" 2 "$TRAIL" collapse --weight time "$T/rec.data"

check "discard 50" "$TRAIL" collapse --samples --discard 50 "$T/rec.data"
cp "$T/.out" "$T/half.folded"
half=$(total "$T/half.folded")
# a wide band: the cut is by time, and the shell's CPU use is not uniform
if [ "$all" -ge 20 ] && [ $((half * 100)) -ge $((all * 25)) ] && [ $((half * 100)) -le $((all * 80)) ]; then
	pass "discard 50 keeps about half"
else
	fail "discard 50 keeps about half" "kept $half of $all"
fi
check_exit "discard 100 keeps the last" 0 "$TRAIL" collapse --samples --discard 100 "$T/rec.data"
last=$(total "$T/.out")
if [ "$last" -ge 1 ] && [ "$last" -lt "$half" ]; then pass "discard 100 keeps only the end"; else
	fail "discard 100 keeps only the end" "kept $last"; fi
check_exit "discard out of range" 2 "$TRAIL" collapse --discard 101 "$T/rec.data"

if have perf && perf --version >/dev/null 2>&1; then
	for p in 0 50; do
		if perf script -i "$T/rec.data" -F comm,pid,tid,time,event,ip,sym,dso,symoff \
			--time "$p%-100%" 2>/dev/null | "$TRAIL" collapse >"$T/perf.$p" &&
			"$TRAIL" collapse --samples --discard "$p" "$T/rec.data" >"$T/native.$p" &&
			cmp -s "$T/perf.$p" "$T/native.$p"; then
			pass "same as perf script --time $p%-100%"
		else
			fail "same as perf script --time $p%-100%" \
				"$(diff "$T/perf.$p" "$T/native.$p" | head -5)"
		fi
	done
else
	skip "perf script comparison" "no perf"
fi
