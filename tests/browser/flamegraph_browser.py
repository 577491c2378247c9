#!/usr/bin/env python3
"""flamegraph_browser.py - drive a generated flame graph in headless Chromium
the way a user does (real mouse clicks, Ctrl-F and the search prompt) and
check the resulting DOM: zoom, Reset Zoom, search with "Matched: N%",
case-insensitive search, the view restored from the URL, and the
differential before/after toggle.  Screenshots go to the artifact directory.

usage: flamegraph_browser.py TRAIL ARTIFACT_DIR [CORPUS_DIR]
Prints "ok - NAME" / "FAILED - NAME" lines (tests/run counts them); exits 77
when Chromium is missing.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError, find_chromium  # noqa: E402

SUITE = "20-flamegraph-browser"
failures = 0

# A small profile whose answers are easy to compute independently.
FOLDED = """main;parse;lex 300
main;parse;lex;next_char 200
main;parse;ast 150
main;eval;lookup 250
main;eval;hash 100
main;eval;lex 50
main;print 100
other;lex_helper 50
"""
DIFF = """main;parse;lex 300 420
main;parse;ast 150 150
main;eval;lookup 250 240
main;eval;hash 100 0
main;print 100 100
main;jit 0 90
"""


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


def matched_percent(folded, regex, flags=0):
    """Share of samples in stacks with a matching frame: nested matches once."""
    r = re.compile(regex, flags)
    total = hit = 0.0
    for line in folded.splitlines():
        stack, count = line.rsplit(" ", 1)
        total += float(count)
        if any(r.search(f) for f in stack.split(";")):
            hit += float(count)
    return 100.0 * hit / total


def frame_index(page, path):
    """Pre-order index of the frame reached by following names from the root."""
    return page.eval("""(function (path) {
        var f = fg.f, cur = 0;
        for (var k = 0; k < path.length; k++) {
            var found = -1;
            for (var i = cur + 1; i < f[cur].end; i++)
                if (f[i].parent === cur && f[i].name === path[k]) { found = i; break; }
            if (found < 0) return -1;
            cur = found;
        }
        return cur;
    })(%s)""" % repr(path).replace("'", '"'))


def center_of(page, idx):
    return page.eval("""(function () {
        var r = fg.f[%d].rect.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2];
    })()""" % idx)


def attr(page, idx, name):
    return page.eval("fg.f[%d].rect.getAttribute('%s')" % (idx, name))


def g_class(page, idx):
    return page.eval("fg.f[%d].g.getAttribute('class') || ''" % idx)


def ready(page, url):
    page.navigate(url)
    page.wait_for("document.documentElement && "
                  "document.documentElement.getAttribute('data-ready') === '1'")


def search_via_prompt(browser, page, term):
    """Ctrl-F, answer the prompt like a user, release the key."""
    page.key_async("f", "KeyF", 70, modifiers=2)
    ev = browser.pop_event("Page.javascriptDialogOpening", page.session, 30)
    ok("Ctrl-F opens the search prompt", ev["params"].get("type") == "prompt", ev)
    page.send("Page.handleJavaScriptDialog", {"accept": True, "promptText": term})
    page.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "f", "code": "KeyF",
                                         "windowsVirtualKeyCode": 70, "modifiers": 2})


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    trail, artifacts = sys.argv[1], sys.argv[2]
    corpus = sys.argv[3] if len(sys.argv) > 3 else ""
    if not find_chromium():
        print("skip - %s: browser (chromium not installed)" % SUITE)
        return 0
    os.makedirs(artifacts, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="trail-browser.")
    plain_in, plain_svg = os.path.join(tmp, "p.folded"), os.path.join(tmp, "p.svg")
    diff_in, diff_svg = os.path.join(tmp, "d.folded"), os.path.join(tmp, "d.svg")
    with open(plain_in, "w") as f:
        f.write(FOLDED)
    with open(diff_in, "w") as f:
        f.write(DIFF)
    for src, dst in ((plain_in, plain_svg), (diff_in, diff_svg)):
        with open(dst, "w") as out:
            subprocess.run([trail, "flamegraph", src], stdout=out, check=True)

    with Browser(os.path.join(tmp, "profile")) as b:
        page = b.new_page(1200, 700)
        url = "file://" + plain_svg
        ready(page, url)
        ok("script ran and read every frame", page.eval("fg.f.length") == 13,
           page.eval("fg.f.length"))

        # click-zoom on main;parse with a real mouse click
        parse = frame_index(page, ["main", "parse"])
        lex = frame_index(page, ["main", "parse", "lex"])
        ev = frame_index(page, ["main", "eval"])
        main_ = frame_index(page, ["main"])
        x, y = center_of(page, parse)
        page.click(x, y)
        page.wait_for("document.documentElement.getAttribute('data-zoomed') === '%d'" % parse)
        ok("clicked frame fills the width", abs(float(attr(page, parse, "width").rstrip("%")) - 100) < 1e-6,
           attr(page, parse, "width"))
        ok("child scaled with the zoom",
           abs(float(attr(page, lex, "width").rstrip("%")) - 100.0 * 500 / 650) < 1e-3,
           attr(page, lex, "width"))
        ok("ancestors stretched and marked", "zparent" in g_class(page, main_) and
           abs(float(attr(page, main_, "width").rstrip("%")) - 100) < 1e-6, g_class(page, main_))
        ok("unrelated frames hidden", page.eval(
            "getComputedStyle(fg.f[%d].g).display" % ev) == "none", g_class(page, ev))
        ok("zoomed subtree shown", page.eval(
            "getComputedStyle(fg.f[%d].g).display" % lex) != "none")
        ok("Reset Zoom shown", page.eval("document.getElementById('unzoom').getAttribute('class')") == "")
        ok("zoom kept in the URL", page.eval("location.hash") == "#x=%d" % parse, page.eval("location.hash"))

        # search through Ctrl-F and the prompt
        search_via_prompt(b, page, "lex")
        want = "Matched: %.1f%%" % matched_percent(FOLDED, "lex")
        got = page.wait_for("(function(){var t=document.getElementById('matched').textContent;"
                            "return t.indexOf('Matched') === 0 ? t : '';})()")
        ok("search total counts nested matches once", got == want, "%s, expected %s" % (got, want))
        ok("matching frames painted", page.eval(
            "fg.f.filter(function(f){return f.rect.getAttribute('fill') === fgconf.searchcolor;}).length") == 3)
        ok("search kept in the URL", page.eval("location.hash") == "#x=%d&s=lex" % parse,
           page.eval("location.hash"))
        page.screenshot(os.path.join(artifacts, "flamegraph-zoom-search.png"))

        # Reset Zoom by clicking it
        x, y = page.eval("(function(){var r=document.getElementById('unzoom').getBoundingClientRect();"
                         "return [r.left + r.width/2, r.top + r.height/2];})()")
        page.click(x, y)
        page.wait_for("document.documentElement.getAttribute('data-zoomed') === '-1'")
        ok("Reset Zoom restores every frame", page.eval(
            "fg.f.every(function(f){return getComputedStyle(f.g).display !== 'none' && "
            "!/zparent/.test(f.g.getAttribute('class')||'');})"))
        ok("Reset Zoom leaves the search", page.eval("location.hash") == "#s=lex", page.eval("location.hash"))

        # a shared URL restores the view: zoom + case-insensitive search
        page2 = b.new_page(1200, 700)
        ready(page2, url + "#x=%d&s=LEX&i=1" % parse)
        ok("URL restores the zoom", page2.eval("fg.zoomed") == parse)
        want_i = "Matched: %.1f%%" % matched_percent(FOLDED, "LEX", re.I)
        got = page2.wait_for("(function(){var t=document.getElementById('matched').textContent;"
                             "return t.indexOf('Matched') === 0 ? t : '';})()")
        ok("case-insensitive search from the URL", got == want_i, "%s, expected %s" % (got, want_i))
        ok("ic toggle shown on", page2.eval("document.getElementById('ignorecase').getAttribute('class')") == "on")

        # differential: frames gone in AFTER come back with the before widths
        ready(page2, "file://" + diff_svg)
        hash_ = frame_index(page2, ["main", "eval", "hash"])
        jit = frame_index(page2, ["main", "jit"])
        ok("gone frame has no width after", float(attr(page2, hash_, "width").rstrip("%")) == 0)
        ok("gone frame classed", page2.eval("fg.f[%d].rect.getAttribute('class')" % hash_) == "gone")
        ok("new frame classed", page2.eval("fg.f[%d].rect.getAttribute('class')" % jit) == "new")
        x, y = page2.eval("(function(){var r=document.getElementById('basis').getBoundingClientRect();"
                          "return [r.left + r.width/2, r.top + r.height/2];})()")
        page2.click(x, y)
        page2.wait_for("location.hash === '#b=1'")
        ok("before view draws the gone frame",
           abs(float(attr(page2, hash_, "width").rstrip("%")) - 100.0 * 100 / 900) < 1e-3,
           attr(page2, hash_, "width"))
        ok("before view hides the new frame", float(attr(page2, jit, "width").rstrip("%")) == 0)
        page2.screenshot(os.path.join(artifacts, "flamegraph-diff-before.png"))

        # a real profile from the shared corpus: zoom into the widest leaf's parent
        if corpus and os.path.isfile(os.path.join(corpus, "base", "flames.txt")):
            big = os.path.join(tmp, "big.svg")
            with open(big, "w") as out:
                subprocess.run([trail, "flamegraph", os.path.join(corpus, "base", "flames.txt")],
                               stdout=out, check=True)
            ready(page2, "file://" + big)
            n = page2.eval("fg.f.length")
            target = page2.eval("""(function(){var f=fg.f,b=-1;for(var i=1;i<f.length;i++)
                if(f[i].depth===4&&(b<0||f[i].w>f[b].w))b=i;return b;})()""")
            x, y = center_of(page2, target)
            page2.click(x, y)
            page2.wait_for("document.documentElement.getAttribute('data-zoomed') === '%d'" % target)
            inside = page2.eval("""(function(t){var f=fg.f;for(var i=t;i<f[t].end;i++){
                var x=parseFloat(f[i].rect.getAttribute('x')),w=parseFloat(f[i].rect.getAttribute('width'));
                if(x<-1e-6||x+w>100+1e-6)return false;}return true;})(%d)""" % target)
            ok("corpus graph: zoomed subtree stays inside the view (%d frames)" % n, inside)
            page2.screenshot(os.path.join(artifacts, "flamegraph-corpus-zoom.png"))
        else:
            print("skip - %s: corpus graph (../shared absent)" % SUITE)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CDPError as e:
        print("FAILED - %s: browser session (%s)" % (SUITE, e))
        sys.exit(1)
