"""Behaviour 23 through the Python package (on either backend: PINDROP_BACKEND=wasm runs the
same tests on pindrop.wasm): select_many's modes, selection(), select_in_rect with a cluster, the
add modifier's tap, a drag of one selected pin that moves them all as one undo step, the nudge of
a selection, and bad input that changes nothing. Explicit times; the offsets are checked against
Web Mercator in its textbook form."""
from __future__ import annotations

import math

import numpy as np
import pytest

import pindrop

W, H = 1200.0, 800.0


def make_map(zoom=19, **options):
    m = pindrop.Map(lift_delay_ms=0, lift_height=0, **options)
    m.set_camera(-118.2437, 34.0522, zoom=zoom, width=W, height=H)
    return m


def add_at(m, pid, x, y):
    m.add(pid, *m.to_lonlat(x, y))


def four(m):
    for pid, (x, y) in {1: (500, 400), 2: (600, 420), 3: (700, 380), 4: (200, 200)}.items():
        add_at(m, pid, x, y)
    list(m.events())


def mercator(lon, lat):
    phi = math.radians(lat)
    return (lon + 180) / 360, 0.5 - math.log(math.tan(math.pi / 4 + phi / 2)) / (2 * math.pi)


def test_modes_events_and_selection_order():
    with make_map() as m:
        four(m)
        m.select_many([3, 1, 2, 3])
        sel = m.selection()
        assert isinstance(sel, np.ndarray) and sel.dtype == np.int64 and sel.tolist() == [1, 2, 3]
        assert [(e.type, e.id) for e in m.events()] == [("SELECTED", 1), ("SELECTED", 2), ("SELECTED", 3)]
        assert m.selected == 1
        m.select_many(np.array([2, 4]), mode="toggle")
        assert m.selection().tolist() == [1, 3, 4]
        assert [(e.type, e.id) for e in m.events()] == [("DESELECTED", 2), ("SELECTED", 4)]
        m.select_many([1, 4], mode=pindrop.SelectMode.REMOVE)
        m.select_many([2], mode=pindrop.SELECT_ADD)
        assert m.selection().tolist() == [2, 3] and m.selected == 2
        m.select(3)                                  # select(id) is SET with one id
        assert m.selection().tolist() == [3]
        m.select_many([])
        assert m.selection().tolist() == [] and m.selected is None


def test_bad_input_changes_nothing():
    with make_map() as m:
        four(m)
        m.select_many([1, 2])
        list(m.events())
        with pytest.raises(pindrop.NotFound):
            m.select_many([3, 42])
        with pytest.raises(pindrop.InvalidArgument):
            m.select_many([3], mode="everything")
        with pytest.raises(pindrop.InvalidArgument):
            m.select_many([3], mode=9)
        with pytest.raises(pindrop.InvalidArgument):
            m.set_modifiers(4)
        with pytest.raises(pindrop.InvalidArgument):
            m.select_in_rect(float("nan"), 0, 10, 10, time_ms=10)
        with pytest.raises(pindrop.InvalidArgument):
            m.select_in_rect(0, 0, 3e7, 10, time_ms=10)
        m.tick(50)
        with pytest.raises(pindrop.InvalidArgument):
            m.select_in_rect(0, 0, W, H, time_ms=40)   # earlier than the last time
        with pytest.raises(TypeError):
            m.set_modifiers(1, add=True)
        assert m.selection().tolist() == [1, 2]
        assert list(m.events()) == []


def test_a_rectangle_selects_the_pins_drawn_inside_and_whole_clusters():
    with make_map() as m:
        four(m)
        m.select_in_rect(650, 450, 450, 350, time_ms=10)
        assert m.selection().tolist() == [1, 2]
        m.select_in_rect(0, 0, W, H, mode="toggle", time_ms=20)
        assert m.selection().tolist() == [3, 4]
    with make_map(zoom=14, cluster_radius=60) as m:
        for k in range(5):
            add_at(m, 10 + k, 600 + 3 * k, 400 + 2 * k)
        add_at(m, 99, 100, 100)
        clusters = m.clusters(5)
        assert len(clusters) == 1
        c = clusters[0]
        m.select_in_rect(c.x - 5, c.y - 5, c.x + 5, c.y + 5, time_ms=10)
        assert m.selection().tolist() == [10, 11, 12, 13, 14]
        assert len(m.clusters(20)) == 0                     # selected pins are never clustered
        flagged = sorted(v.id for v in m.frame(21) if v.flags & pindrop.PIN_SELECTED)
        assert flagged == [10, 11, 12, 13, 14]


def test_the_add_modifier_tap_toggles():
    with make_map() as m:
        four(m)
        m.select(1)
        m.set_modifiers(add=True)
        m.touch(0, "down", 600, 420, 100); m.touch(0, "up", 600, 420, 150)
        assert m.selection().tolist() == [1, 2]
        m.touch(0, "down", 500, 400, 200); m.touch(0, "up", 500, 400, 250)
        assert m.selection().tolist() == [2]
        m.set_modifiers()
        m.touch(0, "down", 500, 400, 300); m.touch(0, "up", 500, 400, 350)
        assert m.selection().tolist() == [1]
        m.set_modifiers(pindrop.Modifier.ADD | pindrop.Modifier.NO_SNAP)


def test_a_group_drag_moves_the_selection_rigidly_as_one_undo_step():
    with make_map() as m:
        four(m)
        m.select_many([1, 2, 3])
        before = {i: m.position(i) for i in (1, 2, 3, 4)}
        list(m.events())
        m.touch(0, "down", 600, 420, 100)
        m.touch(0, "move", 620, 400, 110)
        m.touch(0, "move", 645, 385, 120)
        views = {v.id: v for v in m.frame(125)}
        for pid, (x, y) in {1: (500, 400), 2: (600, 420), 3: (700, 380)}.items():
            assert views[pid].flags & pindrop.PIN_DRAGGING
            assert views[pid].x == pytest.approx(x + 45, abs=1e-6) and views[pid].y == pytest.approx(y - 35, abs=1e-6)
        assert not views[4].flags & pindrop.PIN_DRAGGING
        m.touch(0, "up", 645, 385, 130)
        moved = [e for e in m.events() if e.type == "MOVED"]
        assert [e.id for e in moved] == [1, 2, 3] and all(e.cause == "DRAG" for e in moved)
        assert m.position(4) == before[4]
        # The oracle: each pin's Web Mercator offset from the grabbed pin (2) is what it was.
        for pid in (1, 3):
            was = np.subtract(mercator(*before[pid]), mercator(*before[2]))
            now = np.subtract(mercator(*m.position(pid)), mercator(*m.position(2)))
            assert now == pytest.approx(was, abs=1e-12)
        m.undo(200)
        undo = [e for e in m.events() if e.type == "MOVED"]
        assert [e.id for e in undo] == [1, 2, 3] and all(e.cause == "UNDO" for e in undo)
        assert all(m.position(i) == before[i] for i in (1, 2, 3))
        m.redo(300)
        assert [e.id for e in m.events() if e.type == "MOVED"] == [1, 2, 3]


def test_a_nudge_moves_the_selection_and_the_area_refuses_it_as_a_whole():
    with make_map() as m:
        four(m)
        m.select_many([1, 3])
        list(m.events())
        m.nudge(10, 0, 100)
        assert [e.id for e in m.events() if e.type == "MOVED"] == [1, 3]
        assert m.to_screen(*m.position(3))[0] == pytest.approx(710, abs=1e-6)
        (w, n), (e, s) = m.to_lonlat(300, 300), m.to_lonlat(720, 500)
        m.set_allowed_area(f"POLYGON(({w} {s}, {e} {s}, {e} {n}, {w} {n}, {w} {s}))")
        with pytest.raises(pindrop.InvalidArgument):
            m.nudge(20, 0, 200)                   # pin 3 would pass x = 720
        assert m.to_screen(*m.position(3))[0] == pytest.approx(710, abs=1e-6)
