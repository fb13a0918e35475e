"""pindrop: placement, drag and spreading of map pins, through the C library libpindrop.so.

    import pindrop
    with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:      # mouse: drag at once
        m.set_camera(-118.35, 33.9, zoom=18, width=800, height=600)
        m.add(1, -118.35, 33.9)
        print(m.hit_test(400, 300))                             # 1

The host draws the map and the pins and feeds touches in (`Map.touch`, `Map.tick`); pindrop
decides what they mean and reports what happened as `Event`s (`Map.events`), and what to draw with
`Map.frame` and `Map.clusters`.

Conventions: coordinates are always (lon, lat) in WGS84 degrees; arrays of them are (n, 2).
Screen points have their origin top-left, x right, y down. Times are milliseconds on any clock
that never goes back: a call with an earlier time than the map was last given fails. Ids are
int64 chosen by the host; `NO_ID` names no pin. Distances on the ground are metres on the Web
Mercator sphere (radius 6378137 m).

Errors: input that Python can judge is refused before the library sees it (`TypeError`,
`ValueError`, `OverflowError`, naming the argument and what to pass); what the library refuses
raises a `PindropError` subclass whose message is the map's last error. A call that fails changes
nothing. Python's refusals of values are `InvalidArgument` too (a `ValueError`, status -1; an
integer outside its C type's range is one that is also an `OverflowError`), so one
``except pindrop.InvalidArgument`` catches both. Using a closed map raises
``InvalidArgument("operation on a closed Map")``.

GIS objects: every call that takes points also takes shapely points (alone or in arrays), a
GeoPandas GeoSeries or GeoDataFrame of points in EPSG:4326, anything with ``__geo_interface__``
and GeoJSON or WKT text; `Map.set_allowed_area` takes polygons the same ways. `pindrop.geo`
spreads a GeoDataFrame into the points to draw and their legs. shapely and GeoPandas are
optional.

Mouse hosts: send `TouchPhase.MOVE` only while the button is down; a move without a press is
hover, which pindrop does not track.
"""
from __future__ import annotations

import ctypes
import numbers
import weakref
from ctypes import byref, c_double, c_int64, c_size_t, c_void_p
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Tuple, Union, overload

import numpy as np

from . import _check, _ffi, _geo
from ._constants import (Callout, Cause, ClusterFlag, EventType, OutsidePolicy, PinFlag, SpreadMode,
                         TouchPhase)
from ._ffi import (NO_ID, DuplicateId, GeosError, InvalidArgument, NoMemory, NotFound, ParseError,
                   PindropError, StateError, lib)
from ._spread import SpreadResult
from ._ffi import backend  # "native" (libpindrop.so) or "wasm" (pindrop.wasm through wasmtime)
from ._views import CameraInverse, Clusters, ClusterView, Frame, PinView, pointwise

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import NDArray

    Phase = Union[TouchPhase, int, Literal["down", "move", "up", "cancel"]]
    SpreadModeLike = Union[SpreadMode, int, Literal["off", "ring", "spiral"]]
    OutsidePolicyLike = Union[OutsidePolicy, int, Literal["revert", "snap"]]
    CalloutLike = Union[Callout, int, Literal["title", "subtitle"]]

__all__ = ["Map", "Options", "Event", "PinView", "ClusterView", "Frame", "Clusters", "SpreadResult",
           "spread", "version", "__version__", "NO_ID",
           "PindropError", "InvalidArgument", "NotFound", "DuplicateId", "ParseError", "StateError",
           "GeosError", "NoMemory",
           "SpreadMode", "OutsidePolicy", "TouchPhase", "PinFlag", "ClusterFlag", "EventType", "Cause",
           "Callout", "PIN_VIEW_DTYPE", "CLUSTER_VIEW_DTYPE",
           "SPREAD_OFF", "SPREAD_RING", "SPREAD_SPIRAL", "OUTSIDE_REVERT", "OUTSIDE_SNAP",
           "PIN_SELECTED", "PIN_EDITING", "PIN_DRAGGING", "PIN_SPREAD", "PIN_INVALID",
           "TOUCH_DOWN", "TOUCH_MOVE", "TOUCH_UP", "TOUCH_CANCEL", "TITLE", "SUBTITLE",
           "Focus", "PIN_FOCUSED", "PIN_ANIMATING", "FOCUS_NONE", "FOCUS_PIN", "FOCUS_CLUSTER", "distance",
           "ClusterSummary", "CLUSTER_ONE_SPOT", "CLUSTER_STACK", "CATEGORY_MIXED", "CATEGORY_COUNT_DTYPE"]

# The constants of the C API under their C names (PINDROP_SPREAD_RING is SPREAD_RING), as enum members.
SPREAD_OFF, SPREAD_RING, SPREAD_SPIRAL = SpreadMode.OFF, SpreadMode.RING, SpreadMode.SPIRAL
OUTSIDE_REVERT, OUTSIDE_SNAP = OutsidePolicy.REVERT, OutsidePolicy.SNAP
PIN_SELECTED, PIN_EDITING, PIN_DRAGGING = PinFlag.SELECTED, PinFlag.EDITING, PinFlag.DRAGGING
PIN_SPREAD, PIN_INVALID = PinFlag.SPREAD, PinFlag.INVALID
TOUCH_DOWN, TOUCH_MOVE, TOUCH_UP, TOUCH_CANCEL = TouchPhase.DOWN, TouchPhase.MOVE, TouchPhase.UP, TouchPhase.CANCEL
TITLE, SUBTITLE = Callout.TITLE, Callout.SUBTITLE
PIN_FOCUSED = PinFlag.FOCUSED  # since 0.3.0: has the keyboard focus
PIN_ANIMATING = PinFlag.ANIMATING  # since 0.3.0: still animating: keep drawing frames
FOCUS_NONE, FOCUS_PIN, FOCUS_CLUSTER = 0, 1, 2  # since 0.3.0: pindrop_focus.kind (Focus.kind names them)
CLUSTER_ONE_SPOT, CLUSTER_STACK = ClusterFlag.ONE_SPOT, ClusterFlag.STACK  # since 0.3.0
CATEGORY_MIXED: int = _ffi.CATEGORY_MIXED  # a summary's category when its members' categories differ
#: The names of the event types and causes, by value.
EVENT_TYPES = [e.name for e in EventType]
CAUSES = [c.name for c in Cause]

#: Touch phases by name, for ``Map.touch(pointer, "down", x, y, t)``.
PHASES = {p.name.lower(): p for p in TouchPhase}

#: The NumPy dtype of a frame's records (`Map.frame` with ``array=True``, `Frame.array`): id,
#: x, y, anchor_x, anchor_y, lift, flags, with the C struct's exact layout.
PIN_VIEW_DTYPE: "np.dtype[Any]" = np.dtype(_ffi.PinView)
#: The NumPy dtype of `Map.clusters` records: key, x, y, lon, lat, count, flags.
CLUSTER_VIEW_DTYPE: "np.dtype[Any]" = np.dtype(_ffi.ClusterView)

#: What the coordinates arguments accept: an (n, 2) array of (lon, lat), shapely points,
#: a GeoSeries or GeoDataFrame, ``__geo_interface__``, GeoJSON or WKT text.
Coordinates = Any
#: One point: a shapely Point, ``__geo_interface__``, GeoJSON or WKT text, or a (lon, lat) pair.
PointLike = Any
#: An allowed area: WKT or GeoJSON text, shapely (Multi)Polygons, a GeoSeries, a GeoJSON mapping.
AreaLike = Any


def version() -> str:
    """The version ("MAJOR.MINOR.PATCH") of the libpindrop.so actually loaded."""
    return str(lib.pindrop_version().decode())


#: The version of the library loaded (the package and the library are released together).
__version__ = version()


#: The C integer type of each integer field of pindrop_options, by name: `Options` checks every
#: integer against its range, since ctypes would store 2**32 + 5 in a uint32 field as 5.
_C_INTEGER_FIELDS = {field[0]: {ctypes.c_uint32: "uint32", ctypes.c_int32: "int32"}[field[1]]
                     for field in _ffi.Options._fields_
                     if field[1] in (ctypes.c_uint32, ctypes.c_int32)}


@dataclass(frozen=True)
class Options:
    """The options of a map, with the documented defaults; immutable (a map's options are fixed
    when it is created: make a new map to change them, `Options.replace` makes the new options).

    Distances on screen are in points, times in milliseconds, distances on the ground in metres.
    A touch screen keeps the defaults; a mouse host usually sets ``lift_delay_ms=0`` (drag at once)
    and ``lift_height=0`` (the pin stays under the pointer). `spread_mode` and `outside_policy`
    take their enum, its value or its name (``spread_mode="spiral"``).
    """
    hit_radius: float = 22.0          #: a touch within this many points of a pin touches it
    drag_threshold: float = 5.0       #: movement (points) before a pressed pin follows / a press pans
    lift_delay_ms: float = 250.0      #: hold this long to lift a pin; 0 = mouse: drag at once
    lift_height: float = 40.0         #: a lifted pin marks a point this far above the finger
    lift_duration_ms: float = 200.0   #: lift animation
    drop_duration_ms: float = 250.0   #: drop animation (ends with a small bounce)
    tap_max_ms: float = 250.0         #: longest press that still counts as a tap
    double_tap_ms: float = 300.0      #: a second tap within this time is a double tap (never moves)
    double_tap_slop: float = 40.0     #: ... and within this many points
    autopan_margin: float = 40.0      #: dragging this close to the edge asks the host to pan; 0 = off
    autopan_speed: float = 600.0      #: points per second at the very edge
    min_spacing_m: float = 0.0        #: NEARBY events for moves closer than this to another pin; 0 = off
    spread_mode: SpreadMode = SpreadMode.RING  #: pins sharing a spot: RING (metres), SPIRAL (points), OFF
    spread_tolerance_m: float = 0.0   #: pins this close to a group's first pin join its group
    outside_policy: OutsidePolicy = OutsidePolicy.REVERT  #: a drop outside the allowed area: REVERT / SNAP
    cluster_radius: float = 0.0       #: pins drawn this close (points) form a cluster; 0 = off
    cluster_max_zoom: float = 17.0    #: clusters only below this zoom, in [0, 30]
    spread_spacing: float = 25.0      #: points between pins of a SpreadMode.SPIRAL layout
    cluster_min_points: int = 2       #: fewest pins a cluster may hold (>= 2; supercluster's minPoints)
    cluster_by_category: bool = False  #: cluster only pins of one category together
    spread_on_tap: bool = False       #: groups drawn collapsed (ClusterFlag.STACK) until tapped open

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "spread_mode":
                value = _check.enum(SpreadMode, value, "spread_mode")
            elif f.name == "outside_policy":
                value = _check.enum(OutsidePolicy, value, "outside_policy")
            elif isinstance(f.default, float):
                value = _check.real(value, f.name)
            elif isinstance(f.default, bool):
                value = _check.flag(value, f.name)
            elif isinstance(f.default, int):
                value = _check.fits(_check.integer(value, f.name), f.name, _C_INTEGER_FIELDS[f.name],
                                    " (the C options field it is passed as)")
            object.__setattr__(self, f.name, value)

    def replace(self, **changes: Any) -> "Options":
        """These options with some fields changed: ``options.replace(hit_radius=30)``."""
        names = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise TypeError(f"Options has no field {', '.join(unknown)}")
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return Options(**values)

    def _to_c(self) -> _ffi.Options:
        c = _ffi.Options()
        status = lib.pindrop_options_init(byref(c), ctypes.sizeof(c))
        if status != 0:
            raise InvalidArgument(status, _ffi.last_error(), "pindrop_options_init")
        for f in fields(self):
            value = getattr(self, f.name)
            setattr(c, f.name, int(value) if isinstance(value, bool) else value)
        return c


#: Which fields each event type fills (the others are None). Types not listed keep every field.
_EVENT_FIELDS = {
    "SELECTED": ("id",), "DESELECTED": ("id",),
    "LIFTED": ("id", "lon", "lat"), "DRAGGED": ("id", "lon", "lat"), "DROPPED": ("id", "lon", "lat"),
    "DRAG_CANCELLED": ("id", "lon", "lat"), "CALLOUT_CHANGED": ("id", "lon", "lat"),
    "MOVED": ("id", "lon", "lat", "from_lon", "from_lat", "cause"),
    "GEOCODE_REQUEST": ("id", "lon", "lat", "request"),
    "NEARBY": ("id", "other", "lon", "lat", "distance_m"),
    "AUTOPAN": ("id", "dx", "dy"),
    "CLUSTER_TAPPED": ("lon", "lat", "request"),
    "STACK_OPENED": ("lon", "lat", "request"), "STACK_CLOSED": ("lon", "lat", "request"),
}
_OPTIONAL_EVENT_FIELDS = ("id", "other", "lon", "lat", "from_lon", "from_lat", "dx", "dy", "distance_m",
                          "request", "cause")


@dataclass(frozen=True)
class Event:
    """One event. `type` is an `EventType` and `cause` a `Cause` (both also equal their names:
    ``e.type == "MOVED"``); the fields an event type does not fill are None:

    - SELECTED, DESELECTED: `id`
    - LIFTED, DROPPED, CALLOUT_CHANGED: `id` and its `lon, lat`
    - DRAGGED: `id`, `lon, lat` where it would land now; DRAG_CANCELLED: the restored `lon, lat`
    - MOVED: the new true `lon, lat`, `from_lon, from_lat`, and `cause` (DRAG, TAP, PLACE, UNDO,
      REDO, SNAP, NUDGE, KEYBOARD): the host saves it
    - GEOCODE_REQUEST: `id`, `lon, lat` to reverse-geocode, `request` to answer with
      (`Map.answer_geocode`)
    - NEARBY: `id` moved within min_spacing_m of `other`, at `distance_m`
    - AUTOPAN: `dx, dy`: screen points to move the camera by (`id`: the dragged pin)
    - CLUSTER_TAPPED: `request` is the cluster's key, `lon, lat` its point
    - STACK_OPENED, STACK_CLOSED: `request` is the stack's key, `lon, lat` the group's centre

    `time_ms` is the time of the call that produced it.
    """
    type: EventType
    cause: Optional[Cause]
    id: Optional[int]
    other: Optional[int]
    lon: Optional[float]
    lat: Optional[float]
    from_lon: Optional[float]
    from_lat: Optional[float]
    dx: Optional[float]
    dy: Optional[float]
    distance_m: Optional[float]
    time_ms: float
    request: Optional[int]

    def __post_init__(self) -> None:
        t, c = self.type, self.cause
        if isinstance(t, str) and t in EventType.__members__:
            object.__setattr__(self, "type", EventType[t])
        elif isinstance(t, int) and not isinstance(t, EventType) and t in EventType._value2member_map_:
            object.__setattr__(self, "type", EventType(t))
        if isinstance(c, str) and c in Cause.__members__:
            object.__setattr__(self, "cause", Cause[c])

    @classmethod
    def _from_c(cls, e: _ffi.Event) -> "Event":
        kind: Any = EventType(e.type) if e.type in EventType._value2member_map_ else e.type
        values = {"cause": Cause(e.cause) if e.cause in Cause._value2member_map_ else e.cause,
                  "id": e.id, "other": e.other, "lon": e.lon, "lat": e.lat, "from_lon": e.from_lon,
                  "from_lat": e.from_lat, "dx": e.dx, "dy": e.dy, "distance_m": e.distance_m,
                  "request": e.request}
        filled = _EVENT_FIELDS.get(getattr(kind, "name", ""))
        for name in _OPTIONAL_EVENT_FIELDS:
            if (filled is not None and name not in filled) or (name in ("id", "other") and values[name] == NO_ID):
                values[name] = None
        return cls(kind, time_ms=e.time_ms, **values)

    def __str__(self) -> str:
        head = f"{self.time_ms:8.1f} ms  {self.type!s:<15} id={self.id}"
        if self.type in ("DRAGGED", "DRAG_CANCELLED", "GEOCODE_REQUEST", "CLUSTER_TAPPED"):
            head += f"  ({self.lon:.7f}, {self.lat:.7f})"
        if self.type in ("GEOCODE_REQUEST", "CLUSTER_TAPPED"):
            head += f"  request={self.request}"
        if self.type == "MOVED":
            head += (f"  ({self.from_lon:.7f}, {self.from_lat:.7f}) -> ({self.lon:.7f}, {self.lat:.7f})"
                     f"  cause={self.cause}")
        if self.type == "NEARBY":
            head += f"  other={self.other} at {self.distance_m:.2f} m"
        if self.type == "AUTOPAN":
            head += f"  dx={self.dx:.1f} dy={self.dy:.1f}"
        return head


@dataclass(frozen=True)
class Focus:
    """What has the keyboard focus (pindrop_focus): `kind` "none", "pin" or "cluster"; `id` the
    pin (None unless a pin), `key` the cluster's key (None unless a cluster), (x, y) its drawn
    screen point in the last frame. Since 0.3.0."""
    kind: str
    id: Optional[int]
    key: Optional[int]
    x: float
    y: float

    KINDS = ("none", "pin", "cluster")

    @classmethod
    def _from_c(cls, f: "_ffi.Focus") -> "Focus":
        kind = cls.KINDS[f.kind] if 0 <= f.kind < len(cls.KINDS) else str(f.kind)
        return cls(kind, f.id if kind == "pin" else None, f.key if kind == "cluster" else None, f.x, f.y)


@dataclass(frozen=True)
class ClusterSummary:
    """What a cluster holds (`Map.cluster_summary`): its pin `count`, how many have a value
    (`valued`), the sum, minimum and maximum of those values (NaN when none has one), the pins'
    common `category` or `CATEGORY_MIXED`, and `flags` (`CLUSTER_ONE_SPOT` when all its pins share
    one point: zooming in will not separate them)."""
    count: int
    valued: int
    category: int
    flags: int
    value_sum: float
    value_min: float
    value_max: float

    @property
    def value_mean(self) -> float:
        """The mean of the values (NaN when no pin has one)."""
        return self.value_sum / self.valued if self.valued else float("nan")

    @property
    def mixed(self) -> bool:
        """The members' categories differ (`category` is `CATEGORY_MIXED`)."""
        return self.category == CATEGORY_MIXED

    @property
    def one_spot(self) -> bool:
        """Every member shares one point: zooming in cannot separate them."""
        return bool(self.flags & ClusterFlag.ONE_SPOT)


#: The dtype of `Map.cluster_categories`: one row per category, most pins first.
CATEGORY_COUNT_DTYPE: "np.dtype[Any]" = np.dtype([("category", "<u4"), ("count", "<u4")])

ProjectFn = Callable[[float, float], Tuple[float, float]]

#: The camera of a new map, as pindrop.h gives it (pindrop_map_create): Web Mercator at (0, 0),
#: zoom 0, bearing 0, 256 x 256 points; as `Map._camera` holds it: (lon, lat, zoom, bearing, w, h).
_NEW_MAP_CAMERA: Tuple[float, float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 256.0, 256.0)


class _Ids:
    """The ids of a map's pins, kept beside it (the C API has no call that lists them): a sorted
    array plus what changed since it was last sorted. Every call that adds or removes pins tells
    it; `Map.ids` checks its count against the library's."""

    def __init__(self) -> None:
        self.base = np.empty(0, dtype=np.int64)
        self.parts: List["NDArray[np.int64]"] = []
        self.added: set[int] = set()
        self.removed: set[int] = set()

    def add(self, i: int) -> None:
        self.removed.discard(i)
        self.added.add(i)

    def add_many(self, ids: "NDArray[np.int64]") -> None:
        if self.removed:
            self.removed.difference_update(ids.tolist())
        self.parts.append(ids.copy())

    def remove(self, i: int) -> None:
        self.added.discard(i)
        self.removed.add(i)

    def sorted(self) -> "NDArray[np.int64]":
        if self.parts or self.added or self.removed:
            every = np.concatenate([self.base, *self.parts, np.fromiter(self.added, dtype=np.int64, count=len(self.added))])
            every = np.unique(every)
            if self.removed:
                every = every[~np.isin(every, np.fromiter(self.removed, dtype=np.int64, count=len(self.removed)))]
            self.base, self.parts, self.added, self.removed = every, [], set(), set()
        return self.base

    def __contains__(self, i: int) -> bool:
        if i in self.removed:
            return False
        if i in self.added:
            return True
        if self.parts:
            self.sorted()
        k = int(np.searchsorted(self.base, i))
        return k < self.base.size and int(self.base[k]) == i


class Map:
    """A pindrop map: pins, a view, gestures, events.

    ``Map()``, ``Map(options)`` or ``Map(hit_radius=30, lift_delay_ms=0, ...)`` (the `Options`
    fields as keywords). Use it as a context manager or call `close`; a map that is
    garbage-collected is destroyed too. One thread at a time per map. A map is always truthy;
    ``len(m)`` is its number of pins and ``id in m`` tells whether a pin exists.
    """

    def __init__(self, options: Optional[Options] = None, *, hit_radius: float = 22.0,
                 drag_threshold: float = 5.0, lift_delay_ms: float = 250.0, lift_height: float = 40.0,
                 lift_duration_ms: float = 200.0, drop_duration_ms: float = 250.0, tap_max_ms: float = 250.0,
                 double_tap_ms: float = 300.0, double_tap_slop: float = 40.0, autopan_margin: float = 40.0,
                 autopan_speed: float = 600.0, min_spacing_m: float = 0.0,
                 spread_mode: "SpreadModeLike" = SpreadMode.RING, spread_tolerance_m: float = 0.0,
                 outside_policy: "OutsidePolicyLike" = OutsidePolicy.REVERT, cluster_radius: float = 0.0,
                 cluster_max_zoom: float = 17.0, spread_spacing: float = 25.0, cluster_min_points: int = 2,
                 cluster_by_category: bool = False, spread_on_tap: bool = False):
        self._handle = c_void_p()
        keywords = {k: v for k, v in locals().items() if k not in ("self", "options")}
        if options is None:
            options = Options(**keywords)
        else:
            if not isinstance(options, Options):
                raise TypeError(f"options must be a pindrop.Options (or pass the fields as keywords: "
                                f"Map(hit_radius=30)), not {type(options).__name__}")
            defaults = Options()
            given = sorted(k for k, v in keywords.items() if v != getattr(defaults, k))
            if given:
                raise TypeError(f"pass either an Options or option keywords, not both ({', '.join(given)})")
        handle = c_void_p()
        c = options._to_c()
        status = lib.pindrop_map_create(byref(c), byref(handle))
        if status != 0:  # no map: the calling thread's last error says what was refused
            raise _ffi._EXCEPTIONS.get(status, PindropError)(status, _ffi.last_error(), "pindrop_map_create")
        self._options = options
        self._handle = handle
        # The map's view, as Python must know it to turn a frame's screen points into (lon, lat)
        # (the C API has no call that reads the camera back): the camera the library has, or
        # None while the host's projection is used, whose callbacks are then kept alive here. Only
        # set_camera and set_projection change the view (the library never moves it itself: on
        # AUTOPAN the host moves its camera and calls set_camera), and they change these only
        # after the library accepted the new view.
        self._callbacks: Optional[Tuple[Any, Any, ProjectFn, ProjectFn]] = None
        self._camera: Optional[Tuple[float, float, float, float, float, float]] = _NEW_MAP_CAMERA
        self._now: Optional[float] = None
        self._ids = _Ids()
        self._session: Optional[Tuple[int, bool]] = None  # (id, placed) being placed or edited
        self._finalizer = weakref.finalize(self, lib.pindrop_map_destroy, handle)

    # -- lifetime ---------------------------------------------------------------------------------
    @property
    def _as_parameter_(self) -> c_void_p:
        return self._handle

    def close(self) -> None:
        """Destroys the map now (idempotent; also done when it is garbage-collected)."""
        self._finalizer()
        self._handle = c_void_p()
        self._callbacks = None

    @property
    def closed(self) -> bool:
        """Whether `close` was called."""
        return not self._handle

    def __enter__(self) -> "Map":
        _check.open_handle(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<pindrop.Map closed>" if self.closed else f"<pindrop.Map with {len(self)} pins>"

    def __bool__(self) -> bool:
        return True

    @property
    def options(self) -> Options:
        """The options the map was created with (read-only: the library fixes them at creation)."""
        return self._options

    @property
    def last_error(self) -> str:
        """The message of the last failed call on this map ("" if none)."""
        return str(lib.pindrop_map_last_error(_check.open_handle(self)).decode("utf-8", "replace"))

    @property
    def time_ms(self) -> Optional[float]:
        """The latest time given to the map (ms), or None before any: `frame` and `clusters` draw
        at it when called without a time."""
        _check.open_handle(self)
        return self._now

    def _note_time(self, t: float) -> None:
        """Records a time the library accepted (call after the call succeeded)."""
        if self._now is None or t > self._now:
            self._now = t

    def _time_or_now(self, time_ms: Optional[float]) -> float:
        if time_ms is None:
            return 0.0 if self._now is None else self._now
        return _check.time(time_ms)

    # -- view -------------------------------------------------------------------------------------
    def set_camera(self, center_lon: float, center_lat: float, zoom: float, width: float, height: float,
                   bearing_deg: float = 0.0) -> None:
        """Uses the built-in Web Mercator camera (256-point tiles: the world is 256 * 2**zoom points
        wide) centred on (lon, lat), with a viewport of width x height points, rotated clockwise by
        bearing_deg degrees."""
        h = _check.open_handle(self)
        cam = (_check.real(center_lon, "center_lon"), _check.real(center_lat, "center_lat"),
               _check.real(zoom, "zoom"), _check.real(bearing_deg, "bearing_deg"),
               _check.real(width, "width"), _check.real(height, "height"))
        lib.pindrop_map_set_camera(h, byref(_ffi.Camera(*cam)))
        self._camera = cam
        self._callbacks = None

    def set_projection(self, project: ProjectFn, unproject: ProjectFn, width: float, height: float) -> None:
        """Uses the host's projection: ``project(lon, lat) -> (x, y)``, ``unproject(x, y) -> (lon, lat)``.

        Any CRS works, as long as both map screen points to WGS84 and back. An exception inside a
        callback counts as a failure of that callback (the query that needed it fails; a pin it
        cannot place is treated as off-screen). The callbacks are kept alive by the map.
        """
        h = _check.open_handle(self)
        if not callable(project) or not callable(unproject):
            raise TypeError("project and unproject must be callables: project(lon, lat) -> (x, y), "
                            "unproject(x, y) -> (lon, lat)")
        w, ht = _check.real(width, "width"), _check.real(height, "height")

        def _p(user: Any, lon: float, lat: float, x: Any, y: Any) -> int:
            try:
                x[0], y[0] = project(lon, lat)
                return 0
            except Exception:
                return 1

        def _u(user: Any, x: float, y: float, lon: Any, lat: Any) -> int:
            try:
                lon[0], lat[0] = unproject(x, y)
                return 0
            except Exception:
                return 1
        callbacks = (_ffi.PROJECT_FN(_p), _ffi.UNPROJECT_FN(_u))
        lib.pindrop_map_set_projection(h, callbacks[0], callbacks[1], None, w, ht)
        self._callbacks = (callbacks[0], callbacks[1], project, unproject)
        self._camera = None

    def to_screen(self, lon: float, lat: float) -> Tuple[float, float]:
        """Screen point (x, y) of (lon, lat) through the current view."""
        h = _check.open_handle(self)
        x, y = c_double(), c_double()
        lib.pindrop_map_to_screen(h, _check.real(lon, "lon"), _check.real(lat, "lat"), byref(x), byref(y))
        return x.value, y.value

    def to_lonlat(self, x: float, y: float) -> Tuple[float, float]:
        """(lon, lat) of screen point (x, y) through the current view."""
        h = _check.open_handle(self)
        lon, lat = c_double(), c_double()
        lib.pindrop_map_to_lonlat(h, _check.real(x, "x"), _check.real(y, "y"), byref(lon), byref(lat))
        return lon.value, lat.value

    # -- pins -------------------------------------------------------------------------------------
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
        if total == 0 and self.last_error:
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

    @overload
    def clusters(self, time_ms: Optional[float] = None, array: "Literal[False]" = False) -> Clusters: ...
    @overload
    def clusters(self, time_ms: Optional[float] = None, *, array: "Literal[True]") -> "NDArray[Any]": ...
    @overload
    def clusters(self, time_ms: Optional[float], array: "Literal[True]") -> "NDArray[Any]": ...

    def clusters(self, time_ms: Optional[float] = None, array: bool = False) -> Union[Clusters, "NDArray[Any]"]:
        """The clusters to draw at time_ms (inside the viewport grown by cluster_radius), at the
        map's latest time without one: empty when clustering is off or the zoom is at or above
        cluster_max_zoom. A `Clusters` sequence of `ClusterView` (columns as arrays), or with
        ``array=True`` the structured array (dtype `CLUSTER_VIEW_DTYPE`)."""
        h = _check.open_handle(self)
        t = self._time_or_now(time_ms)
        a = self._fill(h, "_cluster_buf", lib.pindrop_map_frame_clusters, t, CLUSTER_VIEW_DTYPE,
                       "pindrop_map_frame_clusters")
        self._note_time(t)
        return a if array else Clusters(a)

    def cluster_members(self, key: int, offset: int = 0, limit: Optional[int] = None) -> "NDArray[np.int64]":
        """The ids of a cluster's (or a stack's) pins in ascending order (an int64 array), from
        `offset` on, at most `limit` of them (all when None): a page, as supercluster's getLeaves.
        NotFound for an unknown or stale key (a key goes stale once its cluster's pins change)."""
        h = _check.open_handle(self)
        k = _check.key(key)
        first = _check.count(offset, "offset")
        most = None if limit is None else _check.count(limit, "limit")
        total = lib.pindrop_map_cluster_members_from(h, k, first, None, 0)
        if total == 0:
            _ffi.raise_for(-2, h, "pindrop_map_cluster_members_from")
        n = max(0, total - first) if most is None else max(0, min(most, total - first))
        out = np.empty(n, dtype=np.int64)
        if n:
            lib.pindrop_map_cluster_members_from(h, k, first, out.ctypes.data, n)
        return out

    def set_attributes(self, ids: Any, values: Any = None, categories: Any = None) -> None:
        """Sets the pins' values (float64, e.g. a trunk diameter; NaN = none) and/or categories
        (uint32, e.g. a species code; any but `CATEGORY_MIXED`); None leaves that attribute as it
        is. Arrays as long as `ids`, or one scalar for every id. All-or-nothing: NotFound for an
        unknown id, InvalidArgument for an infinite value, and nothing changes. Clusters'
        summaries follow at once (`cluster_summary`, `cluster_categories`)."""
        h = _check.open_handle(self)
        idv = _check.ids_array(ids)
        n = len(idv)
        def per_pin(a: Any) -> Any:  # one scalar for every id
            return [a] * n if not isinstance(a, (str, bytes)) and np.ndim(a) == 0 else a
        v = None if values is None else _check.floats(per_pin(values), "values", n)
        c = None if categories is None else _check.uint32s(per_pin(categories), "categories", n)
        lib.pindrop_map_set_attributes(h, idv.ctypes.data, None if v is None else v.ctypes.data,
                                       None if c is None else c.ctypes.data, n)

    def cluster_summary(self, key: int) -> ClusterSummary:
        """What a cluster holds (a `ClusterSummary`). NotFound for an unknown or stale key."""
        h = _check.open_handle(self)
        out = _ffi.ClusterSummary()
        lib.pindrop_map_cluster_summary(h, _check.key(key), byref(out))
        return ClusterSummary(out.count, out.valued, out.category, out.flags, out.value_sum, out.value_min,
                              out.value_max)

    @overload
    def cluster_categories(self, key: int, as_dict: "Literal[False]" = False) -> "NDArray[Any]": ...
    @overload
    def cluster_categories(self, key: int, as_dict: "Literal[True]") -> "dict[int, int]": ...

    def cluster_categories(self, key: int, as_dict: bool = False) -> "Union[NDArray[Any], dict[int, int]]":
        """A cluster's categories with their pin counts, most pins first, ties by lower category:
        a NumPy structured array (dtype `CATEGORY_COUNT_DTYPE`: fields ``category`` and ``count``),
        or with ``as_dict=True`` a dict {category: count} in that order. NotFound for an unknown or
        stale key."""
        h = _check.open_handle(self)
        k = _check.key(key)
        total = lib.pindrop_map_cluster_categories(h, k, None, None, 0)
        if total == 0:
            _ffi.raise_for(-2, h, "pindrop_map_cluster_categories")
        cats = np.empty(total, dtype=np.uint32)
        counts = np.empty(total, dtype=np.uint32)
        total = lib.pindrop_map_cluster_categories(h, k, cats.ctypes.data, counts.ctypes.data, total)
        if as_dict:
            return {int(c): int(n) for c, n in zip(cats[:total], counts[:total])}
        out = np.empty(total, dtype=CATEGORY_COUNT_DTYPE)
        out["category"] = cats[:total]
        out["count"] = counts[:total]
        return out

    def cluster_expansion_zoom(self, key: int) -> float:
        """The lowest zoom at which the cluster's pins are no longer one cluster (at most
        cluster_max_zoom): where a tap on it should take the camera."""
        h = _check.open_handle(self)
        z = c_double()
        lib.pindrop_map_cluster_expansion_zoom(h, _check.key(key), byref(z))
        return z.value

    # -- input ------------------------------------------------------------------------------------
    def touch(self, pointer: int, phase: "Phase", x: float, y: float, time_ms: float) -> bool:
        """Feeds one touch or mouse event: `phase` a `TouchPhase` or its name ("down", "move",
        "up", "cancel"). A mouse host sends "move" only while the button is down. True when
        pindrop owns the gesture (the host must not pan or zoom with it), False when the host's map
        should handle it."""
        h = _check.open_handle(self)
        p = _check.fits(_check.integer(pointer, "pointer"), "pointer", "int32")
        ph = _check.enum(TouchPhase, phase, "phase")
        t = _check.time(time_ms)
        r = lib.pindrop_map_touch(h, p, ph, _check.real(x, "x"), _check.real(y, "y"), t)
        if r < 0:
            _ffi.raise_for(r, h, "pindrop_map_touch")
        self._note_time(t)
        return bool(r == 1)

    def tick(self, time_ms: float) -> None:
        """Resolves the timeouts due at time_ms (lift delay, double-tap window, auto-pan)."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_tick(h, t)
        self._note_time(t)

    @property
    def next_deadline(self) -> float:
        """When the next tick is due (ms), math.inf when nothing is pending."""
        return float(lib.pindrop_map_next_deadline(_check.open_handle(self)))

    def advance(self, time_ms: float) -> None:
        """Ticks at every deadline up to time_ms, then at time_ms: what a host's timer would do."""
        t = _check.time(time_ms)
        deadline = self.next_deadline
        while deadline <= t:
            self.tick(deadline)
            following = self.next_deadline
            if following <= deadline:  # a deadline that does not move on is due again at time_ms
                break
            deadline = following
        self.tick(t)

    def cancel_gesture(self, time_ms: float) -> None:
        """Cancels the gesture in progress (the Esc key): a lifted pin goes back, nothing is saved."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_cancel_gesture(h, t)
        self._note_time(t)

    def poll_event(self) -> Optional[Event]:
        """The oldest pending event, or None."""
        h = _check.open_handle(self)
        e = _ffi.Event()
        return Event._from_c(e) if lib.pindrop_map_poll_event(h, byref(e)) == 1 else None

    def events(self) -> Iterator[Event]:
        """Drains the pending events, oldest first."""
        _check.open_handle(self)

        def drain() -> Iterator[Event]:
            while (e := self.poll_event()) is not None:
                yield e
        return drain()

    # -- editing ----------------------------------------------------------------------------------
    @overload
    def place(self, id: int, lon: float, lat: float, time_ms: float) -> None: ...
    @overload
    def place(self, id: int, lon: "PointLike", *, time_ms: float) -> None: ...
    @overload
    def place(self, id: int, lon: "PointLike", lat: float) -> None: ...

    def place(self, id: int, lon: Any, lat: Optional[float] = None, time_ms: Optional[float] = None) -> None:
        """Adds pin `id` at (lon, lat) and starts editing it: taps on the map move it until
        `commit` / `cancel_edit`. The point may be one object: ``place(7, point, time_ms=t)`` (or
        ``place(7, point, t)``)."""
        h = _check.open_handle(self)
        i = _check.pin_id(id)
        if time_ms is None:
            if lat is None or not _geo.is_point_like(lon):
                raise TypeError("place needs the pin's point (lon, lat or one point object) and time_ms")
            time_ms, lat = lat, None
        x, y = self._lonlat_args(lon, lat)
        t = _check.time(time_ms)
        lib.pindrop_map_place(h, i, x, y, t)
        self._note_time(t)
        self._ids.add(i)
        self._session = (i, True)

    def edit(self, id: int, time_ms: float) -> None:
        """Starts editing an existing pin (tap-to-move applies to it); an edit or placement in
        progress is committed first."""
        h = _check.open_handle(self)
        i, t = _check.pin_id(id), _check.time(time_ms)
        lib.pindrop_map_edit(h, i, t)
        self._note_time(t)
        if self._session is None or self._session[0] != i:
            self._session = (i, False)

    def commit(self, time_ms: float) -> None:
        """Ends the edit, keeping the pin where it is. StateError when nothing is edited."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_commit(h, t)
        self._note_time(t)
        self._session = None

    def cancel_edit(self, time_ms: float) -> None:
        """Ends the edit: removes a placed pin, restores an edited one."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_cancel_edit(h, t)
        self._note_time(t)
        if self._session is not None and self._session[1]:
            self._ids.remove(self._session[0])
        self._session = None

    def select(self, id: Optional[int]) -> None:
        """Selects a pin (None: no pin), emitting SELECTED / DESELECTED."""
        h = _check.open_handle(self)
        lib.pindrop_map_select(h, _check.optional_pin_id(id))

    @property
    def selected(self) -> Optional[int]:
        """The selected pin, or None."""
        h = _check.open_handle(self)
        out = c_int64()
        lib.pindrop_map_selected(h, byref(out))
        return None if out.value == NO_ID else int(out.value)

    # -- callouts ---------------------------------------------------------------------------------
    def set_title(self, id: int, title: Optional[str]) -> None:
        """Sets the pin's callout title (None clears it)."""
        h = _check.open_handle(self)
        lib.pindrop_map_set_title(h, _check.pin_id(id), None if title is None else _check.text(title, "title"))

    def answer_geocode(self, request: int, subtitle: str) -> bool:
        """Answers a GEOCODE_REQUEST: True if shown, False if refused as stale (the pin moved since)."""
        h = _check.open_handle(self)
        return bool(lib.pindrop_map_answer_geocode(h, _check.key(request, "request"),
                                                   _check.text(subtitle, "subtitle")) == 0)

    def callout(self, id: int, which: "CalloutLike" = Callout.SUBTITLE) -> str:
        """The pin's title or subtitle (`Callout` or its name)."""
        h = _check.open_handle(self)
        i, part = _check.pin_id(id), _check.enum(Callout, which, "which")
        n = c_size_t()
        lib.pindrop_map_callout(h, i, part, None, 0, byref(n))
        buf = ctypes.create_string_buffer(n.value + 1)
        lib.pindrop_map_callout(h, i, part, buf, n.value + 1, byref(n))
        return buf.raw[:n.value].decode("utf-8")

    def title(self, id: int) -> str:
        """The pin's callout title ("" if none)."""
        return self.callout(id, Callout.TITLE)

    def subtitle(self, id: int) -> str:
        """After a user move: "lat, lon" (5 decimals), until the host's geocode answer replaces it."""
        return self.callout(id, Callout.SUBTITLE)

    # -- area, history ----------------------------------------------------------------------------
    def set_allowed_area(self, area: "AreaLike") -> None:
        """Sets the area pins may be dropped in: WKT or GeoJSON text (Polygon, MultiPolygon, in
        lon/lat), a shapely (Multi)Polygon, a GeoSeries or GeoDataFrame of polygons (EPSG:4326),
        a GeoJSON mapping or anything with ``__geo_interface__``. None clears it."""
        h = _check.open_handle(self)
        lib.pindrop_map_set_allowed_area(h, _geo.area_text(area, "area"))

    def undo(self, time_ms: float) -> None:
        """Undoes the latest user move (MOVED, cause UNDO). StateError when there is none."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_undo(h, t)
        self._note_time(t)

    def redo(self, time_ms: float) -> None:
        """Redoes the latest undone move (MOVED, cause REDO). StateError when there is none."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_redo(h, t)
        self._note_time(t)

    def nudge(self, dx: float, dy: float, time_ms: float) -> None:
        """Moves the selected pin by (dx, dy) screen points from where it is drawn (an arrow key:
        1, with Shift 10): MOVED with cause NUDGE. Nudges of one pin less than 1000 ms apart are
        one undo step. StateError when nothing is selected or a gesture holds the pin."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_nudge(h, _check.real(dx, "dx"), _check.real(dy, "dy"), t)
        self._note_time(t)

    # -- keyboard focus and drag (behaviour 20, since 0.3.0; docs/accessibility.md) --------------
    def focus_step(self, step: int) -> Focus:
        """Moves the keyboard focus to the next (+1, Tab) or previous (-1, Shift+Tab) pin or
        cluster that the last `frame` drew inside the viewport, in reading order (rows of
        hit_radius points, then x, then pins before clusters, then id or key), wrapping.
        InvalidArgument for any other step. The focused pin is flagged PIN_FOCUSED in frames."""
        h = _check.open_handle(self)
        out = _ffi.Focus()
        lib.pindrop_map_focus_step(h, _check.fits(_check.integer(step, "step"), "step", "int32"), byref(out))
        return Focus._from_c(out)

    @property
    def focus(self) -> Focus:
        """The keyboard focus as the last frame left it (it moves on when its item leaves)."""
        h = _check.open_handle(self)
        out = _ffi.Focus()
        lib.pindrop_map_focused(h, byref(out))
        return Focus._from_c(out)

    @property
    def focus_rank(self) -> Tuple[Optional[int], int]:
        """(index, total): the focus is item `index` (from 0) of the `total` items `focus_step`
        moves through, in reading order ("4 of 27" is (3, 27)); index None when none of them
        has the focus."""
        h = _check.open_handle(self)
        index, total = c_size_t(), c_size_t()
        lib.pindrop_map_focus_rank(h, byref(index), byref(total))
        return (None if index.value == total.value else index.value), total.value

    def key_lift(self, time_ms: float) -> None:
        """Lifts the selected pin by keyboard (Alt+Space): LIFTED, drawn lifted in place; nudges
        then drag it (DRAGGED), `key_drop` drops it, `cancel_gesture` puts it back. StateError
        when nothing is selected, the keyboard already holds a pin, or a pointer is down."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_key_lift(h, t)
        self._note_time(t)

    def key_drop(self, time_ms: float) -> None:
        """Drops the pin the keyboard holds (Space or Enter): DROPPED, then MOVED with cause
        KEYBOARD and its follow-ups, one undo step. StateError when there is no keyboard drag."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_key_drop(h, t)
        self._note_time(t)

    # -- stacks (spread_on_tap) ---------------------------------------------------------------------
    def open_stack(self, key: int, time_ms: float) -> None:
        """Opens the collapsed stack `key` (a `clusters()` item with the CLUSTER_STACK flag): it is
        drawn spread, every pin touchable; the stack open before closes. STACK_CLOSED / STACK_OPENED
        events. NotFound for a key that names no stack now (stale once the group's pins change)."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_open_stack(h, _check.key(key), t)
        self._note_time(t)

    def close_stack(self, time_ms: float) -> None:
        """Closes the open stack (a STACK_CLOSED event); nothing happens when none is open."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_close_stack(h, t)
        self._note_time(t)


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


def spread(lonlat: "Coordinates", tolerance_m: float = 0.0, layout: "Literal['ring', 'spiral']" = "ring",
           spacing: float = 25.0, zoom: Optional[float] = None, *, lat: Any = None) -> SpreadResult:
    """The spreading rule over n points: where each is drawn when points sharing a coordinate (or
    within tolerance_m metres of a group's first point) are spread around their spot.

    `lonlat`: (n, 2) (lon, lat) rows, or shapely points, a GeoSeries or GeoDataFrame of points in
    EPSG:4326, ``__geo_interface__``, GeoJSON or WKT; or the longitudes as a 1-D array with the
    latitudes as `lat` (``spread(lon, lat=lat)``). Points are taken in order as their ids.

    layout="ring" (the default) draws a group of n on a ring of 3n/2 metres. layout="spiral"
    lays it out in screen points (a circle below 9 points, Leaflet's spiral from 9, `spacing`
    points apart) at Web Mercator `zoom`, which it then needs.

    Returns a `SpreadResult`: the (n, 2) array of drawn positions, which also holds the `moved`
    mask, the `group`, `rank`, `sizes` and `centres` of the groups and their `legs()`. The input
    is not modified."""
    if layout not in ("ring", "spiral"):
        raise _check.invalid(f"layout must be 'ring' or 'spiral', not {_check.shown(layout)}")
    if layout == "spiral" and zoom is None:
        raise _check.invalid("layout='spiral' is laid out in screen points: it needs the zoom")
    if layout == "ring" and zoom is not None:
        raise _check.invalid("zoom applies to layout='spiral' only (the ring is in metres)")
    src = _geo.lonlat(lonlat, lat, name="lonlat")
    if src is lonlat or (isinstance(lonlat, np.ndarray) and np.shares_memory(src, lonlat)):
        src = src.copy()
    tol = _check.real(tolerance_m, "tolerance_m")
    out = np.empty_like(src)
    if layout == "ring":
        lib.pindrop_spread(src.ctypes.data, src.shape[0], tol, out.ctypes.data)
    else:
        lib.pindrop_spread_spiral(src.ctypes.data, src.shape[0], tol, _check.real(spacing, "spacing"),
                                  _check.real(zoom, "zoom"), out.ctypes.data)
    return SpreadResult._make(out, src, tol)
