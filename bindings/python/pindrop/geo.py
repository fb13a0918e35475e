"""pindrop for GeoPandas: a GeoDataFrame of points in, the points to draw out.

    import geopandas, pindrop.geo
    trees = geopandas.read_file("lawndale.geojson")
    drawn = pindrop.geo.spread(trees)            # what QGIS's "Points displacement" draws
    drawn.plot(); drawn.set_geometry("leg").plot()

`spread` is the cartographer's point displacement in one call: the points that share a spot (or
lie within `tolerance_m` metres of a group's first point) are drawn apart on a ring (or a spiral),
the legs join each drawn point to its true coordinate, and every attribute is kept. It works in
any CRS: the points are taken to WGS84 lon/lat for the rule and the result is given back in the
input's CRS. GeoPandas (and so pyproj and shapely) must be installed; pindrop itself does not need
them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from . import _check
from . import spread as _spread

if TYPE_CHECKING:
    from typing import Literal

__all__ = ["spread"]


def _geopandas() -> Any:
    try:
        geopandas = importlib.import_module("geopandas")
    except ImportError:
        raise ImportError("pindrop.geo needs GeoPandas (pip install geopandas); pindrop.spread "
                          "takes NumPy arrays and shapely points without it") from None
    return geopandas


def spread(points: Any, tolerance_m: float = 0.0, layout: "Literal['ring', 'spiral']" = "ring",
           spacing: float = 25.0, zoom: Optional[float] = None) -> Any:
    """A GeoDataFrame (or GeoSeries) of points in; a GeoDataFrame of the points as drawn out.

    The result has the input's rows, index, attributes and CRS, with:

    - the active geometry: where each point is drawn (its true point when it is alone);
    - ``true_geometry``: the input points (a second GeoSeries);
    - ``leg``: the line from the true point to the drawn one (None for points that stay put);
    - ``moved`` (bool), ``group`` (int: the points drawn around one spot share it, numbered by
      their first row), ``rank`` (the place in the group, in row order) and ``group_size``.

    A CRS other than WGS84 is converted for the rule and back (a GeoDataFrame without a CRS is
    taken as lon/lat). The layout and its arguments are those of `pindrop.spread`. Every
    geometry must be a non-empty Point without a z (a MultiPoint is refused: explode it first;
    a Point Z too: ``.force_2d()`` it first).
    """
    gpd = _geopandas()
    shapely: Any = importlib.import_module("shapely")
    if isinstance(points, gpd.GeoSeries):
        frame = gpd.GeoDataFrame(geometry=points)
    elif isinstance(points, gpd.GeoDataFrame):
        frame = points
    else:
        raise TypeError(f"pindrop.geo.spread takes a GeoDataFrame or GeoSeries, not {type(points).__name__} "
                        "(pindrop.spread takes arrays and shapely points)")
    geometry = frame.geometry
    crs = frame.crs
    wgs84 = geometry if crs is None or crs.to_epsg() == 4326 else geometry.to_crs(4326)
    values = np.asarray(wgs84.values)
    types = shapely.get_type_id(values)
    if values.size and ((types != 0).any() or shapely.is_empty(values).any()):
        bad = int(np.flatnonzero((types != 0) | shapely.is_empty(values))[0])
        g = values[bad]
        what = "a missing geometry" if g is None else ("an empty point" if g.geom_type == "Point" else f"a {g.geom_type}")
        raise TypeError(f"row {bad} ({_check.shown(frame.index[bad])}) holds {what}: every geometry must be a Point")
    with_z = np.flatnonzero(shapely.has_z(values)) if values.size else np.empty(0, dtype=np.intp)
    if with_z.size:  # refused as every other input's z is (docs/python-gis.md, section 1)
        bad = int(with_z[0])
        raise _check.invalid(f"row {bad} ({_check.shown(frame.index[bad])}) holds a point with a z ({with_z.size} rows "
                             f"do): pindrop takes (lon, lat) only; drop the z first with .force_2d()")
    lonlat = np.ascontiguousarray(shapely.get_coordinates(values), dtype=np.float64)
    result = _spread(lonlat, _check.real(tolerance_m, "tolerance_m"), layout, spacing, zoom)
    drawn = np.asarray(result)
    moved = result.moved

    out = frame.copy()
    geometry_name = frame.geometry.name
    drawn_points = gpd.GeoSeries(shapely.points(drawn), index=frame.index, crs=4326 if crs is not None else None)
    legs = np.full(len(frame), None, dtype=object)
    if moved.any():
        legs[moved] = shapely.linestrings(result.legs())
    leg_series = gpd.GeoSeries(legs, index=frame.index, crs=4326 if crs is not None else None)
    if crs is not None and crs.to_epsg() != 4326:
        drawn_points = drawn_points.to_crs(crs)
        leg_series = leg_series.to_crs(crs)
    out["true_geometry"] = gpd.GeoSeries(geometry.values, index=frame.index, crs=crs)
    out[geometry_name] = drawn_points
    out = out.set_geometry(geometry_name, crs=crs)
    out["leg"] = leg_series
    out["moved"] = moved
    out["group"] = result.group
    out["rank"] = result.rank
    out["group_size"] = result.sizes[result.group]
    return out
