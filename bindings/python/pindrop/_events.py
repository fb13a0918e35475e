"""`Event`: what a map reports, one record per event, with the fields its type fills (include/pindrop.h's
PINDROP_EVENT_FIELDS_*, through the generated `_tables`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from . import _ffi, _tables
from ._constants import Cause, EventType
from ._ffi import NO_ID


#: Which fields each event type fills (the others are None). Types not listed keep every field.
_EVENT_FIELDS = _tables.EVENT_FIELDS
#: The fields of pindrop_event that some type leaves unfilled (all but type and time_ms).
_OPTIONAL_EVENT_FIELDS = tuple(name for name, _, _ in _tables.STRUCTS["pindrop_event"][1]
                               if name not in ("type", "time_ms"))


@dataclass(frozen=True)
class Event:
    """One event. `type` is an `EventType` and `cause` a `Cause` (both also equal their names:
    ``e.type == "MOVED"``); the fields an event type does not fill are None:

    - SELECTED, DESELECTED: `id`
    - LIFTED, DROPPED, CALLOUT_CHANGED: `id` and its `lon, lat`
    - DRAGGED: `id`, `lon, lat` where it would land now; DRAG_CANCELLED: the restored `lon, lat`
    - MOVED: the new true `lon, lat`, `from_lon, from_lat`, `distance_m` between them (since 0.4),
      and `cause` (DRAG, TAP, PLACE, UNDO, REDO, SNAP, NUDGE, KEYBOARD): the host saves it
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
        if kind == EventType.MOVED and values["distance_m"] is None:
            # How far the true coordinate moved, in metres on pindrop's sphere, as the JavaScript
            # package's MOVED gives it (the C event leaves distance_m to the reader).
            from ._measures import distance
            values["distance_m"] = distance(e.from_lon, e.from_lat, e.lon, e.lat)[0]
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

