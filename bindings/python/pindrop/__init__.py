"""pindrop: placement, drag and spreading of map pins, through the C ABI of libpindrop.so.

    import pindrop
    with pindrop.Map(pindrop.Options(lift_delay_ms=0)) as m:
        m.set_camera(-118.35, 33.9, zoom=18, width=800, height=600)
        m.add(1, -118.35, 33.9)
        print(m.hit_test(400, 300))
"""
from __future__ import annotations

import ctypes
import math
import weakref
from ctypes import byref, c_double, c_int64, c_size_t, c_void_p
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Sequence, Tuple

from . import _ffi
from ._ffi import (NO_ID, DuplicateId, GeosError, InvalidArgument, NoMemory, NotFound, ParseError,
                   PindropError, StateError, lib)

__all__ = ["Map", "Options", "Event", "PinView", "spread", "version", "NO_ID", "PindropError",
           "InvalidArgument", "NotFound", "DuplicateId", "ParseError", "StateError", "GeosError",
           "NoMemory"]

# Constants of include/pindrop.h.
SPREAD_OFF, SPREAD_RING = 0, 1
OUTSIDE_REVERT, OUTSIDE_SNAP = 0, 1
PIN_SELECTED, PIN_EDITING, PIN_DRAGGING, PIN_SPREAD, PIN_INVALID = 1, 2, 4, 8, 16
TOUCH_DOWN, TOUCH_MOVE, TOUCH_UP, TOUCH_CANCEL = 0, 1, 2, 3
EVENT_TYPES = ["SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED", "DRAG_CANCELLED", "MOVED",
               "GEOCODE_REQUEST", "CALLOUT_CHANGED", "NEARBY", "AUTOPAN"]
CAUSES = ["NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP"]
TITLE, SUBTITLE = 0, 1


def version() -> str:
    """The version of the loaded libpindrop.so."""
    return lib.pindrop_version().decode()


def _np():
    import numpy
    return numpy


@dataclass
class Options:
    """pindrop_options with keyword defaults (the documented ones)."""
    hit_radius: float = 22.0
    drag_threshold: float = 5.0
    lift_delay_ms: float = 250.0
    lift_height: float = 40.0
    lift_duration_ms: float = 200.0
    drop_duration_ms: float = 250.0
    tap_max_ms: float = 250.0
    double_tap_ms: float = 300.0
    double_tap_slop: float = 40.0
    autopan_margin: float = 40.0
    autopan_speed: float = 600.0
    min_spacing_m: float = 0.0
    spread_mode: int = SPREAD_RING
    spread_tolerance_m: float = 0.0
    outside_policy: int = OUTSIDE_REVERT

    def _to_c(self) -> _ffi.Options:
        c = _ffi.Options()
        status = lib.pindrop_options_init(byref(c), ctypes.sizeof(c))
        if status != 0:
            raise InvalidArgument(status, "pindrop_options_init failed", "pindrop_options_init")
        for name in self.__dataclass_fields__:
            setattr(c, name, getattr(self, name))
        return c


@dataclass(frozen=True)
class Event:
    """One pindrop_event: `type` and `cause` are names ("MOVED", "DRAG")."""
    type: str
    cause: str
    id: int
    other: int
    lon: float
    lat: float
    from_lon: float
    from_lat: float
    dx: float
    dy: float
    distance_m: float
    time_ms: float
    request: int

    @classmethod
    def _from_c(cls, e: _ffi.Event) -> "Event":
        kind = EVENT_TYPES[e.type] if 0 <= e.type < len(EVENT_TYPES) else str(e.type)
        cause = CAUSES[e.cause] if 0 <= e.cause < len(CAUSES) else str(e.cause)
        return cls(kind, cause, e.id, e.other, e.lon, e.lat, e.from_lon, e.from_lat, e.dx, e.dy,
                   e.distance_m, e.time_ms, e.request)


@dataclass(frozen=True)
class PinView:
    """One pin of a frame: where to draw it, its anchor, lift and flags."""
    id: int
    x: float
    y: float
    anchor_x: float
    anchor_y: float
    lift: float
    flags: int


class Map:
    """A pindrop map (pindrop_map *). Use as a context manager or call close()."""

    def __init__(self, options: Optional[Options] = None):
        handle = c_void_p()
        c = (options or Options())._to_c()
        status = lib.pindrop_map_create(byref(c), byref(handle))
        if status != 0:
            _ffi.raise_for(status, None, "pindrop_map_create")
        self._handle = handle
        self._callbacks = None  # projection callbacks kept alive while C holds them
        self._finalizer = weakref.finalize(self, lib.pindrop_map_destroy, handle)

    # -- lifetime ---------------------------------------------------------------------------------
    @property
    def _as_parameter_(self):
        if not self._handle:
            raise ValueError("the map is closed")
        return self._handle

    def close(self) -> None:
        """Destroys the map now (also done when it is garbage-collected)."""
        self._finalizer()
        self._handle = c_void_p()
        self._callbacks = None

    def __enter__(self) -> "Map":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def last_error(self) -> str:
        return lib.pindrop_map_last_error(self).decode("utf-8", "replace")

    # -- view -------------------------------------------------------------------------------------
    def set_camera(self, center_lon: float, center_lat: float, zoom: float, width: float, height: float,
                   bearing_deg: float = 0.0) -> None:
        lib.pindrop_map_set_camera(self, byref(_ffi.Camera(center_lon, center_lat, zoom, bearing_deg, width, height)))

    def set_projection(self, project: Callable[[float, float], Tuple[float, float]],
                       unproject: Callable[[float, float], Tuple[float, float]], width: float, height: float) -> None:
        """Uses the host's projection: project(lon, lat) -> (x, y), unproject(x, y) -> (lon, lat).
        An exception inside a callback counts as a failure of that callback."""
        def _p(user, lon, lat, x, y):
            try:
                x[0], y[0] = project(lon, lat)
                return 0
            except Exception:
                return 1

        def _u(user, x, y, lon, lat):
            try:
                lon[0], lat[0] = unproject(x, y)
                return 0
            except Exception:
                return 1
        callbacks = (_ffi.PROJECT_FN(_p), _ffi.UNPROJECT_FN(_u))
        lib.pindrop_map_set_projection(self, callbacks[0], callbacks[1], None, width, height)
        self._callbacks = callbacks

    def to_screen(self, lon: float, lat: float) -> Tuple[float, float]:
        x, y = c_double(), c_double()
        lib.pindrop_map_to_screen(self, lon, lat, byref(x), byref(y))
        return x.value, y.value

    def to_lonlat(self, x: float, y: float) -> Tuple[float, float]:
        lon, lat = c_double(), c_double()
        lib.pindrop_map_to_lonlat(self, x, y, byref(lon), byref(lat))
        return lon.value, lat.value

    # -- pins -------------------------------------------------------------------------------------
    def add(self, id: int, lon: float, lat: float) -> None:
        lib.pindrop_map_add(self, id, lon, lat)

    def add_many(self, ids, lonlat) -> None:
        """ids: n int64; lonlat: n×2 (or 2n) float64 array-like. All or nothing."""
        np = _np()
        ids = np.ascontiguousarray(ids, dtype=np.int64).reshape(-1)
        lonlat = np.ascontiguousarray(lonlat, dtype=np.float64).reshape(-1)
        if lonlat.size != 2 * ids.size:
            raise ValueError(f"lonlat has {lonlat.size} values for {ids.size} ids (need {2 * ids.size})")
        lib.pindrop_map_add_many(self, ids.ctypes.data, lonlat.ctypes.data, ids.size)

    def remove(self, id: int) -> None:
        lib.pindrop_map_remove(self, id)

    def set_position(self, id: int, lon: float, lat: float) -> None:
        lib.pindrop_map_set_position(self, id, lon, lat)

    def position(self, id: int) -> Tuple[float, float]:
        lon, lat = c_double(), c_double()
        lib.pindrop_map_position(self, id, byref(lon), byref(lat))
        return lon.value, lat.value

    def display_position(self, id: int) -> Tuple[float, float]:
        lon, lat = c_double(), c_double()
        lib.pindrop_map_display_position(self, id, byref(lon), byref(lat))
        return lon.value, lat.value

    def set_draggable(self, id: int, draggable: bool) -> None:
        lib.pindrop_map_set_draggable(self, id, 1 if draggable else 0)

    def __len__(self) -> int:
        return lib.pindrop_map_count(self)

    # -- queries ----------------------------------------------------------------------------------
    def hit_test(self, x: float, y: float) -> Optional[int]:
        """The pin at screen point (x, y), or None."""
        out = c_int64()
        status = lib.pindrop_map_hit_test(self, x, y, byref(out))
        if status == _ffi.ERR_NOT_FOUND:
            return None
        if status != 0:
            _ffi.raise_for(status, self._handle, "pindrop_map_hit_test")
        return out.value

    def hit_test_many(self, xy):
        """xy: n×2 screen points; returns an int64 array of ids, NO_ID for misses."""
        np = _np()
        xy = np.ascontiguousarray(xy, dtype=np.float64).reshape(-1)
        if xy.size % 2:
            raise ValueError("xy needs an even number of values")
        out = np.empty(xy.size // 2, dtype=np.int64)
        lib.pindrop_map_hit_test_many(self, xy.ctypes.data, out.size, out.ctypes.data)
        return out

    def nearby(self, lon: float, lat: float, radius_m: float, limit: Optional[int] = None):
        """[(id, distance_m)] of the pins within radius_m, nearest first."""
        total = lib.pindrop_map_nearby(self, lon, lat, radius_m, None, None, 0)
        if total == 0 and self.last_error:
            _ffi.raise_for(-1, self._handle, "pindrop_map_nearby")
        n = total if limit is None else min(limit, total)
        ids = (c_int64 * max(n, 1))()
        dist = (c_double * max(n, 1))()
        total = lib.pindrop_map_nearby(self, lon, lat, radius_m, ids, dist, n)
        return [(ids[i], dist[i]) for i in range(min(n, total))]

    def frame(self, time_ms: float) -> list:
        """The pins to draw at time_ms, in drawing order."""
        total = lib.pindrop_map_frame(self, time_ms, None, 0)
        if total == 0 and self.last_error:
            _ffi.raise_for(-1, self._handle, "pindrop_map_frame")
        buf = (_ffi.PinView * max(total, 1))()
        total = lib.pindrop_map_frame(self, time_ms, buf, total)
        return [PinView(v.id, v.x, v.y, v.anchor_x, v.anchor_y, v.lift, v.flags) for v in buf[:total]]

    # -- input ------------------------------------------------------------------------------------
    def touch(self, pointer: int, phase: int, x: float, y: float, time_ms: float) -> bool:
        """Feeds a touch; True when pindrop owns the gesture."""
        r = lib.pindrop_map_touch(self, pointer, phase, x, y, time_ms)
        if r < 0:
            _ffi.raise_for(r, self._handle, "pindrop_map_touch")
        return r == 1

    def tick(self, time_ms: float) -> None:
        lib.pindrop_map_tick(self, time_ms)

    @property
    def next_deadline(self) -> float:
        return lib.pindrop_map_next_deadline(self)

    def cancel_gesture(self, time_ms: float) -> None:
        lib.pindrop_map_cancel_gesture(self, time_ms)

    def poll_event(self) -> Optional[Event]:
        e = _ffi.Event()
        return Event._from_c(e) if lib.pindrop_map_poll_event(self, byref(e)) == 1 else None

    def events(self) -> Iterator[Event]:
        """Drains the pending events."""
        while (e := self.poll_event()) is not None:
            yield e

    # -- editing ----------------------------------------------------------------------------------
    def place(self, id: int, lon: float, lat: float, time_ms: float) -> None:
        lib.pindrop_map_place(self, id, lon, lat, time_ms)

    def edit(self, id: int, time_ms: float) -> None:
        lib.pindrop_map_edit(self, id, time_ms)

    def commit(self, time_ms: float) -> None:
        lib.pindrop_map_commit(self, time_ms)

    def cancel_edit(self, time_ms: float) -> None:
        lib.pindrop_map_cancel_edit(self, time_ms)

    def select(self, id: Optional[int]) -> None:
        lib.pindrop_map_select(self, NO_ID if id is None else id)

    @property
    def selected(self) -> Optional[int]:
        out = c_int64()
        lib.pindrop_map_selected(self, byref(out))
        return None if out.value == NO_ID else out.value

    # -- callouts ---------------------------------------------------------------------------------
    def set_title(self, id: int, title: Optional[str]) -> None:
        lib.pindrop_map_set_title(self, id, None if title is None else title.encode("utf-8"))

    def answer_geocode(self, request: int, subtitle: str) -> bool:
        """True if shown, False if refused as stale."""
        return lib.pindrop_map_answer_geocode(self, request, subtitle.encode("utf-8")) == 0

    def callout(self, id: int, which: int = SUBTITLE) -> str:
        n = c_size_t()
        lib.pindrop_map_callout(self, id, which, None, 0, byref(n))
        buf = ctypes.create_string_buffer(n.value + 1)
        lib.pindrop_map_callout(self, id, which, buf, n.value + 1, byref(n))
        return buf.raw[:n.value].decode("utf-8")

    def title(self, id: int) -> str:
        return self.callout(id, TITLE)

    def subtitle(self, id: int) -> str:
        return self.callout(id, SUBTITLE)

    # -- area, history ----------------------------------------------------------------------------
    def set_allowed_area(self, wkt_or_geojson: Optional[str]) -> None:
        lib.pindrop_map_set_allowed_area(self, None if wkt_or_geojson is None else wkt_or_geojson.encode("utf-8"))

    def undo(self, time_ms: float) -> None:
        lib.pindrop_map_undo(self, time_ms)

    def redo(self, time_ms: float) -> None:
        lib.pindrop_map_redo(self, time_ms)


def spread(lonlat, tolerance_m: float = 0.0):
    """Drawn positions (n×2 float64 array) of points after the spreading rule."""
    np = _np()
    src = np.ascontiguousarray(lonlat, dtype=np.float64).reshape(-1, 2)
    out = np.empty_like(src)
    lib.pindrop_spread(src.ctypes.data, src.shape[0], tolerance_m, out.ctypes.data)
    return out
