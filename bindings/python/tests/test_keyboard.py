"""Behaviour 20 through the Python package: the keyboard focus (Map.focus_step, Map.focus, the
PIN_FOCUSED flag in frames) and the keyboard drag (Map.key_lift, nudges as a drag, Map.key_drop,
cancel_gesture), with explicit times. The reading order is checked against Python's own sort of
the frame's pins and clusters."""
from __future__ import annotations

import ctypes
import dataclasses
import math
import random
import subprocess

import pytest

import pindrop
from pindrop import _ffi

W, H, R = 1200.0, 800.0, 22.0


def make_map(zoom=18, **options):
    m = pindrop.Map(**options)
    m.set_camera(-118.2437, 34.0522, zoom=zoom, width=W, height=H)
    return m


def add_at(m, pid, x, y):
    m.add(pid, *m.to_lonlat(x, y))


def reading_order(m, t):
    """The pins and clusters of the frame at t inside the viewport, sorted by (row, x, pin first, id/key)."""
    items = [(math.floor(v.y / R), v.x, 0, v.id, pindrop.Focus("pin", v.id, None, v.x, v.y))
             for v in m.frame(t) if 0 <= v.x <= W and 0 <= v.y <= H]
    items += [(math.floor(c.y / R), c.x, 1, c.key, pindrop.Focus("cluster", None, c.key, c.x, c.y))
              for c in m.clusters(t) if 0 <= c.x <= W and 0 <= c.y <= H]
    return [i[-1] for i in sorted(items, key=lambda i: i[:4])]


@pytest.mark.parametrize("clustered", [False, True])
def test_focus_steps_follow_the_reading_order_and_wrap(clustered):
    rng = random.Random(21)
    with make_map(zoom=14 if clustered else 18, cluster_radius=60 if clustered else 0,
                  spread_mode=pindrop.SPREAD_OFF) as m:
        for pid in range(1, 151):
            x, y = rng.uniform(-150, W + 150), rng.uniform(-150, H + 150)
            add_at(m, pid, round(x), round(y))
            if pid % 15 == 0:
                add_at(m, 1000 + pid, round(x), round(y))   # same point: tied on x, taken by id
        order = reading_order(m, 0)   # also the frame the focus moves through
        assert len(order) > 10
        if clustered:
            assert any(f.kind == "cluster" for f in order) and any(f.kind == "pin" for f in order)
        assert m.focus_rank == (None, len(order))
        forward = []
        for i in range(len(order) + 1):
            forward.append(m.focus_step(1))
            assert m.focus_rank == (i % len(order), len(order))
        assert forward == order + [order[0]]
        backward = [m.focus_step(-1) for _ in range(len(order))]
        assert backward == order[::-1]
        assert m.focus == order[0]


def test_focus_is_a_frozen_dataclass_and_the_frame_flags_the_focused_pin():
    with make_map() as m:
        assert m.focus_step(1) == pindrop.Focus("none", None, None, 0.0, 0.0)  # no frame yet
        add_at(m, 1, 100, 100)
        add_at(m, 2, 600, 105)
        add_at(m, 3, 300, 400)
        m.frame(0)
        f = m.focus_step(1)
        assert dataclasses.is_dataclass(f) and (f.kind, f.id, f.key) == ("pin", 1, None)
        assert f.x == pytest.approx(100) and f.y == pytest.approx(100)
        with pytest.raises(dataclasses.FrozenInstanceError):
            f.id = 2
        assert m.focus_step(1).id == 2
        views = m.frame(10)
        assert [v.id for v in views if v.flags & pindrop.PIN_FOCUSED] == [2]
        assert views[-1].id == 2, "the focused pin is drawn above the others"
        arr = m.frame(20, array=True)
        assert [int(v["id"]) for v in arr if v["flags"] & pindrop.PIN_FOCUSED] == [2]
        # A bad step: InvalidArgument with the map's message; the focus stays.
        for bad in (0, 2, -2, 2 ** 31 - 1):
            with pytest.raises(pindrop.InvalidArgument, match="must be"):
                m.focus_step(bad)
            assert m.focus.id == 2
        # The focused pin removed: the focus moves on at once.
        m.remove(2)
        assert m.focus.id == 3


def test_a_keyboard_drag_is_lifted_nudged_dropped_and_undone_in_one_step():
    with make_map(min_spacing_m=5) as m:
        add_at(m, 7, 600, 400)
        add_at(m, 8, 650, 392)
        start = m.position(7)
        m.frame(0)
        while m.focus_step(1).id != 7:
            pass
        # Alt+Space: the host selects the focused pin and lifts it.
        m.select(m.focus.id)
        m.key_lift(100)
        assert [e.type for e in m.events()] == ["SELECTED", "LIFTED"]
        v = next(v for v in m.frame(200) if v.id == 7)
        # Its lift still rises at 200 (lift_duration_ms 200 from 100): ANIMATING until 300.
        assert v.flags == pindrop.PIN_SELECTED | pindrop.PIN_DRAGGING | pindrop.PIN_FOCUSED | pindrop.PIN_ANIMATING
        assert not next(v for v in m.frame(300) if v.id == 7).flags & pindrop.PIN_ANIMATING
        assert (v.x, v.y) == pytest.approx(m.to_screen(*start), abs=1e-9)   # lift_height not applied
        x, y = v.x, v.y
        # Arrows: five Shift+Right (10 points), one Up; DRAGGED each, nothing saved.
        for k in range(5):
            m.nudge(10, 0, 300 + k)
        m.nudge(0, -1, 310)
        dragged = list(m.events())
        assert [e.type for e in dragged] == ["DRAGGED"] * 6
        assert (dragged[-1].lon, dragged[-1].lat) == pytest.approx(m.to_lonlat(x + 50, y - 1), abs=1e-12)
        assert m.position(7) == start
        # A touch or a second lift while the keyboard holds it: StateError, nothing changes.
        with pytest.raises(pindrop.StateError, match="keyboard"):
            m.touch(0, "down", x + 50, y - 1, 320)
        with pytest.raises(pindrop.StateError, match="already lifted"):
            m.key_lift(320)
        assert list(m.events()) == []
        # Space: DROPPED, then MOVED with cause KEYBOARD exactly at the last DRAGGED, and its follow-ups.
        m.key_drop(400)
        e = list(m.events())
        assert [x.type for x in e] == ["DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST", "NEARBY"]
        assert e[1].cause == "KEYBOARD" and (e[1].lon, e[1].lat) == (dragged[-1].lon, dragged[-1].lat)
        assert (e[1].from_lon, e[1].from_lat) == start
        assert e[4].other == 8
        assert m.position(7) == (dragged[-1].lon, dragged[-1].lat)
        # Ctrl+Z: the whole drag in one step.
        m.undo(500)
        assert [x.cause for x in m.events() if x.type == "MOVED"] == ["UNDO"]
        assert m.position(7) == start
        with pytest.raises(pindrop.StateError):
            m.undo(510)
        with pytest.raises(pindrop.StateError, match="no keyboard drag"):
            m.key_drop(520)


def test_esc_puts_a_keyboard_drag_back_and_auto_pan_asks_for_ticks():
    with make_map() as m:
        add_at(m, 7, 600, 400)
        start = m.position(7)
        with pytest.raises(pindrop.StateError, match="nothing is selected"):
            m.key_lift(0)
        m.select(7)
        m.key_lift(10)
        x, y = m.to_screen(*start)
        m.nudge(W - 10 - x, 0, 20)            # 10 points from the right edge: 30 deep in the band
        assert m.next_deadline == pytest.approx(20 + 1000 / 60)
        m.tick(120)
        pan = [e for e in m.events() if e.type == "AUTOPAN"]
        assert len(pan) == 1 and pan[0].dx == pytest.approx(600 * 30 / 40 * 0.1) and pan[0].dy == 0
        m.cancel_gesture(130)
        e = [e for e in m.events() if e.type in ("DRAG_CANCELLED", "MOVED")]
        assert [x.type for x in e] == ["DRAG_CANCELLED"] and (e[0].lon, e[0].lat) == start
        assert m.position(7) == start
        assert m.next_deadline == math.inf
        # Time never goes back, for the keyboard calls too.
        with pytest.raises(pindrop.InvalidArgument, match="earlier"):
            m.key_lift(100)


@pytest.mark.native_only
def test_the_keyboard_functions_are_exported_and_declared():
    out = subprocess.run(["nm", "-D", "--defined-only", str(_ffi.library_path)], capture_output=True, text=True,
                         check=True).stdout
    exported = {line.split()[2] for line in out.splitlines() if len(line.split()) >= 3}
    for name in ("pindrop_map_focus_step", "pindrop_map_focused", "pindrop_map_key_lift", "pindrop_map_key_drop"):
        assert name in exported
        assert name in _ffi.SIGNATURES
    assert pindrop.PIN_FOCUSED == 32 and pindrop.CAUSES[8] == "KEYBOARD"
    assert ctypes.sizeof(_ffi.Focus) == 40


def test_distance_and_bearing_agree_with_pyproj_on_the_same_sphere():
    pyproj = pytest.importorskip("pyproj")
    geod = pyproj.Geod(a=6378137.0, b=6378137.0)
    rng = random.Random(5)
    for _ in range(500):
        lon1, lat1 = rng.uniform(-180, 180), rng.uniform(-85, 85)
        scale = rng.choice([1e-5, 1e-3, 0.1, 10])
        lon2 = max(-180.0, min(180.0, lon1 + rng.uniform(-scale, scale)))
        lat2 = max(-90.0, min(90.0, lat1 + rng.uniform(-scale, scale)))
        d, b = pindrop.distance(lon1, lat1, lon2, lat2)
        az, _, dist = geod.inv(lon1, lat1, lon2, lat2)
        assert d == pytest.approx(dist, rel=1e-9, abs=1e-6)
        if dist > 0.01:
            assert 0 <= b < 360
            assert (b - az % 360 + 180) % 360 - 180 == pytest.approx(0, abs=1e-6)
    assert pindrop.distance(10, 20, 10, 20) == (0.0, 0.0)
    assert pindrop.distance(0, 0, 0, 1)[1] == pytest.approx(0)
    assert pindrop.distance(0, 0, 1, 0)[1] == pytest.approx(90)
    for bad in [(math.nan, 0, 0, 0), (0, 91, 0, 0), (0, 0, 181, 0), (0, 0, 0, math.inf)]:
        with pytest.raises(pindrop.InvalidArgument, match="from|to"):
            pindrop.distance(*bad)


def lawndale(data_dir):
    import json
    path = data_dir / "la_trees_geojson" / "lawndale.geojson"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    features = json.loads(path.read_text())["features"]
    return [(i + 1, *f["geometry"]["coordinates"][:2]) for i, f in enumerate(features)]


def test_tab_through_lawndale_clustered_and_drag_a_tree_out_of_its_stack_by_keyboard(data_dir):
    """The 7,937 street trees of Lawndale: Tab through a clustered view and through the spiral of
    its biggest stack (305 trees on one coordinate) in reading order, then lift one tree of the
    spiral by keyboard, move it 60 points, drop it and undo."""
    np = pytest.importorskip("numpy")
    trees = lawndale(data_dir)
    stack = (-118.34600679066747, 33.88355188855412)
    with pindrop.Map(cluster_radius=30, spread_mode=pindrop.SPREAD_SPIRAL, lift_delay_ms=0, lift_height=0) as m:
        m.add_many(np.array([t[0] for t in trees]), np.array([t[1:] for t in trees]))
        m.set_camera(-118.352, 33.890, zoom=16, width=W, height=H)
        order = reading_order(m, 0)
        assert sum(f.kind == "cluster" for f in order) > 100 and sum(f.kind == "pin" for f in order) > 5
        assert [m.focus_step(1) for _ in order] == order

        # Zoom 19 on the stack: no clusters; the 305 trees are laid out on a spiral. The focused
        # item of the zoom-16 view is not drawn any more: the frame moves the focus to the next
        # item in reading order from where it was drawn.
        was = m.focus
        was_key = (math.floor(was.y / R), was.x, 0 if was.kind == "pin" else 1, was.id if was.kind == "pin" else was.key)
        m.set_camera(*stack, zoom=19, width=W, height=H)
        order = reading_order(m, 100)
        keys = [(math.floor(f.y / R), f.x, 0 if f.kind == "pin" else 1, f.id if f.kind == "pin" else f.key) for f in order]
        after = [i for i, k in enumerate(keys) if k > was_key]
        start = after[0] if after else 0
        assert m.focus == order[start]
        on_stack = {pid for pid, lon, lat in trees if (lon, lat) == stack}
        assert len(on_stack) == 305
        assert len([f for f in order if f.id in on_stack]) > 100
        n = len(order)
        assert [m.focus_step(-1) for _ in order] == [order[(start - k) % n] for k in range(1, n + 1)]
        while m.focus.id not in on_stack:
            m.focus_step(1)
        pid = m.focus.id
        v = next(v for v in m.frame(200) if v.id == pid)
        assert v.flags & pindrop.PIN_FOCUSED and v.flags & pindrop.PIN_SPREAD
        m.select(pid)
        m.key_lift(300)
        for k in range(6):
            m.nudge(10, 0, 310 + k)
        m.key_drop(400)
        moved = [e for e in m.events() if e.type == "MOVED"]
        assert len(moved) == 1 and moved[0].cause == "KEYBOARD" and moved[0].id == pid
        assert (moved[0].from_lon, moved[0].from_lat) == stack
        assert (moved[0].lon, moved[0].lat) == pytest.approx(m.to_lonlat(v.x + 60, v.y), abs=1e-12)
        assert m.to_screen(*m.position(pid)) == pytest.approx((v.x + 60, v.y), abs=1e-6)
        # "moved 15 m east": 60 points at zoom 19 are 60 * 156543.034 * cos(lat) / 2^19 metres.
        metres, bearing = pindrop.distance(*m.to_lonlat(v.x, v.y), *m.position(pid))
        assert metres == pytest.approx(60 * 156543.03392804097 * math.cos(math.radians(stack[1])) / 2 ** 19, rel=1e-3)
        assert bearing == pytest.approx(90, abs=0.01)
        m.undo(500)
        assert m.position(pid) == stack
        assert next(v for v in m.frame(1000) if v.id == pid).flags & pindrop.PIN_SPREAD
