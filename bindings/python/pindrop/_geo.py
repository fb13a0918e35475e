"""GIS objects in: shapely geometries and arrays of them, GeoPandas GeoSeries, GeoDataFrames and
GeometryArrays (their active geometry, CRS checked), anything with ``__geo_interface__``, GeoJSON
mappings and WKT or GeoJSON text. shapely and GeoPandas stay optional: nothing here imports them
unless the object given is theirs (or is text that needs a WKT reader).
"""
from __future__ import annotations

import importlib
import json
import numbers
import re
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Tuple

from . import _check
from ._check import invalid

if TYPE_CHECKING:
    import numpy

#: Coordinate reference systems read as pindrop's WGS84 (lon, lat) as they are.
_WGS84 = ("EPSG:4326", "OGC:CRS84")


def _shapely() -> Any:
    """shapely, imported when an object needs it (it is optional, and untyped to the checkers)."""
    return importlib.import_module("shapely")


def _module(obj: object) -> str:
    return type(obj).__module__.split(".")[0]


def is_geometry(obj: object) -> bool:
    """A shapely geometry (any shapely version)."""
    return _module(obj) == "shapely" and hasattr(obj, "geom_type")


def is_geopandas(obj: object) -> bool:
    return _module(obj) == "geopandas" and hasattr(obj, "crs")


def check_crs(obj: Any, name: str) -> None:
    """A GeoSeries or GeoDataFrame must be in WGS84 lon/lat (EPSG:4326 or OGC:CRS84). One without
    a CRS is taken as lon/lat (the library refuses coordinates outside [-180, 180] x [-90, 90])."""
    crs = obj.crs
    if crs is None:
        return
    epsg = crs.to_epsg()
    if epsg == 4326 or any(crs.equals(w) for w in _WGS84):
        return
    label = f"EPSG:{epsg}" if epsg else crs.to_string()
    raise invalid(f"{name} is in {label} ({crs.name}), but pindrop takes WGS84 longitude and "
                     f"latitude: convert it first with .to_crs(4326)")


def geometries(obj: Any, name: str) -> "numpy.ndarray":
    """The geometries of a GeoDataFrame (its active geometry column), a GeoSeries or a
    GeometryArray (``GeoSeries.values``), as an object array, after checking the CRS."""
    import numpy as np
    kind = type(obj).__name__
    if kind not in ("GeoDataFrame", "GeoSeries", "GeometryArray"):
        raise TypeError(f"{name} must be a GeoSeries, GeoDataFrame or GeometryArray of GeoPandas, "
                        f"not a {kind}")
    check_crs(obj, name)
    if kind == "GeoDataFrame":
        try:
            obj = obj.geometry
        except AttributeError:  # GeoPandas' word for a frame without an active geometry column
            raise TypeError(f"{name} is a GeoDataFrame without an active geometry column: "
                            f"set one with .set_geometry(...)") from None
    return np.asarray(obj, dtype=object)


def lonlat(values: object, second: object = None, name: str = "lonlat") -> "numpy.ndarray":
    """An (n, 2) float64 array of (lon, lat) from any of the accepted inputs:

    - an (n, 2) array or sequence of (lon, lat) rows, or two 1-D arrays (lon, then lat);
    - shapely Points or MultiPoints, alone or in a list or array;
    - a pandas DataFrame with lon and lat columns (by name: longitude/latitude and x/y too);
    - a GeoPandas GeoSeries, GeoDataFrame or GeometryArray of points (in EPSG:4326, or without a
      CRS);
    - anything with ``__geo_interface__``, a GeoJSON mapping (Point, MultiPoint, Feature,
      FeatureCollection, GeometryCollection) or GeoJSON or WKT text of points.

    A z is refused wherever it comes from (docs/python-gis.md, section 1): pindrop takes (lon, lat).
    """
    import numpy as np
    if second is not None:
        return _check.pairs(values, second, name=name)
    if values is None:
        raise TypeError(f"{name} must be coordinates: an (n, 2) array of (lon, lat) rows, shapely "
                        "points, a GeoSeries or GeoDataFrame of points, GeoJSON or WKT; not None")
    if is_geopandas(values):
        return _shapely_points(geometries(values, name), name)
    if _check.is_data_frame(values) or isinstance(values, np.ma.MaskedArray):
        return _check.pairs(values, name=name)
    if is_geometry(values):
        return _shapely_points(np.asarray([values], dtype=object), name)
    if isinstance(values, str):
        return _points_from_text(values, name)
    if isinstance(values, dict) or (hasattr(values, "__geo_interface__") and not isinstance(values, np.ndarray)):
        return _points_from_mapping(values, name)
    if isinstance(values, np.ndarray) and values.dtype != object:
        return _check.pairs(values, name=name)
    if not isinstance(values, np.ndarray) and isinstance(values, (list, tuple)) and values and \
            all(is_geometry(v) for v in values):
        return _shapely_points(np.asarray(values, dtype=object), name)
    a = values if isinstance(values, np.ndarray) else \
        _check.as_array(values, name, "coordinates", "lon, lat")
    if a.dtype == object and a.size and (is_geometry(a.reshape(-1)[0]) or hasattr(a.reshape(-1)[0], "__geo_interface__")):
        if a.ndim != 1:
            raise invalid(f"{name}: an array of geometries must be 1-D, not of shape {a.shape}")
        if all(is_geometry(v) for v in a):
            return _shapely_points(a, name)
        return _rows([p for k, v in enumerate(a) for p in _points(_mapping(v), name, f"[{k}]")])
    return _check.pairs(values, name=name)


def point(value: object, name: str = "point") -> Tuple[float, float]:
    """One (lon, lat) from a shapely Point, a one-point GeoSeries, ``__geo_interface__``, GeoJSON
    or WKT text, or a (lon, lat) pair."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and not any(is_geometry(v) for v in value):
        return _check.real(value[0], f"{name}'s lon"), _check.real(value[1], f"{name}'s lat")
    if isinstance(value, (tuple, list)) and len(value) == 3 and all(_is_number(v) for v in value):
        raise invalid(f"{name} {_check.shown(tuple(value))} has a z: pindrop takes (lon, lat) only, drop the z first")
    a = lonlat(value, name=name)
    if a.shape[0] != 1:
        raise invalid(f"{name} must be one point, not {a.shape[0]}")
    return float(a[0, 0]), float(a[0, 1])


def is_point_like(value: object) -> bool:
    """Whether `value` is a point given as an object rather than as a number."""
    return (is_geometry(value) or is_geopandas(value) or isinstance(value, (str, dict, tuple, list))
            or hasattr(value, "__geo_interface__"))


def _shapely_points(geoms: "numpy.ndarray", name: str) -> "numpy.ndarray":
    import numpy as np
    shapely = _shapely()
    if geoms.size == 0:
        return np.empty((0, 2), dtype=np.float64)
    types = shapely.get_type_id(geoms)
    if (types == 4).any():  # MultiPoints: their parts, in order
        geoms = shapely.get_parts(geoms)
        types = shapely.get_type_id(geoms)
    bad = np.flatnonzero(types != 0)
    if bad.size:
        g: Any = geoms[bad[0]]
        what = "None" if g is None else g.geom_type
        raise TypeError(f"{name} must hold points; item {int(bad[0])} is a {what}")
    empty = np.flatnonzero(shapely.is_empty(geoms))
    if empty.size:
        raise invalid(f"{name} holds an empty point at item {int(empty[0])}")
    with_z = np.flatnonzero(shapely.has_z(geoms))
    if with_z.size:
        raise invalid(f"{name} holds {with_z.size} point{'s' if with_z.size > 1 else ''} with a z (the "
                      f"first at item {int(with_z[0])}): pindrop takes (lon, lat) only; drop the z first "
                      f"with shapely.force_2d(...) (a GeoSeries: .force_2d())")
    return np.ascontiguousarray(shapely.get_coordinates(geoms), dtype=np.float64)


def _mapping(obj: Any) -> Any:
    if isinstance(obj, dict):
        return obj
    gi = getattr(obj, "__geo_interface__", None)
    if gi is None:
        raise TypeError(f"not a geometry: {type(obj).__name__}")
    return gi


def _is_number(v: object) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _member(m: Any, key: str, name: str, path: str) -> Any:
    """A member a GeoJSON object must have: missing (or null), it is an InvalidArgument."""
    value = m.get(key)
    if value is None:
        where = f" at {path}" if path else ""
        raise invalid(f"{name}: the GeoJSON {m.get('type')}{where} has no {key!r}")
    return value


def _sequence(value: Any, name: str, path: str, what: str) -> Any:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name}: {path} must be {what}, not {_check._show(value)}")
    return value


def _position(p: Any, name: str, path: str) -> Tuple[float, float]:
    """A GeoJSON position [lon, lat] as two floats. A z (a third number) is refused like an
    (n, 3) array's; anything else that is not two numbers is refused naming where it is."""
    p = _sequence(p, name, path, "a position [lon, lat]")
    items = list(p)
    if any(not _is_number(v) for v in items):
        if any(hasattr(v, "__len__") and not isinstance(v, (str, bytes)) for v in items):
            raise invalid(f"{name}: {path} must be a position [lon, lat], not nested lists {_short(p)}")
        bad = next(v for v in items if not _is_number(v))
        raise TypeError(f"{name}: {path} must hold numbers, not {_check._show(bad)}")
    if len(items) == 3:
        raise invalid(f"{name}: {path} {_short(p)} has a z: pindrop takes (lon, lat) only, drop the "
                      f"z first")
    if len(items) != 2:
        raise invalid(f"{name}: {path} must be a position [lon, lat] of two numbers, not "
                      f"{len(items)} ({_short(p)})")
    return float(items[0]), float(items[1])


def _short(value: Any) -> str:
    """A GeoJSON position or list as a message shows it: JSON (NumPy numbers as plain numbers)."""
    if isinstance(value, (list, tuple)):
        try:
            return _check.cut(json.dumps(value, default=_check.plain))
        except (TypeError, ValueError):  # not JSON: whatever it holds
            pass
    return _check.shown(value)


def _points(m: Any, name: str, path: str = "") -> Iterator[Tuple[float, float]]:
    """The (lon, lat) of every point of a GeoJSON mapping; `path` names it in messages."""
    kind = m.get("type") if isinstance(m, dict) else None
    dot = f"{path}." if path else ""
    if kind == "Point":
        yield _position(_member(m, "coordinates", name, path), name, f"{dot}coordinates")
    elif kind == "MultiPoint":
        where = f"{dot}coordinates"
        for k, p in enumerate(_sequence(_member(m, "coordinates", name, path), name, where,
                                        "a list of positions")):
            yield _position(p, name, f"{where}[{k}]")
    elif kind == "Feature":
        if m.get("geometry") is None:
            raise invalid(f"{name} holds a Feature without a geometry" + (f" at {path}" if path else ""))
        yield from _points(m["geometry"], name, f"{dot}geometry")
    elif kind == "FeatureCollection":
        where = f"{dot}features"
        for k, f in enumerate(_sequence(_member(m, "features", name, path), name, where, "a list")):
            yield from _points(f, name, f"{where}[{k}]")
    elif kind == "GeometryCollection":
        where = f"{dot}geometries"
        for k, g in enumerate(_sequence(_member(m, "geometries", name, path), name, where, "a list")):
            yield from _points(g, name, f"{where}[{k}]")
    else:
        where = f" at {path}" if path else ""
        raise TypeError(f"{name} must hold points, not a {kind or type(m).__name__}{where}")


def _rows(points: List[Tuple[float, float]]) -> "numpy.ndarray":
    import numpy as np
    out = np.empty((len(points), 2), dtype=np.float64)
    if points:
        out[:] = points
    return out


def _points_from_mapping(obj: Any, name: str) -> "numpy.ndarray":
    return _rows(list(_points(_mapping(obj), name)))


#: The geometry types WKT text may begin with (OGC Simple Features and SQL/MM), after an optional
#: EWKT "SRID=...;" prefix: text that begins with none of them is not WKT at all.
_WKT_TYPES = frozenset(("POINT", "MULTIPOINT", "LINESTRING", "MULTILINESTRING", "POLYGON", "MULTIPOLYGON",
                        "GEOMETRYCOLLECTION", "LINEARRING", "CIRCULARSTRING", "COMPOUNDCURVE",
                        "CURVEPOLYGON", "MULTICURVE", "MULTISURFACE", "POLYHEDRALSURFACE", "TIN",
                        "TRIANGLE"))
_WKT_START = re.compile(r"(?:SRID=[^;]*;\s*)?([A-Za-z]+)")


def looks_like_wkt(text: str) -> bool:
    """Whether `text` begins as WKT does: a geometry type (any case), EWKT's SRID prefix allowed.
    Whether the rest is valid is for a WKT reader to say."""
    match = _WKT_START.match(text.strip())
    return match is not None and match.group(1).upper() in _WKT_TYPES


def _points_from_text(text: str, name: str) -> "numpy.ndarray":
    s = text.strip()
    if s.startswith("{"):
        try:
            return _points_from_mapping(json.loads(s), name)
        except json.JSONDecodeError as e:
            raise invalid(f"{name} is not valid GeoJSON: {e}") from None
    if not looks_like_wkt(s):
        what = "empty text" if not s else f"the text {_check.shown(text, limit=40)}"
        raise invalid(f"{name} is {what}, which is neither GeoJSON nor WKT (such as 'POINT (lon lat)' "
                      f"or 'MULTIPOINT ((lon lat), ...)'): pass the coordinates as numbers, an (n, 2) "
                      f"array of (lon, lat), shapely points, or GeoJSON or WKT text")
    _check.text(s, name)  # text shapely could not take either (a NUL, a lone surrogate), in pindrop's words
    try:
        shapely = _shapely()
    except ImportError:
        raise TypeError(f"{name}: reading WKT points needs shapely (pip install shapely); "
                        "GeoJSON text or an (n, 2) array needs nothing") from None
    try:
        geom = shapely.from_wkt(s)
    except Exception as e:  # shapely.errors.GEOSException
        raise invalid(f"{name} is not valid WKT: {e}") from None
    import numpy as np
    return _shapely_points(np.asarray([geom], dtype=object), name)


# -- areas ------------------------------------------------------------------------------------------

def _polygons(m: Any, name: str) -> Iterator[Any]:
    kind = m.get("type") if isinstance(m, dict) else None
    if kind == "Polygon":
        yield _member(m, "coordinates", name, "")
    elif kind == "MultiPolygon":
        yield from _sequence(_member(m, "coordinates", name, ""), name, "coordinates", "a list of polygons")
    elif kind == "Feature":
        if m.get("geometry") is not None:
            yield from _polygons(m["geometry"], name)
    elif kind == "FeatureCollection":
        for f in _sequence(_member(m, "features", name, ""), name, "features", "a list"):
            yield from _polygons(f, name)
    elif kind == "GeometryCollection":
        for g in _sequence(_member(m, "geometries", name, ""), name, "geometries", "a list"):
            yield from _polygons(g, name)
    else:
        raise TypeError(f"an allowed area must be polygons, not a {kind or type(m).__name__} ({name})")


def _plain(rings: Any, name: str) -> Any:
    """Nested tuples and arrays as nested lists of floats, for json."""
    if hasattr(rings, "tolist"):
        rings = rings.tolist()
    if isinstance(rings, (list, tuple)):
        return [_plain(r, name) for r in rings]
    if not _is_number(rings):
        raise TypeError(f"{name}: polygon coordinates must be numbers, not {_check._show(rings)}")
    return float(rings)


def area_text(value: object, name: str = "area") -> Optional[bytes]:
    """The allowed area as the text the library reads: WKT or GeoJSON text as it is; shapely
    (Multi)Polygons, a GeoSeries or GeoDataFrame of polygons (CRS checked), ``__geo_interface__``
    or a GeoJSON mapping as a GeoJSON MultiPolygon of all their polygons (coordinates written with
    every digit: nothing is rounded)."""
    if value is None:
        return None
    if isinstance(value, str):
        return _check.text(value, name)
    if isinstance(value, bytes):
        raise TypeError(f"{name} must be a str, not bytes: decode it first")
    if is_geopandas(value):
        series = geometries(value, name)
        polys = [p for g in series if g is not None for p in _polygons(_mapping(g), name)]
    elif isinstance(value, dict) or hasattr(value, "__geo_interface__"):
        polys = list(_polygons(_mapping(value), name))
    else:
        raise TypeError(f"the allowed area must be WKT or GeoJSON text, a shapely (Multi)Polygon, a "
                        f"GeoSeries, a GeoJSON mapping or have __geo_interface__, not {_check._show(value)}")
    if not polys:
        raise invalid(f"{name} holds no polygon (to clear the allowed area, pass None)")
    doc = {"type": "MultiPolygon", "coordinates": [_plain(p, name) for p in polys]}
    return json.dumps(doc, allow_nan=True).encode("utf-8")

