#!/usr/bin/env bash
# tests/cli/10-collapse-corpus.sh - 'trail collapse' against every
# collapse-perf row of the shared conformance corpus (../shared/corpus/
# cases.tsv), and the collapse-guess rows whose input is perf script text:
# the output must equal the expected file byte for byte.
# Where trail deliberately follows inferno instead of stackcollapse-perf.pl,
# docs/collapse-deviations.tsv says how that row is compared.
. "$(dirname "$0")/lib.sh"

CORPUS=$SHARED/corpus
DEV=$ROOT/docs/collapse-deviations.tsv
if [ ! -f "$CORPUS/cases.tsv" ]; then
	skip "corpus conformance" "no $CORPUS/cases.tsv"
	exit 0
fi

# expected path -> "compare<TAB>deviation" from the deviation list
declare -A how
while IFS=$'\t' read -r exp cmp dev _; do
	case $exp in '#'* | expected | '') continue ;; esac
	how[$exp]="$cmp"$'\t'"$dev"
done < "$DEV"

# The input with everything after its last blank line removed: what the
# Perl script effectively reads, since it drops an unterminated last sample.
truncate_after_last_blank() {
	awk '{ l[NR] = $0; if ($0 == "") last = NR } END { for (i = 1; i <= last; i++) print l[i] }'
}

rows=0 idx=0
declare -A seen
names=() outs=() exps=() modes=()
# cases.tsv has empty columns, so split on a non-blank separator
while IFS=$'\037' read -r tool case inputs popts _iopts expected _rest; do
	seen[$expected]=1
	# collapse-guess rows whose input is perf script text are plain collapse
	case $tool:$inputs in
	collapse-perf:* | collapse-guess:collapse-perf/*) ;;
	*) continue ;;
	esac
	[ "$tool" = collapse-perf ] && rows=$((rows + 1))
	[ "$tool" = collapse-guess ] && popts=""	# "n/a": detection, no options
	# under ASan+UBSan, three of the eight variants of each input are enough
	if [ -n "${TRAIL_SANITIZED:-}" ]; then
		case $popts in '' | --addrs | '--pid --tid --all') ;; *) continue ;; esac
	fi
	name="${tool#collapse-} $case ${popts:-(no options)} -> ${expected##*/}"
	in=$CORPUS/$inputs
	spec=${how[$expected]:-raw}
	cmp=${spec%%$'\t'*} dev=${spec#*$'\t'}
	# one decompressed / truncated copy per input, made on first use
	key=${inputs//\//_}
	if [ "$cmp" = eof-truncated ]; then
		[ -f "$T/$key.trunc" ] || case $in in
			*.gz) gzip -dc "$in" ;; *) cat "$in" ;;
			esac | truncate_after_last_blank >"$T/$key.trunc"
		in=$T/$key.trunc
	fi
	case $cmp in
	raw | eof-truncated) ;;
	skip) skip "$name" "deviation $dev"; continue ;;
	*) fail "$name" "unknown comparison '$cmp' in $DEV"; continue ;;
	esac
	idx=$((idx + 1))
	# shellcheck disable=SC2086  # perl_options is a word list
	if ! "$TRAIL" collapse $popts "$in" >"$T/out.$idx" 2>"$T/err.$idx"; then
		fail "$name" "exit status $?: $(head -1 "$T/err.$idx")"
		continue
	fi
	names+=("$name") outs+=("$T/out.$idx") exps+=("$CORPUS/$expected") modes+=("$cmp")
done < <(tr '\t' '\037' < "$CORPUS/cases.tsv")
[ "$rows" -gt 200 ] && pass "corpus has its collapse-perf rows ($rows)" ||
	fail "corpus has its collapse-perf rows" "only $rows"

# compare byte for byte: one checksum run for every pair (fast even when
# starting processes is slow), then a diff for any mismatch
declare -A sum
while read -r h f; do sum[$f]=$h; done < <(md5sum "${outs[@]}" "${exps[@]}")
for i in "${!names[@]}"; do
	if [ -n "${sum[${outs[$i]}]:-}" ] && [ "${sum[${outs[$i]}]}" = "${sum[${exps[$i]}]:-x}" ]; then
		pass "${names[$i]}"
	else
		fail "${names[$i]}" "output differs from ${exps[$i]} (compared: ${modes[$i]})"
		diff "${outs[$i]}" "${exps[$i]}" | head -5 | cut -c1-200 >&2
	fi
done

# every listed deviation must name a row that exists
bad=0
while IFS=$'\t' read -r exp _; do
	case $exp in '#'* | expected | '') continue ;; esac
	[ -n "${seen[$exp]:-}" ] || { fail "deviation list names a real row" "$exp"; bad=1; }
done < "$DEV"
[ $bad -eq 0 ] && pass "deviation list names real rows"
