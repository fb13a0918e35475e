"""Refusals in pindrop's words, where Python's own showed through: text C cannot be given (a lone
surrogate) is an InvalidArgument wherever a str goes to the library; lat=None says lat must be a
number; text that is not WKT at all is not sent to a WKT reader (nor said to need shapely); and
values in messages are plain ("40.5"), not NumPy 2's reprs ("np.float64(40.5)")."""
import re

import numpy as np
import pytest

import pindrop
from pindrop import _geo

NP_REPR = re.compile(r"np\.\w+\(")


@pytest.fixture
def m():
    with pindrop.Map() as m:
        m.set_camera(-118.35, 33.9, 17, 800, 600)
        m.add(1, -118.35, 33.9)
        yield m


def refusal(error, call):
    with pytest.raises(error) as info:
        call()
    return str(info.value)


# -- a str C cannot be given -------------------------------------------------------------------------

SURROGATES = ["\ud800", "Elm St \udcff", "a\udc80\udc81b"]


@pytest.mark.parametrize("text", SURROGATES)
def test_a_title_with_a_lone_surrogate_is_an_invalid_argument(m, text):
    message = refusal(pindrop.InvalidArgument, lambda: m.set_title(1, text))
    assert "title" in message and "surrogate" in message and "UTF-8" in message
    assert m.title(1) == ""  # nothing changed


def test_the_surrogate_refusal_names_where_it_is(m):
    message = refusal(pindrop.InvalidArgument, lambda: m.set_title(1, "Elm St \udcff"))
    assert "index 7" in message and "'\\udcff'" in message


def test_a_geocode_answer_with_a_lone_surrogate_is_an_invalid_argument(m):
    message = refusal(pindrop.InvalidArgument, lambda: m.answer_geocode(1, "\ud800 Main St"))
    assert "subtitle" in message and "surrogate" in message


def test_an_allowed_area_with_a_lone_surrogate_is_an_invalid_argument(m):
    area = "POLYGON((-118.36 33.89, -118.34 33.89, -118.34 33.91, -118.36 33.91, -118.36 33.89))\udc80"
    message = refusal(pindrop.InvalidArgument, lambda: m.set_allowed_area(area))
    assert "area" in message and "surrogate" in message


def test_wkt_points_with_a_lone_surrogate_are_an_invalid_argument(m):
    pytest.importorskip("shapely")
    for call in (lambda: pindrop.spread("POINT (1 2)\ud800"), lambda: m.add(2, "POINT (1 2)\ud800"),
                 lambda: m.add_many([2], "MULTIPOINT ((1 2))\ud800")):
        assert "surrogate" in refusal(pindrop.InvalidArgument, call)
    assert len(m) == 1


def test_text_of_real_characters_still_goes_through(m):
    m.set_title(1, "Café ☕ 🌳")
    assert m.title(1) == "Café ☕ 🌳"


# -- lat=None ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m: m.add(2, 1.0, None), lambda m: m.add(2, 1.0), lambda m: m.add(2, np.float64(1.0), None),
    lambda m: m.set_position(1, -118.0, None), lambda m: m.place(2, 1.0, None, time_ms=5.0),
    lambda m: m.nearby(-118.35, None, radius_m=10.0),
], ids=["add", "add-without-lat", "add-numpy-lon", "set_position", "place", "nearby"])
def test_lat_none_with_a_number_for_lon_says_lat_must_be_a_number(m, call):
    message = refusal(TypeError, lambda: call(m))
    assert message.startswith("lat must be a number, not None")
    assert "alone" not in message and not NP_REPR.search(message)
    assert len(m) == 1 and m.position(1) == (-118.35, 33.9)


def test_a_lon_that_is_neither_a_number_nor_a_point_says_so(m):
    message = refusal(TypeError, lambda: m.add(2, None))
    assert message.startswith("lon must be a number") and "NoneType None" in message
    message = refusal(TypeError, lambda: m.add(2, object(), None))
    assert message.startswith("lon must be a number") and "object" in message


# -- text that is not WKT ---------------------------------------------------------------------------------

NOT_WKT = ["hello", "", "   ", "42", "Elm Street 12", "0101000000000000000000F03F0000000000000040"]


def without_shapely(monkeypatch):
    def no_shapely():
        raise ImportError("No module named 'shapely'")
    monkeypatch.setattr(_geo, "_shapely", no_shapely)


@pytest.mark.parametrize("text", NOT_WKT)
@pytest.mark.parametrize("shapely_installed", [True, False], ids=["shapely", "no-shapely"])
def test_text_that_is_not_wkt_is_refused_as_such(monkeypatch, text, shapely_installed):
    if shapely_installed:
        pytest.importorskip("shapely")
    else:
        without_shapely(monkeypatch)
    message = refusal(pindrop.InvalidArgument, lambda: pindrop.spread(text))
    assert "neither GeoJSON nor WKT" in message and "shapely (pip" not in message
    assert ("empty text" in message) if not text.strip() else (repr(text)[:30] in message)


def test_a_point_given_as_text_that_is_not_wkt_is_refused_as_such(m, monkeypatch):
    without_shapely(monkeypatch)
    assert "neither GeoJSON nor WKT" in refusal(pindrop.InvalidArgument, lambda: m.add(2, "hello"))
    assert "neither GeoJSON nor WKT" in refusal(pindrop.InvalidArgument, lambda: m.add_many([2], "hello"))
    assert len(m) == 1


@pytest.mark.parametrize("text", ["POINT (1 2)", "point(1 2)", " MULTIPOINT ((1 2), (3 4))", "POINT Z (1 2 3)",
                                  "LINESTRING (0 0, 1 1)", "SRID=4326;POINT (1 2)"])
def test_wkt_still_needs_shapely_and_says_so(monkeypatch, text):
    without_shapely(monkeypatch)
    assert "needs shapely" in refusal(TypeError, lambda: pindrop.spread(text))


def test_wkt_and_geojson_text_still_read():
    pytest.importorskip("shapely")
    assert pindrop.spread("MULTIPOINT ((1 2), (3 4))").tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert pindrop.spread('{"type": "Point", "coordinates": [1, 2]}').tolist() == [[1.0, 2.0]]
    assert "not valid WKT" in refusal(pindrop.InvalidArgument, lambda: pindrop.spread("POINT (1 2"))


# -- values as plain numbers, not NumPy reprs --------------------------------------------------------------

@pytest.mark.parametrize("call, words", [
    (lambda m: m.add_many(np.array([40.5, 41.0]), [[0, 0], [1, 1]]), "the first is 40.5)"),
    (lambda m: m.add_many([np.float64(40.5)], [[0, 0]]), "40.5"),
    (lambda m: m.add(np.float64(40.5), 1.0, 2.0), "not float64 40.5"),
    (lambda m: m.select(np.float32(2.5)), "not float32 2.5"),
    (lambda m: m.add(2, np.str_("x"), 2.0), "not str_ 'x'"),
    (lambda m: m.touch(np.float64(0.5), "down", 1, 1, 0), "not float64 0.5"),
    (lambda m: m.touch(0, np.int64(9), 1, 1, 0), "phase 9 is not"),
    (lambda m: m.touch(0, np.str_("press"), 1, 1, 0), "phase 'press' is not"),
    (lambda m: m.set_allowed_area(np.float64(3)), "not float64 3.0"),
    (lambda m: m.add(2, (np.float64(1), np.float64(2), np.float64(3))), "(1.0, 2.0, 3.0) has a z"),
    (lambda m: m.add(2, {"type": "Point", "coordinates": [np.int64(1), np.int64(2), np.int64(3)]}),
     "coordinates [1, 2, 3] has a z"),
    (lambda m: m.add(2, {"type": "Point", "coordinates": [np.int64(1)]}), "not 1 ([1])"),
    (lambda m: pindrop.spread([[0, 0]], layout=np.str_("rings")), "not 'rings'"),
], ids=["ids-array", "ids-list", "id", "select", "lon", "pointer", "phase-int", "phase-name", "area",
        "tuple-z", "geojson-z", "geojson-short", "layout"])
def test_messages_show_numpy_values_as_plain_values(m, call, words):
    with pytest.raises((TypeError, ValueError)) as info:
        call(m)
    message = str(info.value)
    assert words in message, message
    assert not NP_REPR.search(message), message
    assert len(m) == 1


def test_a_geodataframe_row_label_is_shown_plain():
    gpd = pytest.importorskip("geopandas")
    shapely = pytest.importorskip("shapely")
    frame = gpd.GeoDataFrame(geometry=[shapely.Point(1, 2), shapely.LineString([(0, 0), (1, 1)])],
                             index=np.array([10, 11]), crs=4326)
    import pindrop.geo
    message = refusal(TypeError, lambda: pindrop.geo.spread(frame))
    assert message.startswith("row 1 (11) holds a LineString") and not NP_REPR.search(message)
    frame = gpd.GeoDataFrame(geometry=[shapely.Point(1, 2), shapely.Point(1, 2, 3)], index=np.array([10, 11]))
    message = refusal(pindrop.InvalidArgument, lambda: pindrop.geo.spread(frame))
    assert message.startswith("row 1 (11) holds a point with a z") and not NP_REPR.search(message)
