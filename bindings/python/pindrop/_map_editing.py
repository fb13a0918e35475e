"""`Map`'s editing: placing and editing a pin, the selection, callouts, the allowed area, undo and
redo, and keyboard nudges."""
from __future__ import annotations

import ctypes
from ctypes import byref, c_int64, c_size_t
from typing import TYPE_CHECKING, Any, Optional, overload

from . import _check, _geo
from ._constants import Callout
from ._ffi import NO_ID, lib
from ._map_state import _MapState

if TYPE_CHECKING:
    from ._hints import AreaLike, CalloutLike, PointLike


class _Editing(_MapState):
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
