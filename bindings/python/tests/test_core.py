"""The foundation through the real C ABI: versions, options, the camera, pins, queries on the 916k
Los Angeles trees against a NumPy brute force written here, every bad input, a randomized model
test, and what the shared library exports and links."""
from __future__ import annotations

import ctypes
import math
import random
import subprocess

import numpy as np
import pytest

import pindrop
from pindrop import _ffi
from pindrop._ffi import lib

R = 6378137.0
NO_ID = pindrop.NO_ID
LA_CAMERA = dict(center_lon=-118.25, center_lat=34.0, zoom=17, width=1024, height=768)


# -- independent oracles -----------------------------------------------------------------------------

def world_px(lon, lat, zoom):
    """Web Mercator world points, the slippy-map way: y = (1 - ln(tan(pi/4 + phi/2)) / pi) / 2 * size."""
    size = 256.0 * 2.0 ** zoom
    lon = np.asarray(lon, dtype=np.float64)
    phi = np.radians(np.asarray(lat, dtype=np.float64))
    return (lon + 180.0) / 360.0 * size, (1.0 - np.log(np.tan(np.pi / 4 + phi / 2)) / np.pi) / 2.0 * size


def haversine(lon1, lat1, lon2, lat2):
    """Great-circle metres on the Web Mercator sphere."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    a = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * np.arcsin(np.sqrt(np.minimum(1.0, a)))


class Oracle:
    """Brute force over numpy arrays of every live pin. To keep thousands of queries fast it scans
    the slice of a sorted coordinate that can hold an answer (exact bounds, no approximation)."""

    def __init__(self, ids, lon, lat, camera):
        self.ids, self.lon, self.lat, self.cam = ids, lon, lat, camera
        z = camera["zoom"]
        wx, wy = world_px(lon, lat, z)
        cx, cy = world_px(camera["center_lon"], camera["center_lat"], z)
        b = math.radians(camera.get("bearing_deg", 0.0))
        dx, dy = wx - cx, wy - cy
        # Screen = centre + world offset turned by -bearing.
        self.sx = camera["width"] / 2 + dx * math.cos(b) + dy * math.sin(b)
        self.sy = camera["height"] / 2 - dx * math.sin(b) + dy * math.cos(b)
        self.by_x = np.argsort(self.sx, kind="stable")
        self.sx_sorted = self.sx[self.by_x]
        self.by_lat = np.argsort(lat, kind="stable")
        self.lat_sorted = lat[self.by_lat]

    def screen(self, i):
        return self.sx[i], self.sy[i]

    def hit(self, x, y, r):
        """(sure, acceptable): the id every correct answer must be (or None for a sure miss), or
        None for `sure` with the set of acceptable answers when rounding could decide."""
        lo, hi = np.searchsorted(self.sx_sorted, [x - r - 1e-6, x + r + 1e-6], side="left")[0], \
            np.searchsorted(self.sx_sorted, x + r + 1e-6, side="right")
        idx = self.by_x[lo:hi]
        d = np.hypot(self.sx[idx] - x, self.sy[idx] - y)
        keep = d <= r + 1e-6
        idx, d = idx[keep], d[keep]
        if idx.size == 0:
            return "miss", {NO_ID}
        best = d.min()
        near = idx[d <= best + 1e-7]
        if best < r - 1e-6:
            same_spot = np.all((self.lon[near] == self.lon[near[0]]) & (self.lat[near] == self.lat[near[0]]))
            if same_spot:
                return "hit", {int(self.ids[near].max())}   # ties go to the higher id
            return "either", set(int(i) for i in self.ids[near])
        return "either", set(int(i) for i in self.ids[near]) | {NO_ID}

    def nearby(self, lon, lat, radius):
        """[(id, distance)] within radius (+1e-6 m), and the ids that are surely inside."""
        dlat = math.degrees(radius / R) + 1e-9
        lo = np.searchsorted(self.lat_sorted, lat - dlat, side="left")
        hi = np.searchsorted(self.lat_sorted, lat + dlat, side="right")
        idx = self.by_lat[lo:hi]
        d = haversine(lon, lat, self.lon[idx], self.lat[idx])
        inside = d <= radius + 1e-6
        return dict(zip(self.ids[idx][inside].tolist(), d[inside].tolist())), \
            set(self.ids[idx][d < radius - 1e-6].tolist())


def check_queries(m, oracle, rng, n_hit, n_nearby, r=22.0):
    """hit_test_many, hit_test and nearby on the map against the oracle."""
    n = oracle.ids.size
    picks = rng.integers(0, n, n_hit)
    qx = oracle.sx[picks] + rng.uniform(-1.5 * r, 1.5 * r, n_hit)
    qy = oracle.sy[picks] + rng.uniform(-1.5 * r, 1.5 * r, n_hit)
    got = m.hit_test_many(np.column_stack([qx, qy]))
    hits = 0
    for k in range(n_hit):
        kind, ok = oracle.hit(qx[k], qy[k], r)
        assert int(got[k]) in ok, f"hit_test_many query {k} at ({qx[k]}, {qy[k]}): got {got[k]}, expected {ok}"
        hits += kind == "hit"
    for k in range(0, n_hit, 7):  # single calls agree with the batch
        single = m.hit_test(qx[k], qy[k])
        assert (NO_ID if single is None else single) == int(got[k])
    assert hits > n_hit // 4, "too few sure hits for the check to mean anything"

    found = 0
    for k in rng.integers(0, n, n_nearby):
        lon, lat = float(oracle.lon[k]), float(oracle.lat[k])
        radius = float(rng.choice([0.0, 5.0, 25.0, 120.0]))
        result = m.nearby(lon, lat, radius)
        want, sure = oracle.nearby(lon, lat, radius)
        ids = [i for i, _ in result]
        assert len(ids) == len(set(ids))
        assert sure <= set(ids), f"nearby({lon}, {lat}, {radius}) missed {sure - set(ids)}"
        assert set(ids) <= set(want), f"nearby({lon}, {lat}, {radius}) found {set(ids) - set(want)}"
        for (i, d) in result:
            assert d == pytest.approx(want[i], abs=1e-6)
        for (i1, d1), (i2, d2) in zip(result, result[1:]):
            assert d1 < d2 or (d1 == d2 and i1 < i2), "nearby is not nearest first (ties: lower id)"
        found += len(ids)
    assert n_nearby == 0 or found > n_nearby


# -- the real data -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def la_map(la_trees):
    m = pindrop.Map(pindrop.Options(spread_mode=pindrop.SPREAD_OFF))
    ids = np.arange(len(la_trees), dtype=np.int64)
    m.add_many(ids, np.column_stack([la_trees.lon, la_trees.lat]))
    m.set_camera(**LA_CAMERA)
    yield m, ids.copy(), la_trees.lon.copy(), la_trees.lat.copy()
    m.close()


def test_real_data_queries_equal_brute_force_before_and_after_changes(la_map):
    m, ids, lon, lat = la_map
    assert len(m) == ids.size == 916114
    rng = np.random.default_rng(20261123)
    oracle = Oracle(ids, lon, lat, LA_CAMERA)
    check_queries(m, oracle, rng, n_hit=4000, n_nearby=3000)

    # After the first queries: 10,000 moves, 5,000 adds and 5,000 removals, interleaved.
    alive = np.ones(ids.size, dtype=bool)
    new_ids, new_lon, new_lat = [], [], []
    movers = rng.choice(ids.size, 10_000, replace=False)
    removed = rng.choice(np.setdiff1d(np.arange(ids.size), movers[:5000]), 5000, replace=False)
    # Moves go near other trees (so they land in dense places) or anywhere in the county.
    targets = rng.integers(0, ids.size, 10_000)
    mlon = np.where(rng.random(10_000) < 0.5, lon[targets] + rng.uniform(-2e-4, 2e-4, 10_000),
                    rng.uniform(-118.9, -117.75, 10_000))
    mlat = np.where(rng.random(10_000) < 0.5, lat[targets] + rng.uniform(-2e-4, 2e-4, 10_000),
                    rng.uniform(33.73, 34.73, 10_000))
    for k in range(10_000):
        i = int(movers[k])
        if alive[i]:
            m.set_position(i, float(mlon[k]), float(mlat[k]))
            lon[i], lat[i] = mlon[k], mlat[k]
        if k % 2 == 0:
            j = int(removed[k // 2])
            if alive[j]:
                m.remove(j)
                alive[j] = False
            nid = 2_000_000 + k // 2
            src = int(rng.integers(0, ids.size))
            plon, plat = float(lon[src]), float(lat[src])  # on top of another tree: a new stack
            m.add(nid, plon, plat)
            new_ids.append(nid); new_lon.append(plon); new_lat.append(plat)
    assert len(m) == 916114
    ids2 = np.concatenate([ids[alive], np.array(new_ids, dtype=np.int64)])
    lon2 = np.concatenate([lon[alive], new_lon])
    lat2 = np.concatenate([lat[alive], new_lat])
    check_queries(m, Oracle(ids2, lon2, lat2, LA_CAMERA), rng, n_hit=4000, n_nearby=3000)
    # A turned camera over the changed map.
    turned = dict(LA_CAMERA, zoom=18.5, bearing_deg=37.0)
    m.set_camera(**turned)
    check_queries(m, Oracle(ids2, lon2, lat2, turned), rng, n_hit=1500, n_nearby=0)
    m.set_camera(**LA_CAMERA)
    # Removed pins are gone, moved pins are where they were put.
    gone = int(removed[0]) if not alive[int(removed[0])] else None
    if gone is not None:
        with pytest.raises(pindrop.NotFound):
            m.position(gone)
    i = int(movers[-1])
    if alive[i]:
        assert m.position(i) == (lon[i], lat[i])


# -- camera through the ABI ----------------------------------------------------------------------------

def test_camera_matches_the_tile_formula_and_round_trips():
    rng = random.Random(4)
    with pindrop.Map() as m:
        for _ in range(400):
            cam = dict(center_lon=rng.uniform(-180, 180), center_lat=rng.uniform(-85, 85), zoom=rng.uniform(0, 24),
                       bearing_deg=rng.uniform(-360, 360), width=800, height=600)
            m.set_camera(**cam)
            lon = cam["center_lon"] + rng.uniform(-1, 1) * 200 / 256 / 2 ** cam["zoom"] * 360 / 4
            lon = max(-180.0, min(180.0, lon))
            lat = max(-85.0, min(85.0, cam["center_lat"] + rng.uniform(-1, 1) * 100 / 2 ** cam["zoom"]))
            x, y = m.to_screen(lon, lat)
            o = Oracle(np.array([1]), np.array([lon]), np.array([lat]), cam)
            tol = 1e-6 * max(1.0, 2 ** cam["zoom"] / 2 ** 10)
            assert x == pytest.approx(o.sx[0], abs=tol) and y == pytest.approx(o.sy[0], abs=tol)
            lon2, lat2 = m.to_lonlat(x, y)
            x2, y2 = m.to_screen(lon2, lat2)
            assert abs(x2 - x) < 2e-6 and abs(y2 - y) < 2e-6
        # mercantile.ul(486, 332, 10): the top-left corner of a tile, placed at the screen origin.
        m.set_camera(center_lon=0, center_lat=0, zoom=10, width=256, height=256)
        cx, cy = 2 ** 10 * 256 / 2, 2 ** 10 * 256 / 2
        lon, lat = m.to_lonlat(486 * 256 - cx + 128, 332 * 256 - cy + 128)
        assert lon == pytest.approx(-9.140625, abs=1e-9) and lat == pytest.approx(53.33087298301705, abs=1e-9)


def test_host_projection_through_python_callbacks():
    with pindrop.Map(pindrop.Options(spread_mode=pindrop.SPREAD_OFF)) as m:
        state = {"fail": False}

        def project(lon, lat):
            if state["fail"]:
                raise RuntimeError("projection unavailable")
            return (lon - 10) * 1000, (50 - lat) * 1000

        def unproject(x, y):
            if state["fail"]:
                raise RuntimeError("projection unavailable")
            return 10 + x / 1000, 50 - y / 1000

        m.set_projection(project, unproject, 500, 500)
        m.add(1, 10.1, 49.9)
        assert m.to_screen(10.1, 49.9) == pytest.approx((100, 100))
        assert m.hit_test(105, 95) == 1
        assert [v.id for v in m.frame(0)] == [1]
        state["fail"] = True
        with pytest.raises(pindrop.InvalidArgument):
            m.to_screen(10.1, 49.9)
        with pytest.raises(pindrop.InvalidArgument):
            m.frame(1)
        assert m.hit_test(105, 95) is None
        state["fail"] = False
        assert [v.id for v in m.frame(1)] == [1]


# -- versions, statuses, options -----------------------------------------------------------------------

def test_version_agrees_with_the_header():
    parts = [str(p) for p in pindrop._tables.VERSION]  # PINDROP_VERSION_MAJOR, _MINOR, _PATCH
    assert pindrop.version() == ".".join(parts)


def test_status_strings():
    for code, name in _ffi.STATUS_NAMES.items():
        assert lib.pindrop_status_string(code).decode() == name
    assert lib.pindrop_status_string(-1234).decode() == "PINDROP_UNKNOWN_STATUS"


def test_options_defaults_and_validation():
    c = _ffi.Options()
    assert lib.pindrop_options_init(ctypes.byref(c), ctypes.sizeof(c)) == 0
    for name, value in vars(pindrop.Options()).items():
        assert getattr(c, name) == value, name
    assert lib.pindrop_options_init(None, ctypes.sizeof(c)) == _ffi.ERR_INVALID_ARGUMENT
    assert lib.pindrop_options_init(ctypes.byref(c), 4) == _ffi.ERR_INVALID_ARGUMENT
    for bad in [dict(hit_radius=0), dict(hit_radius=-1), dict(drag_threshold=float("nan")),
                dict(lift_delay_ms=-0.5), dict(autopan_speed=float("inf")), dict(min_spacing_m=-1),
                dict(spread_mode=5), dict(outside_policy=2), dict(spread_tolerance_m=float("-inf")),
                dict(cluster_radius=-1), dict(cluster_max_zoom=31), dict(spread_spacing=0)]:
        with pytest.raises(pindrop.InvalidArgument):
            pindrop.Map(pindrop.Options(**bad))
    out = ctypes.c_void_p(1234)
    c.struct_size = 3
    assert lib.pindrop_map_create(ctypes.byref(c), ctypes.byref(out)) == _ffi.ERR_INVALID_ARGUMENT
    assert out.value is None
    assert lib.pindrop_map_create(None, None) == _ffi.ERR_INVALID_ARGUMENT


# -- bad input -----------------------------------------------------------------------------------------

def state(m, ids):
    out = {"count": len(m)}
    for i in ids:
        try:
            out[i] = m.position(i)
        except pindrop.NotFound:
            out[i] = None
    return out


def test_every_bad_input_fails_cleanly_and_changes_nothing():
    nan, inf = float("nan"), float("inf")
    with pindrop.Map(pindrop.Options(spread_mode=pindrop.SPREAD_OFF)) as m:
        m.set_camera(**LA_CAMERA)
        m.add_many([1, 2, 3], [[-118.25, 34.0], [-118.2501, 34.0001], [0, 0]])
        m.frame(100)
        watch = [1, 2, 3, 4, 5, 6]
        cases = [
            (pindrop.InvalidArgument, lambda: m.add(4, nan, 0)),
            (pindrop.InvalidArgument, lambda: m.add(4, 0, inf)),
            (pindrop.InvalidArgument, lambda: m.add(4, -180.000001, 0)),
            (pindrop.InvalidArgument, lambda: m.add(4, 0, 90.5)),
            (pindrop.InvalidArgument, lambda: m.add(NO_ID, 0, 0)),
            (pindrop.DuplicateId, lambda: m.add(2, 0, 0)),
            (pindrop.DuplicateId, lambda: m.add_many([4, 5, 4], [[0, 0], [1, 1], [2, 2]])),
            (pindrop.DuplicateId, lambda: m.add_many([4, 5, 1], [[0, 0], [1, 1], [2, 2]])),
            (pindrop.InvalidArgument, lambda: m.add_many([4, 5, 6], [[0, 0], [1, 1], [2, nan]])),
            (pindrop.InvalidArgument, lambda: m.add_many([4, 5, NO_ID], [[0, 0], [1, 1], [2, 2]])),
            (pindrop.NotFound, lambda: m.remove(4)),
            (pindrop.NotFound, lambda: m.set_position(4, 0, 0)),
            (pindrop.InvalidArgument, lambda: m.set_position(1, 0, -inf)),
            (pindrop.InvalidArgument, lambda: m.set_position(1, 200, 0)),
            (pindrop.NotFound, lambda: m.position(4)),
            (pindrop.NotFound, lambda: m.display_position(NO_ID)),
            (pindrop.NotFound, lambda: m.set_draggable(4, False)),
            (pindrop.InvalidArgument, lambda: m.hit_test(nan, 1)),
            (pindrop.InvalidArgument, lambda: m.hit_test_many([[1, 1], [inf, 2]])),
            (pindrop.InvalidArgument, lambda: m.nearby(nan, 0, 10)),
            (pindrop.InvalidArgument, lambda: m.nearby(0, 0, -1)),
            (pindrop.InvalidArgument, lambda: m.nearby(0, 0, nan)),
            (pindrop.InvalidArgument, lambda: m.to_screen(0, 91)),
            (pindrop.InvalidArgument, lambda: m.to_lonlat(nan, 0)),
            (pindrop.InvalidArgument, lambda: m.set_camera(0, 89, 3, 100, 100)),
            (pindrop.InvalidArgument, lambda: m.set_camera(0, 0, 31, 100, 100)),
            (pindrop.InvalidArgument, lambda: m.set_camera(0, 0, 3, 0, 100)),
            (pindrop.InvalidArgument, lambda: m.frame(99.9)),
            (pindrop.InvalidArgument, lambda: m.frame(nan)),
        ]
        for kind, call in cases:
            before = state(m, watch)
            with pytest.raises(kind) as info:
                call()
            assert m.last_error, f"no message for {kind.__name__}"
            assert str(info.value)
            assert state(m, watch) == before
        # The camera and the clock did not move either.
        assert m.to_screen(-118.25, 34.0) == pytest.approx((512, 384))
        assert len(m.frame(100)) == 2
        # NULL pointers and zero capacities through the raw ABI.
        h = m._handle
        d = ctypes.c_double()
        assert lib.pindrop_map_nearby(h, -118.25, 34.0, 50, None, None, 0) == 2
        assert lib.pindrop_map_frame(h, 100, None, 0) == 2
        assert lib.pindrop_map_frame(h, 100, None, 5) == 0 and m.last_error
        for fn, args in [(lib.pindrop_map_position, (h, 1, None, ctypes.byref(d))),
                         (lib.pindrop_map_to_screen, (h, 0.0, 0.0, ctypes.byref(d), None)),
                         (lib.pindrop_map_set_camera, (h, None)),
                         (lib.pindrop_map_add_many, (h, None, None, 3)),
                         (lib.pindrop_map_hit_test_many, (h, None, 2, None))]:
            with pytest.raises(pindrop.InvalidArgument):
                fn(*args)
        assert lib.pindrop_map_hit_test(h, 1.0, 1.0, None) == _ffi.ERR_INVALID_ARGUMENT
        with pytest.raises(pindrop.InvalidArgument):
            lib.pindrop_map_add(None, 1, 0.0, 0.0)
        assert lib.pindrop_map_count(None) == 0
        assert lib.pindrop_map_last_error(None)
        assert state(m, watch)["count"] == 3


def test_randomized_calls_against_a_model():
    """Thousands of random calls, valid and invalid, against a plain dict of pins: every call has
    the status the model predicts, and the map holds exactly the model's pins."""
    rng = random.Random(99)
    nan = float("nan")
    with pindrop.Map(pindrop.Options(spread_mode=pindrop.SPREAD_OFF)) as m:
        m.set_camera(center_lon=-118.25, center_lat=34.0, zoom=15, width=800, height=600)
        model: dict[int, tuple[float, float]] = {}
        now = 0.0

        def coord(valid=True):
            if valid:
                return rng.choice([(rng.uniform(-118.27, -118.23), rng.uniform(33.99, 34.01)),
                                   (rng.uniform(-180, 180), rng.uniform(-90, 90)), (-118.25, 34.0)])
            return rng.choice([(nan, 0.0), (0.0, nan), (181.0, 0.0), (0.0, -90.01), (float("inf"), 1.0)])

        def some_id():
            if model and rng.random() < 0.6:
                return rng.choice(list(model))
            return rng.choice([rng.randrange(-50, 300), NO_ID])

        def expect(kind, call):
            if kind is None:
                return call()
            with pytest.raises(kind):
                call()
            assert m.last_error

        for step in range(4000):
            op = rng.randrange(8)
            i = some_id()
            good = rng.random() < 0.7
            lon, lat = coord(good)
            if op == 0:
                kind = (pindrop.InvalidArgument if i == NO_ID or not good else
                        pindrop.DuplicateId if i in model else None)
                expect(kind, lambda: m.add(i, lon, lat))
                if kind is None:
                    model[i] = (lon, lat)
            elif op == 1:
                batch = [some_id() if rng.random() < 0.2 else rng.randrange(300, 100000) for _ in range(rng.randrange(0, 6))]
                pts = [coord(rng.random() < 0.95) for _ in batch]
                bad_pt = any(not (-180 <= a <= 180 and -90 <= b <= 90) for a, b in pts)  # NaN fails both
                kind = (pindrop.InvalidArgument if bad_pt or NO_ID in batch else
                        pindrop.DuplicateId if len(set(batch)) < len(batch) or any(b in model for b in batch) else None)
                expect(kind, lambda: m.add_many(batch, pts if pts else np.empty((0, 2))))
                if kind is None:
                    model.update(zip(batch, pts))
            elif op == 2:
                kind = None if i in model else pindrop.NotFound
                expect(kind, lambda: m.remove(i))
                model.pop(i, None)
            elif op == 3:
                kind = pindrop.NotFound if i not in model else (None if good else pindrop.InvalidArgument)
                expect(kind, lambda: m.set_position(i, lon, lat))
                if kind is None:
                    model[i] = (lon, lat)
            elif op == 4:
                if i in model:
                    assert m.position(i) == model[i] and m.display_position(i) == model[i]
                else:
                    expect(pindrop.NotFound, lambda: m.position(i))
            elif op == 5:
                radius = rng.choice([0.0, 10.0, 500.0, -1.0, nan])
                if not good or not radius >= 0:
                    expect(pindrop.InvalidArgument, lambda: m.nearby(lon, lat, radius))
                else:
                    got = {k for k, _ in m.nearby(lon, lat, radius)}
                    want = {k for k, (a, b) in model.items() if haversine(lon, lat, a, b) <= radius + 1e-6}
                    sure = {k for k, (a, b) in model.items() if haversine(lon, lat, a, b) < radius - 1e-6}
                    assert sure <= got <= want
            elif op == 6:
                t = now + rng.choice([0.0, 16.0, -1.0, nan])
                if t >= now:
                    views = m.frame(t)
                    now = t
                    assert all(v.id in model for v in views)
                else:
                    expect(pindrop.InvalidArgument, lambda: m.frame(t))
            else:
                draggable = rng.random() < 0.5
                expect(None if i in model else pindrop.NotFound, lambda: m.set_draggable(i, draggable))
            assert len(m) == len(model), f"step {step}"
            if step % 100 == 0:
                for k, p in model.items():
                    assert m.position(k) == p
                everything = {k for k, _ in m.nearby(0, 0, math.pi * R)}
                assert everything == set(model)


# -- the shared library ----------------------------------------------------------------------------------

def test_only_pindrop_symbols_are_exported():
    out = subprocess.run(["nm", "-D", "--defined-only", str(_ffi.library_path)], capture_output=True, text=True,
                         check=True).stdout
    exported = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1].isupper():  # upper-case type letters are global symbols
            exported.append(parts[2])
    assert exported
    assert [s for s in exported if not s.startswith("pindrop_")] == []
    for name in ["pindrop_version", "pindrop_status_string", "pindrop_options_init", "pindrop_map_create",
                 "pindrop_map_destroy", "pindrop_map_last_error", "pindrop_map_set_camera", "pindrop_map_set_projection",
                 "pindrop_map_to_screen", "pindrop_map_to_lonlat", "pindrop_map_add", "pindrop_map_add_many",
                 "pindrop_map_remove", "pindrop_map_set_position", "pindrop_map_position",
                 "pindrop_map_display_position", "pindrop_map_set_draggable", "pindrop_map_count",
                 "pindrop_map_hit_test", "pindrop_map_hit_test_many", "pindrop_map_nearby", "pindrop_map_frame",
                 # since 0.3.0
                 "pindrop_map_set_attributes", "pindrop_map_cluster_summary", "pindrop_map_cluster_categories",
                 "pindrop_map_cluster_members_from"]:
        assert name in exported


def test_the_library_needs_no_swift_runtime():
    out = subprocess.run(["ldd", str(_ffi.library_path)], capture_output=True, text=True, check=True).stdout
    assert "geos_c" in out
    assert "swift" not in out.lower(), out
