"""A Python-native surface (issue 22, part 4): enums and their names, events with None where C has
a sentinel, exceptions printed as pindrop's, __version__, `in`, ids(), read-only options and
frames drawn at the map's own time."""
import dataclasses
import enum
import inspect
import traceback

import numpy as np
import pytest

import pindrop
from pindrop import Cause, EventType, OutsidePolicy, PinFlag, SpreadMode, TouchPhase

LON0, LAT0 = -118.3535474, 33.8870931


def mouse_map(**options):
    m = pindrop.Map(lift_delay_ms=0, lift_height=0, **options)
    m.set_camera(LON0, LAT0, zoom=19, width=400, height=400)
    return m


def test_constants_are_enums_and_still_the_c_values():
    assert issubclass(SpreadMode, enum.IntEnum) and issubclass(PinFlag, enum.IntFlag)
    assert pindrop.SPREAD_SPIRAL is SpreadMode.SPIRAL and pindrop.SPREAD_SPIRAL == 2
    assert pindrop.PIN_SPREAD is PinFlag.SPREAD and pindrop.TOUCH_UP == 2 == TouchPhase.UP
    assert (PinFlag.SELECTED | PinFlag.DRAGGING) == 5
    assert pindrop.EVENT_TYPES[6] == "MOVED" and pindrop.CAUSES[7] == "NUDGE"


def test_names_are_taken_wherever_the_c_api_takes_an_enum():
    o = pindrop.Options(spread_mode="spiral", outside_policy="SNAP")
    assert o.spread_mode is SpreadMode.SPIRAL and o.outside_policy is OutsidePolicy.SNAP
    assert "SpreadMode.SPIRAL" in repr(o) and "spread_mode=1" not in repr(pindrop.Options())
    with pindrop.Map(spread_mode="off") as m:
        assert m.options.spread_mode is SpreadMode.OFF
    with pytest.raises(ValueError, match="'hover' is not one of down, move, up, cancel"):
        with mouse_map() as m:
            m.touch(0, "hover", 1, 1, 0)
    with pytest.raises(ValueError, match="phase 7"):
        with mouse_map() as m:
            m.touch(0, 7, 1, 1, 0)
    with pytest.raises(TypeError, match="phase"):
        with mouse_map() as m:
            m.touch(0, 1.0, 1, 1, 0)
    with mouse_map() as m:
        m.add(1, LON0, LAT0)
        m.set_title(1, "Sycamore")
        assert m.callout(1, "title") == m.callout(1, pindrop.Callout.TITLE) == m.title(1) == "Sycamore"
        for phase in ("DOWN", TouchPhase.MOVE, 2):
            assert m.touch(0, phase, 200, 200 if phase == "DOWN" else 240, 10.0 * (1 + int(phase == 2)))


def test_events_say_none_where_c_has_a_sentinel():
    with mouse_map() as m:
        m.add(1, LON0, LAT0)
        m.select(1)
        m.touch(0, "down", 200, 200, 0)
        m.touch(0, "move", 260, 200, 16)
        m.touch(0, "up", 260, 200, 32)
        events = list(m.events())
    by_type = {e.type: e for e in events}
    assert {EventType.SELECTED, EventType.LIFTED, EventType.DRAGGED, EventType.DROPPED, EventType.MOVED} <= set(by_type)
    moved = by_type["MOVED"]
    assert moved.type is EventType.MOVED and moved.cause is Cause.DRAG and moved.cause == "DRAG"
    assert moved.id == 1 and moved.other is None and moved.request is None and moved.dx is None
    assert moved.from_lon == LON0 and moved.from_lat == LAT0 and moved.lon > LON0
    selected = by_type[EventType.SELECTED]
    assert (selected.id, selected.other, selected.lon, selected.lat, selected.from_lon, selected.cause,
            selected.distance_m, selected.request) == (1, None, None, None, None, None, None, None)
    assert {"MOVED": 1}[moved.type] == 1  # tables keyed by the names still find the events
    assert by_type["DRAGGED"].lon is not None and by_type["DRAGGED"].from_lon is None
    assert "MOVED" in str(moved) and "cause=DRAG" in str(moved) and f"{moved.type:<8}|" == "MOVED   |"
    with pindrop.Map(cluster_radius=60) as m:
        m.add_many(np.arange(50), np.tile([LON0, LAT0], (50, 1)) + np.linspace(0, 1e-4, 100).reshape(50, 2))
        m.set_camera(LON0, LAT0, 10, 400, 400)
        c = m.clusters(0)[0]
        m.touch(0, "down", c.x, c.y, 10)
        m.touch(0, "up", c.x, c.y, 20)
        m.advance(1000)
        tapped = [e for e in m.events() if e.type == "CLUSTER_TAPPED"]
        assert len(tapped) == 1 and tapped[0].id is None and tapped[0].request == c.key
        assert (tapped[0].lon, tapped[0].lat) == (c.lon, c.lat)


def test_exceptions_are_pindrops():
    for cls in (pindrop.PindropError, pindrop.InvalidArgument, pindrop.NotFound, pindrop.DuplicateId,
                pindrop.ParseError, pindrop.StateError, pindrop.GeosError, pindrop.NoMemory):
        assert cls.__module__ == "pindrop" and repr(cls) == f"<class 'pindrop.{cls.__name__}'>"
    assert issubclass(pindrop.DuplicateId, ValueError) and issubclass(pindrop.InvalidArgument, ValueError)
    with pindrop.Map() as m:
        m.add(1, 0, 0)
        with pytest.raises(pindrop.DuplicateId) as err:
            m.add(1, 0, 0)
        line = traceback.format_exception_only(type(err.value), err.value)[-1]
        assert line.startswith("pindrop.DuplicateId: ") and "a pin with id 1 already exists" in line
        with pytest.raises(TypeError) as terr:
            m.add("7", 0, 0)
        assert "argument 2" not in str(terr.value) and "id must be an integer" in str(terr.value)


def test_version_and_its_dunder():
    parts = [str(p) for p in pindrop._tables.VERSION]  # PINDROP_VERSION_MAJOR, _MINOR, _PATCH
    assert pindrop.__version__ == pindrop.version() == ".".join(parts)


def test_membership_ids_and_truth():
    with pindrop.Map() as m:
        assert bool(m) and len(m) == 0 and m.ids().dtype == np.int64 and m.ids().size == 0
        m.add_many([5033, 7, 12], [[0, 0], [1, 1], [2, 2]])
        m.add(-4, 3, 3)
        assert 5033 in m and np.int64(7) in m and 8 not in m and True not in m and 7.0 not in m
        assert m.ids().tolist() == [-4, 7, 12, 5033] and list(m) == [-4, 7, 12, 5033]
        m.remove(7)
        assert 7 not in m and m.ids().tolist() == [-4, 12, 5033]


def test_options_are_read_only_and_the_keywords_are_explicit():
    with pindrop.Map(hit_radius=30) as m:
        with pytest.raises(dataclasses.FrozenInstanceError):
            m.options.hit_radius = 100
        with pytest.raises(AttributeError):
            m.options = pindrop.Options()
        assert m.options.hit_radius == 30
        assert m.options.replace(hit_radius=40).hit_radius == 40 and m.options.hit_radius == 30
    with pytest.raises(TypeError, match="hitradius"):
        pindrop.Map(hitradius=3)
    signature = inspect.signature(pindrop.Map)
    keywords = {k: p.default for k, p in signature.parameters.items() if p.kind is p.KEYWORD_ONLY}
    assert keywords == dataclasses.asdict(pindrop.Options())


def test_frame_and_clusters_without_a_time_draw_at_the_maps_time():
    with mouse_map() as m:
        m.add(1, LON0, LAT0)
        assert m.time_ms is None
        assert [v.id for v in m.frame()] == [1]            # nothing given yet: time 0
        m.touch(0, "down", 200, 200, 500)
        m.touch(0, "move", 260, 200, 516)
        assert m.time_ms == 516
        f = m.frame()                                       # at 516: no "time went backwards"
        assert f[0].flags & PinFlag.DRAGGING and isinstance(f[0].flags, PinFlag)
        assert len(m.clusters()) == 0
        m.touch(0, "up", 260, 200, 516)                     # the same time is still allowed
        assert np.array_equal(m.frame().array, m.frame(516, array=True))
        with pytest.raises(pindrop.InvalidArgument, match="backwards"):
            m.frame(100)
        assert m.time_ms == 516


def test_dtypes_are_listed_and_typed():
    assert "PIN_VIEW_DTYPE" in dir(pindrop) and "CLUSTER_VIEW_DTYPE" in dir(pindrop)
    assert isinstance(pindrop.PIN_VIEW_DTYPE, np.dtype) and pindrop.PIN_VIEW_DTYPE.names[:3] == ("id", "x", "y")
    with pindrop.Map() as m:
        m.set_camera(0, 0, 10, 100, 100)
        m.add(1, 0, 0)
        assert m.frame(0, array=True).dtype == pindrop.PIN_VIEW_DTYPE
