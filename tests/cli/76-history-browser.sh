#!/usr/bin/env bash
# tests/cli/76-history-browser.sh - 'trail history plot' (SVG and HTML) in
# headless Chromium: hover with the real mouse shows the commit, the change
# point is labelled, the page's table names commit and function
# (tests/browser/history_browser.py).  The series comes from 'record
# --profile' (no perf needed).  Skips without Chromium or python3.
. "$(dirname "$0")/lib.sh"

if ! have python3 || ! have git; then skip "history browser" "python3 or git missing"; exit 0; fi
if ! have chromium && ! have chromium-browser && ! have google-chrome; then
	skip "history browser" "chromium not installed (apt-get install chromium)"; exit 0
fi
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
R=$T/repo
git init -q -b main "$R"
for i in $(seq 1 14); do
	echo "$i" >"$R/file"
	git -C "$R" add file && git -C "$R" commit -q -m "change <$i> & \"quoted\""
	parse=200 base=100
	[ "$i" -ge 8 ] && { parse=450; base=130; }
	printf 'main;run;parse %d\nmain;run;eval %d\nmain;run;print %d\nmain;io 100\n' \
		$((parse + i % 3)) $((500 - i % 2)) $((200 + i % 4)) >"$T/p.folded"
	"$TRAIL" history record -C "$R" --profile "$T/p.folded" --metric wall --unit ms \
		--value $((base + i % 3)) --value $((base + 1)) --value $((base + 2)) >/dev/null 2>&1 ||
		fail "record --profile $i"
done
STEP=$(git -C "$R" rev-parse HEAD~6)
check "plot -o svg" "$TRAIL" history plot -C "$R" --function parse -o "$T/h.svg"
check "plot -o html" "$TRAIL" history plot -C "$R" --function parse -o "$T/h.html"
python3 "$ROOT/tests/browser/history_browser.py" "$T/h.svg" "$T/h.html" "$STEP" 'change <8> & "quoted"' \
	"$BUILD/test-artifacts"
