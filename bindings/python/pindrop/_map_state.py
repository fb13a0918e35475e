"""What every part of `Map` shares: the map's handle and what Python keeps beside it (the view, the
latest time, the ids, the pin being edited), and the helpers each part calls."""
from __future__ import annotations

import numbers
from ctypes import c_void_p
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

import numpy as np

from . import _check, _ffi, _geo
from ._ffi import lib
from ._ids import _Ids

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ._options import Options

ProjectFn = Callable[[float, float], Tuple[float, float]]

#: The camera of a new map, as pindrop.h gives it (pindrop_map_create): Web Mercator at (0, 0),
#: zoom 0, bearing 0, 256 x 256 points; as `Map._camera` holds it: (lon, lat, zoom, bearing, w, h).
_NEW_MAP_CAMERA: Tuple[float, float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 256.0, 256.0)


class _MapState:
    """The state of a `Map` that its parts (pins, clusters, input, editing) read and write."""
    _handle: c_void_p
    _options: "Options"
    # The map's view, as Python must know it to turn a frame's screen points into (lon, lat):
    # the camera the library has, or None while the host's projection is used, whose callbacks
    # are then kept alive here (see Map.__init__).
    _callbacks: Optional[Tuple[Any, Any, ProjectFn, ProjectFn]]
    _camera: Optional[Tuple[float, float, float, float, float, float]]
    _now: Optional[float]
    _ids: _Ids
    _session: Optional[Tuple[int, bool]]  # (id, placed) being placed or edited
    _finalizer: Callable[[], Any]  # a weakref.finalize: destroys the map once

    def _note_time(self, t: float) -> None:
        """Records a time the library accepted (call after the call succeeded)."""
        if self._now is None or t > self._now:
            self._now = t

    def _time_or_now(self, time_ms: Optional[float]) -> float:
        if time_ms is None:
            return 0.0 if self._now is None else self._now
        return _check.time(time_ms)

    def _lonlat_args(self, lon: Any, lat: Any) -> Tuple[float, float]:
        if lat is None:
            if _geo.is_point_like(lon):
                return _geo.point(lon, "point")
            if isinstance(lon, numbers.Real) and not isinstance(lon, bool):  # add(1, 1.0, None), add(1, 1.0)
                raise TypeError(f"lat must be a number, not None (lon is {_check.shown(lon)}): give lon and "
                                f"lat as two numbers, or the point as one object (a shapely Point, "
                                f"GeoJSON, WKT, a (lon, lat) pair)")
            raise TypeError(f"lon must be a number (and lat another) or one point (a shapely Point, "
                            f"GeoJSON, WKT, a (lon, lat) pair), not {_check._show(lon)}")
        return _check.real(lon, "lon"), _check.real(lat, "lat")

    def _fill(self, h: Any, attr: str, fn: Any, arg: Any, dtype: Any, name: str) -> "NDArray[Any]":
        """Calls a C function that fills a buffer of `dtype` records and returns how many exist,
        into a buffer kept on the map (grown when short); returns a copy of the filled part."""
        buf = getattr(self, attr, None)
        if buf is None:
            buf = np.empty(256, dtype=dtype)
        while True:
            total = fn(h, arg, buf.ctypes.data, len(buf))
            if total == 0 and lib.pindrop_map_last_error(h):
                _ffi.raise_for(-1, h, name)
            if total <= len(buf):
                break
            buf = np.empty(total + total // 4, dtype=dtype)
        setattr(self, attr, buf)
        return buf[:total].copy()
