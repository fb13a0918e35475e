"""`Map`'s selection of several pins at once (behaviour 23, since 0.4): select many by id or by a
rectangle on the screen, read the selection, and tell the map which modifier keys the user holds.
A drag of one selected pin then moves them all (one undo step); nudges and the keyboard drag move
the whole selection."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

import numpy as np

from . import _check
from ._constants import Modifier, SelectMode
from ._ffi import lib
from ._map_state import _MapState

if TYPE_CHECKING:
    from numpy.typing import NDArray

SelectModeLike = Union[SelectMode, str, int]


class _Selection(_MapState):
    def select_many(self, ids: Any, mode: SelectModeLike = SelectMode.SET) -> None:
        """Changes the selection by `ids` (any sequence or array of integers; a repeated id counts
        once): ``mode`` "set" (the default) makes them the selection, "add" adds them, "remove"
        takes them out, "toggle" flips each (a `SelectMode`, its name or its value). Emits
        DESELECTED for each pin that leaves, then SELECTED for each that joins, in ascending id
        order. All-or-nothing: NotFound for an unknown id, InvalidArgument for an unknown mode, and
        nothing changes. ``select_many([])`` clears the selection."""
        h = _check.open_handle(self)
        m = _check.enum(SelectMode, mode, "mode")
        idv = _check.ids_array(ids)
        lib.pindrop_map_select_many(h, idv.ctypes.data if len(idv) else None, len(idv), int(m))

    def select_in_rect(self, x0: float, y0: float, x1: float, y1: float, mode: SelectModeLike = SelectMode.SET,
                       *, time_ms: float) -> None:
        """Changes the selection by the pins drawn inside the screen rectangle with corners
        (x0, y0) and (x1, y1) in points, in either order, edges included, as `frame` draws them
        at `time_ms`; a cluster (or a collapsed stack) drawn inside counts with all its members.
        ``mode`` as for `select_many`. InvalidArgument for a corner that is not finite or beyond
        the viewport grown by 1e7 points, an unknown mode or a time earlier than the last."""
        h = _check.open_handle(self)
        m = _check.enum(SelectMode, mode, "mode")
        xs = [_check.real(v, n) for v, n in ((x0, "x0"), (y0, "y0"), (x1, "x1"), (y1, "y1"))]
        t = _check.time(time_ms)
        lib.pindrop_map_select_in_rect(h, xs[0], xs[1], xs[2], xs[3], int(m), t)
        self._note_time(t)

    def selection(self) -> "NDArray[np.int64]":
        """The selected ids in ascending order (an int64 array; empty when nothing is selected).
        `selected` is its first, the lowest id."""
        h = _check.open_handle(self)
        while True:
            total = lib.pindrop_map_selection(h, None, 0)
            out = np.empty(total, dtype=np.int64)
            if total == 0 or lib.pindrop_map_selection(h, out.ctypes.data, total) == total:
                return out

    def set_modifiers(self, flags: Optional[Union[Modifier, int]] = None, *, add: bool = False,
                      no_snap: bool = False) -> None:
        """Tells the map which modifier keys the user holds now; they apply from the next call on.
        ``add``: a tap on a pin adds it to the selection or takes it out (Shift or Ctrl in desktop
        GIS); ``no_snap``: snapping is off while held. Or one int of `Modifier` flags:
        ``set_modifiers(Modifier.ADD)``; ``set_modifiers()`` releases them all. InvalidArgument
        for bits other than `Modifier`'s."""
        h = _check.open_handle(self)
        if flags is None:
            bits = (Modifier.ADD if _check.flag(add, "add") else 0) | (Modifier.NO_SNAP if _check.flag(no_snap, "no_snap") else 0)
        else:
            if add or no_snap:
                raise TypeError("pass either the flags or add= / no_snap=, not both")
            bits = _check.fits(_check.integer(flags, "flags"), "flags", "uint32")
        lib.pindrop_map_set_modifiers(h, int(bits))
