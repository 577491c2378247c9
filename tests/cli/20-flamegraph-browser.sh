#!/usr/bin/env bash
# tests/cli/20-flamegraph-browser.sh - 'trail flamegraph' in headless
# Chromium: click-zoom, Reset Zoom, Ctrl-F search and "Matched", URL state,
# the differential toggle (tests/browser/flamegraph_browser.py).  Screenshots
# are kept in $BUILD/test-artifacts.  Skips when Chromium or python3 is missing.
. "$(dirname "$0")/lib.sh"

if ! have python3; then skip "browser" "python3 missing"; exit 0; fi
if ! have chromium && ! have chromium-browser && ! have google-chrome; then
	skip "browser" "chromium not installed (apt-get install chromium)"
	exit 0
fi
python3 "$ROOT/tests/browser/flamegraph_browser.py" "$TRAIL" "$BUILD/test-artifacts" \
	"$SHARED/corpus/flamegraph-inputs"
