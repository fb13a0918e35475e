"""Measures on pindrop's sphere, with no map involved."""
from __future__ import annotations

from ctypes import byref, c_double
from typing import Tuple

from . import _check
from ._ffi import lib


def distance(from_lon: float, from_lat: float, to_lon: float, to_lat: float) -> Tuple[float, float]:
    """(metres, bearing) from one coordinate to another on pindrop's sphere (radius 6378137 m, as
    every distance pindrop reports): the great-circle distance and the initial bearing in degrees
    clockwise from north, in [0, 360). The facts of an announcement such as "moved 12 m north-east"
    (from LIFTED's coordinate to DRAGGED's, or from a MOVED event's from_lon/from_lat to lon/lat).
    Since 0.3.0."""
    d, b = c_double(), c_double()
    lib.pindrop_distance(_check.real(from_lon, "from_lon"), _check.real(from_lat, "from_lat"),
                         _check.real(to_lon, "to_lon"), _check.real(to_lat, "to_lat"), byref(d), byref(b))
    return d.value, b.value
