"""Behaviour 11: pins that share a spot are drawn on a ring — checked against pyproj's geodesics on
the 6378137 m sphere and on real street-tree inventories, through the C ABI (GEOS index)."""
from __future__ import annotations

import ctypes
import json
import math
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

import pindrop
from pindrop import _ffi

pyproj = pytest.importorskip("pyproj")
GEOD = pyproj.Geod(a=6378137.0, b=6378137.0)
DATA = (Path(__file__).resolve().parents[3] / ".." / "shared" / "data").resolve()
GEOJSON = DATA / "la_trees_geojson"
lib = _ffi.lib

CENTRES = [(12.5, 0.0), (-118.35259, 33.90054), (24.9384, 60.1699), (170.5036, -45.8788),
           (179.99999, -16.5), (-179.999995, 52.2)]


def ring_by_pyproj(lon, lat, n):
    """Where pin i of n goes: pyproj's forward geodesic on the sphere, azimuth 360·i/n degrees."""
    i = np.arange(n)
    x, y, _ = GEOD.fwd(np.full(n, lon), np.full(n, lat), 360.0 * i / n, np.full(n, 1.5 * n))
    return np.column_stack([x, y])


def metres_apart(a, b):
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    _, _, d = GEOD.inv(a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    return np.asarray(d)


def load_geojson(name):
    path = GEOJSON / f"{name}.geojson"
    if not path.exists():
        pytest.skip(f"real data missing: {path} (the shared data folder sits next to the checkout)")
    features = json.loads(path.read_text())["features"]
    return np.array([f["geometry"]["coordinates"][:2] for f in features if f.get("geometry")], dtype=np.float64)


def map_with(points, tolerance=0.0, ids=None):
    m = pindrop.Map(pindrop.Options(spread_tolerance_m=tolerance))
    ids = np.arange(len(points), dtype=np.int64) if ids is None else ids
    m.add_many(ids, points)
    return m


def displayed(m, ids):
    return np.array([m.display_position(int(i)) for i in ids])


def group_by_rule(points, tolerance):
    """The rule written plainly: in index order, a point joins the lowest-index first pin within
    `tolerance` metres (haversine on the 6378137 m sphere), otherwise it starts a group."""
    r = 6378137.0
    lon, lat = np.radians(points[:, 0]), np.radians(points[:, 1])
    leaders: list[int] = []
    group = np.empty(len(points), dtype=np.int64)
    for i in range(len(points)):
        if leaders:
            L = np.array(leaders)
            if tolerance == 0:
                hit = np.nonzero((points[L, 0] == points[i, 0]) & (points[L, 1] == points[i, 1]))[0]
            else:
                h = (np.sin((lat[i] - lat[L]) / 2) ** 2
                     + np.cos(lat[L]) * np.cos(lat[i]) * np.sin((lon[i] - lon[L]) / 2) ** 2)
                hit = np.nonzero(2 * r * np.arcsin(np.minimum(1, np.sqrt(h))) <= tolerance)[0]
            if hit.size:
                group[i] = hit[0]
                continue
        group[i] = len(leaders)
        leaders.append(i)
    return group


def expected_layout(points, group):
    """Drawn positions by pyproj: each group of n ≥ 2 on a ring around its members' mean."""
    out = points.copy()
    members = defaultdict(list)
    for i, g in enumerate(group):
        members[g].append(i)
    for g, m in members.items():
        if len(m) < 2:
            continue
        base = points[m[0]]
        dlon = (points[m, 0] - base[0] + 180.0) % 360.0 - 180.0
        centre = (base[0] + dlon.mean(), base[1] + (points[m, 1] - base[1]).mean())
        out[m] = ring_by_pyproj(centre[0], centre[1], len(m))
    return out


# -- rings against pyproj -----------------------------------------------------------------------

@pytest.mark.parametrize("lon,lat", CENTRES)
@pytest.mark.parametrize("n", [2, 3, 5, 12, 305])
def test_rings_match_pyproj_on_the_sphere(lon, lat, n):
    want = ring_by_pyproj(lon, lat, n)
    # Batch.
    got = pindrop.spread(np.tile([lon, lat], (n, 1)))
    assert metres_apart(got, want).max() < 1e-6
    assert np.all(np.abs(got[:, 0]) <= 180)
    # Map, ids handed in scrambled order: the ring follows the ids.
    ids = np.random.default_rng(n).permutation(n).astype(np.int64) * 5 - 7
    with map_with(np.tile([lon, lat], (n, 1)), ids=ids) as m:
        order = np.sort(ids)
        drawn = displayed(m, order)
        assert metres_apart(drawn, want).max() < 1e-6
        assert np.array_equal(drawn, got)
        for i in order:
            assert m.position(int(i)) == (lon, lat)


def test_a_lone_pin_stays_exactly_put():
    p = np.array([[-118.35259236902644, 33.900539810736184], [-118.3, 33.9]])
    assert np.array_equal(pindrop.spread(p), p)
    assert np.array_equal(pindrop.spread(p, 10.0), p)  # 4.9 km apart: two groups of one
    with map_with(p) as m:
        assert m.display_position(0) == tuple(p[0])
        assert all(v.flags & pindrop.PIN_SPREAD == 0 for v in m.frame(0))


# -- real data ------------------------------------------------------------------------------------

def test_lawndale_stacks_are_drawn_as_their_rings():
    pts = load_geojson("lawndale")
    stacks = Counter(map(tuple, pts)).most_common(2)
    assert [n for _, n in stacks] == [305, 261]
    with map_with(pts) as m:
        batch = pindrop.spread(pts)
        for (lon, lat), n in stacks:
            ids = np.nonzero((pts[:, 0] == lon) & (pts[:, 1] == lat))[0]
            want = ring_by_pyproj(lon, lat, n)
            drawn = displayed(m, ids)
            assert metres_apart(drawn, want).max() < 1e-6
            assert np.array_equal(batch[ids], drawn)
            assert np.allclose(metres_apart(drawn, np.tile([lon, lat], (n, 1))), 1.5 * n, atol=1e-6)
            assert all(m.position(int(i)) == (lon, lat) for i in ids)
            # A frame around the 305 ring shows its pins where they are drawn, anchored at the stack.
        (lon, lat), n = stacks[0]
        m.set_camera(lon, lat, 16, 800, 800)
        cx, cy = m.to_screen(lon, lat)
        views = {v.id: v for v in m.frame(0)}
        ids = np.nonzero((pts[:, 0] == lon) & (pts[:, 1] == lat))[0]
        for i in ids:
            v = views[int(i)]
            assert v.flags & pindrop.PIN_SPREAD
            assert (v.anchor_x, v.anchor_y) == pytest.approx((cx, cy), abs=1e-6)
            assert (v.x, v.y) == pytest.approx(m.to_screen(*m.display_position(int(i))), abs=1e-6)
        # The whole data set: every pin drawn where the rule puts it.
        everything = displayed(m, np.arange(len(pts)))
        assert metres_apart(everything, expected_layout(pts, group_by_rule(pts, 0.0))).max() < 1e-6


@pytest.mark.parametrize("tolerance", [12.0])
def test_west_hollywood_tolerance_groups_rounded_coordinates(tolerance):
    pts = load_geojson("west-hollywood")
    group = group_by_rule(pts, tolerance)
    sizes = Counter(group)
    assert sum(1 for s in sizes.values() if s > 1) > 50, "rounded coordinates make many near-coincident groups"
    want = expected_layout(pts, group)
    got = pindrop.spread(pts, tolerance)
    assert metres_apart(got, want).max() < 1e-6
    with map_with(pts, tolerance) as m:
        assert np.array_equal(displayed(m, np.arange(len(pts))), got)
    # Exact coincidence finds fewer: the rounding left most near neighbours a few metres apart.
    exact = Counter(group_by_rule(pts, 0.0))
    assert sum(s for s in exact.values() if s > 1) < sum(s for s in sizes.values() if s > 1)


def test_a_chain_of_pins_does_not_chain():
    lon, lat, _ = GEOD.fwd(np.full(12, -118.25), np.full(12, 34.05), np.full(12, 90.0), 1.5 * np.arange(12))
    pts = np.column_stack([lon, lat])
    got = pindrop.spread(pts, 2.0)
    group = np.arange(12) // 2  # 0+1, 2+3, ...: each first pin is 3 m from the previous one
    assert np.array_equal(group_by_rule(pts, 2.0), group)
    assert metres_apart(got, expected_layout(pts, group)).max() < 1e-6
    with map_with(pts, 2.0) as m:
        assert np.array_equal(displayed(m, np.arange(12)), got)


# -- dragging out of a ring -----------------------------------------------------------------------

def test_moving_a_pin_out_of_a_ring_leaves_a_ring_of_n_minus_1():
    spot = (-118.07692900109724, 33.87283999908298)  # Artesia's stack of 72
    n = 72
    with map_with(np.tile(spot, (n, 1))) as m:
        m.set_camera(spot[0], spot[1], 17, 1200, 1200)
        # The pin is grabbed where it is drawn (not at the stack) ...
        x, y = m.to_screen(*m.display_position(18))
        assert m.hit_test(x, y) == 18
        # ... and dropped 200 m away: that is now its true coordinate, drawn there.
        lon, lat, _ = GEOD.fwd(spot[0], spot[1], 45.0, 200.0)
        m.set_position(18, lon, lat)
        assert m.position(18) == (lon, lat) == m.display_position(18)
        rest = [i for i in range(n) if i != 18]
        drawn = displayed(m, rest)
        assert metres_apart(drawn, ring_by_pyproj(spot[0], spot[1], n - 1)).max() < 1e-6
        assert np.allclose(metres_apart(drawn, np.tile(spot, (n - 1, 1))), 1.5 * (n - 1), atol=1e-6)
        views = {v.id: v for v in m.frame(0)}
        assert views[18].flags & pindrop.PIN_SPREAD == 0
        assert all(views[i].flags & pindrop.PIN_SPREAD for i in rest if i in views)
        # Nothing is hit at the stack itself: every pin there is drawn 106 m away.
        assert m.hit_test(*m.to_screen(*spot)) is None


# -- the C function's contract ---------------------------------------------------------------------

def _raw_spread(src, n, tolerance, out):
    return lib.pindrop_spread(src, n, tolerance, out)


@pytest.mark.parametrize("bad", [[0, 0, np.nan, 1], [0, 0, 180.5, 1], [0, 0, 1, 91], [-np.inf, 0, 0, 0]])
def test_bad_coordinates_write_nothing(bad):
    src = np.array(bad, dtype=np.float64)
    out = np.full(4, 7.0)
    with pytest.raises(pindrop.InvalidArgument):
        _raw_spread(src.ctypes.data, 2, 0.0, out.ctypes.data)
    assert np.array_equal(out, np.full(4, 7.0))


@pytest.mark.parametrize("tolerance", [-1.0, math.nan, math.inf])
def test_bad_tolerance_writes_nothing(tolerance):
    src = np.zeros(4)
    out = np.full(4, 7.0)
    with pytest.raises(pindrop.InvalidArgument):
        _raw_spread(src.ctypes.data, 2, tolerance, out.ctypes.data)
    assert np.array_equal(out, np.full(4, 7.0))


def test_null_pointers_and_empty_input():
    out = np.full(4, 7.0)
    with pytest.raises(pindrop.InvalidArgument):
        _raw_spread(None, 2, 0.0, out.ctypes.data)
    with pytest.raises(pindrop.InvalidArgument):
        _raw_spread(np.zeros(4).ctypes.data, 2, 0.0, None)
    assert _raw_spread(None, 0, 0.0, None) == 0
    assert pindrop.spread(np.empty((0, 2))).shape == (0, 2)


def test_out_may_alias_the_input():
    pts = load_geojson("artesia")
    want = pindrop.spread(pts, 3.0)
    buf = np.ascontiguousarray(pts.copy())
    _raw_spread(buf.ctypes.data, len(pts), 3.0, buf.ctypes.data)
    assert np.array_equal(buf, want)
    assert not np.array_equal(buf, pts)


def test_dragging_a_pin_out_of_a_ring_with_the_mouse_leaves_a_ring_of_n_minus_1():
    """A person grabs pin 3 of a 5-pin ring where it is drawn, drags it 120 points away and lets go:
    the drop is its new true coordinate, and the other four re-form a ring of radius 6 m."""
    lon, lat = -118.35259, 33.90054
    with pindrop.Map(pindrop.Options(lift_delay_ms=0, lift_height=0)) as m:
        m.set_camera(lon, lat, zoom=20, width=800, height=600)
        for pin in range(1, 6):
            m.add(pin, lon, lat)
        x, y = m.to_screen(*m.display_position(3))
        tx, ty = m.to_screen(lon, lat)
        assert math.hypot(x - tx, y - ty) > 20  # drawn on the ring, away from the stack itself
        assert m.hit_test(x, y) == 3
        assert m.touch(0, pindrop.TOUCH_DOWN, x, y, 0.0)
        m.touch(0, pindrop.TOUCH_MOVE, x + 60, y + 10, 20.0)
        m.touch(0, pindrop.TOUCH_MOVE, x + 120, y + 20, 40.0)
        m.touch(0, pindrop.TOUCH_UP, x + 120, y + 20, 60.0)
        events = list(m.events())
        dragged = [e for e in events if e.type == "DRAGGED"][-1]
        moved = [e for e in events if e.type == "MOVED"]
        assert len(moved) == 1 and moved[0].id == 3 and moved[0].cause == "DRAG"
        assert (moved[0].lon, moved[0].lat) == (dragged.lon, dragged.lat)
        assert m.position(3) == (dragged.lon, dragged.lat)
        assert m.display_position(3) == m.position(3)  # alone now: drawn where it is
        rest = [1, 2, 4, 5]
        drawn = np.array([m.display_position(p) for p in rest])
        expected = ring_by_pyproj(lon, lat, 4)
        assert metres_apart(drawn, expected).max() < 1e-6
        assert np.allclose(metres_apart(drawn, np.tile([lon, lat], (4, 1))), 6.0, atol=1e-6)
        assert all(m.position(p) == (lon, lat) for p in rest)
