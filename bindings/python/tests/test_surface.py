"""The Pythonic surface of the package: options, lifetime, exceptions, NumPy batches, callbacks."""
import dataclasses
import gc
import math
import weakref
from pathlib import Path

import numpy as np
import pytest

import pindrop

ROOT = Path(__file__).resolve().parents[3]


def test_options_defaults_are_the_documented_ones():
    """Options has the header's fields, in its order, with its PINDROP_DEFAULT_* (through the
    generated tables); Map's keywords are the same, with the same defaults."""
    import inspect
    from pindrop import _tables
    documented = {name: float(default) for name, _, _, default, _ in _tables.OPTIONS}
    python = dataclasses.asdict(pindrop.Options())
    assert list(python) == [name for name, *_ in _tables.OPTIONS]
    assert {k: float(v) for k, v in python.items()} == documented
    keywords = {k: p.default for k, p in inspect.signature(pindrop.Map).parameters.items() if k != "options"}
    assert {k: float(v) for k, v in keywords.items()} == documented


def test_options_defaults_agree_with_the_library():
    import ctypes
    c = pindrop._ffi.Options()
    assert pindrop._ffi.lib.pindrop_options_init(ctypes.byref(c), ctypes.sizeof(c)) == 0
    for name, value in dataclasses.asdict(pindrop.Options()).items():
        assert getattr(c, name) == value, name


def test_map_takes_options_or_keywords_not_both():
    with pindrop.Map(lift_delay_ms=0, hit_radius=30) as m:
        assert m.options.lift_delay_ms == 0 and m.options.hit_radius == 30
    with pytest.raises(TypeError):
        pindrop.Map(pindrop.Options(), hit_radius=3)
    with pytest.raises(TypeError):
        pindrop.Map(no_such_option=1)
    with pytest.raises(pindrop.InvalidArgument) as err:
        pindrop.Map(hit_radius=-1)
    assert err.value.status == -1


def test_close_is_idempotent_and_a_closed_map_refuses_calls():
    m = pindrop.Map()
    m.add(1, 0, 0)
    m.close()
    m.close()
    assert m.closed and repr(m) == "<pindrop.Map closed>"
    with pytest.raises(pindrop.InvalidArgument) as err:  # refused before C sees it
        m.add(2, 0, 0)
    assert str(err.value) == "operation on a closed Map"
    with pytest.raises(pindrop.InvalidArgument, match="closed Map"):
        len(m)


def test_a_forgotten_map_is_destroyed_by_the_finalizer():
    m = pindrop.Map()
    finalizer = m._finalizer
    ref = weakref.ref(m)
    del m
    gc.collect()
    assert ref() is None and not finalizer.alive


def test_exceptions_are_typed_and_carry_the_maps_last_error():
    with pindrop.Map() as m:
        m.add(7, -118.3, 33.9)
        with pytest.raises(pindrop.DuplicateId) as dup:
            m.add(7, -118.3, 33.9)
        assert dup.value.status == -3 and dup.value.function == "pindrop_map_add"
        assert dup.value.message == m.last_error and "7" in dup.value.message
        with pytest.raises(KeyError):  # NotFound is also a KeyError
            m.position(8)
        with pytest.raises(ValueError):  # InvalidArgument is also a ValueError
            m.add(9, 200.0, 0.0)
        assert isinstance(dup.value, pindrop.PindropError)


def test_add_many_takes_numpy_and_is_all_or_nothing():
    with pindrop.Map() as m:
        ids = np.arange(10, dtype=np.int64)
        lonlat = np.column_stack([np.linspace(-118.36, -118.35, 10), np.full(10, 33.88)])
        bad = lonlat.copy()
        bad[7, 1] = math.nan
        with pytest.raises(pindrop.InvalidArgument):
            m.add_many(ids, bad)
        assert len(m) == 0
        m.add_many(ids, lonlat)
        assert len(m) == 10 and m.position(3) == tuple(lonlat[3])
        with pytest.raises(ValueError):
            m.add_many([1, 2], [0.0, 0.0, 0.0])


def test_hit_test_many_returns_an_int64_array_with_no_id_for_misses():
    with pindrop.Map() as m:
        m.set_camera(-118.35, 33.88, zoom=18, width=800, height=600)
        m.add(42, -118.35, 33.88)
        hits = m.hit_test_many(np.array([[400.0, 300.0], [0.0, 0.0], [405.0, 298.0]]))
        assert hits.dtype == np.int64 and hits.tolist() == [42, pindrop.NO_ID, 42]
        assert m.hit_test_many(np.empty((0, 2))).shape == (0,)


def test_projection_callbacks_stay_alive_while_the_map_holds_them():
    lon0, lat0, k = -118.35, 33.88, 100000.0
    with pindrop.Map() as m:
        m.set_projection(lambda lon, lat: ((lon - lon0) * k + 400, (lat0 - lat) * k + 300),
                         lambda x, y: ((x - 400) / k + lon0, lat0 - (y - 300) / k), 800, 600)
        gc.collect()  # the lambdas are referenced only by the map now
        assert m.to_screen(-118.349, 33.879) == pytest.approx((500.0, 400.0), abs=1e-6)
        assert m.to_lonlat(500, 400) == pytest.approx((-118.349, 33.879), abs=1e-12)

        def broken(lon, lat):
            raise RuntimeError("no projection here")
        m.set_projection(broken, broken, 800, 600)
        with pytest.raises(pindrop.InvalidArgument):
            m.to_screen(-118.349, 33.879)


def test_events_are_frozen_dataclasses_and_phases_have_names():
    assert dataclasses.is_dataclass(pindrop.Event)
    e = pindrop.Event("MOVED", "DRAG", 1, pindrop.NO_ID, 1.0, 2.0, 0.5, 0.25, 0, 0, 0, 16.0, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.id = 2
    assert "MOVED" in str(e) and "cause=DRAG" in str(e)
    with pindrop.Map() as m, pytest.raises(ValueError, match="phase"):
        m.touch(0, "hover", 1, 1, 0)


def test_spread_returns_a_new_array_and_leaves_the_input_alone():
    pts = np.array([[-118.346, 33.8835]] * 4 + [[-118.0, 34.0]])
    before = pts.copy()
    out = pindrop.spread(pts)
    assert out.shape == (5, 2) and out.dtype == np.float64
    assert np.array_equal(pts, before)
    assert np.array_equal(out[4], pts[4])  # alone: stays put
    assert len({tuple(p) for p in out[:4]}) == 4


def test_every_function_of_the_header_is_declared_and_nothing_else():
    """_ffi declares argtypes/restype for exactly the functions include/pindrop.h declares (an
    undeclared pointer argument would be truncated to 32 bits); importing pindrop fails on a
    library that lacks any of them."""
    declared = set(pindrop._tables.FUNCTIONS)  # every function of the header (tools/gen_tables.py)
    # 0.1's 40; 0.2: pindrop_last_error, pindrop_spread_spiral, pindrop_map_nudge, three cluster
    # functions; 0.3: focus_step, focused, focus_rank, key_lift, key_drop, distance, open_stack,
    # close_stack, set_attributes, cluster_summary, cluster_categories, cluster_members_from;
    # 0.4: set_modifiers, select_many, select_in_rect, selection, set_snap_layer, snap_target
    assert len(declared) == 64
    assert declared == set(pindrop._ffi.SIGNATURES)
