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

from typing import Any

import numpy as np

from . import _ffi, _records, _tables
from ._constants import (Callout, Cause, ClusterFlag, EventType, Modifier, OutsidePolicy, PinFlag, SelectMode,
                         SpreadMode, TouchPhase)
from ._events import Event
from ._ffi import (NO_ID, DuplicateId, GeosError, InvalidArgument, NoMemory, NotFound, ParseError,
                   PindropError, StateError, lib)
from ._ffi import backend  # "native" (libpindrop.so) or "wasm" (pindrop.wasm through wasmtime)
from ._hints import AreaLike, Coordinates, PointLike
from ._map import Map
from ._map_snap import SnapTarget
from ._measures import distance
from ._options import Options
from ._records import ClusterSummary, Focus
from ._spread import SpreadResult, spread
from ._views import ClusterView, Clusters, Frame, PinView

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
           "ClusterSummary", "CLUSTER_ONE_SPOT", "CLUSTER_STACK", "CATEGORY_MIXED", "CATEGORY_COUNT_DTYPE",
           "SelectMode", "Modifier", "PIN_SNAPPED", "SELECT_SET", "SELECT_ADD", "SELECT_REMOVE", "SELECT_TOGGLE",
           "MOD_ADD", "MOD_NO_SNAP", "SnapTarget"]

# The constants of the C API under their C names (PINDROP_SPREAD_RING is SPREAD_RING), as enum members.
SPREAD_OFF, SPREAD_RING, SPREAD_SPIRAL = SpreadMode.OFF, SpreadMode.RING, SpreadMode.SPIRAL
OUTSIDE_REVERT, OUTSIDE_SNAP = OutsidePolicy.REVERT, OutsidePolicy.SNAP
PIN_SELECTED, PIN_EDITING, PIN_DRAGGING = PinFlag.SELECTED, PinFlag.EDITING, PinFlag.DRAGGING
PIN_SPREAD, PIN_INVALID = PinFlag.SPREAD, PinFlag.INVALID
TOUCH_DOWN, TOUCH_MOVE, TOUCH_UP, TOUCH_CANCEL = TouchPhase.DOWN, TouchPhase.MOVE, TouchPhase.UP, TouchPhase.CANCEL
TITLE, SUBTITLE = Callout.TITLE, Callout.SUBTITLE
PIN_FOCUSED = PinFlag.FOCUSED  # since 0.3.0: has the keyboard focus
PIN_ANIMATING = PinFlag.ANIMATING  # since 0.3.0: still animating: keep drawing frames
FOCUS_NONE, FOCUS_PIN, FOCUS_CLUSTER = (_tables.FOCUS_KINDS[k] for k in ("NONE", "PIN", "CLUSTER"))  # since 0.3.0: pindrop_focus.kind
CLUSTER_ONE_SPOT, CLUSTER_STACK = ClusterFlag.ONE_SPOT, ClusterFlag.STACK  # since 0.3.0
PIN_SNAPPED = PinFlag.SNAPPED  # since 0.4.0: the dragged pin is snapped
SELECT_SET, SELECT_ADD, SELECT_REMOVE, SELECT_TOGGLE = SelectMode.SET, SelectMode.ADD, SelectMode.REMOVE, SelectMode.TOGGLE  # since 0.4.0
MOD_ADD, MOD_NO_SNAP = Modifier.ADD, Modifier.NO_SNAP  # since 0.4.0
CATEGORY_MIXED: int = _ffi.CATEGORY_MIXED  # a summary's category when its members' categories differ
#: The names of the event types and causes, by value.
EVENT_TYPES = [e.name for e in EventType]
CAUSES = [c.name for c in Cause]

#: Touch phases by name, for ``Map.touch(pointer, "down", x, y, t)``.
PHASES = {p.name.lower(): p for p in TouchPhase}

#: The NumPy dtype of a frame's records (`Map.frame` with ``array=True``, `Frame.array`): id,
#: x, y, anchor_x, anchor_y, lift, flags, with the C struct's exact layout.
PIN_VIEW_DTYPE: "np.dtype[Any]" = _records.PIN_VIEW_DTYPE
#: The NumPy dtype of `Map.clusters` records: key, x, y, lon, lat, count, flags.
CLUSTER_VIEW_DTYPE: "np.dtype[Any]" = _records.CLUSTER_VIEW_DTYPE

#: The dtype of `Map.cluster_categories`: one row per category, most pins first.
CATEGORY_COUNT_DTYPE: "np.dtype[Any]" = _records.CATEGORY_COUNT_DTYPE


def version() -> str:
    """The version ("MAJOR.MINOR.PATCH") of the libpindrop.so actually loaded."""
    return str(lib.pindrop_version().decode())


#: The version of the library loaded (the package and the library are released together).
__version__ = version()
