"""Strict input at the Python edge (issue 22, part 1): every case measured on 0.2 that was misread,
accepted or refused in words that were not pindrop's, each checked here as the error it must be."""
import math

import numpy as np
import pytest

import pindrop


@pytest.fixture
def m():
    with pindrop.Map() as m:
        yield m


# -- coordinates: exactly (n, 2), or two 1-D arrays ----------------------------------------------

def test_spread_refuses_lon_lat_z_rows_instead_of_recutting_them():
    rows = np.array([[2.35, 48.85, 35.0]] * 2)
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(n, 2\)"):
        pindrop.spread(rows)


def test_spread_takes_two_1d_arrays_as_lon_and_lat():
    lon, lat = np.array([2.35, 2.35, 2.4]), np.array([48.85, 48.85, 48.8])
    assert np.array_equal(pindrop.spread(lon, lat=lat).positions, pindrop.spread(np.column_stack([lon, lat])).positions)


def test_spread_of_none_is_a_type_error_in_pindrops_words():
    with pytest.raises(TypeError, match="coordinates"):
        pindrop.spread(None)


def test_add_many_refuses_a_lonlat_whose_shape_does_not_match_the_ids(m):
    with pytest.raises(ValueError, match=r"\(2, 3\)"):
        m.add_many([22, 23, 24], np.zeros((2, 3)))
    assert len(m) == 0
    with pytest.raises(ValueError, match=r"3 ids.*2 coordinates|2 coordinates.*3 ids"):
        m.add_many([22, 23, 24], np.zeros((2, 2)))
    assert len(m) == 0


def test_add_many_refuses_a_flat_lonlat(m):
    with pytest.raises(ValueError, match=r"\(4,\).*\(n, 2\)"):
        m.add_many([1, 2], np.zeros(4))


def test_hit_test_many_refuses_a_flat_xy(m):
    with pytest.raises(ValueError, match=r"\(4,\)"):
        m.hit_test_many(np.zeros(4))


# -- ids: integers that fit int64 and are not NO_ID ----------------------------------------------

def test_add_many_refuses_float_ids_instead_of_truncating_them(m):
    with pytest.raises(TypeError, match="16.7"):
        m.add_many([16.7], [[0.0, 0.0]])
    assert len(m) == 0


def test_add_refuses_a_float_id(m):
    with pytest.raises(TypeError, match="7.5"):
        m.add(7.5, 0, 0)


def test_add_refuses_a_bool_id(m):
    with pytest.raises(TypeError, match="True"):
        m.add(True, 0, 0)
    with pytest.raises(TypeError, match="bool"):
        m.add_many(np.array([True, False]), [[0, 0], [1, 1]])


def test_an_id_past_int64_is_an_overflow_error_not_another_id(m):
    with pytest.raises(OverflowError, match=str(2 ** 64 + 5)):
        m.add(2 ** 64 + 5, 0, 0)
    with pytest.raises(OverflowError, match=str(-2 ** 63 - 1)):
        m.add(-2 ** 63 - 1, 0, 0)
    with pytest.raises(OverflowError, match=str(2 ** 63)):
        m.add(2 ** 63, 0, 0)
    with pytest.raises(OverflowError, match=str(2 ** 64 + 5)):
        m.add_many([1, 2 ** 64 + 5], [[0, 0], [1, 1]])
    assert len(m) == 0 and 5 not in m


def test_no_id_is_refused_by_name(m):
    with pytest.raises(ValueError, match="NO_ID"):
        m.add(pindrop.NO_ID, 0, 0)
    with pytest.raises(ValueError, match="NO_ID"):
        m.add_many([1, pindrop.NO_ID], [[0, 0], [1, 1]])


def test_a_string_id_is_a_type_error_not_a_ctypes_error(m):
    with pytest.raises(TypeError, match=r"id must be an integer, not str '7'"):
        m.add("7", 0, 0)


def test_a_string_coordinate_is_a_type_error(m):
    with pytest.raises(TypeError, match="lon"):
        m.add(7, "0", 0)


# -- limits and capacities -----------------------------------------------------------------------

def test_nearby_refuses_a_negative_limit(m):
    m.add(1, 0, 0)
    with pytest.raises(ValueError, match="limit.*-1"):
        m.nearby(0, 0, 10, limit=-1)
    with pytest.raises(TypeError, match="limit"):
        m.nearby(0, 0, 10, limit=1.5)
    assert m.nearby(0, 0, 10, limit=0) == []


# -- options -------------------------------------------------------------------------------------

def test_map_refuses_a_dict_for_options_in_pindrops_words():
    with pytest.raises(TypeError, match="Options"):
        pindrop.Map({"hit_radius": 3})


def test_options_cannot_be_changed_behind_the_maps_back(m):
    with pytest.raises(AttributeError):
        m.options.hit_radius = 100
    assert m.options.hit_radius == 22


def test_options_take_enum_names():
    o = pindrop.Options(spread_mode="spiral", outside_policy="snap")
    assert o.spread_mode is pindrop.SpreadMode.SPIRAL and o.outside_policy is pindrop.OutsidePolicy.SNAP
    assert "spread_mode=<SpreadMode.SPIRAL: 2>" in repr(o) or "SpreadMode.SPIRAL" in repr(o)
    with pytest.raises(ValueError, match="'spirale'.*off, ring, spiral"):
        pindrop.Options(spread_mode="spirale")


# -- a closed map --------------------------------------------------------------------------------

def test_every_use_of_a_closed_map_is_a_value_error():
    m = pindrop.Map()
    m.close()
    for use in (lambda: len(m), lambda: list(m.events()), lambda: m.add(1, 0, 0), lambda: 1 in m,
                lambda: m.frame(0), lambda: m.ids(), lambda: m.poll_event(), lambda: m.selected):
        with pytest.raises(ValueError, match="operation on a closed Map"):
            use()
    with pytest.raises(ValueError, match="operation on a closed Map"):
        with m:
            pass
    m.close()  # still idempotent
    assert m.closed and repr(m) == "<pindrop.Map closed>"


def test_an_empty_open_map_is_truthy(m):
    assert len(m) == 0 and bool(m)


def test_membership(m):
    m.add(5033, -118.3, 33.9)
    assert 5033 in m and 5034 not in m and "5033" not in m and 2 ** 70 not in m
    assert m.last_error == ""  # a membership test is no failure


# -- GIS text as before ---------------------------------------------------------------------------

def test_allowed_area_of_a_wrong_type_is_a_type_error(m):
    with pytest.raises(TypeError, match="allowed area"):
        m.set_allowed_area(42)


# -- the helpers new methods validate with (pindrop._check) ----------------------------------------

def test_array_helpers_for_per_pin_values():
    from pindrop import _check
    assert _check.floats([1, 2.5, float("nan")], "values", 3).dtype == np.float64
    with pytest.raises(ValueError, match=r"values must be of shape \(2,\), not \(3,\)"):
        _check.floats([1, 2, 3], "values", 2)
    with pytest.raises(TypeError, match="values"):
        _check.floats(["a"], "values")
    with pytest.raises(TypeError, match="bool"):
        _check.floats([True], "values")
    assert _check.uint32s([0, 2 ** 32 - 1], "categories").tolist() == [0, 2 ** 32 - 1]
    with pytest.raises(OverflowError, match=str(2 ** 32)):
        _check.uint32s([1, 2 ** 32], "categories")
    with pytest.raises(OverflowError, match="-1"):
        _check.uint32s(np.array([-1, 3]), "categories")
    with pytest.raises(TypeError, match="float64"):
        _check.uint32s([1.5], "categories")
    assert _check.key(2 ** 64 - 1) == 2 ** 64 - 1
    with pytest.raises(OverflowError):
        _check.key(2 ** 64)
    with pytest.raises(OverflowError):
        _check.count(2 ** 63, "offset")
    assert _check.enum(pindrop.TouchPhase, "Cancel", "phase") is pindrop.TouchPhase.CANCEL
