"""`Options`: a map's thresholds and modes, with the defaults of include/pindrop.h (PINDROP_DEFAULT_*,
through the generated `_tables`)."""
from __future__ import annotations

import ctypes
from ctypes import byref
from dataclasses import dataclass, fields
from typing import Any, Dict

from . import _check, _ffi, _tables
from ._constants import OutsidePolicy, SpreadMode
from ._ffi import InvalidArgument, lib

#: Each option's default, by field name (the header's PINDROP_DEFAULT_* macros).
DEFAULTS: Dict[str, float] = {name: default for name, _, _, default, _ in _tables.OPTIONS}


def _real(name: str) -> float:
    return float(DEFAULTS[name])


def _int(name: str) -> int:
    return int(DEFAULTS[name])


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
    #: a touch within this many points of a pin touches it
    hit_radius: float = _real("hit_radius")
    #: movement (points) before a pressed pin follows / a press pans
    drag_threshold: float = _real("drag_threshold")
    #: hold this long to lift a pin; 0 = mouse: drag at once
    lift_delay_ms: float = _real("lift_delay_ms")
    #: a lifted pin marks a point this far above the finger
    lift_height: float = _real("lift_height")
    #: lift animation
    lift_duration_ms: float = _real("lift_duration_ms")
    #: drop animation (ends with a small bounce)
    drop_duration_ms: float = _real("drop_duration_ms")
    #: longest press that still counts as a tap
    tap_max_ms: float = _real("tap_max_ms")
    #: a second tap within this time is a double tap (never moves)
    double_tap_ms: float = _real("double_tap_ms")
    #: ... and within this many points
    double_tap_slop: float = _real("double_tap_slop")
    #: dragging this close to the edge asks the host to pan; 0 = off
    autopan_margin: float = _real("autopan_margin")
    #: points per second at the very edge
    autopan_speed: float = _real("autopan_speed")
    #: NEARBY events for moves closer than this to another pin; 0 = off
    min_spacing_m: float = _real("min_spacing_m")
    #: pins sharing a spot: RING (metres), SPIRAL (points), OFF
    spread_mode: SpreadMode = SpreadMode(_int("spread_mode"))
    #: pins this close to a group's first pin join its group
    spread_tolerance_m: float = _real("spread_tolerance_m")
    #: a drop outside the allowed area: REVERT / SNAP
    outside_policy: OutsidePolicy = OutsidePolicy(_int("outside_policy"))
    #: pins drawn this close (points) form a cluster; 0 = off
    cluster_radius: float = _real("cluster_radius")
    #: clusters only below this zoom, in [0, 30]
    cluster_max_zoom: float = _real("cluster_max_zoom")
    #: points between pins of a SpreadMode.SPIRAL layout
    spread_spacing: float = _real("spread_spacing")
    #: fewest pins a cluster may hold (>= 2; supercluster's minPoints)
    cluster_min_points: int = _int("cluster_min_points")
    #: cluster only pins of one category together
    cluster_by_category: bool = bool(_int("cluster_by_category"))
    #: groups drawn collapsed (ClusterFlag.STACK) until tapped open
    spread_on_tap: bool = bool(_int("spread_on_tap"))
    #: a dragged pin lands on a snap target this close (points); 0 = off
    snap_tolerance: float = _real("snap_tolerance")
    #: the other pins are snap targets too
    snap_to_pins: bool = bool(_int("snap_to_pins"))

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

