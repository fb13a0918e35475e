"""`Map`'s snapping (behaviour 24, since 0.4.0): snap layers from WKT, GeoJSON, shapely geometries
and GeoDataFrames, and what the dragged pin snapped to."""
from __future__ import annotations

import json
import numbers
from ctypes import byref
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from . import _check, _ffi, _geo, _tables
from ._ffi import lib
from ._map_state import _MapState

@dataclass(frozen=True)
class SnapTarget:
    """What the dragged pin is snapped to (pindrop_snap): `kind` "none", "pin", "vertex" or
    "segment"; `layer` the snap layer (0 for a pin); `feature` the feature's id (or the pin's);
    `index` the vertex, or the segment's first vertex, in the feature; (lon, lat) the snapped
    point. Falsy when the kind is "none" (not dragging, or not snapped). Since 0.4.0."""
    kind: str
    layer: int
    feature: int
    index: int
    lon: float
    lat: float

    KINDS = tuple(kind.lower() for kind in _tables.SNAP_KINDS)  # by value, from 0

    def __bool__(self) -> bool:
        return self.kind != "none"

    @classmethod
    def _from_c(cls, s: "_ffi.Snap") -> "SnapTarget":
        kind = cls.KINDS[s.kind] if 0 <= s.kind < len(cls.KINDS) else str(s.kind)
        return cls(kind, s.layer, s.feature, s.index, s.lon, s.lat)


def _feature_id(value: Any, where: str) -> int:
    """A feature's id: an integer (NumPy integers too, and floats that are whole numbers)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _check.invalid(f"{where}: a snap feature's id must be an integer, not {_check._show(value)}")
    if isinstance(value, numbers.Integral):
        return int(value)
    v = float(value)
    if not v.is_integer():
        raise _check.invalid(f"{where}: a snap feature's id must be an integer, not {value!r}")
    return int(v)


def _collection(pairs: Iterable[Any], name: str) -> str:
    features = []
    for k, pair in enumerate(pairs):
        try:
            fid, geom = pair
        except (TypeError, ValueError):
            raise TypeError(f"{name}[{k}] must be an (id, geometry) pair, not {_check._show(pair)}") from None
        if geom is None:
            continue
        features.append({"type": "Feature", "id": _feature_id(fid, f"{name}[{k}]"), "properties": {},
                         "geometry": _geo._mapping(geom) if not isinstance(geom, str) else _wkt_geometry(geom)})
    return json.dumps({"type": "FeatureCollection", "features": features}, allow_nan=True)


def _wkt_geometry(text: str) -> Any:
    shapely = _geo._shapely()
    return shapely.geometry.mapping(shapely.from_wkt(text))


def snap_layer_text(data: object, id_column: Optional[str], name: str = "data") -> Optional[bytes]:
    """The text the library reads for a snap layer."""
    if data is None:
        return None
    if isinstance(data, bytes):
        raise TypeError(f"{name} must be a str, not bytes: decode it first")
    if isinstance(data, str):
        if id_column is not None:
            raise TypeError("id_column applies to a GeoDataFrame only")
        return _check.text(data, name)
    if _geo.is_geopandas(data):
        frame: Any = data
        geoms = _geo.geometries(frame, name)
        if id_column is not None:
            if type(frame).__name__ != "GeoDataFrame" or id_column not in frame.columns:
                raise KeyError(f"{name} has no column {id_column!r} to take the ids from")
            ids = list(frame[id_column])
        else:
            ids = list(frame.index)
        return _collection(zip(ids, geoms), name).encode("utf-8")
    if id_column is not None:
        raise TypeError("id_column applies to a GeoDataFrame only")
    if isinstance(data, dict) or hasattr(data, "__geo_interface__"):
        return json.dumps(_geo._mapping(data), allow_nan=True).encode("utf-8")
    if isinstance(data, (list, tuple)):
        return _collection(data, name).encode("utf-8")
    raise TypeError(f"a snap layer must be WKT or GeoJSON text, a GeoJSON mapping, a shapely geometry, "
                    f"a list of (id, geometry) pairs or a GeoSeries / GeoDataFrame, not {_check._show(data)}")


class _Snap(_MapState):
    def set_snap_layer(self, layer: int, data: object, *, id_column: Optional[str] = None) -> None:
        """Replaces snap layer `layer` (0 ... 1023) with the features of `data`; None or "" clears
        it. A dragged pin lands on the nearest vertex or segment within ``snap_tolerance`` points
        (`Options.snap_tolerance`; docs/editing.md, "Snapping"), and `snap_target` says which.

        `data`: WKT (a GEOMETRYCOLLECTION or one geometry, whose parts get ids 0, 1, ...) or
        GeoJSON text or mapping (a FeatureCollection's features carry their integer "id"); a shapely
        geometry (its parts numbered as WKT's); a list of (id, geometry) pairs; a GeoSeries or
        GeoDataFrame in EPSG:4326, the ids from its index or from the column `id_column`. Points,
        lines and polygons (their rings). ParseError for bad text or a feature without an integer
        id, InvalidArgument for a layer out of range; either changes nothing."""
        h = _check.open_handle(self)
        if isinstance(layer, bool) or not isinstance(layer, numbers.Integral):
            raise TypeError(f"layer must be an int, not {_check._show(layer)}")
        if not 0 <= int(layer) <= 0xFFFFFFFF:  # the library says which layers it has (0 ... 1023)
            raise _check.invalid(f"snap layer {int(layer)} is out of range (layers are 0 ... 1023)")
        lib.pindrop_map_set_snap_layer(h, int(layer), snap_layer_text(data, id_column))

    def snap_target(self) -> SnapTarget:
        """What the dragged pin is snapped to now (kind "none", falsy, when no pin is dragged or
        it is not snapped)."""
        h = _check.open_handle(self)
        out = _ffi.Snap()
        lib.pindrop_map_snap_target(h, byref(out))
        return SnapTarget._from_c(out)
