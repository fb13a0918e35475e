"""Clusters (docs/clusters.md) on real trees, against a brute-force NumPy oracle of the rule:

level L = ceil(cluster_max_zoom) is the pins; level z is made from level z+1's items visited in
order of their key (a pin's: splitmix64's finaliser of its id; a cluster's: its first item's), each
item not yet absorbed absorbing the not-yet-absorbed items within cluster_radius / (256·2^z) of it
(normalised Web Mercator); a cluster's point is the mean of its pins' points (each rounded to
2^-32 of the world). A view at zoom z draws level floor(z).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import pindrop

RADIUS = 60.0
HIT = 22.0
M64 = (1 << 64) - 1


def order_key(i: int) -> int:
    z = (i + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def mercator(lon, lat):
    x = (np.asarray(lon) + 180.0) / 360.0
    s = np.sin(np.radians(np.clip(lat, -85.0511287798066, 85.0511287798066)))
    y = 0.5 - np.log((1 + s) / (1 - s)) / (4 * math.pi)
    return x, y


def oracle(ids, lon, lat, levels=17):
    """Every level: a list of (key, member ids, x, y) per item."""
    x, y = mercator(lon, lat)
    fx, fy = np.round(x * 2.0 ** 32).astype(np.int64), np.round(y * 2.0 ** 32).astype(np.int64)
    items = [(order_key(int(i)), [int(i)], float(a), float(b), int(p), int(q)) for i, a, b, p, q in zip(ids, x, y, fx, fy)]
    out = {levels: items}
    for z in range(levels - 1, -1, -1):
        r = RADIUS / (256 * 2.0 ** z)
        items.sort(key=lambda it: it[0])
        px = np.array([it[2] for it in items]); py = np.array([it[3] for it in items])
        free = np.ones(len(items), bool)
        nxt = []
        for i, it in enumerate(items):
            if not free[i]:
                continue
            near = free & ((px - it[2]) ** 2 + (py - it[3]) ** 2 <= r * r)
            near[i] = True
            free &= ~near
            group = [items[j] for j in np.flatnonzero(near)]
            if len(group) == 1:
                nxt.append(it)
                continue
            members = [m for g in group for m in g[1]]
            sx, sy = sum(g[4] for g in group), sum(g[5] for g in group)
            n = len(members)
            nxt.append((it[0], members, sx / n / 2.0 ** 32, sy / n / 2.0 ** 32, sx, sy))
        items = nxt
        out[z] = items
    return out


def camera_screen(cx, cy, zoom, bearing, w, h, x, y):
    """Screen points of normalised points for a Web Mercator camera (bearing clockwise, degrees)."""
    size = 256 * 2.0 ** zoom
    dx = (np.asarray(x) - cx) * size
    dx = (dx + size / 2) % size - size / 2
    dy = (np.asarray(y) - cy) * size
    b = math.radians(bearing)
    return w / 2 + dx * math.cos(b) + dy * math.sin(b), h / 2 - dx * math.sin(b) + dy * math.cos(b)


@pytest.fixture(scope="module")
def trees(data_dir):
    rows = [line.split(",") for line in (data_dir / "la_trees.csv").read_text().splitlines()[1:]
            if line.startswith(("artesia,", "lomita,"))]
    lat = np.array([float(r[2]) for r in rows]); lon = np.array([float(r[3]) for r in rows])
    return np.arange(1000, 1000 + len(rows), dtype=np.int64), lon, lat


def check_view(m, levels, ids_alive, zoom, screen, w, h, t=0.0):
    """The map's clusters and pins for the current view against the oracle's level floor(zoom)."""
    level = levels[int(math.floor(zoom))]
    xs, ys = screen(np.array([it[2] for it in level]), np.array([it[3] for it in level]))
    want_clusters, want_pins = {}, set()
    for it, sx, sy in zip(level, xs, ys):
        if len(it[1]) >= 2 and -RADIUS <= sx <= w + RADIUS and -RADIUS <= sy <= h + RADIUS:
            want_clusters[frozenset(it[1])] = (sx, sy)
        elif len(it[1]) == 1 and -HIT <= sx <= w + HIT and -HIT <= sy <= h + HIT:
            want_pins.add(it[1][0])
    got = m.clusters(t, array=True)
    got_clusters = {}
    for c in got:
        members = m.cluster_members(int(c["key"]))
        assert len(members) == c["count"] >= 2
        got_clusters[frozenset(members.tolist())] = (c["x"], c["y"])
    assert set(got_clusters) == set(want_clusters)
    for k, (sx, sy) in want_clusters.items():
        assert got_clusters[k][0] == pytest.approx(sx, abs=1e-6) and got_clusters[k][1] == pytest.approx(sy, abs=1e-6)
    frame = m.frame(t, array=True)
    assert set(frame["id"].tolist()) == want_pins
    return len(got_clusters)


def test_views_match_the_oracle_at_many_cameras_with_bearings(trees):
    ids, lon, lat = trees
    levels = oracle(ids, lon, lat)
    rng = np.random.default_rng(3)
    with pindrop.Map(cluster_radius=RADIUS) as m:
        m.add_many(ids, np.column_stack([lon, lat]))
        seen = 0
        for _ in range(30):
            i = rng.integers(len(ids))
            zoom, bearing = rng.uniform(8, 16.999), rng.uniform(-180, 180)
            m.set_camera(lon[i], lat[i], zoom, 1200, 800, bearing_deg=bearing)
            cx, cy = mercator(lon[i], lat[i])
            seen += check_view(m, levels, ids, zoom,
                               lambda x, y: camera_screen(cx, cy, zoom, bearing, 1200, 800, x, y), 1200, 800)
        assert seen > 100


def test_a_host_projection_clusters_at_its_ground_resolution_zoom(trees):
    """An equirectangular host projection of k metres per point at its centre draws the level of
    the Web Mercator zoom with k metres per point there: log2(cos φ·2πR / (256 k))."""
    ids, lon, lat = trees
    levels = oracle(ids, lon, lat)
    R = 6378137.0
    with pindrop.Map(cluster_radius=RADIUS) as m:
        m.add_many(ids, np.column_stack([lon, lat]))
        for i, k in [(10, 3.0), (500, 17.0), (2000, 120.0), (3100, 7.5)]:
            lon0, lat0, w, h = lon[i], lat[i], 1000.0, 700.0
            c = math.cos(math.radians(lat0))

            def project(lo, la):
                return w / 2 + (lo - lon0) * c * R * math.pi / 180 / k, h / 2 - (la - lat0) * R * math.pi / 180 / k

            def unproject(x, y):
                return lon0 + (x - w / 2) * k * 180 / math.pi / R / c, lat0 - (y - h / 2) * k * 180 / math.pi / R

            m.set_projection(project, unproject, w, h)
            zoom = math.log2(c * 2 * math.pi * R / (256 * k))

            def screen(x, y):
                xx = np.asarray(x) * 360 - 180
                yy = np.degrees(np.arctan(np.sinh(math.pi * (1 - 2 * np.asarray(y)))))
                return project(xx, yy)

            n = check_view(m, levels, ids, zoom, screen, w, h)
            assert n > 0 or zoom > 15


def test_after_thousands_of_edits_and_drags_between_frames(trees):
    ids, lon, lat = trees
    rng = np.random.default_rng(7)
    live = {int(i): (float(a), float(b)) for i, a, b in zip(ids[:2000], lon[:2000], lat[:2000])}
    spare = [(int(i), float(a), float(b)) for i, a, b in zip(ids[2000:], lon[2000:], lat[2000:])]
    metre = 1 / 111_000
    with pindrop.Map(cluster_radius=RADIUS, lift_delay_ms=0, lift_height=0) as m:
        m.add_many(np.array(list(live)), np.array(list(live.values())))
        t = 0.0
        drags = 0
        for step in range(3000):
            op = rng.integers(10)
            keys = list(live)
            if op < 2 and spare:
                i, a, b = spare.pop()
                m.add(i, a, b); live[i] = (a, b)
            elif op < 4:
                i = keys[rng.integers(len(keys))]
                m.remove(i); spare.insert(0, (i, *live.pop(i)))
            else:
                i = keys[rng.integers(len(keys))]
                a, b = live[i]
                a, b = a + rng.uniform(-80, 80) * metre, b + rng.uniform(-80, 80) * metre
                m.set_position(i, a, b); live[i] = (a, b)
            if step % 50 == 0:
                # A frame, then the user drags one of the pins it draws.
                j = keys[rng.integers(len(keys))]
                if j in live:
                    m.set_camera(live[j][0], live[j][1], rng.uniform(13, 16.9), 1200, 800)
                    t += 10
                    pins = m.frame(t, array=True)
                    m.clusters(t, array=True)
                    if len(pins):
                        p = pins[rng.integers(len(pins))]
                        m.touch(0, "down", p["x"], p["y"], t + 1)
                        m.touch(0, "move", p["x"] + 30, p["y"] - 20, t + 2)
                        m.touch(0, "up", p["x"] + 30, p["y"] - 20, t + 3)
                        for e in m.events():
                            if e.type == "MOVED":
                                live[e.id] = (e.lon, e.lat)
                                drags += 1
                        t += 3
        assert drags > 20
        now_ids = np.array(list(live)); pts = np.array(list(live.values()))
        levels = oracle(now_ids, pts[:, 0], pts[:, 1])
        m.select(None)
        seen = 0
        for _ in range(15):
            i = rng.integers(len(now_ids))
            zoom, bearing = rng.uniform(9, 16.999), rng.uniform(-180, 180)
            m.set_camera(pts[i, 0], pts[i, 1], zoom, 1200, 800, bearing_deg=bearing)
            cx, cy = mercator(pts[i, 0], pts[i, 1])
            seen += check_view(m, levels, now_ids, zoom,
                               lambda x, y: camera_screen(cx, cy, zoom, bearing, 1200, 800, x, y), 1200, 800, t + 1000)
        assert seen > 30


def test_a_tap_on_a_cluster_and_its_expansion_zoom(trees):
    ids, lon, lat = trees
    with pindrop.Map(cluster_radius=RADIUS) as m:
        m.add_many(ids, np.column_stack([lon, lat]))
        m.set_camera(lon[0], lat[0], 12, 1200, 800)
        c = max(m.clusters(0), key=lambda c: c.count)
        z = m.cluster_expansion_zoom(c.key)
        assert 12 < z <= 17
        members = set(m.cluster_members(c.key).tolist())
        # At the expansion zoom the members are no longer one cluster; just below it they are.
        m.set_camera(c.lon, c.lat, z, 1200, 800)
        assert not any(set(m.cluster_members(d.key).tolist()) >= members for d in m.clusters(0))
        m.set_camera(c.lon, c.lat, z - 0.01, 1200, 800)
        assert any(set(m.cluster_members(d.key).tolist()) >= members for d in m.clusters(0))
        m.set_camera(lon[0], lat[0], 12, 1200, 800)
        c = max(m.clusters(0), key=lambda c: c.count)
        assert m.touch(0, "down", c.x, c.y, 10) and m.touch(0, "up", c.x, c.y, 50)
        (e,) = list(m.events())
        assert e.type == "CLUSTER_TAPPED" and e.request == c.key and (e.lon, e.lat) == (c.lon, c.lat)
        with pytest.raises(pindrop.NotFound):
            m.cluster_members(c.key + 12345)
        with pytest.raises(pindrop.NotFound):
            m.cluster_expansion_zoom(0)


def test_clustering_off_and_the_array_dtypes():
    with pindrop.Map() as m:
        m.add_many([1, 2], [(-118.2, 33.8), (-118.2, 33.8)])
        m.set_camera(-118.2, 33.8, 5, 800, 600)
        assert len(m.clusters(0)) == 0 and len(m.frame(0, array=True)) == 2
    assert pindrop.PIN_VIEW_DTYPE.itemsize == 56 and pindrop.CLUSTER_VIEW_DTYPE.itemsize == 48
    assert pindrop.CLUSTER_VIEW_DTYPE.names == ("key", "x", "y", "lon", "lat", "count", "flags")
