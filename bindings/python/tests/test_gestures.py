"""The gesture stories of behaviours 1-9 and 15, told through the C ABI (ctypes).

Each story passes explicit times (milliseconds) and never sleeps.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

import pindrop
from pindrop import _ffi

DOWN, MOVE, UP, CANCEL = pindrop.TOUCH_DOWN, pindrop.TOUCH_MOVE, pindrop.TOUCH_UP, pindrop.TOUCH_CANCEL
W, H = 1200.0, 800.0
DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"


class Story:
    """A map with a camera, touched at explicit times."""

    def __init__(self, lon=-118.2, lat=33.8, zoom=18.0, **options):
        self.map = pindrop.Map(pindrop.Options(**options))
        self.options = pindrop.Options(**options)
        self.camera = (lon, lat, zoom)
        self.map.set_camera(lon, lat, zoom=zoom, width=W, height=H)

    def pin(self, id, x, y):
        lon, lat = self.map.to_lonlat(x, y)
        self.map.add(id, lon, lat)
        return lon, lat

    def down(self, x, y, t, pointer=0):
        return self.map.touch(pointer, DOWN, x, y, t)

    def move(self, x, y, t, pointer=0):
        return self.map.touch(pointer, MOVE, x, y, t)

    def up(self, x, y, t, pointer=0):
        return self.map.touch(pointer, UP, x, y, t)

    def cancel(self, t, pointer=0):
        return self.map.touch(pointer, CANCEL, 0.0, 0.0, t)

    def tick(self, t):
        self.map.tick(t)

    def events(self):
        return list(self.map.events())

    def kinds(self):
        return [e.type for e in self.events()]

    def view(self, id, t):
        return next((v for v in self.map.frame(t) if v.id == id), None)

    def lift_and_drag(self, x, y, t=0.0):
        """Hold until the lift, wait for the lift animation, move past the threshold."""
        self.down(x, y, t)
        self.tick(t + self.options.lift_delay_ms)
        t2 = t + self.options.lift_delay_ms + self.options.lift_duration_ms
        self.move(x + 10, y, t2)
        return t2

    def close(self):
        self.map.close()


@pytest.fixture
def story():
    made = []

    def make(**kw):
        s = Story(**kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


def mercator_oracle(camera, x, y):
    """(lon, lat) under screen point (x, y) by pyproj's EPSG:3857, a peer implementation."""
    pyproj = pytest.importorskip("pyproj")
    to_merc = pyproj.Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
    lon, lat, zoom = camera
    cx, cy = to_merc.transform(lon, lat)
    metres_per_point = 2 * math.pi * 6378137.0 / (256 * 2 ** zoom)
    mx, my = cx + (x - W / 2) * metres_per_point, cy - (y - H / 2) * metres_per_point
    return to_merc.transform(mx, my, direction="INVERSE")


# Behaviour 1 ---------------------------------------------------------------------------------------

def test_a_touch_within_hit_radius_grabs_and_one_beyond_does_not(story):
    s = story()
    s.pin(1, 600, 400)
    assert s.down(600 + 21.9, 400, 0) is True
    s.up(600 + 21.9, 400, 50)
    assert [(e.type, e.id) for e in s.events()] == [("SELECTED", 1)]
    assert s.down(600, 400 + 22.1, 1000) is False
    s.up(600, 400 + 22.1, 1050)
    assert s.kinds() == []  # a tap on the map deselects only after the double-tap window
    s.tick(1050 + 300)
    assert s.kinds() == ["DESELECTED"]


# Behaviour 2 ---------------------------------------------------------------------------------------

def test_a_quick_swipe_from_a_pin_pans_and_stays_the_hosts(story):
    s = story()
    home = s.pin(1, 600, 400)
    assert s.down(600, 400, 0) is True
    assert s.move(603, 400, 40) is True
    assert s.move(620, 400, 80) is False
    assert s.map.next_deadline == math.inf
    s.tick(1000)
    assert s.move(600, 400, 1100) is False
    assert s.up(600, 400, 1200) is False
    assert s.kinds() == []
    assert s.map.position(1) == home


def test_a_hold_lifts_exactly_at_lift_delay_and_next_deadline_says_so(story):
    s = story()
    s.pin(1, 600, 400)
    assert s.map.next_deadline == math.inf
    s.down(600, 400, 1000)
    assert s.map.next_deadline == 1250
    s.tick(1249.999)
    assert s.kinds() == []
    s.tick(1250)
    assert [(e.type, e.id) for e in s.events()] == [("LIFTED", 1)]
    assert s.map.next_deadline == math.inf
    assert s.view(1, 1250).flags & pindrop.PIN_DRAGGING


# Behaviour 3 ---------------------------------------------------------------------------------------

def test_the_pin_follows_only_after_more_than_five_points(story):
    s = story()
    s.pin(1, 600, 400)
    s.down(600, 400, 0)
    s.tick(250)
    s.events()
    s.move(603, 404, 300)  # exactly 5 points
    assert s.kinds() == []
    s.move(603, 404.01, 310)
    assert s.kinds() == ["DRAGGED"]


# Behaviour 4 ---------------------------------------------------------------------------------------

def test_the_landing_point_is_lift_height_above_the_finger_plus_the_grab_offset(story):
    s = story()
    s.pin(1, 600, 400)
    t = s.lift_and_drag(600 - 7, 400 + 5)
    s.events()
    s.move(300, 500, t + 20)
    (e,) = s.events()
    assert e.type == "DRAGGED"
    lon, lat = mercator_oracle(s.camera, 300 + 7, 500 - 5 - 40)
    assert e.lon == pytest.approx(lon, abs=1e-10)
    assert e.lat == pytest.approx(lat, abs=1e-10)
    v = s.view(1, t + 20)
    assert (v.x, v.y) == (pytest.approx(307, abs=1e-6), pytest.approx(455, abs=1e-6))
    assert v.lift == 1.0


# Behaviour 5 ---------------------------------------------------------------------------------------

def test_no_hop_moved_equals_the_last_dragged_bit_for_bit(story):
    s = story()
    home = s.pin(1, 600, 400)
    t = s.lift_and_drag(600, 400)
    for i in range(1, 31):
        s.move(610 + i * 3.37, 400 - i * 1.91, t + i * 16)
    last = [e for e in s.events() if e.type == "DRAGGED"][-1]
    before = s.view(1, t + 600)
    s.up(610 + 30 * 3.37, 400 - 30 * 1.91, t + 600)
    events = s.events()
    assert [e.type for e in events] == ["DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]
    moved = events[1]
    assert (moved.lon, moved.lat) == (last.lon, last.lat)  # floats compare exactly
    assert moved.cause == "DRAG"
    assert (moved.from_lon, moved.from_lat) == home
    assert s.map.position(1) == (moved.lon, moved.lat)
    after = s.view(1, t + 600)
    assert (after.x, after.y) == (before.x, before.y)


def test_lift_and_release_without_moving_changes_nothing(story):
    s = story()
    home = s.pin(1, 600, 400)
    drawn = s.view(1, 0)
    s.down(600, 400, 0)
    s.tick(250)
    s.move(602, 403, 400)
    s.up(602, 403, 500)
    assert s.kinds() == ["LIFTED", "DROPPED"]
    assert s.map.position(1) == home
    settled = s.view(1, 500 + 250)
    assert (settled.x, settled.y, settled.lift) == (drawn.x, drawn.y, 0.0)


# Behaviour 6 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("zoom", [0, 10, 18, 22, 24])
@pytest.mark.parametrize("lat", [0.0, 60.0, 85.0, -85.0])
def test_one_point_steps_move_the_drawn_pin_by_one_point(story, zoom, lat):
    s = story(lon=13.4, lat=lat, zoom=zoom)
    s.pin(1, 600, 400)
    t = s.lift_and_drag(600, 400)
    prev = s.view(1, t)
    for i in range(1, 21):
        fx, fy = 610 + min(i, 10), 400 + max(0, i - 10)
        s.move(fx, fy, t + i)
        v = s.view(1, t + i)
        want = (1.0, 0.0) if i <= 10 else (0.0, 1.0)
        assert abs(v.x - prev.x - want[0]) <= 1e-5, (zoom, lat, i)
        assert abs(v.y - prev.y - want[1]) <= 1e-5, (zoom, lat, i)
        prev = v


# Behaviour 7 ---------------------------------------------------------------------------------------

def test_a_touch_cancel_restores_exactly(story):
    s = story()
    home = s.pin(1, 600, 400)
    drawn = s.view(1, 0)
    t = s.lift_and_drag(600, 400)
    s.move(900, 200, t + 50)
    assert s.cancel(t + 60) is True
    events = s.events()
    assert [e.type for e in events][-1] == "DRAG_CANCELLED"
    assert "MOVED" not in [e.type for e in events]
    assert (events[-1].lon, events[-1].lat) == home
    assert s.map.position(1) == home
    settled = s.view(1, t + 60 + 250)
    assert (settled.x, settled.y) == (drawn.x, drawn.y)


def test_cancel_gesture_restores_and_swallows_the_rest_of_the_touch(story):
    s = story()
    home = s.pin(1, 600, 400)
    t = s.lift_and_drag(600, 400)
    s.move(700, 300, t + 50)
    s.map.cancel_gesture(t + 60)
    assert s.kinds()[-1] == "DRAG_CANCELLED"
    assert s.move(800, 300, t + 70) is True
    assert s.up(800, 300, t + 80) is True
    assert s.kinds() == []
    assert s.map.position(1) == home


# Behaviour 8 ---------------------------------------------------------------------------------------

def test_drag_again_one_millisecond_after_a_drop(story):
    s = story()
    s.pin(1, 600, 400)
    t = s.lift_and_drag(600, 400)
    s.move(700, 300, t + 50)
    s.up(700, 300, t + 60)
    assert s.kinds()[-4:] == ["DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]
    v = s.view(1, t + 61)
    assert v.lift < 1.0  # the drop animation is running
    assert s.down(v.x, v.y, t + 61) is True
    assert s.map.next_deadline == t + 61 + 250
    s.tick(t + 61 + 250)
    s.move(v.x + 50, v.y, t + 61 + 300)
    s.up(v.x + 50, v.y, t + 61 + 310)
    kinds = s.kinds()
    assert kinds[0] == "LIFTED" and kinds[-4:] == ["DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]


# Mouse profile ------------------------------------------------------------------------------------

def test_mouse_profile_press_and_move_drags_at_once(story):
    s = story(lift_delay_ms=0, lift_height=0)
    s.pin(1, 600, 400)
    assert s.down(600, 400, 0) is True
    assert s.map.next_deadline == math.inf
    s.tick(2000)
    assert s.move(604, 400, 2010) is True
    assert s.kinds() == []
    assert s.move(610, 400, 2020) is True
    assert s.kinds() == ["LIFTED", "DRAGGED"]
    s.up(640, 420, 2030)
    events = s.events()
    assert [e.type for e in events] == ["DRAGGED", "DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]
    lon, lat = mercator_oracle(s.camera, 640, 420)
    assert events[-1].lon == pytest.approx(lon, abs=1e-10)
    assert events[-1].lat == pytest.approx(lat, abs=1e-10)
    # Drag again 1 ms later.
    s.down(640, 420, 2031)
    s.move(700, 420, 2032)
    s.up(700, 420, 2033)
    assert s.kinds() == ["LIFTED", "DRAGGED", "DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]


# Multi-touch ---------------------------------------------------------------------------------------

def test_other_pointers_during_a_drag_are_the_hosts(story):
    s = story()
    s.pin(1, 600, 400)
    t = s.lift_and_drag(600, 400)
    s.events()
    assert s.down(100, 100, t + 10, pointer=1) is False
    assert s.move(150, 120, t + 20, pointer=1) is False
    assert s.kinds() == []
    assert s.move(700, 300, t + 30) is True
    assert s.kinds() == ["DRAGGED"]
    assert s.up(150, 120, t + 40, pointer=1) is False
    assert s.up(700, 300, t + 50) is True
    assert s.kinds() == ["DROPPED", "MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]


def test_a_second_pointer_during_a_press_abandons_it(story):
    s = story()
    s.pin(1, 600, 400)
    assert s.down(600, 400, 0) is True
    assert s.down(800, 500, 100, pointer=1) is False
    assert s.map.next_deadline == math.inf
    s.tick(1000)
    assert s.move(590, 400, 1010) is False
    assert s.up(590, 400, 1020) is False
    assert s.up(800, 500, 1030, pointer=1) is False
    assert s.kinds() == []


# Behaviour 9 ---------------------------------------------------------------------------------------

def test_a_tap_on_a_pin_selects_and_a_tap_on_the_map_deselects_after_the_window(story):
    s = story()
    s.pin(1, 600, 400)
    s.down(600, 400, 0)
    s.up(600, 400, 80)
    assert [(e.type, e.id) for e in s.events()] == [("SELECTED", 1)]
    s.down(900, 700, 1000)
    s.up(900, 700, 1080)
    assert s.map.next_deadline == 1380
    s.tick(1379)
    assert s.kinds() == []
    s.tick(1380)
    assert s.kinds() == ["DESELECTED"]




def test_tap_to_move_after_the_double_tap_window_and_never_on_a_double_tap(story):
    s = story()
    home = s.pin(1, 600, 400)
    s.map.edit(1, 0)
    s.events()
    # A double tap: nothing moves.
    s.down(300, 200, 10)
    s.up(300, 200, 70)
    s.down(320, 210, 250)
    s.up(320, 210, 300)
    s.tick(2000)
    assert "MOVED" not in s.kinds()
    assert s.map.position(1) == home
    # A single tap: the pin moves there once double_tap_ms has passed since the release.
    s.down(302, 201, 3000)
    s.up(302, 201, 3090)
    s.tick(3389.999)
    assert "MOVED" not in s.kinds()
    s.tick(3390)
    moved = [e for e in s.events() if e.type == "MOVED"]
    assert len(moved) == 1 and moved[0].cause == "TAP"
    lon, lat = mercator_oracle(s.camera, 302, 201)
    assert moved[0].lon == pytest.approx(lon, abs=1e-10)
    assert moved[0].lat == pytest.approx(lat, abs=1e-10)
    assert (moved[0].from_lon, moved[0].from_lat) == home


# Behaviour 15 --------------------------------------------------------------------------------------

def test_autopan_keeps_the_pin_under_the_finger_while_the_host_pans(story):
    s = story(lift_height=0)
    s.pin(1, 600, 400)
    t = s.lift_and_drag(600, 400)
    s.move(1180, 400, t + 10)  # half way into the 40-point margin: 300 points per second
    assert s.map.next_deadline == pytest.approx(t + 10 + 1000 / 60)
    s.tick(t + 110)
    pans = [e for e in s.events() if e.type == "AUTOPAN"]
    assert len(pans) == 1 and pans[0].dx == pytest.approx(30.0) and pans[0].dy == 0
    lon, lat = s.map.to_lonlat(W / 2 + pans[0].dx, H / 2)
    s.map.set_camera(lon, lat, zoom=18, width=W, height=H)
    (dragged,) = s.events()
    assert dragged.type == "DRAGGED"
    assert (dragged.lon, dragged.lat) == pytest.approx(s.map.to_lonlat(1180, 400), abs=1e-12)
    assert s.view(1, t + 110).x == pytest.approx(1180, abs=1e-6)
    s.up(1180, 400, t + 120)
    moved = [e for e in s.events() if e.type == "MOVED"][0]
    assert (moved.lon, moved.lat) == (dragged.lon, dragged.lat)


# Non-draggable pins --------------------------------------------------------------------------------

def test_non_draggable_pins_never_lift(story):
    s = story()
    s.pin(1, 600, 400)
    s.map.set_draggable(1, False)
    s.down(600, 400, 0)
    assert s.map.next_deadline == math.inf
    s.tick(5000)
    assert s.kinds() == []
    assert s.move(700, 400, 5010) is False
    s.up(700, 400, 5020)
    m = story(lift_delay_ms=0)
    m.pin(1, 600, 400)
    m.map.set_draggable(1, False)
    m.down(600, 400, 0)
    assert m.move(650, 400, 10) is False
    assert m.kinds() == []


# Bad input -----------------------------------------------------------------------------------------

def test_bad_input_gets_a_status_and_changes_nothing(story):
    s = story()
    s.pin(1, 600, 400)
    s.down(600, 400, 100)
    touch = _ffi.lib.pindrop_map_touch
    bad = [
        (7, MOVE, 1.0, 1.0, 300.0),          # a pointer that never went down
        (7, UP, 1.0, 1.0, 300.0),
        (0, DOWN, 600.0, 400.0, 300.0),      # down twice
        (0, MOVE, 601.0, 400.0, 99.0),       # time going backwards
        (0, 9, 601.0, 400.0, 300.0),         # an unknown phase
        (0, -1, 601.0, 400.0, 300.0),
        (0, MOVE, math.nan, 400.0, 300.0),   # NaN position
        (0, UP, 600.0, math.inf, 300.0),
        (0, MOVE, 600.0, 400.0, math.nan),
    ]
    for args in bad:
        assert touch(s.map, *args) == _ffi.ERR_INVALID_ARGUMENT, args
        assert s.map.last_error, args
        assert s.map.next_deadline == 350.0, args
        assert s.events() == [], args
    with pytest.raises(pindrop.InvalidArgument):
        s.map.tick(50)
    with pytest.raises(pindrop.InvalidArgument):
        s.map.cancel_gesture(50)
    assert _ffi.lib.pindrop_map_touch(None, 0, DOWN, 1.0, 1.0, 1.0) == _ffi.ERR_INVALID_ARGUMENT
    assert _ffi.lib.pindrop_map_next_deadline(None) == math.inf
    s.tick(350)  # the press survived all of it and lifts on time
    assert s.kinds() == ["LIFTED"]


# Real data: the spatial index after many drags ----------------------------------------------------

def load_city(city):
    path = DATA / "la_trees.csv"
    if not path.exists():
        pytest.skip(f"real data not found at {path}")
    np = pytest.importorskip("numpy")
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            if line.startswith(city + ","):
                _, _, lat, lon = line.rstrip("\n").split(",")
                rows.append((float(lon), float(lat)))
    return np.array(rows)


def test_dragging_artesia_trees_keeps_the_index_correct(story):
    np = pytest.importorskip("numpy")
    lonlat = load_city("artesia")
    n = len(lonlat)
    assert n == 2950
    s = story(lift_delay_ms=0, lift_height=0, spread_mode=pindrop.SPREAD_OFF)
    s.map.add_many(np.arange(n), lonlat)
    rng = np.random.default_rng(7)
    positions = lonlat.copy()
    t = 0.0
    for id in rng.choice(n, size=150, replace=False):  # more moves than the index's change buffer
        lon, lat = positions[id]
        s.map.set_camera(lon, lat, zoom=19, width=W, height=H)
        if s.map.hit_test(W / 2, H / 2) != id:
            continue  # another tree is drawn nearer to the centre
        dx, dy = rng.uniform(-300, 300, size=2)
        s.down(W / 2, H / 2, t)
        s.move(W / 2 + dx, H / 2 + dy, t + 1)
        s.up(W / 2 + dx, H / 2 + dy, t + 2)
        t += 3
        moved = [e for e in s.events() if e.type == "MOVED"]
        assert len(moved) == 1 and moved[0].id == id
        positions[id] = (moved[0].lon, moved[0].lat)
    assert (positions != lonlat).any(axis=1).sum() > 80, "most of the 150 trees were dragged"
    # Every pin's position, and nearby() against a brute-force haversine over the expected positions.
    for id in range(0, n, 97):
        assert s.map.position(id) == tuple(positions[id])
    lon0, lat0 = np.radians(positions[:, 0]), np.radians(positions[:, 1])
    for q in rng.choice(n, size=40, replace=False):
        qlon, qlat = positions[q]
        a = (np.sin((lat0 - math.radians(qlat)) / 2) ** 2
             + np.cos(lat0) * math.cos(math.radians(qlat)) * np.sin((lon0 - math.radians(qlon)) / 2) ** 2)
        d = 2 * 6378137.0 * np.arcsin(np.minimum(1, np.sqrt(a)))
        want = set(np.nonzero(d <= 60.0)[0].tolist())
        got = {i for i, _ in s.map.nearby(qlon, qlat, 60.0)}
        assert got == want, q


# A host projection ---------------------------------------------------------------------------------

def test_a_drag_through_the_hosts_own_projection(story):
    """An equirectangular projection of the host's: the drop lands where the host unprojects the
    finger plus the grab offset, lift_height above."""
    s = story()
    k = 1e5  # points per degree
    lon0, lat0 = 2.35, 48.85
    s.map.set_projection(lambda lon, lat: ((lon - lon0) * k + W / 2, (lat0 - lat) * k + H / 2),
                         lambda x, y: ((x - W / 2) / k + lon0, lat0 - (y - H / 2) / k), W, H)
    s.pin(1, 600, 400)
    t = s.lift_and_drag(603, 398)  # grabbed 3 points right of and 2 above the pin
    s.move(800, 500, t + 10)
    s.up(800, 500, t + 20)
    moved = [e for e in s.events() if e.type == "MOVED"]
    assert len(moved) == 1
    assert moved[0].lon == pytest.approx((800 - 3 - W / 2) / k + lon0, abs=1e-12)
    assert moved[0].lat == pytest.approx(lat0 - (500 + 2 - 40 - H / 2) / k, abs=1e-12)
