#!/usr/bin/env bash
# tests/cli/74-flame-culprits-alloc.sh - three culprits on bytes allocated
# (--metric alloc), on a 9-commit history generated here: one commit makes
# parse() allocate three times the blocks, a later one other() a tenth
# more, a later one render() four times.  trail flame must name the three
# commits, each with its function and its step in bytes allocated per run
# (report.json's effect, within a fifth of the blocks' bytes), in
# report.json's culprits, report.md, report.html and the terminal, and no
# fourth commit; the steps add up with the rest to the ends' change in
# bytes allocated per run (report.json's effects, the terminal's "effect:"
# and "unexplained:" lines, report.md's sum), never in ms.  The cheap, exact twin of 74-flame-culprits (CPU time, libc's
# memcmp under a caller): this one also runs under the sanitizers, so
# culprits.c's segmentation over real probes does; the culprits' tables
# are unit-tested (test_flame_time).  Megabytes of allocations: nothing
# depends on timing or load: one sampled allocation per 512 bytes, so
# every 4 KiB block is sampled and counted as its bytes.  other()'s rise
# puts it among the "other changed functions", and parse() was then
# measured as its share outside them - all that was left, 100 % at both
# ends, never searched (seen in ~4 % of runs at 8 KiB, when sampling noise
# alone moved an unchanged other() so); every function is now measured in
# samples per run, bytes, which another function's change does not move.
. "$(dirname "$0")/lib.sh"

have cc && have git && have python3 || { skip "flame culprits alloc" "needs cc, git and python3"; exit 0; }
[ -f "$(dirname "$TRAIL")/libtrail-alloc.so" ] || { fail "flame culprits alloc: interposer built"; exit 0; }
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

R=$T/repo
git init -q "$R" || { fail "git init"; exit 0; }
# app.c: $1 blocks of 4 KiB parse() allocates, $2 render()'s, $3 a version (unrelated
# edits), $4 other()'s (2000 unless given)
write_app() {
	cat >"$R/app.c" <<EOF
#include <stdlib.h>
#include <string.h>
/* version $3 */
static void *keep[20000];
static size_t nkeep;
/* each function calls malloc itself: the allocation sites are the three */
#define TAKE(n, c) \
	for (i = 0; i < (n); i++) { \
		keep[nkeep] = malloc(4096); \
		memset(keep[nkeep++], (c), 64); \
	}
__attribute__((noinline)) static void parse(void) { int i; TAKE($1, 1) }
__attribute__((noinline)) static void render(void) { int i; TAKE($2, 2) }
__attribute__((noinline)) static void other(void) { int i; TAKE(${4:-2000}, 3) }
int main(void)
{
	size_t i;

	parse();
	render();
	other();
	for (i = 0; i < nkeep; i++)
		free(keep[i]);
	return 0;
}
EOF
}
commit() { git -C "$R" add app.c && git -C "$R" -c user.name=t -c user.email=t@t commit -q -m "$1" &&
	git -C "$R" rev-parse HEAD; }
write_app 1000 1000 0; GOOD=$(commit "start")
write_app 1000 1000 1; commit "v1" >/dev/null
write_app 1000 1000 2; commit "v2" >/dev/null
write_app 3000 1000 2; PARSE=$(commit "parse: a block per field")
write_app 3000 1000 3; commit "v3" >/dev/null
write_app 3000 1000 3 2200; OTHER=$(commit "other: a block per tenth line")
write_app 3000 1000 4 2200; commit "v4" >/dev/null
write_app 3000 4000 4 2200; RENDER=$(commit "render: a block per glyph")
write_app 3000 4000 5 2200; BAD=$(commit "v5")

(cd "$R" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --metric alloc --alloc-interval 512 \
	--build 'cc -O1 -g -fno-omit-frame-pointer -fno-inline -o app app.c' --run ./app \
	--repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache" --out "$T/report") >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 0 ] && pass "exit 0: regression" || { fail "exit 0: regression" "exit $rc: $(tail -15 "$T/err")"; exit 0; }
J=$T/report/report.json
named() { json "$J" '[(c["commit"][:12], c["function"]) for c in d["culprits"]]'; }
json "$J" '("'"$PARSE"'", "parse") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names parse's commit" || fail "names parse's commit" "$(named)"
json "$J" '("'"$OTHER"'", "other") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names other's commit" || fail "names other's commit" "$(named)"
json "$J" '("'"$RENDER"'", "render") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names render's commit" || fail "names render's commit" "$(named)"
json "$J" 'len(d["culprits"]) == 3 and d["culprits"][0]["commit"] == d["suspect"]["commit"]' |
	grep -q True && pass "three culprits, the suspect first" || fail "three culprits, the suspect first" "$(named)"
json "$J" 'all(c["step_interval"][0] > 0 and c["explains"] > 0 for c in d["culprits"])' |
	grep -q True && pass "each step real, explaining a part" ||
	fail "each step real, explaining a part" "$(json "$J" 'd["culprits"]')"
# the blocks each commit added, 4096 bytes each: parse +2000, other +200, render +3000
json "$J" 'all(c["effect"] and c["effect"]["unit"] == "bytes allocated per run" and
	abs(c["effect"]["value"] / ({"parse": 2000, "other": 200, "render": 3000}[c["function"]] * 4096) - 1) < 0.2
	and c["effect"]["interval"][0] <= c["effect"]["value"] <= c["effect"]["interval"][1] for c in d["culprits"])' |
	grep -q True && pass "each step in bytes allocated per run, the blocks' bytes within a fifth" ||
	fail "each step in bytes allocated per run, the blocks' bytes within a fifth" \
		"$(json "$J" '[(c["function"], c["effect"]) for c in d["culprits"]]')"
others=$(json "$J" '" ".join(c["commit"][:12] for c in d["culprits"][1:])')
group_begin
for o in $others; do
	grep -q "^also culprit:   $o .*(\(parse\|other\|render\), explains" "$T/out" ||
		fail "terminal: also culprit $o" "$(cat "$T/out")"
done
for o in $(json "$J" '" ".join(c["commit"][:12] for c in d["culprits"])'); do
	grep -q "^effect:         $o +[0-9]* bytes \[+[0-9]*, +[0-9]*\], [0-9.]*% of the +[0-9]* bytes between the ends$" "$T/out" ||
		fail "terminal: effect of $o in bytes" "$(cat "$T/out")"
done
grep -q "^unexplained:    [-+][0-9]* bytes per run" "$T/out" || grep -q "^rest:           [-+][0-9]* bytes per run" "$T/out" ||
	fail "terminal: the rest in bytes" "$(cat "$T/out")"
! grep -q "^effect:.* ms\|^unexplained:.* ms" "$T/out" || fail "terminal: no effect in ms for bytes" "$(cat "$T/out")"
group_end "terminal: an also-culprit line for each, their steps and the rest in bytes"
# the ends moved by the blocks the three commits added, 5200 x 4096 bytes a run
json "$J" '(d["effects"]["unit"] == "bytes allocated per run" and
	abs(d["effects"]["ends_change"] / (5200 * 4096) - 1) < 0.2 and
	abs(d["effects"]["culprits"] + d["effects"]["unexplained"] - d["effects"]["ends_change"]) < 1)' |
	grep -q True && pass "report.json effects: the ends' change in bytes, the blocks' within a fifth" ||
	fail "report.json effects: the ends' change in bytes" "$(json "$J" 'd["effects"]')"
grep -Eq "^The steps (add up|exceed the change between the ends): .*[0-9] bytes per run .*[0-9] bytes" "$T/report/report.md" &&
	pass "report.md sums the steps in bytes" || fail "report.md sums the steps in bytes" "$(grep -A12 "## Culprits" "$T/report/report.md")"
grep -q "^## Culprits (3 commits" "$T/report/report.md" &&
	grep -q "^| \`\`${PARSE:0:12}\`\` | parse: a block per field | \`\`parse\`\` | +[0-9]* bytes " "$T/report/report.md" &&
	grep -q "^| \`\`${OTHER:0:12}\`\` | other: a block per tenth line | \`\`other\`\` | +[0-9]* bytes " "$T/report/report.md" &&
	grep -q "^| \`\`${RENDER:0:12}\`\` | render: a block per glyph | \`\`render\`\` | +[0-9]* bytes " "$T/report/report.md" &&
	pass "report.md lists the three, in bytes" || fail "report.md lists the three, in bytes" "$(grep -A6 "## Culprits" "$T/report/report.md")"
group_begin
grep -q 'id="culprits"' "$T/report/report.html" || fail "report.html: a culprits section"
for o in $others; do
	grep -q "<code>$o</code>" "$T/report/report.html" || fail "report.html: $o"
done
group_end "report.html lists them"
