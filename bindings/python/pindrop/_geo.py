"""GIS objects in: shapely geometries and arrays of them, GeoPandas GeoSeries and GeoDataFrames
(their active geometry, CRS checked), anything with ``__geo_interface__``, GeoJSON mappings and
WKT or GeoJSON text. shapely and GeoPandas stay optional: nothing here imports them unless the
object given is theirs (or is text that needs a WKT reader).
"""
from __future__ import annotations

import importlib
import json
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple

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


def _geoseries(obj: Any, name: str) -> Any:
    """The active geometry column of a GeoDataFrame, or the GeoSeries itself, CRS checked."""
    check_crs(obj, name)
    return obj.geometry if type(obj).__name__ == "GeoDataFrame" or not hasattr(obj, "values") else obj


def lonlat(values: object, second: object = None, name: str = "lonlat") -> "numpy.ndarray":
    """An (n, 2) float64 array of (lon, lat) from any of the accepted inputs:

    - an (n, 2) array or sequence of (lon, lat) rows, or two 1-D arrays (lon, then lat);
    - shapely Points or MultiPoints, alone or in a list or array;
    - a GeoPandas GeoSeries or GeoDataFrame of points (in EPSG:4326, or without a CRS);
    - anything with ``__geo_interface__``, a GeoJSON mapping (Point, MultiPoint, Feature,
      FeatureCollection, GeometryCollection) or GeoJSON or WKT text of points.
    """
    import numpy as np
    if second is not None:
        return _check.pairs(values, second, name=name)
    if values is None:
        raise TypeError(f"{name} must be coordinates: an (n, 2) array of (lon, lat) rows, shapely "
                        "points, a GeoSeries or GeoDataFrame of points, GeoJSON or WKT; not None")
    if is_geopandas(values):
        return _shapely_points(np.asarray(_geoseries(values, name).values), name)
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
    a = np.asarray(values) if not isinstance(values, np.ndarray) else values
    if a.dtype == object and a.size and (is_geometry(a.reshape(-1)[0]) or hasattr(a.reshape(-1)[0], "__geo_interface__")):
        if a.ndim != 1:
            raise invalid(f"{name}: an array of geometries must be 1-D, not of shape {a.shape}")
        if all(is_geometry(v) for v in a):
            return _shapely_points(a, name)
        return _rows([p for v in a for p in _points(_mapping(v), name)])
    return _check.pairs(values, name=name)


def point(value: object, name: str = "point") -> Tuple[float, float]:
    """One (lon, lat) from a shapely Point, a one-point GeoSeries, ``__geo_interface__``, GeoJSON
    or WKT text, or a (lon, lat) pair."""
    if isinstance(value, (tuple, list)) and len(value) == 2 and not any(is_geometry(v) for v in value):
        return _check.real(value[0], f"{name}'s lon"), _check.real(value[1], f"{name}'s lat")
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
    return np.ascontiguousarray(shapely.get_coordinates(geoms), dtype=np.float64)


def _mapping(obj: Any) -> Any:
    if isinstance(obj, dict):
        return obj
    gi = getattr(obj, "__geo_interface__", None)
    if gi is None:
        raise TypeError(f"not a geometry: {type(obj).__name__}")
    return gi


def _points(m: Any, name: str) -> Iterator[Sequence[float]]:
    kind = m.get("type") if isinstance(m, dict) else None
    if kind == "Point":
        yield m["coordinates"]
    elif kind == "MultiPoint":
        yield from m["coordinates"]
    elif kind == "Feature":
        if m.get("geometry") is None:
            raise invalid(f"{name} holds a Feature without a geometry")
        yield from _points(m["geometry"], name)
    elif kind == "FeatureCollection":
        for f in m["features"]:
            yield from _points(f, name)
    elif kind == "GeometryCollection":
        for g in m["geometries"]:
            yield from _points(g, name)
    else:
        raise TypeError(f"{name} must hold points, not a {kind or type(m).__name__}")


def _rows(points: List[Sequence[float]]) -> "numpy.ndarray":
    import numpy as np
    out = np.empty((len(points), 2), dtype=np.float64)
    for i, p in enumerate(points):
        out[i, 0], out[i, 1] = float(p[0]), float(p[1])  # a z is dropped
    return out


def _points_from_mapping(obj: Any, name: str) -> "numpy.ndarray":
    return _rows(list(_points(_mapping(obj), name)))


def _points_from_text(text: str, name: str) -> "numpy.ndarray":
    s = text.strip()
    if s.startswith("{"):
        try:
            return _points_from_mapping(json.loads(s), name)
        except json.JSONDecodeError as e:
            raise invalid(f"{name} is not valid GeoJSON: {e}") from None
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
        yield m["coordinates"]
    elif kind == "MultiPolygon":
        yield from m["coordinates"]
    elif kind == "Feature":
        if m.get("geometry") is not None:
            yield from _polygons(m["geometry"], name)
    elif kind == "FeatureCollection":
        for f in m["features"]:
            yield from _polygons(f, name)
    elif kind == "GeometryCollection":
        for g in m["geometries"]:
            yield from _polygons(g, name)
    else:
        raise TypeError(f"an allowed area must be polygons, not a {kind or type(m).__name__} ({name})")


def _plain(rings: Any) -> Any:
    """Nested tuples and arrays as nested lists of floats, for json."""
    if hasattr(rings, "tolist"):
        rings = rings.tolist()
    if isinstance(rings, (list, tuple)):
        return [_plain(r) for r in rings]
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
        series = _geoseries(value, name)
        polys = [p for g in series if g is not None for p in _polygons(_mapping(g), name)]
    elif isinstance(value, dict) or hasattr(value, "__geo_interface__"):
        polys = list(_polygons(_mapping(value), name))
    else:
        raise TypeError(f"the allowed area must be WKT or GeoJSON text, a shapely (Multi)Polygon, a "
                        f"GeoSeries, a GeoJSON mapping or have __geo_interface__, not {type(value).__name__} "
                        f"{value!r}")
    if not polys:
        raise invalid(f"{name} holds no polygon (to clear the allowed area, pass None)")
    doc = {"type": "MultiPolygon", "coordinates": [_plain(p) for p in polys]}
    return json.dumps(doc, allow_nan=True).encode("utf-8")

