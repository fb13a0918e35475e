"""A seeded model-based test: 100,000 random operations on one map, each also applied to a pure
reference model of true positions, selection, the edit session, the undo/redo history and the
geocode requests (written from docs/editing.md, not from the code). After every operation every
pin's true position is compared with the model's, bit for bit, and so are the count, the selection
and the status each call returned; subtitles are compared every 64 operations.

Operations: drags (mouse mode, with the allowed area refusing drops outside it), drags cancelled
by TOUCH_CANCEL or cancel_gesture, taps on pins (select) and on the map (tap-to-move while
editing, else deselect), place / edit / commit / cancel_edit, undo / redo, host add / remove /
set_position, geocode answers that are current, stale or never issued, the allowed area switched
on and off, and camera changes (zoom and bearing) that change how stacks are spread and switch
clustering on and off, and keyboard drags (0.3: focus steps to a pin, key lift, nudges as a drag,
key drop or Esc, with the refusals of a key drop without a drag and a bad step); the map clusters
below zoom 18.5, so at the zooms the camera visits
(17–19.5) pins come and go from clusters between operations. A gesture is only aimed where no
cluster is drawn within the hit radius (a touch there is the cluster's, not a pin's or the map's),
and the clustered steps are counted so that the test fails if clustering never happened.

The only things taken from the library are screen geometry: where a pin is drawn (to grab it) and
which screen point is which coordinate (to_lonlat), which the gesture code must reproduce exactly.
"""
import ctypes
import math
import os
import random

import pytest

import pindrop
from pindrop._ffi import lib

OPS = int(os.environ.get("PINDROP_MODEL_OPS", "100000"))
SEED = int(os.environ.get("PINDROP_MODEL_SEED", "20261123"))

LON0, LAT0 = -118.2437, 34.0522
# A handful of spots, so that pins share coordinates (stacks spread on rings).
SPOTS = [(LON0 + 0.00011 * i, LAT0 + 0.00007 * j) for i in range(-3, 4) for j in range(-2, 3)]
# The allowed area: a rectangle over part of the spots (drops outside it are refused).
AREA = (LON0 - 0.0002, LAT0 - 0.0001, LON0 + 0.00025, LAT0 + 0.00012)
AREA_WKT = "POLYGON(({0} {1}, {2} {1}, {2} {3}, {0} {3}, {0} {1}))".format(*AREA)


class Model:
    """The reference: what the rules of docs/editing.md say the map's state is."""

    def __init__(self):
        self.pos = {}
        self.selected = None
        self.session = None          # (id, placed, origin, first_serial)
        self.undo = []               # entries (id, from, to, serial)
        self.redo = []
        self.serial = 0
        self.requests = 0            # the last request number issued
        self.pending = {}            # id -> its latest request (None: stale)
        self.subtitle = {}
        self.area = False

    def inside(self, p):
        return not self.area or (AREA[0] <= p[0] <= AREA[2] and AREA[1] <= p[1] <= AREA[3])

    def take_serial(self):
        self.serial += 1
        return self.serial - 1

    def landed(self, pid):
        self.requests += 1
        self.pending[pid] = self.requests
        lon, lat = self.pos[pid]
        self.subtitle[pid] = "%.5f, %.5f" % (lat, lon)

    def user_move(self, pid, target):
        """A drop or tap-move: refused outside the area (REVERT), else moved with a history entry."""
        if not self.inside(target):
            return False
        frm = self.pos[pid]
        self.pos[pid] = target
        self.redo.clear()
        self.undo.append((pid, frm, target, self.take_serial()))
        self.landed(pid)
        return True

    def drop_entries(self, pid, since):
        self.undo = [e for e in self.undo if not (e[0] == pid and e[3] >= since)]
        self.redo = [e for e in self.redo if not (e[0] == pid and e[3] >= since)]

    def commit_session(self):
        pid, placed, origin, first = self.session
        self.session = None
        if pid not in self.pos:
            return
        self.drop_entries(pid, first)
        here = self.pos[pid]
        if here != origin:
            self.redo.clear()
            self.undo.append((pid, origin, here, self.take_serial()))

    def cancel_session(self):
        """A placed pin is removed; an edited one goes back to where the edit began."""
        pid, placed, origin, first = self.session
        self.session = None
        if pid not in self.pos:
            return
        self.drop_entries(pid, first)
        if placed:
            self.remove(pid)
        elif self.pos[pid] != origin:
            self.pos[pid] = origin
            self.landed(pid)

    def remove(self, pid):
        del self.pos[pid]
        self.pending.pop(pid, None)
        self.subtitle.pop(pid, None)
        self.undo = [e for e in self.undo if e[0] != pid]
        self.redo = [e for e in self.redo if e[0] != pid]
        if self.selected == pid:
            self.selected = None
        if self.session and self.session[0] == pid:
            self.session = None


def expect(status_or_exc, call):
    """Runs call(); returns None on success or the exception class it raised."""
    try:
        call()
        return None
    except pindrop.PindropError as e:
        return type(e)


def test_random_operations_keep_positions_exact():
    rng = random.Random(SEED)
    model = Model()
    m = pindrop.Map(lift_delay_ms=0, lift_height=0, outside_policy=pindrop.OUTSIDE_REVERT,
                    cluster_radius=60, cluster_max_zoom=18.5)
    zoom, bearing = 18.0, 0.0
    m.set_camera(LON0, LAT0, zoom=zoom, width=800, height=600, bearing_deg=bearing)
    t = 0.0
    next_id = 1
    for _ in range(12):
        m.add(next_id, *rng.choice(SPOTS))
        model.pos[next_id] = m.position(next_id)
        next_id += 1
    counts = {}
    # The per-step check reads every position through the C function directly (it runs ~2 million
    # times): one handle, two reused doubles.
    handle = m._as_parameter_
    lon_out, lat_out = ctypes.c_double(), ctypes.c_double()
    lon_ref, lat_ref = ctypes.byref(lon_out), ctypes.byref(lat_out)
    read_position = lib.pindrop_map_position

    def drawn_screen(pid):
        return m.to_screen(*m.display_position(pid))

    clustered_steps = 0
    reach = 1.5 * pindrop.Options().hit_radius

    def clear_of_clusters(x, y):
        """No cluster is drawn near (x, y): a touch there is a pin's or the map's."""
        views = m.clusters(t, array=True)
        return all(math.hypot(float(v["x"]) - x, float(v["y"]) - y) > reach for v in views)

    def tap(x, y):
        nonlocal t
        t += 500
        m.touch(0, "down", x, y, time_ms=t)
        m.touch(0, "up", x, y, time_ms=t + 40)
        m.tick(t + 40 + 400)  # past the double-tap window
        t += 440

    for step in range(OPS):
        t += 500
        m.tick(t)  # animations of the previous step are over: pins are drawn where they rest
        op = rng.randrange(108)  # 100-107: keyboard drags (0.3)
        ids = sorted(model.pos)
        kind = None
        if len(m.clusters(t, array=True)):
            clustered_steps += 1
        if op < 30 and ids and m.hit_test(*drawn_screen(ids[op % len(ids)])) == ids[op % len(ids)] \
                and clear_of_clusters(*drawn_screen(ids[op % len(ids)])):
            kind = "drag"                                     # drag a pin and drop it
            pid = ids[op % len(ids)]                          # (one that wins the hit test where drawn)
            x, y = drawn_screen(pid)
            dx, dy = rng.uniform(-80, 80), rng.uniform(-80, 80)
            if dx * dx + dy * dy < 100:
                dx = 20.0
            assert m.touch(0, "down", x, y, time_ms=t)
            m.touch(0, "move", x + dx, y + dy, time_ms=t + 16)
            landing = m.to_lonlat(x + dx, y + dy)
            dragged = [e for e in m.events() if e.type == "DRAGGED"]
            assert dragged and dragged[-1].id == pid, (step, "grabbed another pin")
            assert (dragged[-1].lon, dragged[-1].lat) == landing
            if rng.random() < 0.15:                           # cancelled: nothing changes
                if rng.random() < 0.5:
                    m.touch(0, "cancel", x + dx, y + dy, time_ms=t + 32)
                else:                                         # Esc; the finger lifts later
                    m.cancel_gesture(t + 32)
                    m.touch(0, "up", x + dx, y + dy, time_ms=t + 40)
            else:
                m.touch(0, "up", x + dx, y + dy, time_ms=t + 32)
                model.user_move(pid, landing)
            t += 40
        elif op < 38:                                         # tap on the map
            kind = "tap map"
            x, y = rng.uniform(0, 800), rng.uniform(0, 600)
            if m.hit_test(x, y) is None and clear_of_clusters(x, y):
                target = m.to_lonlat(x, y)
                tap(x, y)
                if model.session is not None:
                    model.user_move(model.session[0], target)
                elif model.selected is not None:
                    model.selected = None
        elif op < 43 and ids and model.session is None:      # tap on a pin: selects it
            kind = "tap pin"
            pid = rng.choice(ids)
            x, y = drawn_screen(pid)
            if m.hit_test(x, y) == pid and clear_of_clusters(x, y):
                tap(x, y)
                model.selected = pid
        elif op < 49 and len(ids) < 20:                       # place a new pin
            kind = "place"
            spot = rng.choice(SPOTS)
            got = expect(None, lambda: m.place(next_id, spot[0], spot[1], t))
            if not model.inside(spot):
                assert got is pindrop.InvalidArgument, step
            else:
                assert got is None, step
                if model.session:
                    model.commit_session()
                model.pos[next_id] = spot
                model.session = (next_id, True, spot, model.serial)
                model.landed(next_id)
            next_id += 1
        elif op < 53 and ids:                                 # edit a pin
            kind = "edit"
            pid = rng.choice(ids)
            m.edit(pid, t)
            if not (model.session and model.session[0] == pid):
                if model.session:
                    model.commit_session()
                model.session = (pid, False, model.pos[pid], model.serial)
        elif op < 60:                                         # commit, or cancel the edit
            kind = "commit" if op < 57 else "cancel_edit"
            got = expect(None, lambda: (m.commit if kind == "commit" else m.cancel_edit)(t))
            if model.session is None:
                assert got is pindrop.StateError, step
            else:
                assert got is None, step
                (model.commit_session if kind == "commit" else model.cancel_session)()
        elif op < 76:                                         # undo (to `from`) or redo (to `to`)
            kind = "undo" if op < 70 else "redo"
            got = expect(None, lambda: (m.undo if kind == "undo" else m.redo)(t))
            source, target = (model.undo, model.redo) if kind == "undo" else (model.redo, model.undo)
            if not source:
                assert got is pindrop.StateError, step
            else:
                assert got is None, step
                e = source.pop()
                target.append(e)
                model.pos[e[0]] = e[1] if kind == "undo" else e[2]
                model.landed(e[0])
        elif op < 80:                                         # geocode answers: current, stale, unknown
            kind = "geocode"
            if model.requests and rng.random() < 0.9:
                req = rng.randint(max(1, model.requests - 5), model.requests)
            else:
                req = model.requests + rng.randint(1, 3)
            text = "answer %d" % step
            got = expect(None, lambda: m.answer_geocode(req, text))
            owner = [p for p, r in model.pending.items() if r == req]
            if req == 0 or req > model.requests:
                assert got is pindrop.NotFound, step
            else:
                assert got is None, step
                if owner:
                    model.subtitle[owner[0]] = text
        elif op < 84 and ids:                                 # host moves a pin
            kind = "set_position"
            pid = rng.choice(ids)
            spot = rng.choice(SPOTS)
            m.set_position(pid, *spot)
            model.pos[pid] = spot
            model.pending[pid] = None
        elif op < 87 and len(ids) > 4:                        # host removes a pin
            kind = "remove"
            pid = rng.choice(ids)
            m.remove(pid)
            model.remove(pid)
        elif op < 90 and len(ids) < 16:                       # host adds a pin
            kind = "add"
            spot = rng.choice(SPOTS)
            m.add(next_id, *spot)
            model.pos[next_id] = spot
            next_id += 1
        elif op < 93:                                         # select through the API
            kind = "select"
            pid = rng.choice(ids + [None]) if ids else None
            m.select(pid)
            model.selected = pid
        elif op < 95:                                         # the allowed area on / off
            kind = "area"
            model.area = not model.area
            m.set_allowed_area(AREA_WKT if model.area else None)
        elif op >= 100:                                       # a keyboard drag of the focused pin
            kind = "keyboard"
            m.frame(t)
            assert expect(None, lambda: m.key_drop(t)) is pindrop.StateError, step
            assert expect(None, lambda: m.focus_step(0)) is pindrop.InvalidArgument, step
            for _k in range(rng.randint(1, 4)):
                focus = m.focus_step(rng.choice([1, -1]))
            assert focus.kind in ("none", "pin", "cluster"), step
            if focus.kind == "pin":
                pid = focus.id
                assert pid in model.pos, (step, "focus on a pin that is gone")
                m.select(pid)
                model.selected = pid
                x, y = drawn_screen(pid)
                m.key_lift(t)
                assert expect(None, lambda: m.key_lift(t)) is pindrop.StateError, step
                assert expect(None, lambda: m.touch(0, "down", x, y, time_ms=t)) is pindrop.StateError, step
                n = 0 if rng.random() < 0.1 else rng.randint(1, 12)
                for k in range(n):
                    dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (10, 0), (-10, 0), (0, 10), (0, -10)])
                    m.nudge(dx, dy, t + 10 + k)
                    x += dx
                    y += dy
                landing = m.to_lonlat(x, y)
                dragged = [e for e in m.events() if e.type == "DRAGGED"]
                if n:  # the first nudge starts the drag: DRAGGED, the last one exactly where the nudges lead
                    assert dragged and dragged[-1].id == pid and (dragged[-1].lon, dragged[-1].lat) == landing, step
                else:
                    assert dragged == [], step
                counts["keyboard lift"] = counts.get("keyboard lift", 0) + 1
                if rng.random() < 0.2:                        # Esc: nothing changes
                    m.cancel_gesture(t + 50)
                else:
                    m.key_drop(t + 50)
                    moved = [e for e in m.events() if e.type == "MOVED"]
                    if n and landing != model.pos[pid] and model.user_move(pid, landing):
                        assert [e.cause for e in moved] == ["KEYBOARD"], step
                    else:
                        assert moved == [], step
            t += 100
        else:                                                 # the camera: spreading changes
            kind = "camera"
            zoom = rng.uniform(17.0, 19.5)
            bearing = rng.choice([0.0, rng.uniform(-180, 180)])
            m.set_camera(LON0, LAT0, zoom=zoom, width=800, height=600, bearing_deg=bearing)
        counts[kind] = counts.get(kind, 0) + 1
        for _e in m.events():
            pass

        # Exact after every step.
        assert len(m) == len(model.pos), (step, kind)
        for pid, p in model.pos.items():
            read_position(handle, pid, lon_ref, lat_ref)
            assert (lon_out.value, lat_out.value) == p, (step, kind, pid)
        assert m.selected == model.selected, (step, kind)
        if step % 64 == 0:
            for pid in model.pos:
                assert m.subtitle(pid) == model.subtitle.get(pid, ""), (step, kind, pid)
    m.close()
    # Every kind of operation ran often enough to matter.
    if OPS >= 100000:
        for kind in ("drag", "tap map", "tap pin", "place", "edit", "commit", "cancel_edit", "undo", "redo",
                     "geocode", "set_position", "remove", "add", "select", "area", "camera", "keyboard",
                     "keyboard lift"):
            assert counts.get(kind, 0) >= 100, (kind, counts)
        assert clustered_steps >= OPS // 20, ("clustering hardly happened", clustered_steps)
    print("operations:", dict(sorted(counts.items())), "clustered steps:", clustered_steps)
