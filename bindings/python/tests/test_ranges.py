"""The accepted ranges and the bounded event queue through the native library (docs/robustness.md,
"Accepted ranges", "The event queue", "Beyond ±85.0511°"): values no real host can mean are
refused with the library's own message and change nothing; drag moves without a poll keep the
queue within PINDROP_EVENT_QUEUE_LIMIT and every drop and MOVED still arrives; a pin at 89.9° is
kept as given and drawn on the world's edge."""
import math

import pytest

import pindrop

from pindrop._tables import EVENT_QUEUE_LIMIT as LIMIT


def selected_map():
    m = pindrop.Map(lift_delay_ms=0.0, lift_height=0.0, autopan_margin=0.0)
    m.set_camera(-118.25, 34.05, 17.0, 800.0, 600.0)
    m.add(1, -118.25, 34.05)
    m.select(1)
    list(m.events())
    return m


def state(m):
    return m.position(1), m.selected, m.to_screen(-118.249, 34.051)


def refused(m, call, *words):
    before = state(m)
    with pytest.raises(pindrop.InvalidArgument) as e:
        call()
    for w in words:
        assert w in str(e.value), str(e.value)
    assert state(m) == before
    assert list(m.events()) == []


def test_a_nudge_of_1e300_points_is_refused_and_moves_nothing():
    m = selected_map()
    refused(m, lambda: m.nudge(1e300, 1e300, 10.0), "nudge", "1e+300", "1e7")
    refused(m, lambda: m.nudge(0.0, -2e7, 10.0), "nudge")
    assert m.position(1) == (-118.25, 34.05)
    m.nudge(1e7, 0.0, 10.0)  # the end of the range is a nudge
    assert m.position(1) != (-118.25, 34.05)


def test_a_bearing_beyond_a_million_degrees_is_refused():
    m = selected_map()
    for bearing in (1e300, -1e6 - 1, math.inf, math.nan):
        refused(m, lambda: m.set_camera(-118.25, 34.05, 17.0, 800.0, 600.0, bearing_deg=bearing), "bearing_deg")
    m.set_camera(-118.25, 34.05, 17.0, 800.0, 600.0, bearing_deg=1e6)


def test_touches_beyond_the_viewport_grown_by_1e7_points_are_refused():
    m = selected_map()
    for x, y in ((1e300, 300.0), (400.0, -1e7 - 1), (800 + 1e7 + 1, 0.0)):
        refused(m, lambda: m.touch(0, "down", x, y, 10.0), "touch position", "1e7")
    assert m.touch(0, "down", -1e7, 300.0, 10.0) is False  # the edge of the range: the host's pan


def test_times_outside_zero_to_1e13_ms_are_refused():
    fresh = pindrop.Map()
    with pytest.raises(pindrop.InvalidArgument, match=r"\[0, 1e13\]"):
        fresh.tick(-1.0)
    m = selected_map()
    for t in (1e300, 1e13 + 1e6, -0.5):
        refused(m, lambda: m.tick(t), "time")
        refused(m, lambda: m.nudge(1.0, 0.0, t), "time")
    m.tick(1.7e12)  # Unix time in milliseconds
    m.tick(1e13)


def test_drag_moves_without_a_poll_stay_within_the_queue_limit_and_every_drop_arrives():
    m = selected_map()
    m.set_camera(-118.25, 34.05, 18.0, 1200.0, 800.0)
    t, moves = 0.0, 100_000
    for round in range(2):
        x, y = m.to_screen(*m.display_position(1))
        assert m.touch(0, "down", x, y, t)
        for i in range(moves // 2):
            t += 0.001
            m.touch(0, "move", 400.0 + i % 400, 300.0 + round, t)
        t += 1
        m.touch(0, "up", 617.0, 300.0 + round, t)
        t += 1000
        m.tick(t)
    events = list(m.events())
    assert len(events) <= LIMIT + 12
    last, drops, moved = None, 0, 0
    for e in events:
        if e.type == "DRAGGED":
            last = (e.lon, e.lat)
        elif e.type == "DROPPED":
            assert (e.lon, e.lat) == last
            drops += 1
        elif e.type == "MOVED":
            assert (e.lon, e.lat) == last and e.cause == "DRAG"
            moved += 1
    assert (drops, moved) == (2, 2)
    assert m.position(1) == last


def test_a_pin_at_89_9_is_kept_and_drawn_on_the_worlds_edge():
    m = pindrop.Map()
    m.set_camera(10.0, 80.0, 3.0, 800.0, 600.0)
    m.add(1, 10.0, 89.9)
    assert m.position(1) == (10.0, 89.9)
    edge = m.to_screen(10.0, 85.0511287798066)
    x, y = m.to_screen(10.0, 89.9)
    assert x == pytest.approx(edge[0], abs=1e-6) and y == pytest.approx(edge[1], abs=1e-6)
    m.frame(0.0)
    assert m.hit_test(edge[0], edge[1] + 2) == 1
    with pytest.raises(pindrop.InvalidArgument):
        m.to_screen(10.0, 90.0)  # the pole has no screen point
