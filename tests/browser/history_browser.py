#!/usr/bin/env python3
"""history_browser.py - a 'trail history plot' in headless Chromium: the
SVG's script runs (data-ready), hovering a point with the real mouse shows
its commit, subject and value in the details line, the change point is
drawn and labelled; the HTML page shows the same plot, working, and the
change-point table.  Screenshots go to the artifact directory.

usage: history_browser.py PLOT.svg PLOT.html COMMIT SUBJECT ARTIFACT_DIR
COMMIT is the first commit after the change (the 8th point), SUBJECT its
subject.  Prints "ok - NAME" / "FAILED - NAME" lines; exits 77 without
Chromium.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError, find_chromium  # noqa: E402

SUITE = "76-history-browser"
failures = 0


def check(name, cond, why=""):
    global failures
    if cond:
        print("ok - %s: %s" % (SUITE, name))
    else:
        failures += 1
        print("FAILED - %s: %s" % (SUITE, name))
        if why:
            print("    %s" % why, file=sys.stderr)


def hover_point(page, index):
    """Move the real mouse onto the index-th point; return the details text."""
    box = page.eval("(() => { const r = document.querySelectorAll('circle.pt')[%d]"
                    ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
                    % index)
    page.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": box[0], "y": box[1]})
    return page.wait_for("(() => { const t = document.getElementById('details').textContent;"
                         " return t.indexOf('hover') < 0 ? t : ''; })()")


def main():
    svg, html, commit, subject, artifacts = sys.argv[1:6]
    if not find_chromium():
        print("skip - %s: chromium not installed" % SUITE)
        sys.exit(77)
    os.makedirs(artifacts, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile, Browser(profile) as b:
        page = b.new_page(1200, 900)
        page.navigate("file://" + os.path.abspath(svg))
        try:
            page.wait_for("document.documentElement.getAttribute('data-ready') === '1'")
            check("svg: the script runs", True)
        except CDPError as e:
            check("svg: the script runs", False, str(e))
            return
        npts = page.eval("document.querySelectorAll('circle.pt').length")
        check("svg: a point per stored commit and panel", npts == 28, "points: %r" % npts)
        text = hover_point(page, 7)
        check("svg: hovering a point shows its commit", text.startswith(commit[:12]), text)
        check("svg: ... its subject and value", subject in text and "wall" in text, text)
        hovered = page.eval("document.querySelectorAll('circle.pt.hover').length")
        check("svg: the hovered point is highlighted", hovered == 1, "highlighted: %r" % hovered)
        labels = page.eval("Array.from(document.querySelectorAll('g.change text')).map(t => t.textContent)")
        check("svg: the change point is marked and labelled",
              len(labels) == 1 and "parse" in labels[0] and labels[0].startswith("#1 +"), repr(labels))
        page.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 5, "y": 5})
        idle = page.wait_for("document.getElementById('details').textContent.indexOf('hover') === 0"
                             " && document.getElementById('details').textContent")
        check("svg: leaving the point restores the details line", idle.startswith("hover"), idle)
        page.screenshot(os.path.join(artifacts, "history-plot.png"))

        page2 = b.new_page(1200, 1200)
        page2.navigate("file://" + os.path.abspath(html))
        page2.wait_for("document.getElementById('trail-history') &&"
                       " document.getElementById('trail-history').getAttribute('data-ready') === '1'")
        rows = page2.eval("document.querySelectorAll('#changes tr').length")
        check("html: the change-point table has the change", rows == 2, "rows: %r" % rows)
        cell = page2.eval("document.querySelectorAll('#changes tr')[1].textContent")
        check("html: the table names the commit and the function",
              commit[:12] in cell and "parse" in cell and "slower" in cell, cell)
        text = hover_point(page2, 7)
        check("html: hovering works in the page too", text.startswith(commit[:12]), text)
        page2.screenshot(os.path.join(artifacts, "history-page.png"))


main()
sys.exit(1 if failures else 0)
