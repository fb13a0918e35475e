"""`Map`: a pindrop map, its lifetime and its view. What it does lives in one part per concern,
whose methods it gathers: `_map_pins` (pins and queries), `_map_clusters` (clusters, stacks),
`_map_input` (touches, the clock, events, the keyboard), `_map_editing` (editing, selection,
callouts, area, history, nudges), `_map_selection` (several pins at once: select_many,
select_in_rect, selection, set_modifiers)."""
from __future__ import annotations

import weakref
from ctypes import byref, c_double, c_void_p
from typing import TYPE_CHECKING, Any, Optional, Tuple

from . import _check, _ffi
from ._ffi import PindropError, lib
from ._ids import _Ids
from ._map_clusters import _Clusters, _Stacks
from ._map_editing import _Editing
from ._map_input import _Input, _Keyboard
from ._map_pins import _Pins
from ._map_selection import _Selection
from ._map_snap import _Snap
from ._map_state import _NEW_MAP_CAMERA, ProjectFn
from ._options import Options

if TYPE_CHECKING:
    from ._hints import OutsidePolicyLike, SpreadModeLike


class Map(_Pins, _Clusters, _Input, _Editing, _Keyboard, _Stacks, _Selection, _Snap):
    """A pindrop map: pins, a view, gestures, events.

    ``Map()``, ``Map(options)`` or ``Map(hit_radius=30, lift_delay_ms=0, ...)`` (the `Options`
    fields as keywords). Use it as a context manager or call `close`; a map that is
    garbage-collected is destroyed too. One thread at a time per map. A map is always truthy;
    ``len(m)`` is its number of pins and ``id in m`` tells whether a pin exists.
    """

    def __init__(self, options: Optional[Options] = None, *,
                 hit_radius: float = Options.hit_radius,
                 drag_threshold: float = Options.drag_threshold,
                 lift_delay_ms: float = Options.lift_delay_ms,
                 lift_height: float = Options.lift_height,
                 lift_duration_ms: float = Options.lift_duration_ms,
                 drop_duration_ms: float = Options.drop_duration_ms,
                 tap_max_ms: float = Options.tap_max_ms,
                 double_tap_ms: float = Options.double_tap_ms,
                 double_tap_slop: float = Options.double_tap_slop,
                 autopan_margin: float = Options.autopan_margin,
                 autopan_speed: float = Options.autopan_speed,
                 min_spacing_m: float = Options.min_spacing_m,
                 spread_mode: "SpreadModeLike" = Options.spread_mode,
                 spread_tolerance_m: float = Options.spread_tolerance_m,
                 outside_policy: "OutsidePolicyLike" = Options.outside_policy,
                 cluster_radius: float = Options.cluster_radius,
                 cluster_max_zoom: float = Options.cluster_max_zoom,
                 spread_spacing: float = Options.spread_spacing,
                 cluster_min_points: int = Options.cluster_min_points,
                 cluster_by_category: bool = Options.cluster_by_category,
                 spread_on_tap: bool = Options.spread_on_tap,
                 snap_tolerance: float = Options.snap_tolerance,
                 snap_to_pins: bool = Options.snap_to_pins):
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


# Every method in Map's own namespace, as if written in its body: help(Map) and the reference
# (pdoc) list them as Map's, not as inherited from the private classes of each part.
for _part in (_Pins, _Clusters, _Input, _Editing, _Keyboard, _Stacks, _Selection, _Snap):
    for _name, _member in vars(_part).items():
        if not (_name.startswith("__") and _name.endswith("__")):
            setattr(Map, _name, _member)
