#!/usr/bin/env bash
# tests/cli/11-collapse-formats-corpus.sh - 'trail collapse' against every
# row of the shared conformance corpus (../shared/corpus/cases.tsv) for the
# formats other than perf script: dtrace, sample, vtune, vsprof, xctrace,
# ghcprof, recursive, and the collapse-guess rows (format guessed, no
# --format).  Outputs must equal the expected files byte for byte, except
# where docs/collapse-deviations.tsv says how a row is compared.  The
# corpus's malformed inputs must fail (or warn) without a crash, and the
# guesser must refuse collapse-guess/invalid/*.
. "$(dirname "$0")/lib.sh"

CORPUS=$SHARED/corpus
DEV=$ROOT/docs/collapse-deviations.tsv
if [ ! -f "$CORPUS/cases.tsv" ]; then
	skip "formats corpus conformance" "no $CORPUS/cases.tsv"
	exit 0
fi

declare -A how
while IFS=$'\t' read -r exp cmp dev _; do
	case $exp in '#'* | expected | '') continue ;; esac
	how[$exp]="$cmp"$'\t'"$dev"
done < "$DEV"

# inferno's option names -> trail's
trail_opts() {
	local o out=()
	for o in $1; do
		case $o in
		# --time, --ticks, --bytes: trail takes inferno's spellings as they are
		'(format' | auto-detected\) | n/a) ;;
		*) out+=("$o") ;;
		esac
	done
	echo "${out[@]}"
}

# summed: the same stacks in the same order, each count >= the expected one
summed_ok() {
	awk 'NR == FNR { sub(/\r$/, ""); n = split($0, a, " "); e[FNR] = substr($0, 1, length($0) - length(a[n]) - 1); c[FNR] = a[n]; lines = FNR; next }
	     { n = split($0, a, " "); s = substr($0, 1, length($0) - length(a[n]) - 1)
	       if (s != e[FNR] || a[n] + 0 < c[FNR] + 0) bad = 1; got = FNR }
	     END { exit (bad || got != lines) }' "$2" "$1"
}

rows=0
declare -A per_tool
while IFS=$'\037' read -r tool case inputs popts iopts expected _rest; do
	case $tool:$inputs in
	tool:* | collapse-perf:* | diff-folded:* | collapse-guess:collapse-perf/*) continue ;;
	esac
	rows=$((rows + 1))
	per_tool[$tool]=$(( ${per_tool[$tool]:-0} + 1 ))
	if [ "$tool" = collapse-guess ]; then
		args=()
	else
		[ "$popts" = n/a ] && popts=$iopts
		# shellcheck disable=SC2207
		args=(--format "${tool#collapse-}" $(trail_opts "$popts"))
	fi
	name="${tool#collapse-} $case ${args[*]:-(guessed)} -> ${expected##*/}"
	spec=${how[$expected]:-raw}
	cmp=${spec%%$'\t'*} dev=${spec#*$'\t'}
	if [ "$cmp" = skip ]; then
		skip "$name" "deviation $dev"
		continue
	fi
	if ! "$TRAIL" collapse "${args[@]}" "$CORPUS/$inputs" >"$T/out" 2>"$T/err"; then
		fail "$name" "exit status: $(head -1 "$T/err")"
		continue
	fi
	case $cmp in
	raw) cmp -s "$T/out" "$CORPUS/$expected" ;;
	crlf) tr -d '\r' <"$CORPUS/$expected" | cmp -s "$T/out" - ;;
	summed) summed_ok "$T/out" "$CORPUS/$expected" ;;
	*) false ;;
	esac && pass "$name" || {
		fail "$name" "output differs from $expected (compared: $cmp)"
		diff "$T/out" "$CORPUS/$expected" | head -4 | cut -c1-200 >&2
	}
done < <(tr '\t' '\037' < "$CORPUS/cases.tsv")
[ "$rows" -ge 39 ] && pass "corpus has its other-format rows ($rows)" ||
	fail "corpus has its other-format rows" "only $rows"
for t in collapse-dtrace collapse-sample collapse-vtune collapse-vsprof collapse-xctrace \
	collapse-ghcprof collapse-recursive collapse-guess; do
	[ "${per_tool[$t]:-0}" -gt 0 ] || fail "rows of $t were run" "none"
done

# the guesser refuses what it cannot tell, with a hint and exit 2 (no valid input)
for f in "$CORPUS"/collapse-guess/invalid/*; do
	check_exit "guessing refuses ${f##*/}" 2 "$TRAIL" collapse "$f"
	grep -q -- "--format" "$T/.err" && pass "refusal of ${f##*/} names --format" ||
		fail "refusal of ${f##*/} names --format" "$(cat "$T/.err")"
done

# malformed inputs: an error (exit 1) or a warning, never a crash
while IFS=$'\037' read -r tool inputs _p _i behaviour _src; do
	case $tool in collapse-perf | diff-folded | collapse-guess | tool) continue ;; esac
	"$TRAIL" collapse --format "${tool#collapse-}" "$CORPUS/$inputs" >"$T/out" 2>"$T/err"
	rc=$?
	case $behaviour in
	*error*) want=1 ;;
	*) want=0 ;;
	esac
	if [ $rc -eq $want ] && [ -s "$T/err" ]; then
		pass "${tool#collapse-} ${inputs##*/}: exit $rc with a message"
	else
		fail "${tool#collapse-} ${inputs##*/}" "exit $rc (want $want), stderr: $(head -1 "$T/err")"
	fi
done < <(tr '\t' '\037' < "$CORPUS/diagnostics.tsv")
