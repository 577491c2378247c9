#!/usr/bin/env bash
# tests/cli/76-history-ci.sh - the CI recipes of docs/history.md, run as
# written, from a project's first pull request on: a bare "origin", a
# project whose Makefile builds bench/workload, and CI checkouts that
# are fresh clones.  The GitHub Actions steps' run: lines are read from
# the docs (not copied here), so the test fails when the recipe does:
#   pull request 1: no notes anywhere yet; the fetch step fails (|| true)
#     and guard measures the base (the merge commit's first parent)
#     itself: exit 0, not "no results stored".
#   push to main: record and share: the notes reach origin.
#   pull request 2 (a fresh clone): the fetched notes are the base;
#     nothing but the pull request is measured.
#   GitLab's script (the merge request branch of its if) does the same.
# No timing is asserted (the workload does not change).
. "$(dirname "$0")/lib.sh"

if ! have git || ! have make || ! have cc || ! have python3; then
	skip "history ci" "needs git, make, cc and python3"; exit 0
fi
if ! "$TRAIL" record -o "$T/check.data" -- true >/dev/null 2>"$T/check.err"; then
	skip "history ci" "trail record cannot sample here: $(head -1 "$T/check.err")"; exit 0
fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
export XDG_STATE_HOME=$T/state
# trail as the recipe calls it: on PATH
mkdir -p "$T/bin" && ln -s "$TRAIL" "$T/bin/trail" && export PATH=$T/bin:$PATH

# step NAME: the run: script of the GitHub Actions step NAME in the first
# code block of CI RECIPES; gitlab: the script of the GitLab job
recipe() {
	python3 - "$ROOT/docs/history.md" "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sec = text[text.index("## CI RECIPES"):]
blocks = re.findall(r"```\n(.*?)```", sec, re.S)
want = sys.argv[2]
if want == "gitlab":
    lines = blocks[1].splitlines()
    i = next(k for k, l in enumerate(lines) if l.strip() == "- |")
    ind = len(lines[i + 1]) - len(lines[i + 1].lstrip())
    out = []
    for l in lines[i + 1:]:
        if l.strip() and len(l) - len(l.lstrip()) < ind:
            break
        out.append(l[ind:])
    fetch = [l.strip()[2:] for l in lines if "git fetch origin" in l]
    print("\n".join(fetch + out))
    sys.exit(0)
lines = blocks[0].splitlines()
i = next(k for k, l in enumerate(lines) if l.strip() == "- name: " + want)
for j in range(i + 1, len(lines)):
    l = lines[j]
    s = l.strip()
    if s.startswith("- "):
        sys.exit("no run: in step " + want)
    if s.startswith("run: |"):
        ind = None
        out = []
        for m in lines[j + 1:]:
            n = len(m) - len(m.lstrip())
            if ind is None:
                ind = n
            if not m.strip() or n < ind:
                break
            out.append(m[ind:])
        print("\n".join(out))
        break
    if s.startswith("run: "):
        print(s[5:])
        break
PY
}
for s in "fetch the stored results" guard "record and share" gitlab; do
	recipe "$s" >"$T/step-${s// /-}.sh" 2>"$T/recipe.err" || { fail "docs: the recipe has step '$s'" "$(cat "$T/recipe.err")"; exit 0; }
done
grep -q "trail history guard" "$T/step-guard.sh" && grep -q "trail history record" "$T/step-record-and-share.sh" &&
	pass "docs: the GitHub Actions recipe's guard and record steps" ||
	fail "docs: the GitHub Actions recipe's guard and record steps" "$(cat "$T"/step-*.sh)"

# The project: make builds work, which spins for a while; bench/workload runs it
git init -q --bare -b main "$T/origin.git"
P=$T/project
git clone -q "$T/origin.git" "$P" 2>/dev/null
mkdir -p "$P/bench"
cat >"$P/work.c" <<'EOF'
int main(void) { volatile unsigned long x = 0; for (unsigned long i = 0; i < 30000000UL; i++) x += i ^ (x >> 3); return (int)(x & 1) - (int)(x & 1); }
EOF
printf 'work: work.c\n\tcc -O1 -o work work.c\n' >"$P/Makefile"
printf '#!/bin/sh\nexec ./work\n' >"$P/bench/workload" && chmod +x "$P/bench/workload"
printf 'work\n' >"$P/.gitignore"
git -C "$P" add -A && git -C "$P" commit -q -m "the project" && git -C "$P" push -q origin main

# ci NAME BRANCH: a fresh checkout of the pull request's merge commit
# (what actions/checkout checks out for pull_request: its first parent is main)
ci() {
	local c=$T/$1
	git clone -q "$T/origin.git" "$c" 2>/dev/null
	git -C "$c" fetch -q origin "$2"
	git -C "$c" merge -q --no-ff -m "Merge $2 into main" FETCH_HEAD
	echo "$c"
}
# guard_rc NAME RC: 0 passes; 3 (a regression) is a skip: the two sides
# were measured apart, and a busy machine can move one of them
guard_rc() {
	case $2 in
	0) pass "$1" ;;
	3) skip "$1" "measured apart on a busy machine: $(head -1 "$T/.out")" ;;
	*) fail "$1" "exit $2: $(cat "$T/.out" "$T/.err")" ;;
	esac
}
run_step() {  # run_step DIR STEP: runs the recipe's step as a job's shell does
	(cd "$1" && bash -e "$T/step-$2.sh") >"$T/.out" 2>"$T/.err"
}

# pull request 1: nothing stored anywhere yet
git -C "$P" checkout -q -b pr1 && echo "/* docs */" >>"$P/work.c" &&
	git -C "$P" commit -qam "pr 1" && git -C "$P" push -q origin pr1
C=$(ci ci1 pr1)
run_step "$C" fetch-the-stored-results && pass "first pull request: fetch step passes without notes (|| true)" ||
	fail "first pull request: fetch step passes without notes (|| true)" "$(cat "$T/.err")"
run_step "$C" guard; rc=$?
guard_rc "first pull request: guard exits 0" $rc
grep -q "measuring its parent $(git -C "$C" rev-parse HEAD^ | cut -c1-12) first" "$T/.err" &&
	git -C "$C" notes --ref=trail show HEAD^ >/dev/null 2>&1 &&
	pass "first pull request: guard measured and stored the base (the merge's first parent)" ||
	fail "first pull request: guard measured and stored the base (the merge's first parent)" "$(cat "$T/.err")"
grep -Eq "^guard: [0-9a-f]{12} cpu [0-9.]+ m?s vs [0-9.]+ m?s \(1 stored commit\(s\) before it\)" "$T/.out" &&
	pass "first pull request: compared with the base (times in ms or s)" ||
	fail "first pull request: compared with the base (times in ms or s)" "$(cat "$T/.out")"
# without --build and --run there is nothing to measure the base with: say what to run
(cd "$C" && git notes --ref=trail remove HEAD^ HEAD 2>/dev/null; trail history guard) >"$T/.out" 2>"$T/.err"; rc=$?
[ $rc = 1 ] && grep -q "record --rev $(git -C "$C" rev-parse HEAD^ | cut -c1-12) --build CMD --run CMD" "$T/.err" &&
	! grep -q "no results stored" "$T/.err" &&
	pass "guard without a base or --build: exit 1 naming the command to run" ||
	fail "guard without a base or --build: exit 1 naming the command to run" "exit $rc: $(cat "$T/.err")"

# push to main: record and share
git -C "$P" checkout -q main && git -C "$P" merge -q pr1 && git -C "$P" push -q origin main
run_step "$P" fetch-the-stored-results
run_step "$P" record-and-share && git --git-dir="$T/origin.git" notes --ref=trail show main >/dev/null 2>&1 &&
	pass "push to main: record and share puts the note on origin" ||
	fail "push to main: record and share puts the note on origin" "$(cat "$T/.out" "$T/.err")"

# pull request 2, a fresh clone: the base comes from origin's notes
git -C "$P" checkout -q -b pr2 && echo "/* more docs */" >>"$P/work.c" &&
	git -C "$P" commit -qam "pr 2" && git -C "$P" push -q origin pr2
C=$(ci ci2 pr2)
run_step "$C" fetch-the-stored-results
run_step "$C" guard; rc=$?
guard_rc "second pull request: guard exits 0" $rc
! grep -q "measuring its parent" "$T/.err" && grep -q "measuring $(git -C "$C" rev-parse HEAD | cut -c1-12) first" "$T/.err" &&
	grep -q "^guard: .* vs .*(1 stored commit(s) before it)" "$T/.out" &&
	pass "second pull request: compared with the fetched base, only the pull request measured" ||
	fail "second pull request: compared with the fetched base, only the pull request measured" "$(cat "$T/.out" "$T/.err")"

# GitLab: a merge request's pipeline on a fresh clone of a project with no notes
git init -q --bare -b main "$T/gl.git"
git -C "$P" push -q "$T/gl.git" main
G=$T/gl
git clone -q "$T/gl.git" "$G" 2>/dev/null
echo "/* mr */" >>"$G/work.c" && git -C "$G" commit -qam "mr 1"
(cd "$G" && CI_MERGE_REQUEST_IID=1 bash -e "$T/step-gitlab.sh") >"$T/.out" 2>"$T/.err"; rc=$?
guard_rc "GitLab merge request with no notes yet: guard exits 0" $rc
grep -q "measuring its parent" "$T/.err" && grep -q "^guard: .* vs .*(1 stored commit(s) before it)" "$T/.out" &&
	pass "GitLab merge request: guard measured the base and compared" ||
	fail "GitLab merge request: guard measured the base and compared" "$(cat "$T/.out" "$T/.err")"
