# bench/lib.sh - helpers shared by the bench scripts (sourced, not run;
# bench/flamegraph, in Python, calls inferno_tool through bash).
#
# inferno_tool NAME prints the path of inferno's tool NAME (for example
# inferno-diff-folded), or nothing and returns 1 when there is none.  Where
# it looks, in order:
#   $INFERNO_BIN   a directory holding NAME, or a binary: NAME itself, or
#                  another inferno tool, whose directory must hold NAME
#   PATH           NAME as a command
#   /work/ref/inferno/bin/NAME
# A set INFERNO_BIN without NAME is reported on stderr, not searched past.
inferno_tool() {
	local name=$1 cand
	if [ -n "${INFERNO_BIN:-}" ]; then
		if [ -d "$INFERNO_BIN" ]; then
			cand=$INFERNO_BIN/$name
		elif [ "${INFERNO_BIN##*/}" = "$name" ]; then
			cand=$INFERNO_BIN
		else
			cand=$(dirname "$INFERNO_BIN")/$name
		fi
		[ -x "$cand" ] && [ ! -d "$cand" ] && { echo "$cand"; return 0; }
		echo "bench: INFERNO_BIN=$INFERNO_BIN: no executable $name" >&2
		return 1
	fi
	cand=$(command -v "$name") && { echo "$cand"; return 0; }
	cand=/work/ref/inferno/bin/$name
	[ -x "$cand" ] && { echo "$cand"; return 0; }
	return 1
}
