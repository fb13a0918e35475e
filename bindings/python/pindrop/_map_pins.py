"""`Map`'s pins: adding, moving and removing them, where they are, and the queries over them (hit
tests, nearby pins, the frame to draw)."""
from __future__ import annotations

from ctypes import byref, c_double, c_int64
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Tuple, Union, overload

import numpy as np

from . import _check, _ffi, _geo
from ._ffi import lib
from ._map_state import _MapState
from ._records import PIN_VIEW_DTYPE
from ._views import CameraInverse, Frame, pointwise

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import NDArray

    from ._hints import Coordinates, PointLike


class _Pins(_MapState):
    # -- pins -------------------------------------------------------------------------------------
    @overload
    def add(self, id: int, lon: float, lat: float) -> None: ...
    @overload
    def add(self, id: int, lon: "PointLike") -> None: ...

    def add(self, id: int, lon: Any, lat: Optional[float] = None) -> None:
        """Adds pin `id` at (lon, lat), or at a point given as one object (a shapely Point,
        GeoJSON, WKT). DuplicateId if the id exists."""
        h = _check.open_handle(self)
        i = _check.pin_id(id)
        x, y = self._lonlat_args(lon, lat)
        lib.pindrop_map_add(h, i, x, y)
        self._ids.add(i)

    def add_many(self, ids: Any, lonlat: "Coordinates", lat: Any = None) -> None:
        """Adds n pins at once, all or nothing. `ids`: n integers (an int64 array is used as it
        is). `lonlat`: their (n, 2) coordinates, or lon and lat as two 1-D arrays
        (``add_many(ids, lon, lat)``), or shapely points, a GeoSeries or GeoDataFrame of points in
        EPSG:4326, ``__geo_interface__``, GeoJSON or WKT of n points."""
        h = _check.open_handle(self)
        a = _check.ids_array(ids)
        pts = _geo.lonlat(lonlat, lat, name="lonlat")
        if pts.shape[0] != a.size:
            raise _check.invalid(f"{a.size} ids for {pts.shape[0]} coordinates: give one (lon, lat) per id")
        lib.pindrop_map_add_many(h, a.ctypes.data, pts.ctypes.data, a.size)
        self._ids.add_many(a)

    def remove(self, id: int) -> None:
        """Removes a pin (ending any gesture or edit on it). NotFound if there is none."""
        h = _check.open_handle(self)
        i = _check.pin_id(id)
        lib.pindrop_map_remove(h, i)
        self._ids.remove(i)
        if self._session is not None and self._session[0] == i:
            self._session = None

    @overload
    def set_position(self, id: int, lon: float, lat: float) -> None: ...
    @overload
    def set_position(self, id: int, lon: "PointLike") -> None: ...

    def set_position(self, id: int, lon: Any, lat: Optional[float] = None) -> None:
        """Moves a pin as the host, not the user: no MOVED event, no undo entry."""
        h = _check.open_handle(self)
        i = _check.pin_id(id)
        x, y = self._lonlat_args(lon, lat)
        lib.pindrop_map_set_position(h, i, x, y)

    def position(self, id: int) -> Tuple[float, float]:
        """The pin's true coordinate (lon, lat)."""
        h = _check.open_handle(self)
        lon, lat = c_double(), c_double()
        lib.pindrop_map_position(h, _check.pin_id(id), byref(lon), byref(lat))
        return lon.value, lat.value

    def display_position(self, id: int) -> Tuple[float, float]:
        """Where the pin is drawn (lon, lat): its place in a spread group, where it would land while
        dragged, else its true coordinate."""
        h = _check.open_handle(self)
        lon, lat = c_double(), c_double()
        lib.pindrop_map_display_position(h, _check.pin_id(id), byref(lon), byref(lat))
        return lon.value, lat.value

    def _bulk(self, name: str, ids: Any) -> "NDArray[np.float64]":
        h = _check.open_handle(self)
        a = self.ids() if ids is None else _check.ids_array(ids)
        out = np.empty((a.size, 2), dtype=np.float64)
        f = _ffi.raw(name)
        base, step = out.ctypes.data, out.strides[0]
        for k, i in enumerate(a.tolist()):
            status = f(h, i, base + k * step, base + k * step + 8)
            if status != 0:
                _ffi.raise_for(status, h, name)
        return out

    def positions(self, ids: Any = None) -> "NDArray[np.float64]":
        """The true coordinates of pins as an (n, 2) array of (lon, lat): of `ids` (in their
        order), or of every pin (in the order of `ids()`). NotFound names the first unknown id."""
        return self._bulk("pindrop_map_position", ids)

    def display_positions(self, ids: Any = None) -> "NDArray[np.float64]":
        """Where pins are drawn, as an (n, 2) array of (lon, lat) (see `display_position`): of
        `ids`, or of every pin in the order of `ids()`."""
        return self._bulk("pindrop_map_display_position", ids)

    def ids(self) -> "NDArray[np.int64]":
        """The ids of every pin, ascending (an int64 array)."""
        _check.open_handle(self)
        out = self._ids.sorted()
        if out.size != len(self):
            raise RuntimeError(f"pindrop lost track of the map's ids ({out.size} known, {len(self)} in the map)")
        return out.copy()

    def set_draggable(self, id: int, draggable: bool) -> None:
        """Whether the user may lift the pin (default True)."""
        h = _check.open_handle(self)
        lib.pindrop_map_set_draggable(h, _check.pin_id(id), 1 if _check.flag(draggable, "draggable") else 0)

    def __len__(self) -> int:
        return int(lib.pindrop_map_count(_check.open_handle(self)))

    def __contains__(self, id: object) -> bool:
        _check.open_handle(self)
        if isinstance(id, bool) or not isinstance(id, (int, np.integer)):
            return False
        i = int(id)
        return -2 ** 63 < i < 2 ** 63 and i in self._ids

    def __iter__(self) -> Iterator[int]:
        """The ids of the pins, ascending (as `ids`)."""
        return iter(self.ids().tolist())

    # -- queries ----------------------------------------------------------------------------------
    def hit_test(self, x: float, y: float) -> Optional[int]:
        """The pin drawn nearest to screen point (x, y) within hit_radius, or None."""
        h = _check.open_handle(self)
        out = c_int64()
        status = lib.pindrop_map_hit_test(h, _check.real(x, "x"), _check.real(y, "y"), byref(out))
        if status == _ffi.ERR_NOT_FOUND:
            return None
        if status != 0:
            _ffi.raise_for(status, h, "pindrop_map_hit_test")
        return int(out.value)

    def hit_test_many(self, xy: Any, y: Any = None) -> "NDArray[np.int64]":
        """hit_test for n screen points, (n, 2) or x and y as two 1-D arrays: an int64 array of
        ids, NO_ID for misses."""
        h = _check.open_handle(self)
        pts = _check.pairs(xy, y, name="xy", what="screen points", columns="x, y")
        out = np.empty(pts.shape[0], dtype=np.int64)
        lib.pindrop_map_hit_test_many(h, pts.ctypes.data, out.size, out.ctypes.data)
        return out

    def nearby(self, lon: Any, lat: Optional[float] = None, radius_m: Optional[float] = None,
               limit: Optional[int] = None) -> List[Tuple[int, float]]:
        """[(id, distance_m)] of the pins whose true coordinate is within radius_m metres of
        (lon, lat), nearest first (at most `limit`, an integer >= 0). The point may be one object:
        ``nearby(point, radius_m=10)``."""
        h = _check.open_handle(self)
        if radius_m is None:
            if lat is None or not _geo.is_point_like(lon):
                raise TypeError("nearby needs a point (lon, lat or one point object) and radius_m")
            radius_m, lat = lat, None
        x, y = self._lonlat_args(lon, lat)
        r = _check.real(radius_m, "radius_m")
        cap = None if limit is None else _check.count(limit, "limit")
        total = lib.pindrop_map_nearby(h, x, y, r, None, None, 0)
        if total == 0 and lib.pindrop_map_last_error(h):
            _ffi.raise_for(-1, h, "pindrop_map_nearby")
        n = total if cap is None else min(cap, total)
        ids = (c_int64 * max(n, 1))()
        dist = (c_double * max(n, 1))()
        total = lib.pindrop_map_nearby(h, x, y, r, ids, dist, n)
        return [(ids[i], dist[i]) for i in range(min(n, total))]

    def _inverse(self) -> Callable[[Any, Any], Tuple[Any, Any]]:
        """Screen points to (lon, lat) through the current view, for a frame to use later: the
        camera's inverse (`to_lonlat`'s numbers to a unit or two in the last place), or the
        host's unproject."""
        if self._callbacks is not None:
            unproject = self._callbacks[3]
            return pointwise(lambda x, y: unproject(x, y))
        if self._camera is None:  # set_projection sets both: never reached on an open map
            raise RuntimeError("pindrop lost track of the map's view")
        lon, lat, zoom, bearing, w, hgt = self._camera
        return CameraInverse(lon, lat, zoom, bearing, w, hgt)

    @overload
    def frame(self, time_ms: Optional[float] = None, array: "Literal[False]" = False) -> Frame: ...
    @overload
    def frame(self, time_ms: Optional[float] = None, *, array: "Literal[True]") -> "NDArray[Any]": ...
    @overload
    def frame(self, time_ms: Optional[float], array: "Literal[True]") -> "NDArray[Any]": ...

    def frame(self, time_ms: Optional[float] = None, array: bool = False) -> Union[Frame, "NDArray[Any]"]:
        """The pins to draw at time_ms (inside the viewport), in drawing order: the dragged pin last.
        Without a time: at the latest time the map was given (`time_ms`).

        Returns a `Frame`: a sequence of `PinView` made on demand, over one structured array, with
        the columns as arrays (``frame.x``, ``frame.lonlat``); one C call and one copy, whatever
        the number of pins. With ``array=True``: the structured array itself (dtype
        `PIN_VIEW_DTYPE`). In a clustered view these are the unclustered pins; the clusters come
        from `clusters`."""
        h = _check.open_handle(self)
        t = self._time_or_now(time_ms)
        a = self._fill(h, "_frame_buf", lib.pindrop_map_frame, t, PIN_VIEW_DTYPE, "pindrop_map_frame")
        self._note_time(t)
        return a if array else Frame(a, self._inverse())
