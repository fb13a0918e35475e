"""The GTK 4 + libshumate app, run for real under Xvfb and driven with real X events (xdotool, through
the XTEST extension): a mouse drags a tree, Esc cancels a drag, a tap moves the tree being edited,
a held press lifts a tree in the touch profile, a drag on the empty map pans it, and the screenshot
shows what the app drew. Where trees land is read from the app's events and checked against the
screen-to-map conversion written here from the Web Mercator formulas (256-point tiles).

The app's window is decorated (a header bar, a status line): it reports where its map lies in its
X window (READY origin_x, origin_y), and the tests press at screen points translated by that.

Needs: PINDROP_GTK_APP (the built app), Xvfb, dbus-daemon, xdotool, xprop, xwd, xwdtopnm, pnmcut, pnmtopng
(make test-gtk installs them). GTK_SCREENSHOT: where to keep the screenshot (PNG). The tests on the
county's 916,114 trees and on the GeoJSON inventories read ../shared/data (LA_TREES, ADDRESSES)."""
from __future__ import annotations

import math
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bindings" / "python" / "tests"))

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
TREES = ROOT / "examples" / "data" / "lawndale_trees.csv"
APP = os.environ.get("PINDROP_GTK_APP", str(ROOT / ".build" / "examples" / "pindrop-gtk"))
SCREENSHOT = Path(os.environ.get("GTK_SCREENSHOT", str(ROOT / ".build" / "examples" / "gtk-screenshot.png")))
WIDTH, HEIGHT = 800, 600                              # the map's size (--size)
SCREEN = (1280, 1024)                                 # the Xvfb screen: room for the decorated window
STACK = (-118.34600679066747, 33.88355188855412)     # Lawndale's 305 trees on one spot
SHARED = ROOT.parent / "shared" / "data"
LA_TREES = Path(os.environ.get("LA_TREES", str(SHARED / "la_trees.csv")))
# The county's GeoJSON inventories, else the demo's copy of Lawndale's addressed trees.
ADDRESSES = Path(os.environ.get("ADDRESSES", str(SHARED / "la_trees_geojson")))
if not ADDRESSES.exists():
    ADDRESSES = HERE.parent / "data" / "lawndale.geojson"
needs_la = pytest.mark.skipif(not LA_TREES.exists(), reason=f"{LA_TREES} is not here")
needs_addresses = pytest.mark.skipif(not ADDRESSES.exists(), reason=f"{ADDRESSES} is not here")

for tool in ("Xvfb", "dbus-daemon", "xdotool", "xprop", "xwd", "xwdtopnm", "pnmcut", "pnmtopng"):
    if shutil.which(tool) is None:
        raise RuntimeError(f"{tool} is missing: run `make test-gtk`, which installs it")
if not Path(APP).exists():
    raise RuntimeError(f"the app {APP} is not built: run `make test-gtk`")


# -- the screen-to-map conversion, written from Web Mercator's formulas ----------------------------

def world_point(lon, lat, zoom):
    size = 256 * 2.0 ** zoom
    y = 0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)
    return (lon + 180) / 360 * size, y * size


def screen_to_lonlat(x, y, centre, zoom, size=(WIDTH, HEIGHT)):
    """Lon/lat under screen point (x, y) of a north-up view of `size` centred on `centre`."""
    cx, cy = world_point(centre[0], centre[1], zoom)
    wx, wy = cx + x - size[0] / 2, cy + y - size[1] / 2
    world = 256 * 2.0 ** zoom
    lon = wx / world * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * wy / world))))
    return lon, lat


def lonlat_to_screen(lon, lat, centre, zoom, size=(WIDTH, HEIGHT)):
    cx, cy = world_point(centre[0], centre[1], zoom)
    wx, wy = world_point(lon, lat, zoom)
    return wx - cx + size[0] / 2, wy - cy + size[1] / 2


# Points that come from the pointer are exact to GTK's single precision: event coordinates are
# carried into a widget through graphene's float transforms (the map sits below a header bar), a
# few 1e-6 points at 100-800 points from the origin.
POINTER_EPS = 1e-4


# -- the display and the app ------------------------------------------------------------------------

SESSION_BUS: dict[str, str] = {}
RENDERER = os.environ.get("GTK_TEST_RENDERER", "cairo")     # GSK's: cairo, or gl (Mesa's software GL under Xvfb)


@pytest.fixture(scope="module")
def display():
    """A private Xvfb server (its number chosen by the server, -displayfd) and a private D-Bus
    session bus, as a desktop session has: the app registers its GtkApplication there."""
    r, w = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
                              pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    assert number, "Xvfb did not start"
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    SESSION_BUS[f":{number}"] = bus.stdout.readline().strip()
    yield f":{number}"
    bus.terminate()
    bus.wait(timeout=10)
    server.terminate()
    server.wait(timeout=10)


def app_env(display):
    return dict(os.environ, DISPLAY=display, GDK_BACKEND="x11", GSK_RENDERER=RENDERER, NO_AT_BRIDGE="1",
                GTK_A11Y="none", DBUS_SESSION_BUS_ADDRESS=SESSION_BUS.get(display, "disabled:"))


class App:
    """The app as a process: its stdout lines in a queue, real X input through xdotool.

    Unless told otherwise (view=False) it opens on Lawndale's 305-tree stack at zoom 18, the view
    the drag tests were written for; its map is WIDTH x HEIGHT points."""

    def __init__(self, display, *args, trees=TREES, view=True, env=None):
        args = list(args)
        if "--size" not in args:
            args += ["--size", f"{WIDTH}x{HEIGHT}"]
        if view and "--center" not in args:
            args += ["--center", "%.17g,%.17g" % STACK]
        if view and "--zoom" not in args:
            args += ["--zoom", "18"]
        self.env = dict(app_env(display), **(env or {}))
        self.proc = subprocess.Popen([APP, *args, str(trees)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=self.env)
        self.lines: "queue.Queue[str]" = queue.Queue()
        self.arrived: list[tuple[float, str]] = []       # (time.monotonic() when read, line)
        self.seen: list[str] = []
        self.err: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        ready = self.wait_for("READY", timeout=60)
        self.ready = dict(kv.split("=") for kv in ready.split()[1:])
        self.centre = (float(self.ready["center_lon"]), float(self.ready["center_lat"]))
        self.zoom = float(self.ready["zoom"])
        self.size = (int(self.ready["width"]), int(self.ready["height"]))
        assert self.size == (WIDTH, HEIGHT)
        # The X window (the one of the app's toplevels that is not GTK's 1x1 leader) and the map in it.
        self.window = None
        for wid in self.xdo("search", "--sync", "--name", "^pindrop-gtk").split():
            geometry = self.xdo("getwindowgeometry", wid)
            m = re.search(r"Position: (-?\d+),(-?\d+).*Geometry: (\d+)x(\d+)", geometry, re.S)
            if int(m.group(3)) > 1:
                self.window = wid
                self.window_box = tuple(int(g) for g in m.groups())
        assert self.window, "no window"
        self.ox = self.window_box[0] + float(self.ready.get("origin_x", 0))
        self.oy = self.window_box[1] + float(self.ready.get("origin_y", 0))
        self.xdo("mousemove", *self.at(WIDTH / 2, HEIGHT / 2))   # the pointer over the map: keys go there

    def _read(self):
        for line in self.proc.stdout:
            self.arrived.append((time.monotonic(), line.rstrip("\n")))
            self.lines.put(line.rstrip("\n"))

    def _read_err(self):
        for line in self.proc.stderr:
            self.err.append(line.rstrip("\n"))

    def at(self, x, y):
        """The screen point of map point (x, y), as xdotool arguments."""
        return str(round(self.ox + x)), str(round(self.oy + y))

    def xdo(self, *args):
        return subprocess.run(["xdotool", *args], env=self.env, check=True, capture_output=True, text=True).stdout

    def wait_for(self, prefix, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} line from the app; it said: {self.seen[-20:]} {self.err[-5:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(line)
            if line.startswith(prefix):
                return line

    def drain(self, settle=0.3):
        """Every line the app printed until it has been quiet for `settle` seconds."""
        out = []
        while True:
            try:
                line = self.lines.get(timeout=settle)
            except queue.Empty:
                return out
            self.seen.append(line)
            out.append(line)

    def events(self, settle=0.3):
        return [parse(line) for line in self.drain(settle) if line.startswith("EVENT ")]

    def frame(self, timeout=10.0):
        self.xdo("key", "f")
        self.frame_line = parse(self.wait_for("FRAME", timeout=timeout))
        pins, self.clusters = {}, []
        while True:
            line = self.wait_for("")
            if line == "END":
                return pins
            p = parse(line)
            if p["kind"] == "CLUSTER":
                self.clusters.append(p)
            elif line.startswith("FOCUSED "):
                self.focused = p                            # (its kind: 0 none, 1 pin, 2 cluster)
            elif p["kind"] == "PIN":
                pins[p["id"]] = p                           # (other lines, e.g. a TOOLTIP, may come between)

    # Real X events: pointer moves, button 1, keys (XTEST).
    def press(self, x, y):
        self.xdo("mousemove", *self.at(x, y), "mousedown", "1")

    def move(self, x, y):
        self.xdo("mousemove", *self.at(x, y))
        time.sleep(0.03)

    def release(self):
        self.xdo("mouseup", "1")

    def drag(self, start, end, steps=6):
        self.press(*start)
        for i in range(1, steps + 1):
            self.move(round(start[0] + (end[0] - start[0]) * i / steps), round(start[1] + (end[1] - start[1]) * i / steps))
        self.release()

    def key(self, name):
        self.xdo("key", name)

    def close(self):
        if self.proc.poll() is None:
            self.key("ctrl+q")
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        time.sleep(0.1)
        err = "\n".join(self.err)
        assert "CRITICAL" not in err and "pindrop-gtk:" not in err and "GLib-GObject" not in err, err


def parse(line):
    """'EVENT MOVED id=3 lon=...' -> {'kind': 'MOVED', 'id': 3, 'lon': ...}"""
    words = line.split()
    out = {"kind": words[1] if words[0] == "EVENT" else words[0]}
    for w in words[1:]:
        if "=" in w:
            k, v = w.split("=", 1)
            try:
                out[k] = int(v) if k in ("id", "other", "flags", "key", "count", "request") else float(v)
            except ValueError:
                out[k] = v
    return out


@pytest.fixture
def app(display, request):
    """The app with the default arguments, or those a test passes (parametrize ..., indirect=True)."""
    a = App(display, *getattr(request, "param", ()))
    yield a
    a.close()


def kinds(events):
    """The kinds of events, without the callout's (the app titles a tree when it is selected)."""
    return [e["kind"] for e in events if e["kind"] != "CALLOUT_CHANGED"]


def lone_tree(pins, margin=60, away=40):
    """A tree drawn alone (not spread, nothing within `away` points), well inside the window."""
    for p in sorted(pins.values(), key=lambda p: p["id"]):
        if p["flags"] != 0 or not (margin < p["x"] < WIDTH - margin and margin < p["y"] < HEIGHT - margin):
            continue
        if all(math.hypot(q["x"] - p["x"], q["y"] - p["y"]) > away for q in pins.values() if q is not p):
            return p
    raise AssertionError("no lone tree in view")


def off_segment(x, y, p):
    """Distance from (x, y) to the spread leg of pin view p (its anchor to its drawn point)."""
    ax, ay, bx, by = p["anchor_x"], p["anchor_y"], p["x"], p["y"]
    d2 = (bx - ax) ** 2 + (by - ay) ** 2
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / d2))
    return math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay))


def empty_spot(pins, away=60, clusters=()):
    """A point of the map with no tree within `away` points, no spread leg near it, and no cluster
    or collapsed stack within `away` points of it."""
    for y in range(80, HEIGHT - 80, 20):
        for x in range(80, WIDTH - 80, 20):
            if all(math.hypot(q["x"] - x, q["y"] - y) > away and off_segment(x, y, q) > 8 for q in pins.values()) and \
                    all(math.hypot(c["x"] - x, c["y"] - y) > away for c in clusters):
                return x, y
    raise AssertionError("no empty spot in view")


def points_apart(lonlat, xy, app):
    sx, sy = lonlat_to_screen(lonlat[0], lonlat[1], app.centre, app.zoom)
    return math.hypot(sx - xy[0], sy - xy[1])


# -- the scenarios ---------------------------------------------------------------------------------

def test_shumate_and_pindrop_place_every_point_alike(display):
    """--check: Shumate's viewport and pindrop's camera (kept in step by the app) agree on every
    probe of a 9×9 grid at five cameras (zoom 3.7 to 20, Shumate's deepest, rotated both ways),
    both directions."""
    out = subprocess.run([APP, "--check", "--size", f"{WIDTH}x{HEIGHT}", "--center", "%.17g,%.17g" % STACK, "--zoom", "18",
                          str(TREES)], env=app_env(display), capture_output=True, text=True, timeout=60).stdout
    checks = [parse(line) for line in out.splitlines() if line.startswith("CHECK")]
    assert len(checks) == 5
    for c in checks:
        assert c["max_diff_points"] < 1e-6 and c["back"] < 1e-6, c


def test_a_mouse_drags_a_tree_and_it_lands_where_dropped(app):
    pins = app.frame()
    tree = lone_tree(pins)
    start = (round(tree["x"]), round(tree["y"]))
    grab = (tree["x"] - start[0], tree["y"] - start[1])      # the press is not on the exact centre
    end = (start[0] + 137, start[1] + 71)
    app.drag(start, end)
    events = app.events()
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "LIFTED" and "DROPPED" in kinds, kinds
    moved = [e for e in events if e["kind"] == "MOVED"]
    assert len(moved) == 1 and moved[0]["id"] == tree["id"] and moved[0]["cause"] == "DRAG"
    # Where it lands: the pointer's release point plus the grab offset, on this view's map.
    want = (end[0] + grab[0], end[1] + grab[1])
    assert points_apart((moved[0]["lon"], moved[0]["lat"]), want, app) < POINTER_EPS
    lon0, lat0 = screen_to_lonlat(tree["x"], tree["y"], app.centre, app.zoom)
    assert math.hypot(moved[0]["from_lon"] - lon0, moved[0]["from_lat"] - lat0) < 1e-9
    # No hop on release: the last DRAGGED is the landing coordinate, bit for bit.
    last = [e for e in events if e["kind"] == "DRAGGED"][-1]
    assert (last["lon"], last["lat"]) == (moved[0]["lon"], moved[0]["lat"])
    # ...and the app now draws it there; the map itself did not move.
    after = app.frame()
    assert math.hypot(after[tree["id"]]["x"] - want[0], after[tree["id"]]["y"] - want[1]) < POINTER_EPS
    other = next(i for i in pins if i != tree["id"] and pins[i]["flags"] == 0)
    assert (after[other]["x"], after[other]["y"]) == (pins[other]["x"], pins[other]["y"])


def test_esc_cancels_a_drag_and_the_tree_goes_back(app):
    pins = app.frame()
    tree = lone_tree(pins)
    start = (round(tree["x"]), round(tree["y"]))
    app.press(*start)
    for dx in (10, 40, 80):
        app.move(start[0] + dx, start[1] + dx // 2)
    app.key("Escape")
    app.move(start[0] + 120, start[1] + 90)
    app.release()
    events = app.events()
    kinds = [e["kind"] for e in events]
    assert "DRAGGED" in kinds and "DRAG_CANCELLED" in kinds and "MOVED" not in kinds, kinds
    cancelled = next(e for e in events if e["kind"] == "DRAG_CANCELLED")
    assert points_apart((cancelled["lon"], cancelled["lat"]), (tree["x"], tree["y"]), app) < 1e-6
    after = app.frame()
    assert (after[tree["id"]]["x"], after[tree["id"]]["y"]) == (tree["x"], tree["y"])


def test_tap_to_move_the_tree_being_edited(app):
    pins = app.frame()
    tree = lone_tree(pins)
    app.press(round(tree["x"]), round(tree["y"]))
    app.release()
    assert kinds(app.events()) == ["SELECTED"]
    app.key("e")
    app.wait_for("EDIT id=%d" % tree["id"])
    spot = empty_spot(pins, clusters=app.clusters)
    app.press(*spot)
    app.release()
    t_release = time.monotonic()
    # Nothing moves before the double-tap window (300 ms) has passed; the app's timer then ticks.
    moved = [e for e in app.events(settle=0.8) if e["kind"] == "MOVED"]
    assert len(moved) == 1 and moved[0]["id"] == tree["id"] and moved[0]["cause"] == "TAP"
    assert time.monotonic() - t_release >= 0.3
    assert points_apart((moved[0]["lon"], moved[0]["lat"]), spot, app) < POINTER_EPS
    app.key("Return")
    app.wait_for("COMMIT")
    after = app.frame()
    assert math.hypot(after[tree["id"]]["x"] - spot[0], after[tree["id"]]["y"] - spot[1]) < POINTER_EPS


@pytest.mark.parametrize("app", [("--touch",)], indirect=True)
def test_touch_profile_a_held_press_lifts_and_the_tree_lands_above_the_finger(app):
    """lift_delay_ms = 250 from the app's timer (pindrop_map_tick at next_deadline), then the tree
    follows 40 points above the pointer."""
    assert "PROFILE touch lift_delay_ms=250 lift_height=40" in " ".join(app.seen)
    pins = app.frame()
    tree = lone_tree(pins, margin=90)
    start = (round(tree["x"]), round(tree["y"]))
    grab = (tree["x"] - start[0], tree["y"] - start[1])
    app.press(*start)
    time.sleep(0.45)
    assert "LIFTED" in [e["kind"] for e in app.events(settle=0.05)]
    end = (start[0] - 90, start[1] + 60)
    for i in range(1, 6):
        app.move(start[0] + (end[0] - start[0]) * i // 5, start[1] + (end[1] - start[1]) * i // 5)
    app.release()
    moved = [e for e in app.events(settle=0.5) if e["kind"] == "MOVED"]
    assert len(moved) == 1 and moved[0]["id"] == tree["id"]
    assert points_apart((moved[0]["lon"], moved[0]["lat"]), (end[0] + grab[0], end[1] + grab[1] - 40), app) < POINTER_EPS


def test_a_drag_on_the_empty_map_pans_it_and_pindrop_follows(app):
    pins = app.frame()
    spot = empty_spot(pins, clusters=app.clusters)
    dx, dy = (-150 if spot[0] > WIDTH / 2 else 150), (-100 if spot[1] > HEIGHT / 2 else 100)   # within the map
    app.drag(spot, (spot[0] + dx, spot[1] + dy), steps=10)
    assert not [e for e in app.events() if e["kind"] in ("LIFTED", "MOVED")]
    after = app.frame()
    moved = [(after[i]["x"] - p["x"], after[i]["y"] - p["y"]) for i, p in pins.items() if i in after]
    assert moved
    for mx, my in moved:
        assert abs(mx - dx) < POINTER_EPS and abs(my - dy) < POINTER_EPS


def stack_offsets(pins, anchor):
    """The offsets (points) from their true spot of the spread trees whose leg starts at `anchor`,
    in id order, and their ids."""
    ids = sorted(i for i, p in pins.items() if p["flags"] & 8 and
                 math.hypot(p["anchor_x"] - anchor[0], p["anchor_y"] - anchor[1]) < 1e-6)
    return [(pins[i]["x"] - anchor[0], pins[i]["y"] - anchor[1]) for i in ids], ids


def fitted_offsets(n, spacing=25.0):
    """The first n points of docs/spreading.md's fitted layout of an open stack, about its centre:
    the triangular lattice at `spacing` points (rows spacing*sqrt(3)/2 apart, every other row
    shifted by half a step), nearest first, ties clockwise from up (screen y grows down)."""
    r = int(math.sqrt(n)) + 2
    pts = [((i + j / 2) * spacing, j * spacing * math.sqrt(3) / 2)
           for j in range(-2 * r, 2 * r + 1) for i in range(-2 * r, 2 * r + 1)]
    def order(p):
        return (round(math.hypot(*p) / spacing, 9), math.atan2(p[0], -p[1]) % (2 * math.pi))
    return sorted(pts, key=order)[:n]


def assert_fits_the_view(got, anchor, ids, spacing=25.0):
    """An opened stack's trees are each drawn once, inside the view inset by half the spacing,
    and no two closer than the spacing: each is hit where it is drawn."""
    assert len(ids) == len(set(ids))
    for x, y in got:
        assert spacing / 2 - 1e-6 <= anchor[0] + x <= WIDTH - spacing / 2 + 1e-6
        assert spacing / 2 - 1e-6 <= anchor[1] + y <= HEIGHT - spacing / 2 + 1e-6
    assert min(math.hypot(a[0] - b[0], a[1] - b[1])
               for k, a in enumerate(got) for b in got[k + 1:]) > spacing - 1e-6


def assert_layout(got, want):
    assert len(got) == len(want)
    assert max(math.hypot(g[0] - w[0], g[1] - w[1]) for g, w in zip(got, want)) < 1e-6


@pytest.mark.parametrize("app", [("--spread", "spiral", "--spread-on-tap", "0", "--zoom", "19")], indirect=True)
def test_a_spiral_stack_keeps_its_size_and_a_tree_dragged_out_lands_where_dropped(app):
    """Lawndale's 305 trees on one spot, on the spiral of docs/spreading.md (the oracle of
    bindings/python/tests/test_spiral.py), the same in points after zooming in with the + key."""
    from test_spiral import oracle_offsets
    centre = (WIDTH / 2, HEIGHT / 2)                     # the stack is the view's centre
    pins = app.frame()
    got, ids = stack_offsets(pins, centre)
    assert len(ids) == 305
    assert_layout(got, oracle_offsets(305))
    app.key("plus")
    assert float(app.wait_for("ZOOM").split()[1]) == 20
    app.zoom = 20
    assert_layout(stack_offsets(app.frame(), centre)[0], oracle_offsets(305))
    # Drag the outermost tree (pin 0) out to an empty corner of the map.
    pins = app.frame()
    tree = pins[ids[0]]
    start = (round(tree["x"]), round(tree["y"]))
    grab = (tree["x"] - start[0], tree["y"] - start[1])
    end = (60, HEIGHT - 60)
    app.drag(start, end, steps=10)
    moved = [e for e in app.events() if e["kind"] == "MOVED"]
    assert len(moved) == 1 and moved[0]["id"] == ids[0] and moved[0]["cause"] == "DRAG"
    assert points_apart((moved[0]["lon"], moved[0]["lat"]), (end[0] + grab[0], end[1] + grab[1]), app) < POINTER_EPS
    # The 304 left re-form their spiral.
    after = app.frame()
    got, rest = stack_offsets(after, centre)
    assert rest == ids[1:]
    assert_layout(got, oracle_offsets(304))


def test_arrow_keys_nudge_the_selected_tree_and_one_undo_takes_the_series_back(app):
    pins = app.frame()
    tree = lone_tree(pins)
    app.press(round(tree["x"]), round(tree["y"]))
    app.release()
    assert kinds(app.events()) == ["SELECTED"]
    for key in ("Right", "Right", "Right", "shift+Up"):
        app.key(key)
    moved = [e for e in app.events() if e["kind"] == "MOVED"]
    assert [e["cause"] for e in moved] == ["NUDGE"] * 4
    assert points_apart((moved[-1]["lon"], moved[-1]["lat"]), (tree["x"] + 3, tree["y"] - 10), app) < 1e-6
    app.key("u")                                          # one undo: the key series was one step
    undo = [e for e in app.events() if e["kind"] == "MOVED"]
    assert len(undo) == 1 and undo[0]["cause"] == "UNDO"
    assert points_apart((undo[0]["lon"], undo[0]["lat"]), (tree["x"], tree["y"]), app) < 1e-6


def screenshot(app, png):
    """Saves the app's window as X shows it to `png`; returns rgb(x, y) of the pixels of map point (x, y)."""
    time.sleep(0.3)
    xwd = subprocess.run(["xwd", "-root", "-silent"], env=app.env, check=True, capture_output=True).stdout
    ppm = subprocess.run(["xwdtopnm"], input=xwd, check=True, capture_output=True).stdout
    x, y, w, h = app.window_box
    window = subprocess.run(["pnmcut", "-left", str(max(0, x)), "-top", str(max(0, y)), "-width", str(w), "-height", str(h)],
                            input=ppm, check=True, capture_output=True).stdout
    png.parent.mkdir(parents=True, exist_ok=True)
    png.write_bytes(subprocess.run(["pnmtopng"], input=window, check=True, capture_output=True).stdout)
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", ppm)
    sw, sh = int(m.group(1)), int(m.group(2))
    assert (sw, sh) == SCREEN
    pixels, step = ppm[m.end():], 1 if int(m.group(3)) < 256 else 2   # xwdtopnm may write 16-bit samples

    def rgb(mx, my):
        i = 3 * step * (int(app.oy + my) * sw + int(app.ox + mx))
        return tuple(pixels[i:i + 3 * step:step])                       # (the high byte of a 16-bit one)
    return rgb


@pytest.mark.parametrize("app", [("--zoom", "14.5", "--center", "-118.352,33.888")], indirect=True)
def test_clusters_are_drawn_and_a_tap_on_one_zooms_in_until_it_comes_apart(app):
    """All of Lawndale at zoom 14.5, with the app's default clusters (radius 60): the app draws
    pindrop's clusters (count in a disc); a click on the biggest takes the camera to its expansion
    zoom, centred on it, where it is no longer one."""
    app.frame()
    assert len(app.clusters) >= 5, "no clusters at zoom 14.5"
    assert sum(c["count"] for c in app.clusters) > 7000      # most of Lawndale's 7,937 trees
    # The screenshot: each cluster's disc (coloured by its commonest species: test_gtk_keyboard.py)
    # where the app reported it, the count's white text at the centre.
    rgb = screenshot(app, SCREENSHOT.with_name("gtk-clusters.png"))
    for c in app.clusters:
        pixel = rgb(c["x"], c["y"] - 10)                   # above the count, inside the disc
        assert max(abs(p - 255 * b) for p, b in zip(pixel, (0.93, 0.92, 0.88))) > 40, (c, pixel)
    biggest = max(app.clusters, key=lambda c: c["count"])
    app.press(round(biggest["x"]), round(biggest["y"]))
    app.release()
    tapped = [e for e in app.events(settle=0.6) if e["kind"] == "CLUSTER_TAPPED"]
    assert len(tapped) == 1 and tapped[0]["key"] == biggest["key"]
    zoom = tapped[0]["expansion_zoom"]
    assert 14 < zoom <= 17
    app.zoom, app.centre = zoom, (biggest["lon"], biggest["lat"])
    app.frame()
    # Its members are now split: no cluster holds them all.
    assert all(c["count"] < biggest["count"] for c in app.clusters)


@pytest.mark.parametrize("app", [("--spread", "spiral", "--spread-on-tap", "0", "--zoom", "20.5")], indirect=True)
def test_screenshot_shows_the_trees_the_app_drew(app):
    """The window as X shows it: background where there is no tree, tree colour at drawn trees."""
    pins = app.frame()
    rgb = screenshot(app, SCREENSHOT)
    drawn = [p for p in pins.values() if p["flags"] in (0, 8) and 10 < p["x"] < WIDTH - 10 and 10 < p["y"] < HEIGHT - 10]
    assert len(drawn) > 100
    green = [p for p in drawn if (lambda r, g, b: g > r + 40 and g > b + 40)(*rgb(p["x"], p["y"]))]
    assert len(green) >= 0.95 * len(drawn)                  # the trees' green (a few may overlap)
    spot = empty_spot(pins, clusters=app.clusters)
    assert all(abs(c - 255 * e) <= 2 for c, e in zip(rgb(*spot), (0.93, 0.92, 0.88))), rgb(*spot)  # background
