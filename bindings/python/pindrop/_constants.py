"""The constants of the C API as Python enums: `IntEnum` for modes, policies, phases, event types
and causes, `IntFlag` for flags. Members are ints (``SpreadMode.SPIRAL == 2``), so they go to C
unchanged; wherever a call takes one, its name works too (``"spiral"``).

`EventType` and `Cause` members also compare equal to their names (``event.type == "MOVED"``), as
events carried names before these enums existed.
"""
from __future__ import annotations

from enum import IntEnum, IntFlag


class SpreadMode(IntEnum):
    """How pins sharing a spot are drawn (`Options.spread_mode`)."""
    OFF = 0     #: drawn on their true coordinate, on top of each other
    RING = 1    #: on a ring of 3n/2 metres around the spot (the default)
    SPIRAL = 2  #: in screen points, a circle below 9 pins, Leaflet's spiral from 9


class OutsidePolicy(IntEnum):
    """What a drop outside the allowed area does (`Options.outside_policy`)."""
    REVERT = 0  #: the pin goes back where it was (the default)
    SNAP = 1    #: the pin lands on the nearest point inside


class TouchPhase(IntEnum):
    """The phase of a touch or mouse event (`Map.touch`)."""
    DOWN = 0
    MOVE = 1    #: a mouse host sends MOVE only while the button is down
    UP = 2
    CANCEL = 3


class PinFlag(IntFlag):
    """`PinView.flags`: what state a drawn pin is in."""
    SELECTED = 1
    EDITING = 2
    DRAGGING = 4
    SPREAD = 8    #: drawn away from its true coordinate (a spread group)
    INVALID = 16  #: dragged over a point outside the allowed area: tint it
    FOCUSED = 32  #: has the keyboard focus (`Map.focus_step`; since 0.3)
    ANIMATING = 64  #: its drawing still changes with no input (a lift, a drop, a glide): draw again (since 0.3)


class ClusterFlag(IntFlag):
    """`ClusterView.flags` (SPEC 0.3; a library that does not set them reports 0)."""
    ONE_SPOT = 1  #: every member shares one true coordinate: zooming in cannot separate them
    STACK = 2     #: a collapsed group of pins sharing a spot (spread_on_tap)


class Callout(IntEnum):
    """The two texts of a pin's callout (`Map.callout`)."""
    TITLE = 0
    SUBTITLE = 1


class _Named(IntEnum):
    """An IntEnum whose members also equal their names: ``EventType.MOVED == "MOVED"``. Printed
    and formatted as the name, and hashed as it, so that tables keyed by the names (as events
    carried them before) still find them: ``handlers[event.type]``."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self.name
        return int(self) == other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.name)

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)


class EventType(_Named):
    """What an `Event` reports."""
    SELECTED = 0
    DESELECTED = 1
    LIFTED = 2          #: a hold was recognised: animate the lift
    DRAGGED = 3         #: lon, lat: where the pin would land now
    DROPPED = 4         #: the finger let go of a lifted pin (moved or not)
    DRAG_CANCELLED = 5  #: lon, lat: the restored coordinate
    MOVED = 6           #: the true coordinate changed by a user action: save it
    GEOCODE_REQUEST = 7  #: reverse-geocode lon, lat and answer with `request`
    CALLOUT_CHANGED = 8
    NEARBY = 9          #: `other` is within min_spacing_m, at distance_m
    AUTOPAN = 10        #: move the camera centre by dx, dy screen points
    CLUSTER_TAPPED = 11  #: request: the cluster's key; lon, lat: its point
    STACK_OPENED = 12   #: request: the stack's key; lon, lat: the group's centre (spread_on_tap)
    STACK_CLOSED = 13   #: request: the stack's key; lon, lat: the group's centre


class Cause(_Named):
    """Why a pin MOVED."""
    NONE = 0
    DRAG = 1
    TAP = 2
    PLACE = 3
    UNDO = 4
    REDO = 5
    SNAP = 6
    NUDGE = 7
    KEYBOARD = 8        #: a keyboard drag dropped (`Map.key_drop`)
