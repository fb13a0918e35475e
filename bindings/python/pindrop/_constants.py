"""The constants of the C API as Python enums: `IntEnum` for modes, policies, phases, event types
and causes, `IntFlag` for flags. Members are ints (``SpreadMode.SPIRAL == 2``), so they go to C
unchanged; wherever a call takes one, its name works too (``"spiral"``).

`EventType` and `Cause` members also compare equal to their names (``event.type == "MOVED"``), as
events carried names before these enums existed.

The values come from include/pindrop.h through the generated `_tables`; the members are named here
so that type checkers see them (tools/gen_tables.py's freshness test checks that each enum has
exactly the header's names).
"""
from __future__ import annotations

from enum import IntEnum, IntFlag

from ._tables import (CALLOUT_PARTS, CAUSES, CLUSTER_FLAGS, EVENT_TYPES, MODIFIERS, OUTSIDE_POLICIES,
                      PIN_FLAGS, SELECT_MODES, SPREAD_MODES, TOUCH_PHASES)


class SpreadMode(IntEnum):
    """How pins sharing a spot are drawn (`Options.spread_mode`)."""
    OFF = SPREAD_MODES["OFF"]                 #: drawn on their true coordinate, on top of each other
    RING = SPREAD_MODES["RING"]               #: on a ring of 3n/2 metres around the spot (the default)
    SPIRAL = SPREAD_MODES["SPIRAL"]           #: in screen points, a circle below 9 pins, Leaflet's spiral from 9


class OutsidePolicy(IntEnum):
    """What a drop outside the allowed area does (`Options.outside_policy`)."""
    REVERT = OUTSIDE_POLICIES["REVERT"]       #: the pin goes back where it was (the default)
    SNAP = OUTSIDE_POLICIES["SNAP"]           #: the pin lands on the nearest point inside


class TouchPhase(IntEnum):
    """The phase of a touch or mouse event (`Map.touch`)."""
    DOWN = TOUCH_PHASES["DOWN"]
    MOVE = TOUCH_PHASES["MOVE"]               #: a mouse host sends MOVE only while the button is down
    UP = TOUCH_PHASES["UP"]
    CANCEL = TOUCH_PHASES["CANCEL"]


class PinFlag(IntFlag):
    """`PinView.flags`: what state a drawn pin is in."""
    SELECTED = PIN_FLAGS["SELECTED"]
    EDITING = PIN_FLAGS["EDITING"]
    DRAGGING = PIN_FLAGS["DRAGGING"]
    SPREAD = PIN_FLAGS["SPREAD"]              #: drawn away from its true coordinate (a spread group)
    INVALID = PIN_FLAGS["INVALID"]            #: dragged over a point outside the allowed area: tint it
    FOCUSED = PIN_FLAGS["FOCUSED"]            #: has the keyboard focus (`Map.focus_step`; since 0.3)
    ANIMATING = PIN_FLAGS["ANIMATING"]        #: its drawing still changes with no input (a lift, a drop, a glide): draw again (since 0.3)
    SNAPPED = PIN_FLAGS["SNAPPED"]            #: the dragged pin is snapped to a target (since 0.4)


class SelectMode(IntEnum):
    """How `Map.select_many` and `Map.select_in_rect` change the selection (since 0.4)."""
    SET = SELECT_MODES["SET"]                 #: the pins given become the selection
    ADD = SELECT_MODES["ADD"]                 #: the pins given join it
    REMOVE = SELECT_MODES["REMOVE"]           #: the pins given leave it
    TOGGLE = SELECT_MODES["TOGGLE"]           #: each pin given joins it if it was not in it, else leaves it


class Modifier(IntFlag):
    """The keys the host's user holds (`Map.set_modifiers`; since 0.4)."""
    ADD = MODIFIERS["ADD"]                    #: a tap adds a pin to the selection or takes it out (Shift or Ctrl)
    NO_SNAP = MODIFIERS["NO_SNAP"]            #: snapping is off while held


class ClusterFlag(IntFlag):
    """`ClusterView.flags` (SPEC 0.3; a library that does not set them reports 0)."""
    ONE_SPOT = CLUSTER_FLAGS["ONE_SPOT"]      #: every member shares one true coordinate: zooming in cannot separate them
    STACK = CLUSTER_FLAGS["STACK"]            #: a collapsed group of pins sharing a spot (spread_on_tap)


class Callout(IntEnum):
    """The two texts of a pin's callout (`Map.callout`)."""
    TITLE = CALLOUT_PARTS["TITLE"]
    SUBTITLE = CALLOUT_PARTS["SUBTITLE"]


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
    SELECTED = EVENT_TYPES["SELECTED"]
    DESELECTED = EVENT_TYPES["DESELECTED"]
    LIFTED = EVENT_TYPES["LIFTED"]            #: a hold was recognised: animate the lift
    DRAGGED = EVENT_TYPES["DRAGGED"]          #: lon, lat: where the pin would land now
    DROPPED = EVENT_TYPES["DROPPED"]          #: the finger let go of a lifted pin (moved or not)
    DRAG_CANCELLED = EVENT_TYPES["DRAG_CANCELLED"]  #: lon, lat: the restored coordinate
    MOVED = EVENT_TYPES["MOVED"]              #: the true coordinate changed by a user action: save it
    GEOCODE_REQUEST = EVENT_TYPES["GEOCODE_REQUEST"]  #: reverse-geocode lon, lat and answer with `request`
    CALLOUT_CHANGED = EVENT_TYPES["CALLOUT_CHANGED"]
    NEARBY = EVENT_TYPES["NEARBY"]            #: `other` is within min_spacing_m, at distance_m
    AUTOPAN = EVENT_TYPES["AUTOPAN"]          #: move the camera centre by dx, dy screen points
    CLUSTER_TAPPED = EVENT_TYPES["CLUSTER_TAPPED"]  #: request: the cluster's key; lon, lat: its point
    STACK_OPENED = EVENT_TYPES["STACK_OPENED"]  #: request: the stack's key; lon, lat: the group's centre (spread_on_tap)
    STACK_CLOSED = EVENT_TYPES["STACK_CLOSED"]  #: request: the stack's key; lon, lat: the group's centre


class Cause(_Named):
    """Why a pin MOVED."""
    NONE = CAUSES["NONE"]
    DRAG = CAUSES["DRAG"]
    TAP = CAUSES["TAP"]
    PLACE = CAUSES["PLACE"]
    UNDO = CAUSES["UNDO"]
    REDO = CAUSES["REDO"]
    SNAP = CAUSES["SNAP"]
    NUDGE = CAUSES["NUDGE"]
    KEYBOARD = CAUSES["KEYBOARD"]             #: a keyboard drag dropped (`Map.key_drop`)
