"""cdp.py - drive headless Chromium over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each message a
JSON object followed by a NUL byte), with nothing but the standard library.

    with Browser(user_data_dir) as b:
        page = b.new_page(width, height)
        page.navigate("file:///tmp/x.svg#s=foo")
        page.wait_for("document.documentElement.getAttribute('data-ready') === '1'")
        page.eval("1 + 1")
"""
import base64
import json
import os
import select
import shutil
import subprocess
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, user_data_dir, binary=None, timeout=60.0):
        self.binary = binary or find_chromium()
        self.user_data_dir = user_data_dir
        self.timeout = timeout
        self.next_id = 0
        self.buf = b""
        self.events = []

    def __enter__(self):
        to_child_r, self.to_child_w = os.pipe()
        self.from_child_r, from_child_w = os.pipe()

        def setup():
            # the pipe may itself sit on fd 3 or 4: copy it out of the way first
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [self.binary, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-extensions",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                "--user-data-dir=" + self.user_data_dir,
                "--remote-debugging-pipe", "about:blank"]
        # close_fds=False: the fds dup2()ed to 3 and 4 must survive exec (every
        # other descriptor Python opened is non-inheritable anyway)
        self.proc = subprocess.Popen(args, preexec_fn=setup, close_fds=False,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        return self

    def __exit__(self, *exc):
        try:
            self.send("Browser.close", wait=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_child_w)
        os.close(self.from_child_r)

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("timed out waiting for the browser")
            ready, _, _ = select.select([self.from_child_r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_child_r, 1 << 20)
            if not chunk:
                raise CDPError("the browser closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, wait=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child_w, json.dumps(msg).encode() + b"\0")
        if not wait:
            return None
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CDPError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def pop_event(self, method, session, timeout):
        """The first queued (or next arriving) event called method."""
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method and e.get("sessionId") == session:
                    return self.events.pop(i)
            reply = self._read_message(deadline)
            if "method" in reply:
                self.events.append(reply)

    def new_page(self, width, height):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page


class Page:
    def __init__(self, browser, session):
        self.b = browser
        self.session = session

    def send(self, method, params=None):
        return self.b.send(method, params, self.session)

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise CDPError("%s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait_for(self, expr, timeout=30.0):
        """Poll until expr is truthy; return its value (no fixed sleeps)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = self.eval(expr)
            except CDPError:
                last = None
            if last:
                return last
            time.sleep(0.05)
        raise CDPError("timed out waiting for: %s (last value %r)" % (expr, last))

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                   "button": "left", "clickCount": 1})

    def key(self, key, code, keycode, modifiers=0):
        for kind in ("rawKeyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": keycode,
                                                 "modifiers": modifiers})

    def key_async(self, key, code, keycode, modifiers=0):
        """Press a key whose handler opens a dialog (the reply comes later)."""
        self.b.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": key, "code": code,
                                               "windowsVirtualKeyCode": keycode,
                                               "modifiers": modifiers}, self.session, wait=False)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
