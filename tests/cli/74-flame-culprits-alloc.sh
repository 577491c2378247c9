#!/usr/bin/env bash
# tests/cli/74-flame-culprits-alloc.sh - two culprits on bytes allocated
# (--metric alloc), on an 8-commit history generated here: one commit
# makes parse() allocate three times the blocks, a later one render() four
# times, beside other() that never changes.  trail flame must name both commits,
# each with its function, in report.json's culprits, report.md,
# report.html and the terminal, and no third commit; the steps are bytes,
# not CPU time, so no "effect:" lines in ms.  The cheap, exact twin of
# 74-flame-culprits (CPU time, libc's memcmp under a caller): this one
# also runs under the sanitizers, so culprits.c's segmentation over real
# probes does; the culprits' tables are unit-tested (test_flame_time).
# Megabytes of allocations: nothing depends on timing or load.  One
# sampled allocation per 512 bytes (not 64 KiB): other()'s samples per run
# must not move by the 1-point --min-delta from sampling alone, or it
# joins the "other changed functions" and parse()'s share outside them is
# all of what is left (seen in ~4% of runs at 8192 bytes).
. "$(dirname "$0")/lib.sh"

have cc && have git && have python3 || { skip "flame culprits alloc" "needs cc, git and python3"; exit 0; }
[ -f "$(dirname "$TRAIL")/libtrail-alloc.so" ] || { fail "flame culprits alloc: interposer built"; exit 0; }
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

R=$T/repo
git init -q "$R" || { fail "git init"; exit 0; }
# app.c: $1 blocks of 4 KiB parse() allocates, $2 render()'s, $3 a version (unrelated edits)
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
__attribute__((noinline)) static void other(void) { int i; TAKE(2000, 3) }
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
write_app 3000 1000 4; commit "v4" >/dev/null
write_app 3000 4000 4; RENDER=$(commit "render: a block per glyph")
write_app 3000 4000 5; BAD=$(commit "v5")

(cd "$R" && "$TRAIL" flame --good "$GOOD" --bad "$BAD" --metric alloc --alloc-interval 512 \
	--build 'cc -O1 -g -fno-omit-frame-pointer -fno-inline -o app app.c' --run ./app \
	--repeat 4 --warmup-runs 0 --probe-runs 2 --cache "$T/cache" --out "$T/report") >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 0 ] && pass "exit 0: regression" || { fail "exit 0: regression" "exit $rc: $(tail -15 "$T/err")"; exit 0; }
J=$T/report/report.json
named() { json "$J" '[(c["commit"][:12], c["function"]) for c in d["culprits"]]'; }
json "$J" '("'"$PARSE"'", "parse") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names parse's commit" || fail "names parse's commit" "$(named)"
json "$J" '("'"$RENDER"'", "render") in [(c["commit"], c["function"]) for c in d["culprits"]]' |
	grep -q True && pass "names render's commit" || fail "names render's commit" "$(named)"
json "$J" 'len(d["culprits"]) == 2 and d["culprits"][0]["commit"] == d["suspect"]["commit"]' |
	grep -q True && pass "two culprits, the suspect first" || fail "two culprits, the suspect first" "$(named)"
json "$J" 'all(c["step_interval"][0] > 0 and c["explains"] > 0 for c in d["culprits"])' |
	grep -q True && pass "each step real, explaining a part" ||
	fail "each step real, explaining a part" "$(json "$J" 'd["culprits"]')"
other=$PARSE
[ "$(json "$J" 'd["suspect"]["commit"]')" = "$PARSE" ] && other=$RENDER
grep -q "^also culprit:   ${other:0:12} " "$T/out" && pass "terminal: also culprit line" ||
	fail "terminal: also culprit line" "$(cat "$T/out")"
! grep -q "^effect:" "$T/out" && pass "terminal: no effect in ms for bytes" ||
	fail "terminal: no effect in ms for bytes" "$(cat "$T/out")"
grep -q "^## Culprits (2 commits" "$T/report/report.md" &&
	grep -q "^| \`\`${PARSE:0:12}\`\` | parse: a block per field | \`\`parse\`\` | " "$T/report/report.md" &&
	grep -q "^| \`\`${RENDER:0:12}\`\` | render: a block per glyph | \`\`render\`\` | " "$T/report/report.md" &&
	pass "report.md lists both" || fail "report.md lists both" "$(grep -A5 "## Culprits" "$T/report/report.md")"
grep -q 'id="culprits"' "$T/report/report.html" && grep -q "<code>${other:0:12}</code>" "$T/report/report.html" &&
	pass "report.html lists both" || fail "report.html lists both"
