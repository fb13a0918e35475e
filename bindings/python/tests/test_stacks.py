"""Stacks that open on demand (behaviour 22, spread_on_tap) through the Python package: the option,
the CLUSTER_STACK items of `clusters()`, `open_stack` / `close_stack`, the STACK_OPENED and
STACK_CLOSED events, and the real Lawndale stacks of 305 and 261 trees."""
from __future__ import annotations

import csv
import subprocess
from collections import Counter

import pytest

import pindrop
from pindrop import _ffi

LON, LAT = -118.2, 33.8


def make(spread_on_tap=1, **options):
    m = pindrop.Map(spread_on_tap=spread_on_tap, **options)
    m.set_camera(LON, LAT, zoom=18, width=1200, height=800)
    for i in range(1, 5):
        m.add(i, LON, LAT)
    m.add(9, LON + 0.0005, LAT)
    return m


def stacks(m, t):
    return [c for c in m.clusters(t) if c.flags & pindrop.CLUSTER_STACK]


def test_the_option_and_its_validation():
    assert pindrop.Options().spread_on_tap == 0
    o = _ffi.Options()
    assert _ffi.lib.pindrop_options_init(o, _ffi.ctypes.sizeof(o)) == 0
    assert (o.cluster_min_points, o.cluster_by_category, o.spread_on_tap) == (2, 0, 0)
    with pytest.raises(TypeError, match="spread_on_tap"):
        pindrop.Map(spread_on_tap=2)


def test_a_collapsed_stack_opens_on_a_tap_and_closes_on_esc():
    with make() as m:
        assert [v.id for v in m.frame(0)] == [9]
        (s,) = stacks(m, 0)
        assert (s.count, s.lon, s.lat, s.flags) == (4, LON, LAT, pindrop.CLUSTER_STACK)
        assert s.x == pytest.approx(600) and s.y == pytest.approx(400)
        assert list(m.cluster_members(s.key)) == [1, 2, 3, 4]
        assert m.cluster_expansion_zoom(s.key) == 18
        assert m.hit_test(600, 400) is None
        assert m.display_position(2) == (LON, LAT)
        # A press held past the lift delay lifts nothing; a tap opens it.
        assert m.touch(0, "down", 600, 400, 10) is True
        m.tick(1000)
        assert m.touch(0, "up", 600, 400, 1010) is True
        assert [e.type for e in m.events()] == []
        m.touch(0, "down", 600, 400, 1100)
        m.touch(0, "up", 600, 400, 1140)
        (e,) = list(m.events())
        assert (e.type, e.request, e.id, e.lon, e.lat, e.time_ms) == ("STACK_OPENED", s.key, None, LON, LAT, 1140)
        views = {v.id: v for v in m.frame(1200)}
        assert set(views) == {1, 2, 3, 4, 9}
        assert all(views[i].flags & pindrop.PIN_SPREAD for i in range(1, 5))
        assert stacks(m, 1200) == []
        assert m.hit_test(views[3].x, views[3].y) == 3
        m.cancel_gesture(1300)  # Esc with nothing under way
        assert [(e.type, e.request) for e in m.events()] == [("STACK_CLOSED", s.key)]
        assert [v.id for v in m.frame(1300)] == [9]


def test_open_and_close_by_key_and_stale_keys():
    with make() as m:
        m.close_stack(0)
        assert list(m.events()) == []
        (s,) = stacks(m, 0)
        m.open_stack(s.key, 10)
        m.open_stack(s.key, 20)  # already open: nothing
        m.close_stack(30)
        m.close_stack(40)        # none open: nothing
        assert [e.type for e in m.events()] == ["STACK_OPENED", "STACK_CLOSED"]
        m.set_position(4, LON - 0.001, LAT)  # pin 4 leaves: the key goes stale
        with pytest.raises(pindrop.NotFound, match="no stack"):
            m.open_stack(s.key, 50)
        with pytest.raises(pindrop.NotFound):
            m.cluster_members(s.key)
        (now,) = stacks(m, 50)
        assert now.count == 3 and now.key != s.key
        with pytest.raises(pindrop.InvalidArgument):
            m.open_stack(now.key, 49)  # time going backwards
        with pytest.raises(pindrop.NotFound):
            m.open_stack(0, 60)


def test_spread_on_tap_off_draws_groups_spread():
    with make(spread_on_tap=0) as m:
        assert {v.id for v in m.frame(0)} == {1, 2, 3, 4, 9}
        assert stacks(m, 0) == []
        with pytest.raises(pindrop.NotFound, match="spread_on_tap is off"):
            m.open_stack(31 << 59, 0)


@pytest.mark.native_only
def test_the_calls_are_exported():
    out = subprocess.run(["nm", "-D", "--defined-only", str(_ffi.library_path)], capture_output=True, text=True,
                         check=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if len(line.split()) >= 3}
    assert {"pindrop_map_open_stack", "pindrop_map_close_stack"} <= names


def test_lawndale_stacks_of_305_and_261(repo_root):
    """The real Lawndale inventory: the address with 305 trees and its neighbour with 261, 30 m
    apart, are two items at street zoom; opening one closes the other."""
    rows = list(csv.DictReader(open(repo_root / "examples" / "data" / "lawndale_trees.csv")))
    spots = Counter((float(r["lon"]), float(r["lat"])) for r in rows)
    (big, n305), (near, n261) = spots.most_common(2)
    assert (n305, n261) == (305, 261)
    np = pytest.importorskip("numpy")
    with pindrop.Map(spread_on_tap=1, spread_mode=pindrop.SPREAD_SPIRAL) as m:
        m.add_many(np.array([int(r["id"]) for r in rows]), np.array([(float(r["lon"]), float(r["lat"])) for r in rows]))
        m.set_camera(big[0], big[1], zoom=18, width=1200, height=800)
        items = {c.count: c for c in stacks(m, 0)}
        assert {305, 261} <= set(items)
        # Every pin in view is either drawn as a pin or counted by one stack, never both.
        drawn = {v.id for v in m.frame(0)}
        members = [set(m.cluster_members(c.key)) for c in stacks(m, 0)]
        assert sum(len(s) for s in members) == len(set().union(*members))
        assert not drawn & set().union(*members)
        m.touch(0, "down", items[305].x, items[305].y, 10)
        m.touch(0, "up", items[305].x, items[305].y, 50)
        assert [(e.type, e.request) for e in m.events()] == [("STACK_OPENED", items[305].key)]
        assert set(m.cluster_members(items[305].key)) <= {v.id for v in m.frame(100)}, "the spiral of 305 fits the view"
        m.open_stack(items[261].key, 200)
        assert [(e.type, e.request) for e in m.events()] == [("STACK_CLOSED", items[305].key),
                                                             ("STACK_OPENED", items[261].key)]
        # The 305's spot lies under the 261's opened grid: its badge is neither drawn nor hit while
        # the 261 is open, and comes back when it closes.
        assert items[305].key not in {c.key for c in stacks(m, 300)}
        m.close_stack(400)
        assert [(e.type, e.request) for e in m.events()] == [("STACK_CLOSED", items[261].key)]
        assert {items[305].key, items[261].key} <= {c.key for c in stacks(m, 500)}
