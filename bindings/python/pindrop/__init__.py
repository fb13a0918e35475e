"""pindrop: placement, drag and spreading of map pins, through the C ABI of libpindrop.so.

    import pindrop
    with pindrop.Map(lift_delay_ms=0, lift_height=0) as m:      # mouse: drag at once
        m.set_camera(-118.35, 33.9, zoom=18, width=800, height=600)
        m.add(1, -118.35, 33.9)
        print(m.hit_test(400, 300))                             # 1

The host draws the map and the pins and feeds touches in (`Map.touch`, `Map.tick`); pindrop decides
what they mean and reports what happened as `Event`s (`Map.events()`), and what to draw with
`Map.frame()`. Coordinates are always (lon, lat) in WGS84 degrees, screen points have their origin
top-left, times are milliseconds on any clock that never goes back. Every failure raises a
`PindropError` subclass whose message is the map's last error. The contract is `include/pindrop.h`.
"""
from __future__ import annotations

import ctypes
import weakref
from ctypes import byref, c_double, c_int64, c_size_t, c_void_p
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Tuple, Union

from . import _ffi
from ._ffi import (NO_ID, DuplicateId, GeosError, InvalidArgument, NoMemory, NotFound, ParseError,
                   PindropError, StateError, lib)

if TYPE_CHECKING:  # NumPy is imported on first use of a batch call
    import numpy

__all__ = ["Map", "Options", "Event", "PinView", "spread", "version", "NO_ID", "PindropError",
           "InvalidArgument", "NotFound", "DuplicateId", "ParseError", "StateError", "GeosError",
           "NoMemory", "SPREAD_OFF", "SPREAD_RING", "OUTSIDE_REVERT", "OUTSIDE_SNAP", "PIN_SELECTED",
           "PIN_EDITING", "PIN_DRAGGING", "PIN_SPREAD", "PIN_INVALID", "TOUCH_DOWN", "TOUCH_MOVE",
           "TOUCH_UP", "TOUCH_CANCEL", "TITLE", "SUBTITLE", "SPREAD_SPIRAL", "ClusterView",
           "CLUSTER_STACK"]

# Constants of include/pindrop.h.
SPREAD_OFF, SPREAD_RING = 0, 1
SPREAD_SPIRAL = 2
OUTSIDE_REVERT, OUTSIDE_SNAP = 0, 1
PIN_SELECTED, PIN_EDITING, PIN_DRAGGING, PIN_SPREAD, PIN_INVALID = 1, 2, 4, 8, 16
TOUCH_DOWN, TOUCH_MOVE, TOUCH_UP, TOUCH_CANCEL = 0, 1, 2, 3
CLUSTER_STACK = 2  # ClusterView.flags: a collapsed stack (spread_on_tap)
EVENT_TYPES = ["SELECTED", "DESELECTED", "LIFTED", "DRAGGED", "DROPPED", "DRAG_CANCELLED", "MOVED",
               "GEOCODE_REQUEST", "CALLOUT_CHANGED", "NEARBY", "AUTOPAN", "CLUSTER_TAPPED",
               "STACK_OPENED", "STACK_CLOSED"]
CAUSES = ["NONE", "DRAG", "TAP", "PLACE", "UNDO", "REDO", "SNAP", "NUDGE"]
TITLE, SUBTITLE = 0, 1

#: Touch phases by name, for `Map.touch(pointer, "down", x, y, t)`.
PHASES = {"down": TOUCH_DOWN, "move": TOUCH_MOVE, "up": TOUCH_UP, "cancel": TOUCH_CANCEL}

ArrayLike = Any  # anything numpy.asarray accepts


def version() -> str:
    """The version ("MAJOR.MINOR.PATCH") of the libpindrop.so actually loaded."""
    return lib.pindrop_version().decode()


def _np():
    import numpy
    return numpy


@dataclass
class Options:
    """The options of a map (pindrop_options), with the documented defaults.

    Distances on screen are in points, times in milliseconds, distances on the ground in metres.
    A touch screen keeps the defaults; a mouse host usually sets ``lift_delay_ms=0`` (drag at once)
    and ``lift_height=0`` (the pin stays under the pointer).
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
    spread_mode: int = SPREAD_RING    #: pins sharing a spot: SPREAD_RING (metres), SPREAD_SPIRAL (points), SPREAD_OFF
    spread_tolerance_m: float = 0.0   #: pins this close to a group's first pin join its ring
    outside_policy: int = OUTSIDE_REVERT  #: a drop outside the allowed area: OUTSIDE_REVERT / _SNAP
    cluster_radius: float = 0.0       #: pins drawn this close (points) form a cluster; 0 = off
    cluster_max_zoom: float = 17.0    #: clusters only below this zoom, in [0, 30]
    spread_spacing: float = 25.0      #: points between pins of a SPREAD_SPIRAL layout
    cluster_min_points: int = 2       #: fewest pins of a cluster (>= 2; accepted, not yet used)
    cluster_by_category: int = 0      #: 1: clusters of one category only (accepted, not yet used)
    spread_on_tap: int = 0            #: 1: groups drawn collapsed (CLUSTER_STACK) until tapped open

    def _to_c(self) -> _ffi.Options:
        c = _ffi.Options()
        status = lib.pindrop_options_init(byref(c), ctypes.sizeof(c))
        if status != 0:
            raise InvalidArgument(status, _ffi.last_error(), "pindrop_options_init")
        for f in fields(self):
            setattr(c, f.name, getattr(self, f.name))
        return c


@dataclass(frozen=True)
class Event:
    """One pindrop_event. `type` and `cause` are names ("MOVED", "DRAG"); which other fields mean
    something depends on the type (see include/pindrop.h):

    - LIFTED, DROPPED, SELECTED, DESELECTED, CALLOUT_CHANGED: `id`
    - DRAGGED: `lon, lat` where the pin would land now; DRAG_CANCELLED: the restored `lon, lat`
    - MOVED: the new true `lon, lat`, `from_lon, from_lat`, and `cause` (DRAG, TAP, PLACE, UNDO,
      REDO, SNAP) — the host saves it
    - GEOCODE_REQUEST: `lon, lat` to reverse-geocode, `request` to answer with
    - NEARBY: `other` (the pin already there) at `distance_m`
    - AUTOPAN: `dx, dy` screen points to move the camera by
    - CLUSTER_TAPPED, STACK_OPENED, STACK_CLOSED: `request` = the cluster's or stack's key, at `lon, lat`
    """
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

    def __str__(self) -> str:
        head = f"{self.time_ms:8.1f} ms  {self.type:<15} id={self.id}"
        if self.type in ("DRAGGED", "DRAG_CANCELLED", "GEOCODE_REQUEST"):
            head += f"  ({self.lon:.7f}, {self.lat:.7f})"
        if self.type == "GEOCODE_REQUEST":
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
class PinView:
    """One pin of a frame: the screen point it marks (x, y), the screen point of its true
    coordinate (anchor_x, anchor_y: the foot of a spread leg), its lift (0 at rest .. 1 lifted,
    below 0 during the drop bounce) and its PIN_* flags."""
    id: int
    x: float
    y: float
    anchor_x: float
    anchor_y: float
    lift: float
    flags: int


@dataclass(frozen=True)
class ClusterView:
    """One cluster of a clustered view: `key` names it (in `Map.cluster_members` and
    `Map.cluster_expansion_zoom`) until pins or the view change; (x, y) its screen point, the mean
    Web Mercator point of its `count` pins, and (lon, lat) the same point on the map."""
    key: int
    x: float
    y: float
    lon: float
    lat: float
    count: int
    flags: int


_DTYPES: dict = {}


def _dtype(structure: Any) -> Any:
    """The NumPy dtype with a ctypes Structure's exact layout (NumPy reads it from ctypes)."""
    d = _DTYPES.get(structure)
    if d is None:
        d = _DTYPES[structure] = _np().dtype(structure)
    return d


def __getattr__(name: str) -> Any:
    """`PIN_VIEW_DTYPE` and `CLUSTER_VIEW_DTYPE`, made on first use (NumPy is not imported before)."""
    if name == "PIN_VIEW_DTYPE":
        return _dtype(_ffi.PinView)
    if name == "CLUSTER_VIEW_DTYPE":
        return _dtype(_ffi.ClusterView)
    raise AttributeError(name)


ProjectFn = Callable[[float, float], Tuple[float, float]]


class Map:
    """A pindrop map (a `pindrop_map *`): pins, a view, gestures, events.

    ``Map(options)`` or ``Map(**option_fields)``, e.g. ``Map(lift_delay_ms=0)``. Use it as a
    context manager or call `close()`; a map that is garbage-collected is destroyed too. One thread
    at a time per map.
    """

    def __init__(self, options: Optional[Options] = None, **option_fields: Any):
        if options is not None and option_fields:
            raise TypeError("pass either an Options or option keywords, not both")
        options = options if options is not None else Options(**option_fields)
        handle = c_void_p()
        c = options._to_c()
        status = lib.pindrop_map_create(byref(c), byref(handle))
        if status != 0:  # no map: the calling thread's last error says what was refused
            raise _ffi._EXCEPTIONS.get(status, PindropError)(status, _ffi.last_error(), "pindrop_map_create")
        self.options = options
        self._handle = handle
        self._callbacks: Optional[tuple] = None  # projection callbacks kept alive while C holds them
        self._finalizer = weakref.finalize(self, lib.pindrop_map_destroy, handle)

    # -- lifetime ---------------------------------------------------------------------------------
    @property
    def _as_parameter_(self) -> c_void_p:
        # A closed map is passed as NULL, which every function of the C API refuses safely
        # (InvalidArgument; counts are 0).
        return self._handle

    def close(self) -> None:
        """Destroys the map now (idempotent; also done when it is garbage-collected)."""
        self._finalizer()
        self._handle = c_void_p()
        self._callbacks = None

    @property
    def closed(self) -> bool:
        return not self._handle

    def __enter__(self) -> "Map":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<pindrop.Map closed>" if self.closed else f"<pindrop.Map with {len(self)} pins>"

    @property
    def last_error(self) -> str:
        """The message of the last failed call on this map ("" if none)."""
        return lib.pindrop_map_last_error(self).decode("utf-8", "replace")

    # -- view -------------------------------------------------------------------------------------
    def set_camera(self, center_lon: float, center_lat: float, zoom: float, width: float, height: float,
                   bearing_deg: float = 0.0) -> None:
        """Uses the built-in Web Mercator camera (256-point tiles) centred on (lon, lat), with a
        viewport of width × height points, rotated clockwise by bearing_deg."""
        lib.pindrop_map_set_camera(self, byref(_ffi.Camera(center_lon, center_lat, zoom, bearing_deg, width, height)))

    def set_projection(self, project: ProjectFn, unproject: ProjectFn, width: float, height: float) -> None:
        """Uses the host's projection: ``project(lon, lat) -> (x, y)``, ``unproject(x, y) -> (lon, lat)``.

        Any CRS works, as long as both map screen points to WGS84 and back. An exception inside a
        callback counts as a failure of that callback (the query that needed it fails; a pin it
        cannot place is treated as off-screen). The callbacks are kept alive by the map.
        """
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
        """Screen point (x, y) of (lon, lat) through the current view."""
        x, y = c_double(), c_double()
        lib.pindrop_map_to_screen(self, lon, lat, byref(x), byref(y))
        return x.value, y.value

    def to_lonlat(self, x: float, y: float) -> Tuple[float, float]:
        """(lon, lat) of screen point (x, y) through the current view."""
        lon, lat = c_double(), c_double()
        lib.pindrop_map_to_lonlat(self, x, y, byref(lon), byref(lat))
        return lon.value, lat.value

    # -- pins -------------------------------------------------------------------------------------
    def add(self, id: int, lon: float, lat: float) -> None:
        """Adds pin `id` at (lon, lat). DuplicateId if it exists."""
        lib.pindrop_map_add(self, id, lon, lat)

    def add_many(self, ids: ArrayLike, lonlat: ArrayLike) -> None:
        """Adds n pins at once: `ids` n int64, `lonlat` n×2 (or 2n) float64. All or nothing."""
        np = _np()
        ids = np.ascontiguousarray(ids, dtype=np.int64).reshape(-1)
        lonlat = np.ascontiguousarray(lonlat, dtype=np.float64).reshape(-1)
        if lonlat.size != 2 * ids.size:
            raise ValueError(f"lonlat has {lonlat.size} values for {ids.size} ids (need {2 * ids.size})")
        lib.pindrop_map_add_many(self, ids.ctypes.data, lonlat.ctypes.data, ids.size)

    def remove(self, id: int) -> None:
        """Removes a pin (ending any gesture or edit on it). NotFound if there is none."""
        lib.pindrop_map_remove(self, id)

    def set_position(self, id: int, lon: float, lat: float) -> None:
        """Moves a pin as the host, not the user: no MOVED event, no undo entry."""
        lib.pindrop_map_set_position(self, id, lon, lat)

    def position(self, id: int) -> Tuple[float, float]:
        """The pin's true coordinate (lon, lat)."""
        lon, lat = c_double(), c_double()
        lib.pindrop_map_position(self, id, byref(lon), byref(lat))
        return lon.value, lat.value

    def display_position(self, id: int) -> Tuple[float, float]:
        """Where the pin is drawn (lon, lat): its place on a spread ring, where it would land while
        dragged, else its true coordinate."""
        lon, lat = c_double(), c_double()
        lib.pindrop_map_display_position(self, id, byref(lon), byref(lat))
        return lon.value, lat.value

    def set_draggable(self, id: int, draggable: bool) -> None:
        """Whether the user may lift the pin (default True)."""
        lib.pindrop_map_set_draggable(self, id, 1 if draggable else 0)

    def __len__(self) -> int:
        return lib.pindrop_map_count(self)

    # -- queries ----------------------------------------------------------------------------------
    def hit_test(self, x: float, y: float) -> Optional[int]:
        """The pin drawn nearest to screen point (x, y) within hit_radius, or None."""
        out = c_int64()
        status = lib.pindrop_map_hit_test(self, x, y, byref(out))
        if status == _ffi.ERR_NOT_FOUND:
            return None
        if status != 0:
            _ffi.raise_for(status, self._handle, "pindrop_map_hit_test")
        return out.value

    def hit_test_many(self, xy: ArrayLike) -> "numpy.ndarray":
        """hit_test for n×2 screen points: an int64 array of ids, NO_ID for misses."""
        np = _np()
        xy = np.ascontiguousarray(xy, dtype=np.float64).reshape(-1)
        if xy.size % 2:
            raise ValueError("xy needs an even number of values")
        out = np.empty(xy.size // 2, dtype=np.int64)
        lib.pindrop_map_hit_test_many(self, xy.ctypes.data, out.size, out.ctypes.data)
        return out

    def nearby(self, lon: float, lat: float, radius_m: float, limit: Optional[int] = None) -> List[Tuple[int, float]]:
        """[(id, distance_m)] of the pins whose true coordinate is within radius_m metres, nearest
        first (at most `limit`)."""
        total = lib.pindrop_map_nearby(self, lon, lat, radius_m, None, None, 0)
        if total == 0 and self.last_error:
            _ffi.raise_for(-1, self._handle, "pindrop_map_nearby")
        n = total if limit is None else min(limit, total)
        ids = (c_int64 * max(n, 1))()
        dist = (c_double * max(n, 1))()
        total = lib.pindrop_map_nearby(self, lon, lat, radius_m, ids, dist, n)
        return [(ids[i], dist[i]) for i in range(min(n, total))]

    def frame(self, time_ms: float, array: bool = False) -> Union[List[PinView], "numpy.ndarray"]:
        """The pins to draw at time_ms (inside the viewport), in drawing order: the dragged pin last.

        With ``array=True``: one NumPy structured array (dtype `PIN_VIEW_DTYPE`: id, x, y, anchor_x,
        anchor_y, lift, flags) instead of a Python object per pin. In a clustered view these are
        the unclustered pins; the clusters come from `clusters`."""
        if array:
            return self._fill("_frame_buf", lib.pindrop_map_frame, time_ms, _dtype(_ffi.PinView), "pindrop_map_frame")
        total = lib.pindrop_map_frame(self, time_ms, None, 0)
        if total == 0 and self.last_error:
            _ffi.raise_for(-1, self._handle, "pindrop_map_frame")
        buf = (_ffi.PinView * max(total, 1))()
        total = lib.pindrop_map_frame(self, time_ms, buf, total)
        return [PinView(v.id, v.x, v.y, v.anchor_x, v.anchor_y, v.lift, v.flags) for v in buf[:total]]

    def _fill(self, attr: str, fn: Callable, arg: Any, dtype: Any, name: str) -> "numpy.ndarray":
        """Calls a C function that fills a buffer of `dtype` records and returns how many exist,
        into a buffer kept on the map (grown when short); returns a copy of the filled part."""
        np = _np()
        buf = getattr(self, attr, None)
        if buf is None:
            buf = np.empty(256, dtype=dtype)
        while True:
            total = fn(self, arg, buf.ctypes.data, len(buf))
            if total == 0 and self.last_error:
                _ffi.raise_for(-1, self._handle, name)
            if total <= len(buf):
                break
            buf = np.empty(total + total // 4, dtype=dtype)
        setattr(self, attr, buf)
        return buf[:total].copy()

    def clusters(self, time_ms: float, array: bool = False) -> Union[List["ClusterView"], "numpy.ndarray"]:
        """The clusters to draw at time_ms (inside the viewport grown by cluster_radius): empty
        when clustering is off or the zoom is at or above cluster_max_zoom. With ``array=True``: a
        NumPy structured array (dtype `CLUSTER_VIEW_DTYPE`: key, x, y, lon, lat, count, flags)."""
        a = self._fill("_cluster_buf", lib.pindrop_map_frame_clusters, time_ms, _dtype(_ffi.ClusterView),
                       "pindrop_map_frame_clusters")
        if array:
            return a
        return [ClusterView(int(v["key"]), float(v["x"]), float(v["y"]), float(v["lon"]), float(v["lat"]),
                            int(v["count"]), int(v["flags"])) for v in a]

    def cluster_members(self, key: int) -> "numpy.ndarray":
        """The ids of a cluster's pins (an int64 array). NotFound for an unknown or stale key."""
        np = _np()
        total = lib.pindrop_map_cluster_members(self, key, None, 0)
        if total == 0:
            _ffi.raise_for(-2, self._handle, "pindrop_map_cluster_members")
        out = np.empty(total, dtype=np.int64)
        total = lib.pindrop_map_cluster_members(self, key, out.ctypes.data, total)
        return out[:total]

    def cluster_expansion_zoom(self, key: int) -> float:
        """The lowest zoom at which the cluster's pins are no longer one cluster (at most
        cluster_max_zoom): where a tap on it should take the camera."""
        z = c_double()
        lib.pindrop_map_cluster_expansion_zoom(self, key, byref(z))
        return z.value

    # -- input ------------------------------------------------------------------------------------
    def touch(self, pointer: int, phase: Union[int, str], x: float, y: float, time_ms: float) -> bool:
        """Feeds one touch or mouse event: phase TOUCH_DOWN/_MOVE/_UP/_CANCEL (or "down", "move",
        "up", "cancel"). True when pindrop owns the gesture (the host must not pan or zoom with
        it), False when the host's map should handle it."""
        if isinstance(phase, str):
            try:
                phase = PHASES[phase]
            except KeyError:
                raise ValueError(f"phase {phase!r} is not one of {', '.join(PHASES)}") from None
        r = lib.pindrop_map_touch(self, pointer, phase, x, y, time_ms)
        if r < 0:
            _ffi.raise_for(r, self._handle, "pindrop_map_touch")
        return r == 1

    def tick(self, time_ms: float) -> None:
        """Resolves the timeouts due at time_ms (lift delay, double-tap window, auto-pan)."""
        lib.pindrop_map_tick(self, time_ms)

    @property
    def next_deadline(self) -> float:
        """When the next tick is due (ms), math.inf when nothing is pending."""
        return lib.pindrop_map_next_deadline(self)

    def advance(self, time_ms: float) -> None:
        """Ticks at every deadline up to time_ms, then at time_ms: what a host's timer would do."""
        deadline = self.next_deadline
        while deadline <= time_ms:
            self.tick(deadline)
            following = self.next_deadline
            if following <= deadline:  # a deadline that does not move on is due again at time_ms
                break
            deadline = following
        self.tick(time_ms)

    def cancel_gesture(self, time_ms: float) -> None:
        """Cancels the gesture in progress (the Esc key): a lifted pin goes back, nothing is saved."""
        lib.pindrop_map_cancel_gesture(self, time_ms)

    def poll_event(self) -> Optional[Event]:
        """The oldest pending event, or None."""
        e = _ffi.Event()
        return Event._from_c(e) if lib.pindrop_map_poll_event(self, byref(e)) == 1 else None

    def events(self) -> Iterator[Event]:
        """Drains the pending events, oldest first."""
        while (e := self.poll_event()) is not None:
            yield e

    # -- editing ----------------------------------------------------------------------------------
    def place(self, id: int, lon: float, lat: float, time_ms: float) -> None:
        """Adds pin `id` and starts editing it: taps on the map move it until commit/cancel_edit."""
        lib.pindrop_map_place(self, id, lon, lat, time_ms)

    def edit(self, id: int, time_ms: float) -> None:
        """Starts editing an existing pin (tap-to-move applies to it)."""
        lib.pindrop_map_edit(self, id, time_ms)

    def commit(self, time_ms: float) -> None:
        """Ends the edit, keeping the pin where it is. StateError when nothing is edited."""
        lib.pindrop_map_commit(self, time_ms)

    def cancel_edit(self, time_ms: float) -> None:
        """Ends the edit: removes a placed pin, restores an edited one."""
        lib.pindrop_map_cancel_edit(self, time_ms)

    def select(self, id: Optional[int]) -> None:
        """Selects a pin (None: no pin), emitting SELECTED / DESELECTED."""
        lib.pindrop_map_select(self, NO_ID if id is None else id)

    @property
    def selected(self) -> Optional[int]:
        """The selected pin, or None."""
        out = c_int64()
        lib.pindrop_map_selected(self, byref(out))
        return None if out.value == NO_ID else out.value

    # -- callouts ---------------------------------------------------------------------------------
    def set_title(self, id: int, title: Optional[str]) -> None:
        """Sets the pin's callout title (None clears it)."""
        lib.pindrop_map_set_title(self, id, None if title is None else title.encode("utf-8"))

    def answer_geocode(self, request: int, subtitle: str) -> bool:
        """Answers a GEOCODE_REQUEST: True if shown, False if refused as stale (the pin moved since)."""
        return lib.pindrop_map_answer_geocode(self, request, subtitle.encode("utf-8")) == 0

    def callout(self, id: int, which: int = SUBTITLE) -> str:
        """The pin's TITLE or SUBTITLE."""
        n = c_size_t()
        lib.pindrop_map_callout(self, id, which, None, 0, byref(n))
        buf = ctypes.create_string_buffer(n.value + 1)
        lib.pindrop_map_callout(self, id, which, buf, n.value + 1, byref(n))
        return buf.raw[:n.value].decode("utf-8")

    def title(self, id: int) -> str:
        return self.callout(id, TITLE)

    def subtitle(self, id: int) -> str:
        """After a user move: "lat, lon" (5 decimals), until the host's geocode answer replaces it."""
        return self.callout(id, SUBTITLE)

    # -- area, history ----------------------------------------------------------------------------
    def set_allowed_area(self, wkt_or_geojson: Optional[str]) -> None:
        """Sets the area pins may be dropped in (WKT or GeoJSON polygons, lon/lat); None clears it."""
        lib.pindrop_map_set_allowed_area(self, None if wkt_or_geojson is None else wkt_or_geojson.encode("utf-8"))

    def undo(self, time_ms: float) -> None:
        """Undoes the latest user move (MOVED, cause UNDO). StateError when there is none."""
        lib.pindrop_map_undo(self, time_ms)

    def redo(self, time_ms: float) -> None:
        """Redoes the latest undone move (MOVED, cause REDO). StateError when there is none."""
        lib.pindrop_map_redo(self, time_ms)

    def nudge(self, dx: float, dy: float, time_ms: float) -> None:
        """Moves the selected pin by (dx, dy) screen points from where it is drawn (an arrow key:
        1, with Shift 10): MOVED with cause NUDGE. Nudges of one pin less than 1000 ms apart are
        one undo step. StateError when nothing is selected or a gesture holds the pin."""
        lib.pindrop_map_nudge(self, dx, dy, time_ms)

    # -- stacks (spread_on_tap) ---------------------------------------------------------------------
    def open_stack(self, key: int, time_ms: float) -> None:
        """Opens the collapsed stack `key` (a `clusters()` item with the CLUSTER_STACK flag): it is
        drawn spread, every pin touchable; the stack open before closes. STACK_CLOSED / STACK_OPENED
        events. NotFound for a key that names no stack now (stale once the group's pins change)."""
        lib.pindrop_map_open_stack(self, key, time_ms)

    def close_stack(self, time_ms: float) -> None:
        """Closes the open stack (a STACK_CLOSED event); nothing happens when none is open."""
        lib.pindrop_map_close_stack(self, time_ms)


def spread(lonlat: ArrayLike, tolerance_m: float = 0.0, layout: str = "ring", spacing: float = 25.0,
           zoom: Optional[float] = None) -> "numpy.ndarray":
    """The drawn positions (n×2 float64 array) of n points (lon, lat) after the spreading rule:
    points sharing a coordinate (or within tolerance_m of a group's first point) spread around it.

    layout="ring" (the default) draws a group of n on a ring of 3n/2 metres. layout="spiral"
    lays it out in screen points (circle below 9 pins, Leaflet's spiral from 9, pin
    distance `spacing` points) at Web Mercator `zoom`, which it then needs.
    True coordinates are not changed; the input is not modified."""
    if layout not in ("ring", "spiral"):
        raise ValueError(f"layout must be 'ring' or 'spiral', not {layout!r}")
    if layout == "spiral" and zoom is None:
        raise ValueError("layout='spiral' is laid out in screen points: it needs the zoom")
    if layout == "ring" and zoom is not None:
        raise ValueError("zoom applies to layout='spiral' only (the ring is in metres)")
    np = _np()
    src = np.ascontiguousarray(lonlat, dtype=np.float64).reshape(-1, 2)
    out = np.empty_like(src)
    if layout == "ring":
        lib.pindrop_spread(src.ctypes.data, src.shape[0], tolerance_m, out.ctypes.data)
    else:
        lib.pindrop_spread_spiral(src.ctypes.data, src.shape[0], tolerance_m, spacing, zoom, out.ctypes.data)
    return out
