"""Snapping through the package (behaviour 24): `Map.set_snap_layer` from WKT, GeoJSON text and
mappings, shapely geometries, (id, geometry) pairs and GeoDataFrames (their index or an id column);
`Map.snap_target`; and the refusals that change nothing. Runs on both backends."""
import json
import math

import pytest

import pindrop

CAMERA = (-118.3, 34.0, 18, 800, 600)
SNAPPED = pindrop._tables.PIN_FLAGS["SNAPPED"]


def new_map(**options):
    m = pindrop.Map(lift_delay_ms=0, lift_height=0, snap_tolerance=12, **options)
    m.set_camera(*CAMERA)
    m.add(1, *m.to_lonlat(100, 300))
    return m


def drag_to(m, x, y, t=0.0):
    """Pin 1 from where it is drawn to (x, y), still held; returns the events so far."""
    sx, sy = m.to_screen(*m.position(1))
    m.touch(0, "down", sx, sy, t)
    m.touch(0, "move", sx + 50, sy, t + 16)
    m.touch(0, "move", x, y, t + 32)
    return list(m.events())


def last_dragged(events):
    return [e for e in events if e.type == "DRAGGED"][-1]


def street(m):
    """A street from (300, 400) to (700, 400) and a hydrant at (500, 300), in lon/lat."""
    return m.to_lonlat(300, 400), m.to_lonlat(700, 400), m.to_lonlat(500, 300)


def test_wkt_vertex_then_segment_and_the_drop_commits_the_snapped_point():
    m = new_map()
    a, b, v = street(m)
    m.set_snap_layer(0, f"GEOMETRYCOLLECTION (LINESTRING ({a[0]!r} {a[1]!r}, {b[0]!r} {b[1]!r}), POINT ({v[0]!r} {v[1]!r}))")
    e = drag_to(m, 506, 296)
    d = last_dragged(e)
    assert (d.lon, d.lat) == v
    t = m.snap_target()
    assert t and (t.kind, t.layer, t.feature, t.index) == ("vertex", 0, 1, 0) and (t.lon, t.lat) == v
    m.touch(0, "move", 560, 393, 48)
    d = last_dragged(list(m.events()))
    x, y = m.to_screen(d.lon, d.lat)
    assert abs(x - 560) < 1e-6 and abs(y - 400) < 1e-6
    t = m.snap_target()
    assert (t.kind, t.feature, t.index) == ("segment", 0, 0)
    m.touch(0, "up", 560, 393, 64)
    moved = [e for e in m.events() if e.type == "MOVED"]
    assert (moved[0].lon, moved[0].lat) == (d.lon, d.lat) == m.position(1)
    assert not m.snap_target() and m.snap_target().kind == "none"


def test_the_snapped_flag_is_in_the_frame_while_snapped():
    m = new_map()
    _, _, v = street(m)
    m.set_snap_layer(3, {"type": "Point", "coordinates": list(v)})
    drag_to(m, 503, 303)
    flags = {int(p.id): int(p.flags) for p in m.frame(40)}
    assert flags[1] & SNAPPED
    m.touch(0, "move", 540, 340, 56)
    flags = {int(p.id): int(p.flags) for p in m.frame(60)}
    assert not flags[1] & SNAPPED


def test_geojson_text_and_mapping_carry_their_ids():
    m = new_map()
    a, b, _ = street(m)
    fc = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": 4077, "properties": {"name": "Main St"},
         "geometry": {"type": "LineString", "coordinates": [list(a), list(b)]}}]}
    m.set_snap_layer(9, fc)
    drag_to(m, 420, 405)
    t = m.snap_target()
    assert (t.kind, t.layer, t.feature) == ("segment", 9, 4077)
    m.touch(0, "up", 420, 405, 48)
    m.set_snap_layer(9, json.dumps(fc).replace("4077", "12"))
    drag_to(m, 430, 405, t=1000)
    assert m.snap_target().feature == 12


def test_shapely_geometries_and_id_pairs():
    shapely = pytest.importorskip("shapely")
    from shapely.geometry import LineString, MultiLineString, Point, Polygon
    m = new_map()
    a, b, v = street(m)
    # One shapely geometry: its parts numbered 0, 1, ... as WKT's.
    far = m.to_lonlat(300, 100), m.to_lonlat(700, 100)
    m.set_snap_layer(0, MultiLineString([[far[0], far[1]], [a, b]]))
    drag_to(m, 600, 396)
    assert (m.snap_target().kind, m.snap_target().feature) == ("segment", 1)
    m.touch(0, "up", 600, 396, 48)
    # (id, geometry) pairs, a polygon's ring among them.
    c = [m.to_lonlat(*p) for p in ((200, 500), (260, 500), (260, 560), (200, 560))]
    m.set_snap_layer(0, [(31, Point(v)), (32, Polygon(c)), (33, LineString([a, b]))])
    drag_to(m, 262, 530, t=1000)
    t = m.snap_target()
    assert (t.kind, t.feature, t.index) == ("segment", 32, 1)
    m.touch(0, "up", 262, 530, 1048)
    assert shapely  # used


def test_geodataframes_with_their_index_or_an_id_column():
    gpd = pytest.importorskip("geopandas")
    from shapely.geometry import LineString, Point
    m = new_map()
    a, b, v = street(m)
    gdf = gpd.GeoDataFrame({"site": [501, 502]}, geometry=[LineString([a, b]), Point(v)], crs="EPSG:4326",
                           index=[10, 20])
    m.set_snap_layer(2, gdf)
    drag_to(m, 497, 302)
    assert (m.snap_target().kind, m.snap_target().feature) == ("vertex", 20)
    m.touch(0, "up", 497, 302, 48)
    m.set_snap_layer(2, gdf, id_column="site")
    drag_to(m, 380, 404, t=1000)
    assert (m.snap_target().kind, m.snap_target().feature) == ("segment", 501)
    m.touch(0, "up", 380, 404, 1048)
    with pytest.raises(pindrop.InvalidArgument, match="to_crs"):
        m.set_snap_layer(2, gdf.to_crs(3857))
    with pytest.raises(KeyError):
        m.set_snap_layer(2, gdf, id_column="nope")
    with pytest.raises(pindrop.InvalidArgument, match="integer"):
        m.set_snap_layer(2, gpd.GeoDataFrame(geometry=[Point(v)], index=["a"], crs="EPSG:4326"))


def test_bad_input_is_refused_and_changes_nothing():
    m = new_map()
    _, _, v = street(m)
    m.set_snap_layer(0, f"POINT ({v[0]!r} {v[1]!r})")
    with pytest.raises(pindrop.ParseError, match="WKT"):
        m.set_snap_layer(0, "POINT (1 2")
    with pytest.raises(pindrop.ParseError, match="integer \"id\""):
        m.set_snap_layer(0, {"type": "FeatureCollection", "features": [
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}]})
    with pytest.raises(pindrop.InvalidArgument, match="4294967295"):
        m.set_snap_layer(2**32 - 1, "POINT (1 2)")
    with pytest.raises(pindrop.InvalidArgument):
        m.set_snap_layer(-1, "POINT (1 2)")
    with pytest.raises(TypeError):
        m.set_snap_layer(0, b"POINT (1 2)")
    with pytest.raises(TypeError):
        m.set_snap_layer(0, 42)
    drag_to(m, 504, 303)
    assert m.snap_target().kind == "vertex" and (m.snap_target().lon, m.snap_target().lat) == v
    for bad in (math.nan, -1.0):
        with pytest.raises(pindrop.InvalidArgument, match="snap_tolerance"):
            pindrop.Map(snap_tolerance=bad)


def test_none_and_empty_text_clear_a_layer():
    m = new_map()
    _, _, v = street(m)
    m.set_snap_layer(0, f"POINT ({v[0]!r} {v[1]!r})")
    m.set_snap_layer(0, None)
    drag_to(m, 503, 302)
    assert m.snap_target().kind == "none"
    m.touch(0, "up", 503, 302, 48)
    m.set_snap_layer(0, f"POINT ({v[0]!r} {v[1]!r})")
    m.set_snap_layer(0, "")
    drag_to(m, 520, 310, t=1000)
    assert not m.snap_target()
