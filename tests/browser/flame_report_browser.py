#!/usr/bin/env python3
"""flame_report_browser.py - open a trail flame report.html in headless
Chromium and check it as a reader would meet it: the verdict first, the
sections and real tables present (numbers matching report.json), the probe
chart drawn, the differential graph embedded as a parseable SVG, every link
resolving to a file next to the report, and no console errors or uncaught
exceptions.  A full-page screenshot goes to the artifact directory.

usage: flame_report_browser.py REPORT_DIR ARTIFACT_DIR NAME
Prints "ok - NAME" / "FAILED - NAME" lines (tests/run counts them); exits 77
when Chromium is missing.
"""
import base64
import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from urllib.parse import unquote, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError, find_chromium  # noqa: E402

SUITE = "75-flame-report"
failures = 0


def ok(name, cond, detail=""):
    global failures
    if cond:
        print("ok - %s: %s" % (SUITE, name))
    else:
        failures += 1
        print("FAILED - %s: %s" % (SUITE, name))
        if detail:
            print("    " + str(detail), file=sys.stderr)
    sys.stdout.flush()


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    report, artifacts, name = sys.argv[1:]
    if not find_chromium():
        print("skip - %s: chromium not installed" % SUITE)
        return 77
    os.makedirs(artifacts, exist_ok=True)
    data = json.load(open(os.path.join(report, "report.json")))
    url = "file://" + os.path.abspath(os.path.join(report, "report.html"))
    with tempfile.TemporaryDirectory() as profile, Browser(profile) as b:
        page = b.new_page(1280, 900)
        page.send("Log.enable")
        page.navigate(url)
        page.wait_for("document.readyState === 'complete'")
        # sections in order: the verdict and the answer first
        ids = page.eval("Array.from(document.querySelectorAll('[id]')).map(e => e.id)")
        ok("%s: verdict first" % name, ids[:2] == ["verdict", "answer"], ids)
        for want in ("graph", "hotspots", "handoffs", "radar", "reproduce"):
            ok("%s: section %s" % (name, want), want in ids, ids)
        if data["verdict"] == "regression":
            for want in ("probes", "commit", "builder", "bolt"):
                ok("%s: section %s" % (name, want), want in ids, ids)
        else:
            ok("%s: section scout" % name, "scout" in ids, ids)
        ok("%s: verdict text" % name,
           page.eval("document.getElementById('verdict').dataset.verdict") == data["verdict"])
        if data["suspect"]:
            cell = page.eval("Array.from(document.querySelectorAll('#answer tr')).find("
                             "r => r.cells[0].textContent === 'Suspect commit').cells[1].textContent")
            ok("%s: answer names the suspect" % name,
               data["suspect"]["commit"][:12] in cell and data["suspect"]["subject"] in cell, cell)
            fn = page.eval("document.querySelector('#answer td code').textContent")
            ok("%s: answer names the function" % name, fn == data["suspect"]["function"], fn)
        # real tables, rows matching report.json
        rows = page.eval("document.querySelectorAll('#hotspots tbody tr').length")
        ok("%s: hotspot rows" % name, rows >= len(data["hotspots"]), (rows, len(data["hotspots"])))
        first = page.eval("(document.querySelector('#hotspots tbody td code')||{}).textContent")
        ok("%s: hottest function first" % name,
           not data["hotspots"] or first == data["hotspots"][0]["function"], first)
        if data["probes"]:
            prow = page.eval("document.querySelectorAll('#probes tbody tr').length")
            ok("%s: probe rows" % name, prow == len(data["probes"]), prow)
            pts = page.eval("document.querySelectorAll('#probes svg.chart g.probe').length")
            ok("%s: probe chart points" % name, pts == len(data["probes"]), pts)
            ok("%s: threshold line" % name,
               page.eval("document.querySelectorAll('#probes svg.chart line.threshold').length") == 1)
        if data["suspect"]:
            hot = page.eval("document.querySelectorAll('#commit pre.hot').length")
            ok("%s: the hot function's hunk marked" % name, hot >= 1, hot)
            # a revert command only for a revert trail tried and saw apply, on a regression
            rv = data["suspect"].get("revert") or {}
            want = rv.get("command") if data["verdict"] == "regression" and rv.get("applies") else None
            if data["verdict"] == "regression" and not want:
                rvl = data["suspect"].get("revert_with_later") or {}
                want = rvl.get("command") if rvl.get("applies") else None
            rev = page.eval("(document.querySelector('#builder pre')||{}).textContent || null")
            ok("%s: revert command" % name, (rev or "").strip() == (want or ""), rev)
        guard = page.eval("document.querySelector('#radar pre').textContent")
        ok("%s: CI guard" % name, "trail bench --baseline base.json --max-regression " in guard, guard)
        # the embedded graph is the diff.svg next to the report, and parses
        src = page.eval("(document.querySelector('iframe.graph')||{}).src || ''")
        if os.path.exists(os.path.join(report, "diff.svg")):
            prefix = "data:image/svg+xml;base64,"
            ok("%s: graph embedded" % name, src.startswith(prefix), src[:60])
            try:
                svg = base64.b64decode(src[len(prefix):])
                root = ET.fromstring(svg)
                ok("%s: embedded graph parses as SVG" % name, root.tag.endswith("svg"))
                ok("%s: embedded graph is diff.svg" % name,
                   svg == open(os.path.join(report, "diff.svg"), "rb").read())
            except Exception as e:  # noqa: BLE001
                ok("%s: embedded graph parses as SVG" % name, False, e)
        # no external resources; every link resolves
        ext = page.eval("Array.from(document.querySelectorAll('[src],link[href]'))"
                        ".map(e => e.getAttribute('src') || e.getAttribute('href'))"
                        ".filter(u => !u.startsWith('data:'))")
        ok("%s: self-contained" % name, ext == [], ext)
        links = page.eval("Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
        bad = []
        for link in links:
            u = urlparse(link)
            if u.scheme == "file" and u.fragment and u.path == urlparse(url).path:
                if not page.eval("!!document.getElementById(%s)" % json.dumps(u.fragment)):
                    bad.append(link)
            elif u.scheme != "file" or not os.path.isfile(unquote(u.path)):
                bad.append(link)
        ok("%s: %d links resolve" % (name, len(links)), links and not bad, bad)
        for f in ("diff.svg", "good.svg", "bad.svg", "good.folded", "bad.folded"):
            if os.path.exists(os.path.join(report, f)):
                ok("%s: links to %s" % (name, f),
                   any(urlparse(link).path.endswith("/" + f) for link in links))
        # the first screen as a reader meets it, the full page, then the console
        page.screenshot(os.path.join(artifacts, "flame-report-%s-top.png" % name))
        height = page.eval("document.documentElement.scrollHeight")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": min(int(height), 12000), "deviceScaleFactor": 1,
                   "mobile": False})
        page.eval("new Promise(r => requestAnimationFrame(() => r(1)))")
        shot = os.path.join(artifacts, "flame-report-%s.png" % name)
        page.screenshot(shot)
        ok("%s: screenshot" % name, os.path.getsize(shot) > 10000, shot)
        page.eval("1")
        errors = [e for e in b.events
                  if e.get("method") == "Runtime.exceptionThrown"
                  or (e.get("method") == "Runtime.consoleAPICalled"
                      and e["params"].get("type") in ("error", "assert"))
                  or (e.get("method") == "Log.entryAdded"
                      and e["params"]["entry"].get("level") == "error")]
        ok("%s: no console errors" % name, not errors,
           [json.dumps(e["params"])[:300] for e in errors])
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CDPError as e:
        print("FAILED - %s: browser: %s" % (SUITE, e))
        sys.exit(1)
