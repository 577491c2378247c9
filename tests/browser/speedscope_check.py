"""speedscope_check.py - open a speedscope JSON file that trail wrote in the
real speedscope app (the npm package's dist/release, served over HTTP on
127.0.0.1 because speedscope loads #profileURL only over http) in headless
Chromium, switch to the Sandwich view (a DOM table of every function), and
check that speedscope loaded it: the title names the profile and each
expected frame name is listed.

usage: speedscope_check.py SPEEDSCOPE_RELEASE_DIR PROFILE.json NAME FRAME...
Exit 0 when all is found, 1 otherwise (with what was seen on stderr).
"""
import functools
import json
import http.server
import os
import shutil
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser, CDPError  # noqa: E402


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    release, profile, name, frames = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    root = tempfile.mkdtemp(prefix="trail-speedscope-")
    try:
        site = os.path.join(root, "site")
        shutil.copytree(release, site)
        shutil.copy(profile, os.path.join(site, "profile.json"))
        handler = functools.partial(QuietHandler, directory=site)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/index.html#profileURL=%%2Fprofile.json&view=sandwich" % (
            server.server_address[1])
        with Browser(os.path.join(root, "chrome")) as b:
            page = b.new_page(1400, 2000)
            page.navigate(url)
            want_title = "%s - speedscope" % name
            check = "%s.every(f => document.body.innerText.includes(f))" % json.dumps(frames)
            text, missing = "", frames
            try:
                page.wait_for("document.title === %s" % json.dumps(want_title), timeout=60)
                page.wait_for(check, timeout=30)
                missing = []
            except CDPError as e:
                print("speedscope did not show the profile: %s" % e, file=sys.stderr)
                text = page.eval("document.title + '\\n' + document.body.innerText")
        server.shutdown()
        if missing:
            print("speedscope's sandwich view lacks: %s" % ", ".join(missing), file=sys.stderr)
            print(text[:2000], file=sys.stderr)
            return 1
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
