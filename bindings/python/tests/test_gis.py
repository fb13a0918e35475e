"""GIS objects in and out (issue 22, parts 2 and 3): shapely, GeoPandas, __geo_interface__, GeoJSON
and WKT in; lon/lat in frames, bulk positions, spread results and pindrop.geo out. Oracles: the
per-pin calls of the C API, the textbook great-circle formula and a brute-force grouping."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

import pindrop

shapely = pytest.importorskip("shapely")
gpd = pytest.importorskip("geopandas")
from shapely.geometry import LineString, MultiPoint, Point, box  # noqa: E402

LON0, LAT0 = -118.3525924, 33.9005398
R = 6378137.0


class GeoThing:
    """Not shapely, not GeoPandas: only the protocol."""

    def __init__(self, mapping):
        self.__geo_interface__ = mapping


def points(n=5, seed=1):
    rng = np.random.default_rng(seed)
    return np.column_stack([LON0 + rng.uniform(-0.01, 0.01, n), LAT0 + rng.uniform(-0.01, 0.01, n)])


# -- in ----------------------------------------------------------------------------------------------

def test_every_kind_of_points_adds_the_same_pins():
    p = points()
    ids = np.arange(1, 6)
    gs = gpd.GeoSeries(gpd.points_from_xy(p[:, 0], p[:, 1]), crs="EPSG:4326")
    inputs = {
        "array": p,
        "two 1-D arrays": None,
        "list of shapely points": [Point(x, y) for x, y in p],
        "array of shapely points": shapely.points(p),
        "MultiPoint": MultiPoint(p),
        "GeoSeries": gs,
        "GeoDataFrame": gpd.GeoDataFrame({"name": list("abcde")}, geometry=gs),
        "GeoSeries in OGC:CRS84": gs.set_crs("OGC:CRS84", allow_override=True),
        "GeoSeries without a CRS": gpd.GeoSeries(gs.values),
        "__geo_interface__": GeoThing({"type": "MultiPoint", "coordinates": p.tolist()}),
        "GeoJSON mapping": json.loads(gs.to_json()),
        "GeoJSON text": gs.to_json(),
        "WKT text": MultiPoint(p).wkt if False else shapely.to_wkt(MultiPoint(p), rounding_precision=-1),
        "GeometryArray": gs.values,
    }
    for name, value in inputs.items():
        with pindrop.Map() as m:
            if value is None:
                m.add_many(ids, p[:, 0], p[:, 1])
            else:
                m.add_many(ids, value)
            got = np.array([m.position(i) for i in ids])
            assert np.array_equal(got, p), name


def test_a_geoseries_in_another_crs_is_refused_with_how_to_convert():
    p = points()
    gs = gpd.GeoSeries(gpd.points_from_xy(p[:, 0], p[:, 1]), crs="EPSG:4326").to_crs(2229)
    with pindrop.Map() as m:
        with pytest.raises(ValueError, match=r"EPSG:2229.*California.*\.to_crs\(4326\)"):
            m.add_many(np.arange(5), gs)
        assert len(m) == 0
        m.add_many(np.arange(5), gs.to_crs(4326))
        assert np.allclose(m.positions(np.arange(5)), p, atol=1e-9)
    with pytest.raises(ValueError, match="EPSG:3857"):
        pindrop.spread(gpd.GeoDataFrame(geometry=gs.to_crs(3857)))


def test_a_geometry_array_is_taken_like_its_geoseries_crs_and_all():
    p = points()
    gs = gpd.GeoSeries(gpd.points_from_xy(p[:, 0], p[:, 1]), crs=4326)
    with pindrop.Map() as m:
        m.add_many(np.arange(5), gs.values)           # was: 'GeometryArray' object has no attribute 'geometry'
        assert np.array_equal(m.positions(np.arange(5)), p)
        with pytest.raises(pindrop.InvalidArgument, match=r"EPSG:2229.*\.to_crs\(4326\)"):
            m.add_many(np.arange(5, 10), gs.to_crs(2229).values)
        assert len(m) == 5
        m.add(9, gs.iloc[:1].values)
        assert m.position(9) == tuple(p[0])
    assert np.array_equal(pindrop.spread(gpd.GeoSeries(gs.values, crs=None).values).true_positions, p)
    assert np.array_equal(pindrop.spread(gs.values), pindrop.spread(gs))
    with pindrop.Map() as m:
        m.set_allowed_area(gpd.GeoSeries([box(-1, -1, 1, 1)], crs=4326).values)
        with pytest.raises(pindrop.InvalidArgument, match="EPSG:3857"):
            m.set_allowed_area(gpd.GeoSeries([box(-1, -1, 1, 1)], crs=3857).values)


def test_points_with_z_are_refused_like_lon_lat_z_rows():
    p = points()
    with pindrop.Map() as m:
        for value in ([Point(x, y, 12.5) for x, y in p],
                      gpd.GeoSeries(gpd.points_from_xy(p[:, 0], p[:, 1], np.full(5, 12.5)), crs=4326),
                      MultiPoint([(x, y, 12.5) for x, y in p])):
            with pytest.raises(pindrop.InvalidArgument, match=r"with a z .*force_2d"):
                m.add_many(np.arange(5), value)
        with pytest.raises(pindrop.InvalidArgument, match="with a z"):
            m.add(1, Point(LON0, LAT0, 12.5))
        assert len(m) == 0
        m.add_many(np.arange(5), shapely.force_2d([Point(x, y, 12.5) for x, y in p]))  # the way out
        assert np.array_equal(m.positions(np.arange(5)), p)


def test_geometries_that_are_not_points_are_refused_by_item():
    with pytest.raises(TypeError, match="item 1 is a LineString"):
        pindrop.spread([Point(0, 0), LineString([(0, 0), (1, 1)])])
    with pytest.raises(TypeError, match="must hold points, not a Polygon"):
        pindrop.spread(GeoThing(box(0, 0, 1, 1).__geo_interface__))
    with pytest.raises(ValueError, match="empty point"):
        pindrop.spread([Point(0, 0), Point()])


def test_spread_and_place_take_shapely_points():
    stack = [Point(LON0, LAT0)] * 4
    assert np.array_equal(pindrop.spread(stack), pindrop.spread(np.array([[LON0, LAT0]] * 4)))
    with pindrop.Map() as m:
        m.place(7, Point(LON0, LAT0), time_ms=10)
        m.place(8, Point(LON0 + 0.001, LAT0), 20)       # positional time, as place(id, lon, lat, t) has it
        m.add(9, Point(LON0, LAT0 + 0.001))
        m.set_position(9, "POINT (-118.35 33.9)")
        assert m.position(7) == (LON0, LAT0) and m.position(8) == (LON0 + 0.001, LAT0)
        assert m.position(9) == (-118.35, 33.9)
        near = m.nearby(Point(LON0, LAT0), radius_m=300)
        assert [i for i, _ in near] == [7, 8, 9]  # 0 m, 92 m, 233 m


def test_allowed_area_from_shapely_geopandas_and_geojson_acts_as_the_wkt():
    area = box(LON0 - 0.001, LAT0 - 0.001, LON0 + 0.001, LAT0 + 0.001)
    inside, outside = (LON0 + 0.0009, LAT0), (LON0 + 0.0011, LAT0)
    forms = {"wkt": area.wkt, "shapely": area, "geoseries": gpd.GeoSeries([area], crs=4326),
             "geodataframe": gpd.GeoDataFrame(geometry=[area], crs=4326),
             "mapping": area.__geo_interface__, "feature collection": json.loads(gpd.GeoSeries([area]).to_json()),
             "protocol": GeoThing(area.__geo_interface__)}
    for name, form in forms.items():
        with pindrop.Map() as m:
            m.set_allowed_area(form)
            m.place(1, *inside, 0)
            m.commit(1)
            with pytest.raises(pindrop.InvalidArgument, match="outside the allowed area"):
                m.place(2, *outside, 2)
            assert 2 not in m, name
    with pindrop.Map() as m:
        with pytest.raises(ValueError, match="EPSG:3857"):
            m.set_allowed_area(gpd.GeoSeries([area], crs=4326).to_crs(3857))
        with pytest.raises(TypeError, match="polygons, not a Point"):
            m.set_allowed_area(Point(0, 0))


def test_an_area_keeps_every_digit():
    """A shapely polygon goes to the library as GeoJSON with every digit of its coordinates:
    a point 1e-9 degrees inside its edge is inside."""
    edge = LON0 + 0.00123456789012
    area = box(LON0 - 0.01, LAT0 - 0.01, edge, LAT0 + 0.01)
    with pindrop.Map() as m:
        m.set_allowed_area(area)
        m.place(1, edge - 1e-9, LAT0, 0)
        with pytest.raises(pindrop.InvalidArgument):
            m.place(2, edge + 1e-9, LAT0, 1)


# -- out ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bearing", [0.0, 33.0])
def test_frame_lon_lat_are_the_views_inverse_of_each_pins_screen_point(bearing):
    p = points(200, seed=2)
    p[:40] = p[0]  # a stack, drawn spread
    with pindrop.Map() as m:
        m.add_many(np.arange(200), p)
        m.set_camera(LON0, LAT0, 15.5, 900, 700, bearing_deg=bearing)
        f = m.frame()
        assert len(f) > 100
        for k in range(len(f)):
            v = f[k]
            assert (v.lon, v.lat) == pytest.approx(m.to_lonlat(v.x, v.y), abs=1e-9)
            assert (v.lon, v.lat) == pytest.approx(m.display_position(v.id), abs=1e-9)
            assert tuple(f.anchor_lonlat[k]) == pytest.approx(m.position(v.id), abs=1e-9)
        assert np.array_equal(f["lon"], f.lon) and f.lonlat.shape == (len(f), 2)
        assert np.array_equal(np.asarray(f)["id"], f.id)


def test_frame_lon_lat_through_a_host_projection():
    k = 1e5
    with pindrop.Map() as m:
        m.add_many([1, 2], [[LON0, LAT0], [LON0 + 0.001, LAT0 + 0.001]])
        m.set_projection(lambda lon, lat: ((lon - LON0) * k + 400, (LAT0 - lat) * k + 300),
                         lambda x, y: ((x - 400) / k + LON0, LAT0 - (y - 300) / k), 800, 600)
        f = m.frame()
        assert sorted(f.id.tolist()) == [1, 2]
        for v in f:
            assert (v.lon, v.lat) == pytest.approx(m.position(v.id), abs=1e-12)


def test_clusters_carry_lon_lat_columns():
    p = points(400, seed=3)
    with pindrop.Map(cluster_radius=60) as m:
        m.add_many(np.arange(400), p)
        m.set_camera(LON0, LAT0, 12, 800, 600)
        c = m.clusters()
        assert len(c) > 0
        for k, view in enumerate(c):
            assert (view.lon, view.lat) == pytest.approx(m.to_lonlat(view.x, view.y), abs=1e-9)
            assert tuple(c.lonlat[k]) == (view.lon, view.lat)
        assert int(c.counts.sum()) + len(m.frame()) == 400


def test_positions_in_bulk_equal_the_single_calls():
    p = points(300, seed=4)
    p[10:20] = p[10]
    ids = np.arange(1000, 1300)
    with pindrop.Map() as m:
        m.add_many(ids, p)
        pick = np.array([1299, 1000, 1015])
        assert np.array_equal(m.positions(pick), np.array([m.position(i) for i in pick]))
        assert np.array_equal(m.positions(), p)          # every pin, in the order of ids()
        drawn = m.display_positions()
        assert np.array_equal(drawn, np.array([m.display_position(i) for i in ids]))
        assert (drawn[10:20] != p[10:20]).any(axis=1).all() and np.array_equal(drawn[20:], p[20:])
        with pytest.raises(pindrop.NotFound, match="5"):
            m.positions([1000, 5])
        assert m.positions([]).shape == (0, 2)


def test_ids_follow_every_change():
    rng = np.random.default_rng(5)
    model = set()
    t = 0.0
    with pindrop.Map() as m:
        for step in range(300):
            t += 10
            op = rng.integers(6)
            i = int(rng.integers(0, 60))
            lon, lat = LON0 + rng.uniform(-0.01, 0.01), LAT0
            try:
                if op == 0:
                    m.add(i, lon, lat)
                    model.add(i)
                elif op == 1:
                    new = np.unique(rng.integers(0, 60, 5))
                    m.add_many(new, np.tile([lon, lat], (new.size, 1)))
                    model.update(new.tolist())
                elif op == 2:
                    m.remove(i)
                    model.discard(i)
                elif op == 3:
                    m.place(i, lon, lat, t)
                    model.add(i)
                elif op == 4:
                    m.cancel_edit(t)
                else:
                    m.commit(t)
            except (pindrop.DuplicateId, pindrop.NotFound, pindrop.StateError):
                pass
            # cancel_edit removes a placed pin: the oracle asks the library about each id
            model = {k for k in model | set(range(60)) if _exists(m, k)}
            assert m.ids().tolist() == sorted(model), step
            assert all((k in m) == (k in model) for k in range(60))
    assert list(iter(pindrop.Map())) == []


def _exists(m, i):
    try:
        m.position(i)
        return True
    except pindrop.NotFound:
        return False


def great_circle_destination(lon, lat, bearing, distance):
    """The textbook destination formula on the sphere of radius R."""
    p1, l1, d = math.radians(lat), math.radians(lon), distance / R
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(bearing))
    l2 = l1 + math.atan2(math.sin(bearing) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return (math.degrees(l2) + 540) % 360 - 180, math.degrees(p2)


def brute_force_groups(p, tolerance):
    """The rule as the docs state it, by brute force: in index order, join the first-formed
    group whose first point is within the tolerance (haversine), else start one."""
    leaders, group, rank, sizes = [], [], [], []
    for x, y in p.tolist():
        best = None
        for g, (lx, ly) in enumerate(leaders):
            if tolerance == 0:
                hit = x == lx and y == ly
            else:
                a = math.sin(math.radians(y - ly) / 2) ** 2 + math.cos(math.radians(ly)) * math.cos(math.radians(y)) * \
                    math.sin(math.radians(x - lx) / 2) ** 2
                hit = 2 * R * math.asin(min(1, math.sqrt(a))) <= tolerance
            if hit:
                best = g
                break
        if best is None:
            best = len(leaders)
            leaders.append((x, y))
            sizes.append(0)
        group.append(best)
        rank.append(sizes[best])
        sizes[best] += 1
    return np.array(group), np.array(rank), np.array(sizes)


@pytest.mark.parametrize("tolerance", [0.0, 2.0])
def test_spread_result_groups_match_brute_force_and_rebuild_the_rings(la_trees, tolerance):
    """Lawndale's real trees nearest its 305-tree stack (3,000 of them, in file order). The groups equal a brute-force grouping, the moved mask equals the
    comparison of input and output, and every moved point lies where the ring formula puts
    point `rank` of a group of `sizes[group]` around `centres[group]`."""
    town = la_trees.city == "lawndale"
    lon, lat = la_trees.lon[town], la_trees.lat[town]
    spots, counts = np.unique(np.column_stack([lon, lat]), axis=0, return_counts=True)
    spot = spots[np.argmax(counts)]
    near = np.sort(np.argsort(np.hypot(lon - spot[0], lat - spot[1]), kind="stable")[:3000])
    p = np.column_stack([lon[near], lat[near]])
    r = pindrop.spread(p, tolerance)
    group, rank, sizes = brute_force_groups(p, tolerance)
    assert np.array_equal(r.group, group) and np.array_equal(r.rank, rank) and np.array_equal(r.sizes, sizes)
    assert sizes.max() >= 305
    assert np.array_equal(r.moved, (np.asarray(r) != p).any(axis=1))
    assert np.array_equal(r.moved, sizes[group] > 1)
    for i in np.flatnonzero(r.moved)[::7]:
        g, n = r.group[i], r.sizes[r.group[i]]
        want = great_circle_destination(*r.centres[g], 2 * math.pi * r.rank[i] / n, 1.5 * n)
        assert tuple(r[i]) == pytest.approx(want, abs=1e-9)
    legs = r.legs()
    assert legs.shape == (int(r.moved.sum()), 2, 2)
    assert np.array_equal(legs[:, 0], p[r.moved]) and np.array_equal(legs[:, 1], np.asarray(r)[r.moved])
    assert type(r[1:]) is np.ndarray and type(r + 0) is np.ndarray  # operations give plain arrays


def test_spread_result_is_still_the_array_it_was():
    p = np.array([[LON0, LAT0]] * 3 + [[LON0 + 1, LAT0]])
    r = pindrop.spread(p)
    assert r.shape == (4, 2) and r.dtype == np.float64 and isinstance(r, np.ndarray)
    assert np.array_equal(r.positions, np.asarray(r)) and np.array_equal(r.true_positions, p)
    assert r.moved.tolist() == [True, True, True, False]
    assert r.group.tolist() == [0, 0, 0, 1] and r.rank.tolist() == [0, 1, 2, 0]
    assert np.array_equal(r.centres, [[LON0, LAT0], [LON0 + 1, LAT0]])


# -- pindrop.geo ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lawndale(data_dir):
    path = data_dir / "la_trees_geojson" / "lawndale.geojson"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    return gpd.read_file(path)


def test_geo_spread_draws_lawndale_like_points_displacement(lawndale):
    import pindrop.geo
    out = pindrop.geo.spread(lawndale)
    assert list(out.index) == list(lawndale.index) and out.crs == lawndale.crs
    assert set(lawndale.columns) - {"geometry"} <= set(out.columns)
    assert {"true_geometry", "leg", "moved", "group", "rank", "group_size"} <= set(out.columns)
    assert out.geometry.name == "geometry"
    assert out["true_geometry"].geom_equals_exact(lawndale.geometry, 0).all()
    expected = pindrop.spread(lawndale)
    assert np.array_equal(shapely.get_coordinates(out.geometry.values), np.asarray(expected))
    moved = out["moved"].to_numpy()
    assert moved.sum() >= 305 + 261 and out["group_size"].max() == 305
    assert out["leg"][~moved].isna().all()
    legs = out["leg"][moved]
    starts = shapely.get_coordinates(shapely.get_point(legs.values, 0))
    ends = shapely.get_coordinates(shapely.get_point(legs.values, 1))
    assert np.array_equal(starts, shapely.get_coordinates(lawndale.geometry.values[moved]))
    assert np.array_equal(ends, np.asarray(expected)[moved])


def test_geo_spread_works_in_the_inputs_crs(lawndale):
    import pindrop.geo
    part = lawndale.iloc[:2000]
    projected = part.to_crs(2229)
    out = pindrop.geo.spread(projected)
    assert out.crs == projected.crs
    back = out.to_crs(4326)
    want = pindrop.geo.spread(part)
    # two transforms there and back: within a micrometre of the lon/lat result
    assert np.allclose(shapely.get_coordinates(back.geometry.values), shapely.get_coordinates(want.geometry.values),
                       atol=1e-8, rtol=0)
    assert np.array_equal(out["moved"], want["moved"]) and np.array_equal(out["group"], want["group"])


def test_geo_spread_refuses_what_is_not_points(lawndale):
    import pindrop.geo
    with pytest.raises(TypeError, match="GeoDataFrame or GeoSeries"):
        pindrop.geo.spread(np.zeros((2, 2)))
    bad = lawndale.iloc[:3].copy()
    bad.loc[bad.index[1], "geometry"] = LineString([(0, 0), (1, 1)])
    with pytest.raises(TypeError, match="row 1 .* LineString"):
        pindrop.geo.spread(bad)
    with pytest.raises(pindrop.InvalidArgument, match=r"row 0 .* with a z .*force_2d"):
        pindrop.geo.spread(gpd.GeoDataFrame(geometry=[Point(LON0, LAT0, 3.0), Point(LON0, LAT0)], crs=4326))


@pytest.mark.parametrize("where", ["antimeridian", "far north"])
def test_spread_groups_with_a_tolerance_across_the_antimeridian_and_near_a_pole(where):
    """Clumps of points a few metres apart, astride lon ±180 or at 84° N, some alone: the groups
    equal the brute-force rule's, and the moved mask the library's output."""
    rng = np.random.default_rng(7 if where == "antimeridian" else 8)
    centre = (179.99995, 10.0) if where == "antimeridian" else (20.0, 84.0)
    seeds = np.column_stack([centre[0] + rng.uniform(-2e-4, 2e-4, 60), centre[1] + rng.uniform(-2e-4, 2e-4, 60)])
    p = np.repeat(seeds, rng.integers(1, 4, 60), axis=0)
    p = p + rng.normal(0, 5e-6, p.shape)
    p[:, 0] = (p[:, 0] + 180) % 360 - 180
    r = pindrop.spread(p, tolerance_m=3.0)
    group, rank, sizes = brute_force_groups(p, 3.0)
    assert np.array_equal(r.group, group) and np.array_equal(r.rank, rank)
    assert 1 in sizes and sizes.max() > 1
    assert np.array_equal(r.moved, (np.asarray(r) != p).any(axis=1))
    assert np.array_equal(r.moved, sizes[group] > 1)


def test_spiral_results_know_their_groups_too():
    p = np.array([[LON0, LAT0]] * 12 + [[LON0 + 0.01, LAT0]])
    r = pindrop.spread(p, layout="spiral", zoom=18)
    assert r.sizes.tolist() == [12, 1] and r.moved.tolist() == [True] * 12 + [False]
    assert r.legs().shape == (12, 2, 2)
