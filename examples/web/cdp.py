"""Headless Chromium driven over the DevTools protocol, for the page's tests and benchmark.

A small client: it starts Debian's `chromium --headless=new` on a free port with a scratch
profile, connects to the page's websocket (`websocket-client` from PyPI) and sends commands one
at a time. Input goes in as the browser's own input events (Input.dispatchMouseEvent,
Input.dispatchTouchEvent, Input.dispatchKeyEvent): the page sees trusted pointer, touch and key
events exactly as from a person.
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

import websocket

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
# WebGL without a GPU (SwiftShader), for the MapLibre page: Chromium(..., extra_args=WEBGL_ARGS).
# The page is composited and its 2D canvases drawn in software: through SwiftShader, a frame that
# redraws a 2D canvas takes 150-600 ms on a busy 2-core machine (and input events, aligned to
# frames, arrive that late), in software 17 ms.
WEBGL_ARGS = ("--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-compositing",
              "--disable-accelerated-2d-canvas")


class PageError(RuntimeError):
    pass


class Chromium:
    def __init__(self, width=1200, height=800, extra_args=()):
        self.profile = tempfile.mkdtemp(prefix="pindrop-chromium-")
        args = [CHROMIUM, "--headless=new", "--no-sandbox", "--remote-debugging-port=0",
                "--remote-allow-origins=*", f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--mute-audio",
                "--force-device-scale-factor=1", *extra_args, "about:blank"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 60
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if self.proc.poll() is not None:
                raise PageError("chromium exited: " + self.proc.stderr.read().decode(errors="replace")[-2000:])
            if time.time() > deadline:
                raise PageError("chromium did not open its DevTools port within 60 s")
            time.sleep(0.05)
        self.port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=600, suppress_origin=True)
        self.next_id = 0
        self.events = []          # (method, params) of every protocol event received
        self.exceptions = []      # uncaught exceptions and console errors of the page
        self.console = []
        self.send("Page.enable")
        self.send("Runtime.enable")
        # the viewport exactly width x height CSS pixels (the window's size includes no toolbar
        # in headless mode, but the window manager's decorations may still take some)
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    # -- the protocol --------------------------------------------------------------------------
    def send(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise PageError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self._event(msg)

    def _event(self, msg):
        method = msg.get("method")
        if not method:
            return
        params = msg.get("params", {})
        self.events.append((method, params))
        if method == "Runtime.exceptionThrown":
            d = params["exceptionDetails"]
            self.exceptions.append((d.get("exception") or {}).get("description") or d.get("text"))
        elif method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append((params.get("type"), text))
            if params.get("type") == "error":
                self.exceptions.append("console.error: " + text)

    def eval(self, expression, await_promise=True):
        """The value of a JavaScript expression in the page (JSON-serialisable values)."""
        r = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=await_promise)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise PageError((d.get("exception") or {}).get("description") or d.get("text"))
        return r["result"].get("value")

    def wait_for(self, expression, timeout=60.0, interval=0.05):
        deadline = time.time() + timeout
        while True:
            v = self.eval(expression)
            if v:
                return v
            if time.time() > deadline:
                raise PageError(f"timed out after {timeout} s waiting for {expression}")
            time.sleep(interval)

    def navigate(self, url):
        self.exceptions.clear()
        self.send("Page.navigate", url=url)

    def sleep(self, seconds):
        """Waits in real time while the page runs (its clock is the browser's)."""
        time.sleep(seconds)

    # -- real input events ------------------------------------------------------------------------
    def mouse(self, kind, x, y, button="left", buttons=None, click_count=1, modifiers=0):
        """kind: mousePressed | mouseReleased | mouseMoved."""
        if buttons is None:
            buttons = 1 if (kind == "mousePressed" or (kind == "mouseMoved" and self._mouse_down)) else 0
        if kind == "mousePressed":
            self._mouse_down = True
        elif kind == "mouseReleased":
            self._mouse_down = False
        params = dict(type=kind, x=x, y=y, modifiers=modifiers, buttons=buttons)
        if kind != "mouseMoved" or buttons:
            params.update(button=button if kind != "mouseMoved" else "left", clickCount=click_count if kind != "mouseMoved" else 0)
        self.send("Input.dispatchMouseEvent", **params)

    _mouse_down = False

    def drag_mouse(self, path, hold_s=0.0, step_s=0.016):
        """Presses at path[0], moves through path[1:], releases at path[-1]."""
        x0, y0 = path[0]
        self.mouse("mouseMoved", x0, y0, buttons=0)
        self.mouse("mousePressed", x0, y0)
        if hold_s:
            time.sleep(hold_s)
        for x, y in path[1:]:
            time.sleep(step_s)
            self.mouse("mouseMoved", x, y)
        time.sleep(step_s)
        self.mouse("mouseReleased", *path[-1])

    def click(self, x, y):
        self.mouse("mouseMoved", x, y, buttons=0)
        self.mouse("mousePressed", x, y)
        time.sleep(0.03)
        self.mouse("mouseReleased", x, y)

    def touch(self, kind, points):
        """kind: touchStart | touchMove | touchEnd | touchCancel; points: [(x, y), ...]."""
        self.send("Input.dispatchTouchEvent", type=kind,
                  touchPoints=[dict(x=x, y=y, id=i, radiusX=4, radiusY=4, force=1) for i, (x, y) in enumerate(points)])

    KEYS = {"Escape": ("Escape", 27), "ArrowLeft": ("ArrowLeft", 37), "ArrowUp": ("ArrowUp", 38),
            "ArrowRight": ("ArrowRight", 39), "ArrowDown": ("ArrowDown", 40), "Tab": ("Tab", 9),
            "Enter": ("Enter", 13), " ": ("Space", 32)}

    def key(self, key, modifiers=0):
        """A key press and release. modifiers: 1 Alt, 2 Ctrl, 4 Meta, 8 Shift."""
        if key in self.KEYS:
            code, vk = self.KEYS[key]
        else:
            code, vk = "Key" + key.upper(), ord(key.upper())
        text = key if len(key) == 1 and not modifiers & (2 | 4) else ""
        base = dict(key=key, code=code, windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk, modifiers=modifiers)
        self.send("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **base)
        self.send("Input.dispatchKeyEvent", type="keyUp", **base)

    def screenshot(self, path, clip=None):
        params = {"format": "png"}
        if clip:
            params["clip"] = dict(clip, scale=1)
        data = self.send("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.ws.close()
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

