"""Behaviour 18: moving the selected pin without dragging (pindrop_map_nudge), through the C ABI.
Stories with explicit times: arrow keys, undo of a key series, the allowed area, nearby warnings,
and the cases a nudge must refuse. Expected coordinates come from Web Mercator written here."""
import math

import pytest

import pindrop

LON0, LAT0 = -118.3535474, 33.8870931          # a Lawndale street tree
R = 6378137.0
SQUARE_WKT = "POLYGON((-118.3540 33.8866, -118.3531 33.8866, -118.3531 33.8876, -118.3540 33.8876, -118.3540 33.8866))"


def world(lon, lat, zoom):
    size = 256 * 2.0 ** zoom
    return ((lon + 180) / 360 * size,
            (0.5 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / (2 * math.pi)) * size)


def unworld(x, y, zoom):
    size = 256 * 2.0 ** zoom
    return x / size * 360 - 180, math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / size))))


def moved_by(lon, lat, dx, dy, zoom, bearing_deg=0.0):
    """Where a pin lands when moved by (dx, dy) screen points on a view turned by bearing_deg."""
    b = math.radians(bearing_deg)
    # Screen axes turned back to north-up world axes.
    wx, wy = dx * math.cos(b) - dy * math.sin(b), dx * math.sin(b) + dy * math.cos(b)
    x, y = world(lon, lat, zoom)
    return unworld(x + wx, y + wy, zoom)


def haversine(lon1, lat1, lon2, lat2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def kinds(events):
    return [e.type for e in events]


@pytest.fixture
def m():
    with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:
        m.set_camera(LON0, LAT0, 19, 390, 844)
        m.add(1, LON0, LAT0)
        m.add(2, LON0 + 0.0004, LAT0 - 0.0003)
        yield m


def test_an_arrow_key_moves_the_selected_tree_by_a_point(m):
    m.select(1)
    list(m.events())
    m.nudge(1, 0, 1000)
    events = list(m.events())
    assert kinds(events) == ["MOVED", "CALLOUT_CHANGED", "GEOCODE_REQUEST"]
    e = events[0]
    assert (e.id, e.cause, e.from_lon, e.from_lat, e.time_ms) == (1, "NUDGE", LON0, LAT0, 1000)
    want = moved_by(LON0, LAT0, 1, 0, 19)
    assert math.hypot(*(a - b for a, b in zip(world(e.lon, e.lat, 19), world(*want, 19)))) < 1e-6
    assert m.position(1) == (e.lon, e.lat)
    assert m.subtitle(1) == f"{e.lat:.5f}, {e.lon:.5f}"
    assert (events[2].lon, events[2].lat) == (e.lon, e.lat)
    # Shift: ten points up; on the screen the tree moves by exactly that.
    before = m.to_screen(*m.position(1))
    m.nudge(0, -10, 1100)
    after = m.to_screen(*m.position(1))
    assert abs(after[0] - before[0]) < 1e-6 and abs(after[1] - before[1] + 10) < 1e-6


def test_a_series_of_key_presses_is_one_undo_step(m):
    m.select(1)
    t = 1000.0
    for _ in range(12):          # key repeat, 80 ms apart
        m.nudge(1, 0, t)
        t += 80
    end = m.position(1)
    list(m.events())
    m.undo(t)
    undo = [e for e in m.events() if e.type == "MOVED"]
    assert len(undo) == 1 and undo[0].cause == "UNDO" and (undo[0].from_lon, undo[0].from_lat) == end
    assert m.position(1) == (LON0, LAT0)
    with pytest.raises(pindrop.StateError):
        m.undo(t + 1)            # the series was the only step
    m.redo(t + 2)
    assert m.position(1) == end


def test_a_pause_of_a_second_starts_a_new_step(m):
    m.select(1)
    m.nudge(1, 0, 1000)
    m.nudge(1, 0, 1999)          # 999 ms later: the same step
    middle = m.position(1)
    m.nudge(1, 0, 2999)          # 1000 ms later: a new step
    m.undo(3000)
    assert m.position(1) == middle
    m.undo(3001)
    assert m.position(1) == (LON0, LAT0)


def test_nudges_of_two_trees_are_separate_steps(m):
    m.select(1)
    m.nudge(5, 0, 1000)
    a = m.position(1)
    m.select(2)
    m.nudge(5, 0, 1100)
    m.select(1)
    m.nudge(5, 0, 1200)          # 200 ms after tree 1's last nudge, but tree 2 moved in between
    m.undo(1300)
    assert m.position(1) == a and m.position(2) != (LON0 + 0.0004, LAT0 - 0.0003)
    m.undo(1301)
    assert m.position(2) == (LON0 + 0.0004, LAT0 - 0.0003)
    m.undo(1302)
    assert m.position(1) == (LON0, LAT0)


def test_a_drag_between_nudges_breaks_the_series(m):
    m.select(1)
    m.nudge(3, 0, 1000)
    after_nudge = m.position(1)
    x, y = m.to_screen(*after_nudge)
    m.touch(0, "down", x, y, 1100)
    m.touch(0, "move", x + 30, y, 1150)
    m.touch(0, "up", x + 30, y, 1200)
    dragged = m.position(1)
    m.nudge(3, 0, 1300)
    m.undo(1400)
    assert m.position(1) == dragged
    m.undo(1401)
    assert m.position(1) == after_nudge


def test_nothing_selected_or_held_by_a_gesture_is_a_state_error(m):
    with pytest.raises(pindrop.StateError):
        m.nudge(1, 0, 1000)
    assert "select" in m.last_error
    m.select(1)
    x, y = m.to_screen(LON0, LAT0)
    m.touch(0, "down", x, y, 1100)              # pressed: the gesture holds the pin
    list(m.events())
    with pytest.raises(pindrop.StateError):
        m.nudge(1, 0, 1150)
    m.touch(0, "move", x + 20, y, 1200)         # dragged
    with pytest.raises(pindrop.StateError):
        m.nudge(1, 0, 1250)
    assert "MOVED" not in kinds(m.events())
    m.touch(0, "up", x + 20, y, 1300)
    list(m.events())
    m.nudge(1, 0, 1400)                         # dropped: free again
    assert kinds(m.events())[0] == "MOVED"


def test_bad_input_changes_nothing(m):
    m.select(1)
    list(m.events())
    for dx, dy in ((math.nan, 0), (0, math.inf), (-math.inf, 1)):
        with pytest.raises(pindrop.InvalidArgument):
            m.nudge(dx, dy, 1000)
    m.nudge(1, 0, 2000)
    with pytest.raises(pindrop.InvalidArgument):
        m.nudge(1, 0, 1999)                     # time went backwards
    assert len([e for e in m.events() if e.type == "MOVED"]) == 1


def test_a_zero_nudge_moves_nothing(m):
    m.select(1)
    list(m.events())
    m.nudge(0, 0, 1000)
    assert list(m.events()) == []
    with pytest.raises(pindrop.StateError):
        m.undo(1001)


def test_the_allowed_area_refuses_or_snaps_a_nudge():
    for policy in (pindrop.OUTSIDE_REVERT, pindrop.OUTSIDE_SNAP):
        with pindrop.Map(lift_delay_ms=0, lift_height=0, outside_policy=policy) as m:
            m.set_camera(LON0, LAT0, 19, 390, 844)
            m.set_allowed_area(SQUARE_WKT)
            m.add(1, -118.35315, LAT0)                 # just inside the east edge (-118.3531)
            m.select(1)
            list(m.events())
            m.nudge(1, 0, 1000)                        # ~0.2 m east: still inside
            assert kinds(m.events())[0] == "MOVED"
            inside = m.position(1)
            if policy == pindrop.OUTSIDE_REVERT:
                with pytest.raises(pindrop.InvalidArgument):
                    m.nudge(40, 0, 1100)               # ~9 m east: outside
                assert "allowed area" in m.last_error
                assert m.position(1) == inside and list(m.events()) == []
            else:
                m.nudge(40, 0, 1100)
                e = next(m.events())
                assert (e.type, e.cause) == ("MOVED", "SNAP")
                assert abs(e.lon - -118.3531) < 1e-9 and abs(e.lat - inside[1]) < 1e-9


def test_a_nudge_next_to_another_tree_warns():
    with pindrop.Map(lift_delay_ms=0, lift_height=0, min_spacing_m=1.0) as m:
        m.set_camera(LON0, LAT0, 21, 390, 844)
        m.add(1, LON0, LAT0)
        m.add(2, *moved_by(LON0, LAT0, 20, 0, 21))    # 20 points east at zoom 21: ~1.5 m
        m.select(1)
        list(m.events())
        m.nudge(10, 0, 1000)
        events = list(m.events())
        nearby = [e for e in events if e.type == "NEARBY"]
        assert len(nearby) == 1 and (nearby[0].id, nearby[0].other) == (1, 2)
        assert nearby[0].distance_m == pytest.approx(haversine(*m.position(1), *m.position(2)), rel=1e-9)


def test_on_a_turned_map_a_nudge_follows_the_screen():
    with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:
        m.set_camera(LON0, LAT0, 19, 390, 844, bearing_deg=30)
        m.add(1, LON0, LAT0)
        m.select(1)
        before = m.to_screen(LON0, LAT0)
        m.nudge(0, -10, 1000)                          # up the screen: 30° east of north
        after = m.to_screen(*m.position(1))
        assert math.hypot(after[0] - before[0], after[1] - before[1] + 10) < 1e-6
        want = moved_by(LON0, LAT0, 0, -10, 19, bearing_deg=30)
        assert math.hypot(*(a - b for a, b in zip(world(*m.position(1), 19), world(*want, 19)))) < 1e-6


def test_a_spread_tree_moves_from_where_it_is_drawn():
    """A tree of a stack is drawn on its ring: the nudge moves it from there, as a drag would."""
    with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:
        m.set_camera(LON0, LAT0, 20, 390, 844)
        for i in range(5):
            m.add(10 + i, LON0, LAT0)
        drawn = m.to_screen(*m.display_position(12))
        m.select(12)
        m.nudge(0, 1, 1000)
        now = m.to_screen(*m.position(12))
        assert math.hypot(now[0] - drawn[0], now[1] - drawn[1] - 1) < 1e-6
        assert m.display_position(12) == m.position(12)    # out of its stack, alone


def test_a_host_projection_is_nudged_in_its_own_screen_points():
    scale = 1e5  # a plate carrée canvas: 1e5 points per degree, north up
    with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:
        m.set_projection(lambda lon, lat: ((lon - LON0) * scale + 400, (LAT0 - lat) * scale + 300),
                         lambda x, y: ((x - 400) / scale + LON0, LAT0 - (y - 300) / scale), 800, 600)
        m.add(1, LON0, LAT0)
        m.select(1)
        m.nudge(10, -20, 1000)
        lon, lat = m.position(1)
        assert lon == pytest.approx(LON0 + 10 / scale, abs=1e-12)
        assert lat == pytest.approx(LAT0 + 20 / scale, abs=1e-12)
