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


@pytest.mark.parametrize("value", [-3, -1, 2 ** 32, 2 ** 32 + 5, 2 ** 40, -(2 ** 31) - 1])
def test_an_integer_option_outside_its_c_field_is_refused_not_wrapped(value):
    # ctypes stores a Python int in a uint32 field modulo 2**32: -3 became 4294967293 (clustering
    # silently off), 2**32 + 5 became 5, 2**40 became 0 ("got 0" from the library)
    for make in (lambda: pindrop.Map(cluster_radius=60, cluster_min_points=value),
                 lambda: pindrop.Options(cluster_min_points=value),
                 lambda: pindrop.Options().replace(cluster_min_points=value)):
        with pytest.raises(pindrop.InvalidArgument, match=rf"cluster_min_points {value} .*32-bit unsigned") as e:
            make()
        assert isinstance(e.value, OverflowError)  # as an id past int64 is
    assert pindrop.Options(cluster_min_points=2 ** 32 - 1).cluster_min_points == 2 ** 32 - 1


def test_every_integer_field_of_the_c_options_is_range_checked():
    from pindrop import _ffi
    import ctypes
    defaults = pindrop.Options()
    for name, ctype in _ffi.Options._fields_:
        if name == "struct_size" or ctype not in (ctypes.c_uint32, ctypes.c_int32):
            continue
        base = int(getattr(defaults, name))
        for wrapped in (base + 2 ** 32, base - 2 ** 32):  # what the C field would read as `base`
            with pytest.raises((ValueError, TypeError), match=name):
                pindrop.Options(**{name: wrapped})


def test_an_int32_argument_outside_its_range_is_refused_not_wrapped(m):
    m.set_camera(0, 0, zoom=10, width=400, height=400)
    m.add(1, 0, 0)
    m.frame(0)
    with pytest.raises(pindrop.InvalidArgument, match=f"step {2 ** 32 + 1}"):
        m.focus_step(2 ** 32 + 1)  # wrapped, this was a Tab
    assert m.focus.kind == "none"
    with pytest.raises(pindrop.InvalidArgument, match=f"pointer {2 ** 31}"):
        m.touch(2 ** 31, "down", 200, 200, 0)
    assert m.time_ms == 0


# -- GeoJSON and nested sequences: refused in pindrop's words ------------------------------------

@pytest.mark.parametrize("value, error, words", [
    ('{"type": "Point"}', pindrop.InvalidArgument, "Point has no 'coordinates'"),
    ({"type": "Point"}, pindrop.InvalidArgument, "Point has no 'coordinates'"),
    ({"type": "Point", "coordinates": None}, pindrop.InvalidArgument, "Point has no 'coordinates'"),
    ({"type": "Point", "coordinates": [1]}, pindrop.InvalidArgument, r"coordinates must be a position \[lon, lat\] of two numbers, not 1"),
    ({"type": "Point", "coordinates": [1, 2, 3, 4]}, pindrop.InvalidArgument, "of two numbers, not 4"),
    ({"type": "Point", "coordinates": [[[[1]]]]}, pindrop.InvalidArgument, "not nested lists"),
    ({"type": "Point", "coordinates": "1 2"}, TypeError, "coordinates must be a position"),
    ({"type": "Point", "coordinates": [1, "2"]}, TypeError, "must hold numbers, not str '2'"),
    ({"type": "MultiPoint"}, pindrop.InvalidArgument, "MultiPoint has no 'coordinates'"),
    ({"type": "MultiPoint", "coordinates": [[1, 2], [3]]}, pindrop.InvalidArgument, r"coordinates\[1\] .*not 1"),
    ({"type": "FeatureCollection"}, pindrop.InvalidArgument, "FeatureCollection has no 'features'"),
    ({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point"}}]},
     pindrop.InvalidArgument, r"Point at features\[0\].geometry has no 'coordinates'"),
    ({"type": "GeometryCollection"}, pindrop.InvalidArgument, "GeometryCollection has no 'geometries'"),
])
def test_malformed_geojson_is_refused_in_pindrops_words_and_changes_nothing(m, value, error, words):
    m.add(7, 2.35, 48.85)
    for call in (lambda: m.add(1, value), lambda: m.add_many([1], value), lambda: pindrop.spread(value)):
        with pytest.raises(error, match=words) as e:
            call()
        assert not isinstance(e.value, (KeyError, IndexError))  # pindrop.NotFound is a KeyError
    assert len(m) == 1 and m.position(7) == (2.35, 48.85)


def test_malformed_geojson_areas_are_refused_in_pindrops_words(m):
    with pytest.raises(pindrop.InvalidArgument, match="Polygon has no 'coordinates'"):
        m.set_allowed_area({"type": "Polygon"})
    with pytest.raises(TypeError, match="numbers, not str 'a'"):
        m.set_allowed_area({"type": "Polygon", "coordinates": [[[0, 0], [1, "a"], [1, 1], [0, 0]]]})


def test_ragged_rows_are_refused_naming_the_row_and_change_nothing(m):
    for call in (lambda: m.add_many([1, 2], [(1, 2), (3,)]), lambda: pindrop.spread([(1, 2), (3,)])):
        with pytest.raises(pindrop.InvalidArgument, match="row 0 has 2 values and row 1 has 1 value"):
            call()
    with pytest.raises(pindrop.InvalidArgument, match="row 2 has 3 values"):
        m.add_many([1, 2, 3], [(1, 2), (3, 4), (5, 6, 7)])
    with pytest.raises(pindrop.InvalidArgument, match="row 1 has 1 value"):
        m.hit_test_many([(1, 2), (3,)])
    assert len(m) == 0


# -- pandas DataFrames: read by column name ------------------------------------------------------

PARIS, LONDON = (2.3522, 48.8566), (-0.1276, 51.5072)


def test_a_dataframe_is_read_by_its_column_names_whatever_their_order(m):
    pd = pytest.importorskip("pandas")
    # read by position, this frame put Paris at lon 48.86, lat 2.35
    m.add_many([1, 2], pd.DataFrame({"lat": [PARIS[1], LONDON[1]], "lon": [PARIS[0], LONDON[0]]}))
    assert m.position(1) == PARIS and m.position(2) == LONDON
    expected = np.array([PARIS, LONDON])
    for columns in ({"Latitude": [PARIS[1], LONDON[1]], "LONGITUDE": [PARIS[0], LONDON[0]]},
                    {"y": [PARIS[1], LONDON[1]], "X": [PARIS[0], LONDON[0]]},
                    {"city": ["Paris", "London"], "idx": [3, 4], "lat": [PARIS[1], LONDON[1]],
                     "lon": [PARIS[0], LONDON[0]]}):
        assert np.array_equal(pindrop.spread(pd.DataFrame(columns)).true_positions, expected), columns


def test_a_dataframe_without_named_columns_is_refused_not_read_by_position(m):
    pd = pytest.importorskip("pandas")
    unnamed = pd.DataFrame({"a": [PARIS[1]], "b": [PARIS[0]]})
    for call in (lambda: m.add_many([1], unnamed), lambda: pindrop.spread(unnamed)):
        with pytest.raises(pindrop.InvalidArgument, match=r"'a', 'b'.*not read by position.*df\[\[\"lon\", \"lat\"\]\]"):
            call()
    both = pd.DataFrame({"lon": [1.0], "lat": [2.0], "x": [3.0], "y": [4.0]})
    with pytest.raises(pindrop.InvalidArgument, match="both lon/lat and x/y"):
        pindrop.spread(both)
    assert len(m) == 0


def test_screen_points_in_a_dataframe_are_read_as_x_and_y(m):
    pd = pytest.importorskip("pandas")
    m.set_camera(0, 0, zoom=10, width=400, height=400)
    m.add(5, 0.2, 0)
    x, y = m.to_screen(0.2, 0)
    assert abs(x - y) > 50  # read by position, (y, x) would miss the pin
    hits = m.hit_test_many(pd.DataFrame({"y": [y, y + 300], "x": [x, x]}))
    assert hits.tolist() == [5, pindrop.NO_ID]


# -- NumPy masked arrays ----------------------------------------------------------------------------

def test_a_masked_array_with_masked_entries_is_refused_by_count(m):
    lonlat = np.ma.masked_array([PARIS, LONDON, PARIS], mask=[[0, 0], [1, 1], [0, 0]])
    for call in (lambda: m.add_many([1, 2, 3], lonlat), lambda: pindrop.spread(lonlat),
                 lambda: m.add_many(np.ma.masked_array([1, 2, 3], mask=[0, 0, 1]), np.array([PARIS] * 3))):
        with pytest.raises(pindrop.InvalidArgument, match=r"masked array with \d masked entr"):
            call()
    with pytest.raises(pindrop.InvalidArgument, match="2 masked entries"):
        pindrop.spread(lonlat)
    assert len(m) == 0


def test_a_masked_array_that_masks_nothing_is_taken(m):
    lonlat = np.ma.masked_array([PARIS, LONDON], mask=False)
    m.add_many([1, 2], lonlat)
    assert m.position(1) == PARIS and m.position(2) == LONDON
    assert np.array_equal(pindrop.spread(lonlat).true_positions, [PARIS, LONDON])


# -- z: refused wherever it comes from (docs/python-gis.md, section 1) -------------------------------

def test_a_z_is_refused_from_a_tuple_an_array_and_geojson_alike(m):
    m.add(7, *PARIS)
    for call in (lambda: m.add(1, (2.35, 48.85, 35.0)),
                 lambda: m.add_many([1], np.array([[2.35, 48.85, 35.0]])),
                 lambda: m.add(1, {"type": "Point", "coordinates": [2.35, 48.85, 35.0]}),
                 lambda: m.add(1, '{"type": "Point", "coordinates": [2.35, 48.85, 35.0]}'),
                 lambda: pindrop.spread({"type": "MultiPoint", "coordinates": [[2.35, 48.85], [2.35, 48.85, 35.0]]})):
        with pytest.raises(pindrop.InvalidArgument, match="z"):
            call()
    assert len(m) == 1 and m.position(7) == PARIS


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
