#!/usr/bin/env bash
# tests/cli/70-flame.sh - trail flame's command line: usage errors, exit
# codes, refusing what is not a git repository or not an ancestry, and the
# probe's own usage.  Fast: no profiling here (see 71-flame-e2e.sh).
. "$(dirname "$0")/lib.sh"

check "help" "$TRAIL" flame --help
grep -q -- "--good REV --bad REV --build CMD --run CMD" "$T/.out" && pass "help synopsis" || fail "help synopsis"
grep -q "Exit: 0 suspect found, 4 inconclusive, 5 regression below --min-effect" "$T/.out" && pass "help lists exit codes" || fail "help lists exit codes"
check_exit "missing options is a usage error" 2 "$TRAIL" flame --good HEAD
grep -q "are required" "$T/.err" && pass "missing options named" || fail "missing options named"
check_exit "unknown metric" 2 "$TRAIL" flame --good a --bad b --build true --run true --metric joules
grep -q "rss, alloc, peak-heap" "$T/.err" && pass "unknown metric lists the memory metrics" || fail "unknown metric lists the memory metrics"
check_exit "unknown profiler" 2 "$TRAIL" flame --good a --bad b --build true --run true --profiler gprof
check_exit "unknown strategy" 2 "$TRAIL" flame --good a --bad b --build true --run true --strategy guess
check_exit "percentile needs wall" 2 "$TRAIL" flame --good a --bad b --build true --run true --percentile 99
check_exit "stray argument" 2 "$TRAIL" flame --good a --bad b --build true --run true ./app
mkdir -p "$T/plain"
check_exit "not a git repository" 1 "$TRAIL" flame -C "$T/plain" --good a --bad b --build true --run true --cache "$T/cache"
grep -q "not inside a git work tree" "$T/.err" && pass "not a repository named" || fail "not a repository named"

# A two-commit repository: bad revisions that do not resolve, wrong order.
R=$T/repo
git init -q "$R" && git -C "$R" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one &&
	git -C "$R" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
check_exit "unknown revision" 1 "$TRAIL" flame -C "$R" --good nosuchrev --bad HEAD --build true --run true --cache "$T/cache"
grep -q -- "--good 'nosuchrev': not a commit" "$T/.err" && pass "unknown revision named, with its option" || fail "unknown revision named, with its option" "$(cat "$T/.err")"
check_exit "good after bad is a usage error" 2 "$TRAIL" flame -C "$R" --good HEAD --bad HEAD~1 --build true --run true --cache "$T/cache"
grep -q "is not an ancestor" "$T/.err" && pass "ancestry explained" || fail "ancestry explained"
[ -z "$(git -C "$R" status --porcelain)" ] && pass "repository untouched" || fail "repository untouched"

# The probe: usage, and refusing a directory that is not a trail clone.
check_exit "probe without threshold" 255 "$TRAIL" flame probe --build true --run true
check "probe help" "$TRAIL" flame probe --help
grep -q "0 fast, 1 slow, 125" "$T/.out" && pass "probe help lists exit codes" || fail "probe help lists exit codes"
check_exit "probe outside a clone" 255 "$TRAIL" flame probe -C "$R" --build true --run true --threshold 0.5

# Metric names come from one table (measure/metric.c): completion, flame's
# and history's --metric help, the probe's hint and both parsers agree.
"$TRAIL" help --values flame --metric >"$T/metrics" && [ -s "$T/metrics" ] &&
	pass "completion lists flame's metrics" || fail "completion lists flame's metrics"
"$TRAIL" flame --help >"$T/fh"
"$TRAIL" flame probe --help >"$T/ph"
"$TRAIL" history --help >"$T/hh"
"$TRAIL" help --values history --metric >"$T/hmetrics"
missing=
while read -r m; do
	grep -q -- "--metric NAME .*\b$m (" "$T/fh" || missing="$missing flame-help:$m"
	grep -q -- "--metric .*\b$m\b" "$T/ph" || missing="$missing probe-hint:$m"
	"$TRAIL" flame probe --metric "$m" --threshold 1 --build true --run true -C "$T" \
		>/dev/null 2>"$T/perr"; grep -q "unknown metric" "$T/perr" && missing="$missing probe-parse:$m"
done <"$T/metrics"
while read -r m; do
	grep -qx -- "$m" "$T/metrics" || missing="$missing history-not-flame:$m"
	grep -q -- "--metric NAME .*\b$m (" "$T/hh" || missing="$missing history-help:$m"
done <"$T/hmetrics"
[ -z "$missing" ] && pass "every metric in help, hint, completion and parser" ||
	fail "every metric in help, hint, completion and parser" "missing:$missing"
grep -vxf "$T/hmetrics" "$T/metrics" | head -1 >"$T/nothist"
if [ -s "$T/nothist" ]; then
	check_exit "history refuses a metric it cannot store" 2 "$TRAIL" history record -C "$R" \
		--metric "$(cat "$T/nothist")" --build true --run true
	grep -q "for trail history ($(paste -sd, "$T/hmetrics" | sed 's/,/, /g'))" "$T/.err" &&
		pass "history's error lists the metrics it stores" || fail "history's error lists them" "$(cat "$T/.err")"
fi

# --strategy and --measure are choice options (core/options.h): the help,
# the error and completion read one list of words.
check_exit "an unknown --strategy" 2 "$TRAIL" flame --strategy sideways --good a --bad b --build true --run true
grep -q "option '--strategy' must be auto, bisect or suspects, not 'sideways'" "$T/.err" &&
	pass "--strategy's error names its words" || fail "--strategy's error names its words" "$(cat "$T/.err")"
[ "$("$TRAIL" help --values flame --measure | tr '\n' ' ')" = "time share samples " ] &&
	pass "completion of --measure from its option table" || fail "completion of --measure from its option table"
"$TRAIL" help --values flame --good >"$T/none" 2>&1 && [ ! -s "$T/none" ] &&
	pass "an option without words offers nothing" || fail "an option without words offers nothing" "$(cat "$T/none")"
