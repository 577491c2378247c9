#!/usr/bin/env bash
# tests/cli/20-flamegraph.sh - 'trail flamegraph': well-formed SVG for every
# corpus input and option, geometry checked against the folded input by an
# independent checker (tests/browser/fgcheck.py), error SVG and exit code 2
# on empty input, malformed lines reported with path:line, options that
# change the output, differential colours, and agreement with flamegraph.pl
# when it is available.
. "$(dirname "$0")/lib.sh"

CHECKER=$ROOT/tests/browser/fgcheck.py
CORPUS=$SHARED/corpus/flamegraph-inputs
have xmllint || { skip "all" "xmllint missing"; exit 0; }
have python3 || { skip "all" "python3 missing"; exit 0; }

wellformed() { xmllint --noout --nonet "$1" 2>"$T/xml.err"; }
fg() { "$TRAIL" flamegraph "$@" >"$T/out.svg" 2>"$T/err"; }
# geometry NAME SVG [INPUT...] [checker flags]: queued, checked in one python
# run at the end (python starts slowly on a loaded machine)
ngeo=0
geometry() {
	local name=$1 svg=$2; shift 2
	ngeo=$((ngeo + 1))
	cp "$svg" "$T/geo.$ngeo.svg"
	local IFS=$'\t'
	echo "$name	$T/geo.$ngeo.svg${*:+	$*}" >>"$T/geo.checks"
}
run_geometry() { [ -s "$T/geo.checks" ] && python3 "$CHECKER" --batch "$T/geo.checks" "$SUITE"; }
trap 'run_geometry; rm -rf "$T"' EXIT

cat >"$T/small.folded" <<'IN'
main;parse;lex 300
main;parse;lex;next_char 200
main;parse;ast 150
main;eval;lookup 250
main;eval;hash 100
main;print 100
other;x&y<z> 50
IN

# --- basics on a small input ------------------------------------------------
fg "$T/small.folded" && pass "small input renders" || fail "small input renders" "$(cat "$T/err")"
wellformed "$T/out.svg" && pass "small: well-formed" || fail "small: well-formed" "$(head -3 "$T/xml.err")"
geometry "small: geometry and counts" "$T/out.svg" "$T/small.folded"
grep -q '<title>x&amp;y&lt;z&gt; (50 samples, 4.35%)</title>' "$T/out.svg" \
	&& pass "names escaped, count and percent in the tooltip" || fail "names escaped, count and percent in the tooltip"
grep -q 'width="100%" height=' "$T/out.svg" && ! grep -q 'viewBox' "$T/out.svg" \
	&& pass "fluid width by default" || fail "fluid width by default"
"$TRAIL" flamegraph <"$T/small.folded" >"$T/stdin.svg" 2>/dev/null
cmp -s "$T/stdin.svg" "$T/out.svg" && pass "stdin same as a file" || fail "stdin same as a file"
gzip -c "$T/small.folded" >"$T/small.gz"
"$TRAIL" flamegraph "$T/small.gz" >"$T/gz.svg" 2>/dev/null
cmp -s "$T/gz.svg" "$T/out.svg" && pass "gzip input" || fail "gzip input"
"$TRAIL" flamegraph "$T/small.folded" >"$T/again.svg" 2>/dev/null
cmp -s "$T/again.svg" "$T/out.svg" && pass "output is deterministic" || fail "output is deterministic"

# --- options ----------------------------------------------------------------
fg --inverted "$T/small.folded"; geometry "--inverted geometry" "$T/out.svg" "$T/small.folded" --inverted
grep -q '>Icicle Graph<' "$T/out.svg" && pass "--inverted title" || fail "--inverted title"
fg --reverse "$T/small.folded"; geometry "--reverse geometry" "$T/out.svg" "$T/small.folded" --reverse
fg --reverse --inverted "$T/small.folded"
geometry "--reverse --inverted geometry" "$T/out.svg" "$T/small.folded" --reverse --inverted
fg --minwidth 10% "$T/small.folded"
geometry "--minwidth N% drops narrow frames" "$T/out.svg" "$T/small.folded" --minwidth-pct 10
grep -q '<title>print ' "$T/out.svg" && fail "--minwidth 10% drops print (8.7%)" || pass "--minwidth 10% drops print (8.7%)"
fg --minwidth 200 --width 1220 "$T/small.folded"
grep -q '<title>print ' "$T/out.svg" && fail "--minwidth px" || pass "--minwidth px"
grep -q '<title>parse ' "$T/out.svg" && pass "--minwidth px keeps wide frames" || fail "--minwidth px keeps wide frames"
fg --total 2300 "$T/small.folded"
geometry "--total draws against a larger total" "$T/out.svg" "$T/small.folded" --total 2300
grep -q '<title>all (1,150 samples, 50%)' "$T/out.svg" && pass "--total percentages" || fail "--total percentages"
check_exit "--total below the real total is ignored" 0 "$TRAIL" flamegraph --total 10 "$T/small.folded"
grep -q 'is less than the actual total' "$T/.err" && pass "--total warning" || fail "--total warning"
fg --factor 0.5 "$T/small.folded"; geometry "--factor scales counts" "$T/out.svg" "$T/small.folded" --factor 0.5
grep -q '<title>all (575 samples' "$T/out.svg" && pass "--factor total" || fail "--factor total"
fg --width 800 --height 20 --fontsize 10 --fontwidth 0.6 --fonttype Courier "$T/small.folded"
grep -q '<svg version="1.1" width="800" height="[0-9.]*" viewBox="0 0 800 ' "$T/out.svg" \
	&& pass "--width fixes the size" || fail "--width fixes the size"
grep -q 'height="19"' "$T/out.svg" && pass "--height is the frame height" || fail "--height is the frame height"
grep -q 'font-family: "Courier", sans-serif; font-size: 10px' "$T/out.svg" \
	&& pass "--fonttype --fontsize" || fail "--fonttype --fontsize"
geometry "--height geometry" "$T/out.svg" "$T/small.folded"
fg --title 'My <Title>' --subtitle 'sub & title' --countname bytes --nametype 'Func:' \
	--notes 'a -- note' --search-color 'rgb(1,2,3)' "$T/small.folded"
wellformed "$T/out.svg" && pass "text options: well-formed" || fail "text options: well-formed" "$(head -3 "$T/xml.err")"
grep -q '>My &lt;Title&gt;</text>' "$T/out.svg" && grep -q '>sub &amp; title</text>' "$T/out.svg" \
	&& pass "--title --subtitle" || fail "--title --subtitle"
grep -q '<title>lookup (250 bytes, ' "$T/out.svg" && pass "--countname" || fail "--countname"
grep -q 'nametype: "Func:"' "$T/out.svg" && grep -q 'searchcolor: "rgb(1,2,3)"' "$T/out.svg" \
	&& pass "--nametype --search-color reach the script" || fail "--nametype --search-color reach the script"
grep -q '<!-- NOTES: a - - note -->' "$T/out.svg" && pass "--notes" || fail "--notes"
printf 'main;a_very_long_function_name_that_will_not_fit_anywhere_at_all 30\nmain;short 1\n' >"$T/long.folded"
# C names are identified by their start: kept, as flamegraph.pl keeps it
fg --width 300 "$T/long.folded"
grep -q '>a_very_long[a-z_]*\.\.</text>' "$T/out.svg" && pass "labels keep the start by default" ||
	fail "labels keep the start by default"
grep -q 'truncright: true' "$T/out.svg" && pass "the script keeps the start too" || fail "the script keeps the start too"
fg --width 300 --truncate-text-right "$T/long.folded"
grep -q '>a_very_long[a-z_]*\.\.</text>' "$T/out.svg" && pass "--truncate-text-right (the default)" || fail "--truncate-text-right"
fg --width 300 --truncate-text-left "$T/long.folded"
grep -q '>\.\.[a-z_]*at_all</text>' "$T/out.svg" && pass "--truncate-text-left keeps the end" || fail "--truncate-text-left keeps the end"
check_exit "--truncate-text-left with -right" 2 "$TRAIL" flamegraph --truncate-text-left --truncate-text-right "$T/long.folded"
fg --base parse "$T/small.folded"
geometry "--base geometry" "$T/out.svg" --no-counts
grep -q '<title>all (650 samples, 100%)' "$T/out.svg" && grep -q '<title>parse (650 samples, 100%)' "$T/out.svg" \
	&& ! grep -q '<title>main ' "$T/out.svg" && pass "--base re-roots at the function" || fail "--base re-roots at the function"
fg --flamechart "$T/small.folded"
grep -q '>Flame Chart<' "$T/out.svg" && pass "--flamechart title" || fail "--flamechart title"
printf 'a;b 1\na;c 1\na;b 1\n' >"$T/chart.folded"
fg --flamechart "$T/chart.folded"
[ "$(grep -c '<title>b ' "$T/out.svg")" -eq 2 ] && pass "--flamechart keeps time order (b, c, b)" \
	|| fail "--flamechart keeps time order (b, c, b)"
geometry "--flamechart geometry" "$T/out.svg" --no-counts
check_exit "--hash accepted" 0 "$TRAIL" flamegraph --hash "$T/small.folded"

# --- colours ----------------------------------------------------------------
group_begin
for p in hot mem io wakeup chain java js perl python rust red green blue aqua yellow purple orange; do
	"$TRAIL" flamegraph --colors "$p" "$T/small.folded" >"$T/p.svg" 2>/dev/null && wellformed "$T/p.svg" \
		|| fail "--colors $p"
done
group_end "--colors: every palette renders"
"$TRAIL" flamegraph --colors green "$T/small.folded" 2>/dev/null | grep -q 'stop-color="#e8e8e8"' \
	&& pass "flat palettes get the grey background" || fail "flat palettes get the grey background"
"$TRAIL" flamegraph --bgcolors '#123456' "$T/small.folded" 2>/dev/null | grep -q 'stop-color="#123456"' \
	&& pass "--bgcolors #rrggbb" || fail "--bgcolors #rrggbb"
check_exit "unknown palette is a usage error" 2 "$TRAIL" flamegraph --colors nope "$T/small.folded"
check_exit "unknown background is a usage error" 2 "$TRAIL" flamegraph --bgcolors nope "$T/small.folded"
check_exit "bad --minwidth is a usage error" 2 "$TRAIL" flamegraph --minwidth 1x "$T/small.folded"
# the same function has the same colour in different graphs
c1=$(grep -o '<title>lookup [^<]*</title><rect[^>]*fill="rgb([0-9,]*)"' <("$TRAIL" flamegraph "$T/small.folded" 2>/dev/null) | grep -o 'rgb([0-9,]*)')
printf 'x;y;lookup 7\nz 3\n' >"$T/other.folded"
c2=$(grep -o '<title>lookup [^<]*</title><rect[^>]*fill="rgb([0-9,]*)"' <("$TRAIL" flamegraph "$T/other.folded" 2>/dev/null) | grep -o 'rgb([0-9,]*)')
[ -n "$c1" ] && [ "$c1" = "$c2" ] && pass "colours are deterministic across graphs" || fail "colours are deterministic across graphs" "$c1 vs $c2"
# --cp: palette.map written, then honoured
(cd "$T" && "$TRAIL" flamegraph --cp small.folded >cp1.svg 2>/dev/null)
grep -q '^lookup->rgb(' "$T/palette.map" && pass "--cp writes palette.map" || fail "--cp writes palette.map"
sed -i 's/^lookup->.*/lookup->rgb(1,2,3)/' "$T/palette.map"
(cd "$T" && "$TRAIL" flamegraph --cp small.folded >cp2.svg 2>/dev/null)
grep -q '<title>lookup [^<]*</title><rect[^>]*fill="rgb(1,2,3)"' "$T/cp2.svg" \
	&& pass "--cp reuses palette.map" || fail "--cp reuses palette.map"
echo 'garbage' >"$T/palette.map"
(cd "$T" && "$TRAIL" flamegraph --cp small.folded >/dev/null 2>cp.err); rc=$?
[ $rc -ne 0 ] && grep -q 'palette.map:1:' "$T/cp.err" && pass "--cp bad map is an error with path:line" \
	|| fail "--cp bad map is an error with path:line"

# --- differential -------------------------------------------------------------
cat >"$T/diff.folded" <<'IN'
main;parse;lex 3000 4200
main;parse;ast 1500 1500
main;eval;lookup 2500 2923
main;eval;hash 1000 0
main;print 1000 1000
main;jit 0 900
IN
fg "$T/diff.folded"
wellformed "$T/out.svg" && pass "differential: well-formed" || fail "differential: well-formed"
geometry "differential: widths from the second column" "$T/out.svg" "$T/diff.folded"
grep -q '<title>lex (4,200 samples, 39.91%; before 3,000, 33.33%; delta +1,200, +6.58 pts; z=+' "$T/out.svg" \
	&& pass "differential tooltip: before, after, delta" || fail "differential tooltip: before, after, delta"
grep -q '<title>lex [^<]*</title><rect x[^>]*fill="rgb(255,' "$T/out.svg" && pass "hotter is red" || fail "hotter is red"
grep -q '<title>ast [^<]*</title><rect x[^>]*fill="rgb([0-9]*,[0-9]*,255)"' "$T/out.svg" \
	&& pass "cooler share is blue" || fail "cooler share is blue"
grep -q '<title>lookup [^<]*noise)</title><rect x[^>]*fill="rgb(235,235,235)"' "$T/out.svg" \
	&& pass "change within noise is neutral" || fail "change within noise is neutral"
grep -q '<title>jit [^<]*; new; z=+[^<]*</title><rect class="new" [^>]*fill="rgb(255,' "$T/out.svg" \
	&& pass "a significant new frame is tested and coloured hotter, with its class" \
	|| fail "a significant new frame is tested and coloured hotter, with its class"
grep -q '<g data-bx="[0-9.]*" data-bw="[0-9.]*"><title>hash [^<]*gone; z=-[^<]*</title><rect class="gone" x="[0-9.]*%" y="[0-9.]*" width="0%"' "$T/out.svg" \
	&& pass "gone frames kept with their before widths" || fail "gone frames kept with their before widths"
fg --negate "$T/diff.folded"
grep -q '<title>lex [^<]*</title><rect x[^>]*fill="rgb([0-9]*,[0-9]*,255)"' "$T/out.svg" \
	&& pass "--negate swaps hues" || fail "--negate swaps hues"
fg --noise-alpha 1 --min-delta 0 "$T/diff.folded"
grep -q '<title>lookup [^<]*noise)' "$T/out.svg" && fail "--noise-alpha 1 --min-delta 0 colours every change" \
	|| pass "--noise-alpha 1 --min-delta 0 colours every change"
fg --diff-self "$T/diff.folded"
grep -q '<title>parse [^<]*; self z=+0.00, noise)</title><rect x[^>]*fill="rgb(235,235,235)"' "$T/out.svg" \
	&& pass "--diff-self: a frame without self time is neutral" || fail "--diff-self: a frame without self time is neutral"
grep -q '<title>lex [^<]*; self z=+[^<]*</title><rect x[^>]*fill="rgb(255,' "$T/out.svg" \
	&& pass "--diff-self colours by self share" || fail "--diff-self colours by self share"

# the legend: what the colours mean, the test, the strongest changes
fg "$T/diff.folded"
python3 - "$T/out.svg" >"$T/legend" 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
g = root.find(".//s:g[@id='legend']", ns)
texts = [t.text or "" for t in g.findall("s:text", ns)]
print("labels:", " | ".join(texts))
print("title:", g.find("s:title", ns).text.replace("\n", " / "))
PY
grep -q 'labels: hotter | cooler | undecided | inclusive share, full colour +11.11 pts, floor 1 pts, FDR 1%; top: eval -11.11 pts, hash -11.11 pts (gone), jit +8.55 pts (new)' "$T/legend" \
	&& pass "legend: swatches, scale, floor, FDR and the top three changes" \
	|| fail "legend: swatches, scale, floor, FDR and the top three changes" "$(cat "$T/legend")"
grep -q 'title:.*Benjamini-Hochberg.* / 4\. lex +6.58 pts' "$T/legend" && pass "legend tooltip lists the top changes" \
	|| fail "legend tooltip lists the top changes" "$(cat "$T/legend")"

# a frame that appears with a handful of samples is noise, not "new"
cat >"$T/fewnew.folded" <<'IN'
main;work 10000 10000
main;tiny 0 2
IN
fg "$T/fewnew.folded"
grep -q '<title>tiny [^<]*new; z=[^<]*noise)</title><rect class="new" [^>]*fill="rgb(235,235,235)"' "$T/out.svg" \
	&& pass "a new frame with 2 samples is drawn as noise" || fail "a new frame with 2 samples is drawn as noise"

# by function (default) vs by frame: f moved between callers, its total did not change
cat >"$T/moved.folded" <<'IN'
main;x;f 1000 2000
main;y;f 2000 1000
main;z 7000 7000
IN
fg "$T/moved.folded"
[ "$(grep -c '<title>f [^<]*noise)</title><rect x[^>]*fill="rgb(235,235,235)"' "$T/out.svg")" = 2 ] \
	&& pass "by function: f's total did not change, both its frames are neutral" \
	|| fail "by function: f's total did not change, both its frames are neutral"
fg --diff-by-frame "$T/moved.folded"
grep -q '<title>f (2,000 [^<]*</title><rect x[^>]*fill="rgb(255,' "$T/out.svg" \
	&& grep -q '<title>f (1,000 [^<]*</title><rect x[^>]*fill="rgb([0-9]*,[0-9]*,255)"' "$T/out.svg" \
	&& pass "--diff-by-frame: each position by its own change" || fail "--diff-by-frame: each position by its own change"

# --hide-noise: subtrees without a significant change are not drawn
cat >"$T/quiet.folded" <<'IN'
main;a;b 10000 10000
main;c;d 100 101
main;e 500 800
IN
fg --hide-noise "$T/quiet.folded"
wellformed "$T/out.svg" && grep -q '<title>e ' "$T/out.svg" && grep -q '<title>main ' "$T/out.svg" \
	&& ! grep -q '<title>d ' "$T/out.svg" && ! grep -q '<title>c ' "$T/out.svg" \
	&& pass "--hide-noise drops quiet subtrees, keeps paths to changes" \
	|| fail "--hide-noise drops quiet subtrees, keeps paths to changes"
fg "$T/quiet.folded"
grep -q '<title>d ' "$T/out.svg" && pass "without --hide-noise quiet frames are drawn" \
	|| fail "without --hide-noise quiet frames are drawn"

# --- bad input ------------------------------------------------------------------
: >"$T/empty"
check_exit "empty input exits 2" 2 "$TRAIL" flamegraph "$T/empty"
grep -q 'ERROR: No valid input provided' "$T/.out" && pass "empty input: error SVG" || fail "empty input: error SVG"
cp "$T/.out" "$T/err.svg"; wellformed "$T/err.svg" && pass "error SVG is well-formed" || fail "error SVG is well-formed"
printf 'no counts here\nnor here\n' >"$T/junk"
check_exit "only malformed lines exits 2" 2 "$TRAIL" flamegraph "$T/junk"
grep -q "junk:1: ignoring line without a sample count" "$T/.err" && grep -q "ignored 2 lines with invalid format" "$T/.err" \
	&& pass "malformed lines reported with path:line and counted" || fail "malformed lines reported with path:line and counted"
check_exit "missing file fails" 1 "$TRAIL" flamegraph "$T/does-not-exist"
check_exit "bad option is a usage error" 2 "$TRAIL" flamegraph --frobnicate
printf 'main\tclass=x\nbroken line without tab\n' >"$T/attr"
check_exit "--nameattr without a tab is an error" 2 "$TRAIL" flamegraph --nameattr "$T/attr" "$T/small.folded"
grep -q "attr:2:" "$T/.err" && pass "--nameattr error has path:line" || fail "--nameattr error has path:line"
printf 'a;\001b\377c 5\n' >"$T/binary.folded"
fg "$T/binary.folded"; wellformed "$T/out.svg" && pass "control bytes and bad UTF-8 stay well-formed" \
	|| fail "control bytes and bad UTF-8 stay well-formed" "$(head -3 "$T/xml.err")"
check_exit "--help" 0 "$TRAIL" flamegraph --help
grep -q 'trail flamegraph \[options\] \[FILE...\]' "$T/.out" && pass "--help synopsis" || fail "--help synopsis"

# --- the shared corpus (inferno's renderer inputs) --------------------------------
if [ ! -d "$CORPUS" ]; then
	skip "corpus" "$CORPUS absent"
	exit 0
fi
for f in "$CORPUS"/*/*.txt; do
	case $f in */nameattr/*) continue ;; esac
	name=${f#"$CORPUS"/}
	"$TRAIL" flamegraph "$f" >"$T/c.svg" 2>"$T/c.err"; rc=$?
	case $name in
	empty/*)
		[ $rc -eq 2 ] && grep -q 'ERROR: No valid input' "$T/c.svg" && pass "corpus $name: error SVG, exit 2" \
			|| fail "corpus $name: error SVG, exit 2" "exit $rc"
		continue ;;
	esac
	[ $rc -eq 0 ] || { fail "corpus $name renders" "exit $rc: $(head -2 "$T/c.err")"; continue; }
	wellformed "$T/c.svg" || { fail "corpus $name: well-formed" "$(head -3 "$T/xml.err")"; continue; }
	geometry "corpus $name: well-formed, geometry, counts" "$T/c.svg" "$f"
done
"$TRAIL" flamegraph "$CORPUS"/bad-lines/bad-lines.txt >/dev/null 2>"$T/c.err"
grep -q 'bad-lines.txt:3: ignoring line' "$T/c.err" && pass "corpus bad-lines: reported with path:line" \
	|| fail "corpus bad-lines: reported with path:line"
# two inputs are one profile: same frames as the concatenation
m1="$CORPUS"/multiple-inputs/perf-vertx-stacks-01-collapsed-all-unsorted-1.txt
m2="$CORPUS"/multiple-inputs/perf-vertx-stacks-01-collapsed-all-unsorted-2.txt
"$TRAIL" flamegraph "$m1" "$m2" >"$T/m.svg" 2>/dev/null
cat "$m1" "$m2" | "$TRAIL" flamegraph >"$T/mc.svg" 2>/dev/null
cmp -s "$T/m.svg" "$T/mc.svg" && pass "corpus: several inputs merge" || fail "corpus: several inputs merge"
geometry "corpus: several inputs geometry" "$T/m.svg" "$m1" "$m2"
for opts in "--inverted" "--reverse" "--reverse --inverted" "--flamechart" "--colors java" "--minwidth 1%"; do
	# shellcheck disable=SC2086
	"$TRAIL" flamegraph $opts "$CORPUS"/base/flames.txt >"$T/o.svg" 2>/dev/null || { fail "corpus base $opts"; continue; }
	flags=
	case $opts in *inverted*) flags="$flags --inverted" ;; esac
	case $opts in *reverse*) flags="$flags --reverse" ;; esac
	case $opts in *flamechart*) flags="$flags --no-counts" ;; esac
	case $opts in *minwidth*) flags="$flags --minwidth-pct 1" ;; esac
	# shellcheck disable=SC2086
	geometry "corpus base $opts" "$T/o.svg" "$CORPUS"/base/flames.txt $flags
done
for a in "$CORPUS"/nameattr/*.txt; do
	"$TRAIL" flamegraph --nameattr "$a" "$CORPUS"/base/flames.txt >"$T/n.svg" 2>"$T/n.err"; rc=$?
	name=${a#"$CORPUS"/}
	[ $rc -eq 0 ] && wellformed "$T/n.svg" && pass "corpus $name" || fail "corpus $name" "exit $rc"
done
printf 'GraphQL\tclass=gq\ttitle=the root\thref=https://example.com/?a=1&b=2\tg_extra=data-x="1"\n' >"$T/attrs"
"$TRAIL" flamegraph --nameattr "$T/attrs" "$CORPUS"/base/flames.txt >"$T/n.svg" 2>/dev/null
grep -q '<a xlink:href="https://example.com/?a=1&amp;b=2" target="_top" class="gq" data-x="1" data-name="GraphQL"><title>the root</title>' "$T/n.svg" \
	&& pass "--nameattr: link, class, extra attributes, title" || fail "--nameattr: link, class, extra attributes, title"
wellformed "$T/n.svg" && pass "--nameattr output well-formed" || fail "--nameattr output well-formed"
grep -q "ignoring unknown attribute 'invalid'" <("$TRAIL" flamegraph --nameattr "$CORPUS"/nameattr/nameattr_invalid_attribute.txt "$CORPUS"/base/flames.txt 2>&1 >/dev/null) \
	&& pass "--nameattr unknown attribute warned" || fail "--nameattr unknown attribute warned"

# --- flamegraph.pl agreement: the same frames with the same counts ------------
# chain graphs: frames after a "--" frame are wakers: aqua, named without _[w]
printf 'main;read;--;wake_up;worker 5\nmain;compute 3\n' |
	"$TRAIL" flamegraph --colors chain >"$T/chain.svg" 2>/dev/null
if python3 - "$T/chain.svg" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
fill = {}
for g in re.finditer(r'<g[^>]*>(.*?)</g>', s, re.S):
    t = re.search(r'<title>([^<(]*) \(', g.group(1))
    c = re.search(r'fill="rgb\((\d+),(\d+),(\d+)\)"', g.group(1))
    if t and c:
        fill[t.group(1)] = tuple(map(int, c.groups()))
aqua = lambda c: c[1] == c[2] and c[1] > c[0]
blue = lambda c: c[0] == c[1] and c[2] > c[0]
ok = (aqua(fill['wake_up']) and aqua(fill['worker']) and blue(fill['read'])
      and blue(fill['compute']) and '--' in fill and not any('_[w]' in k for k in fill))
sys.exit(0 if ok else 1)
PY
then
	pass "--colors chain: waker frames (after --) are aqua, off-CPU frames blue"
else
	fail "--colors chain: waker frames (after --) are aqua, off-CPU frames blue"
fi

PL=${FLAMEGRAPH_PL:-}
[ -z "$PL" ] && have flamegraph.pl && PL=$(command -v flamegraph.pl)
[ -z "$PL" ] && [ -x "$ROOT/../../ref/FlameGraph/flamegraph.pl" ] && PL=$ROOT/../../ref/FlameGraph/flamegraph.pl
if [ -z "$PL" ] || ! have perl; then
	skip "flamegraph.pl agreement" "flamegraph.pl not found (set FLAMEGRAPH_PL)"
	exit 0
fi
frames_of() { grep -o '<title>[^<]*</title>' "$1" | sed -e 's/<title>//' -e 's/, [0-9.]*%)<\/title>$//' -e 's/<\/title>$//' | sort; }
# (integer counts only: flamegraph.pl rounds fractional counts in its tooltips)
for f in base/flames.txt unsorted-input/perf-vertx-stacks-01-collapsed-all-unsorted.txt; do
	for opts in "" "--reverse --minwidth 2"; do
		# shellcheck disable=SC2086
		perl "$PL" $opts "$CORPUS/$f" >"$T/ref.svg" 2>/dev/null
		# shellcheck disable=SC2086
		"$TRAIL" flamegraph --width 1200 $opts "$CORPUS/$f" >"$T/ours.svg" 2>/dev/null
		if diff <(frames_of "$T/ref.svg") <(frames_of "$T/ours.svg") >"$T/d" 2>&1; then
			pass "same frames and counts as flamegraph.pl: $f $opts"
		else
			fail "same frames and counts as flamegraph.pl: $f $opts" "$(head -4 "$T/d")"
		fi
	done
done

# a malformed line is quoted in the warning with its control characters visible
printf 'main;a 3\n\033[2K\rfake warning\n' >"$T/esc.folded"
check "malformed line with an escape sequence" "$TRAIL" flamegraph "$T/esc.folded"
if grep -q $'\033' "$T/.err"; then fail "warning quotes no raw escape"; else pass "warning quotes no raw escape"; fi
grep -qF "'\\x1b[2K\\rfake warning'" "$T/.err" && pass "warning shows the escape" || fail "warning shows the escape" "$(cat "$T/.err")"
