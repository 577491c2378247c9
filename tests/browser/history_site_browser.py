#!/usr/bin/env python3
"""history_site_browser.py - a 'trail history site' in headless Chromium,
from file://: the index has a row per bench with its sparkline (a drawn
polyline), the regressed bench's row a change marker and its change
point; every page loads with no console error, and again with JavaScript
off (the same rows and tables: readable without it); the regressed
bench's page has the plot, the change-point table naming the function
and its differential flame graph loaded as an image; every link
resolves.  Screenshots go to the artifact directory.

usage: history_site_browser.py SITE_DIR BENCHES BAD_BENCH FUNCTION ARTIFACT_DIR
BENCHES is comma-separated.  Prints "ok - NAME" / "FAILED - NAME" lines;
exits 77 without Chromium.
"""
import json
import os
import sys
import tempfile
from urllib.parse import unquote, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError, find_chromium  # noqa: E402

SUITE = "77-history-suite"
failures = 0


def check(name, cond, why=""):
    global failures
    if cond:
        print("ok - %s: site: %s" % (SUITE, name))
    else:
        failures += 1
        print("FAILED - %s: site: %s" % (SUITE, name))
        if why:
            print("    %s" % why, file=sys.stderr)


def load(page, path):
    page.navigate("file://" + os.path.abspath(path))
    page.wait_for("document.readyState === 'complete' && !!document.body")


def errors_of(b):
    return [json.dumps(e["params"])[:300] for e in b.events
            if e.get("method") == "Runtime.exceptionThrown"
            or (e.get("method") == "Runtime.consoleAPICalled"
                and e["params"].get("type") in ("error", "assert"))
            or (e.get("method") == "Log.entryAdded" and e["params"]["entry"].get("level") == "error")]


def links_resolve(page, url):
    links = page.eval("Array.from(document.querySelectorAll('a[href], img[src]'))"
                      ".map(a => a.href || a.src)")
    bad = []
    for link in links:
        u = urlparse(link)
        path = unquote(u.path)
        if u.scheme != "file" or not os.path.isfile(path):
            bad.append(link)
        elif u.fragment and path == urlparse(url).path and \
                not page.eval("!!document.getElementById(%s)" % json.dumps(u.fragment)):
            bad.append(link)
    return links, bad


def index_checks(page, benches, bad_bench):
    rows = page.eval("Array.from(document.querySelectorAll('#benches tr.bench')).map(r => "
                     "[r.cells[0].textContent, r.querySelectorAll('svg.sparkline polyline').length, "
                     "r.querySelectorAll('svg.sparkline line.change').length, r.cells[3].textContent, "
                     "r.cells[4].textContent])")
    check("index: a row per bench", [r[0] for r in rows] == benches, rows)
    check("index: a sparkline in every row", all(r[1] == 1 for r in rows), rows)
    marks = {r[0]: r[2] for r in rows}
    check("index: a change marker in %s's sparkline only" % bad_bench,
          marks.get(bad_bench, 0) >= 1 and all(v == 0 for k, v in marks.items() if k != bad_bench), marks)
    row = [r for r in rows if r[0] == bad_bench]
    check("index: %s's latest change point" % bad_bench, row and "%" in row[0][3], row)
    check("index: guard status in every row", all(r[4] for r in rows), rows)


def main():
    site, benches, bad_bench, function, artifacts = sys.argv[1:6]
    benches = benches.split(",")
    if not find_chromium():
        print("skip - %s: chromium not installed" % SUITE)
        sys.exit(77)
    os.makedirs(artifacts, exist_ok=True)
    pages = ["index.html"] + ["%s.html" % b for b in benches]
    with tempfile.TemporaryDirectory() as profile, Browser(profile) as b:
        page = b.new_page(1280, 900)
        for js in (True, False):
            page.send("Emulation.setScriptExecutionDisabled", {"value": not js})
            how = "" if js else " (JavaScript off)"
            for p in pages:
                path = os.path.join(site, p)
                try:
                    load(page, path)
                except CDPError as e:
                    check("%s loads%s" % (p, how), False, str(e))
                    continue
                check("%s loads%s" % (p, how), True)
                if p == "index.html":
                    index_checks(page, benches, bad_bench)
                    if js:
                        page.screenshot(os.path.join(artifacts, "history-site-index.png"))
                if p == bad_bench + ".html":
                    n = page.eval("document.querySelectorAll('svg#trail-history circle.pt').length")
                    check("%s: the plot's points%s" % (p, how), n and n > 2, n)
                    text = page.eval("document.body.innerText")
                    check("%s: the change point names %s%s" % (p, function, how),
                          "change 1" in text and function in text, text[:500])
                    img = page.wait_for("(() => { const i = document.querySelector('img.diff');"
                                        " return i && i.complete ? [i.naturalWidth, i.src] : null; })()")
                    check("%s: the differential flame graph loads%s" % (p, how), img[0] > 0, img)
                    if js:
                        page.screenshot(os.path.join(artifacts, "history-site-%s.png" % bad_bench))
                links, bad = links_resolve(page, "file://" + os.path.abspath(path))
                check("%s: %d links resolve%s" % (p, len(links), how), not bad, bad)
            errs = errors_of(b)
            check("no console errors%s" % how, not errs, errs)
            b.events.clear()
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CDPError as e:
        print("FAILED - %s: site: browser: %s" % (SUITE, e))
        sys.exit(1)
