#!/usr/bin/env bash
# tests/cli/72-flame-submodules.sh - trail flame builds a repository whose
# sources include a submodule (a real one, file:// URL, protocol.file
# allowed): the private clone's worktrees get it, from the user's module
# directory or, when the user never initialised it, from .gitmodules' URL;
# --no-submodules leaves it out (so that build fails); and the user's
# repository stays byte-identical (config, modules, status).
. "$(dirname "$0")/lib.sh"

if ! have make || ! have cc || ! have git; then
	skip "flame submodules" "needs cc and git"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "flame submodules" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
G=(git -c init.defaultBranch=main -c protocol.file.allow=always)
"${G[@]}" init -q "$T/sub"
printf 'int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i %% 7; return s; }\n' >"$T/sub/work.c"
"${G[@]}" -C "$T/sub" add work.c && "${G[@]}" -C "$T/sub" commit -qm sub
"${G[@]}" init -q "$T/repo"
printf 'int work(int n);\nint main(void) { return work(3000000) == 42; }\n' >"$T/repo/main.c"
(cd "$T/repo" && "${G[@]}" submodule add -q ../sub sub && "${G[@]}" add -A && "${G[@]}" commit -qm one &&
	echo '/* two */' >>main.c && "${G[@]}" commit -qam two) || { fail "make the repository"; exit 0; }
[ -d "$T/repo/.git/modules/sub" ] && pass "the user's repository has the submodule" ||
	fail "the user's repository has the submodule"

BUILD='cc -O1 -o prog main.c sub/work.c'
flame() {	# DIR CACHE [options]: a short trail flame run; exit code in $rc
	local dir=$1 cache=$2
	shift 2
	(cd "$dir" && "$TRAIL" flame --profiler trail --good HEAD~1 --bad HEAD --build "$BUILD" \
		--run ./prog --repeat 2 --max-repeat 2 --budget 0 --warmup-runs 0 --cache "$cache" \
		--out "$T/report" "$@") >"$T/flame.out" 2>"$T/flame.err"
	rc=$?
}
snapshot() {	# what must not change in the user's repository
	(cd "$1" && git status --porcelain=v1 --ignored && cat .git/config &&
		find .git -path .git/logs -prune -o -type f -print0 | sort -z | xargs -0 sha1sum)
}
snapshot "$T/repo" >"$T/before"

flame "$T/repo" "$T/cache1"
if grep -q "cannot build" "$T/flame.err"; then
	fail "the builds have the submodule" "$(grep -m1 'cannot build' "$T/flame.err")"
else pass "the builds have the submodule"; fi
[ "$rc" -eq 0 ] || [ "$rc" -eq 6 ] || [ "$rc" -eq 4 ] && pass "flame ends with a verdict (exit $rc)" ||
	fail "flame ends with a verdict" "exit $rc: $(tail -3 "$T/flame.err")"
ls "$T"/cache1/*/builds/*/src/sub/work.c >/dev/null 2>&1 && pass "the worktree holds sub/work.c" ||
	fail "the worktree holds sub/work.c"
snapshot "$T/repo" >"$T/after"
cmp -s "$T/before" "$T/after" && pass "the user's repository is unchanged" ||
	fail "the user's repository is unchanged" "$(diff "$T/before" "$T/after" | head -5)"

flame "$T/repo" "$T/cache2" --no-submodules
[ "$rc" -eq 1 ] && grep -q "cannot build the good revision" "$T/flame.err" &&
	pass "--no-submodules leaves the submodule out" ||
	fail "--no-submodules leaves the submodule out" "exit $rc: $(tail -2 "$T/flame.err")"
ls "$T"/cache2/*/builds/*/src/sub/work.c >/dev/null 2>&1 && fail "--no-submodules: no sub/work.c" ||
	pass "--no-submodules: no sub/work.c"

# a clone that never initialised the submodule: .gitmodules' relative URL,
# resolved against the user's repository as git resolves it
git clone -q "$T/repo" "$T/plain"
[ ! -e "$T/plain/sub/work.c" ] && pass "the second clone has no submodule checked out" ||
	fail "the second clone has no submodule checked out"
snapshot "$T/plain" >"$T/before"
flame "$T/plain" "$T/cache3"
grep -q "cannot build" "$T/flame.err" && fail "the URL of .gitmodules is followed" "$(tail -2 "$T/flame.err")" ||
	pass "the URL of .gitmodules is followed"
snapshot "$T/plain" >"$T/after"
cmp -s "$T/before" "$T/after" && pass "that repository is unchanged too" ||
	fail "that repository is unchanged too" "$(diff "$T/before" "$T/after" | head -5)"
