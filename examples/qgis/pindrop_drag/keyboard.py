"""The keyboard drag (pindrop 0.3): Tab / Shift+Tab focus the points and clusters in view,
Alt+Space lifts the focused point, arrows move it (or nudge the selected point), Space / Enter drop
it (on a cluster: zoom in; on a stack: open it); each step is announced."""
from __future__ import annotations

import math
from typing import Tuple

from qgis.PyQt.QtCore import Qt

import pindrop

from .library import CLUSTER_STACK, HAS_STACKS
from .view import _distance

ARROWS = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}


class KeyboardDrag:
    """The keyboard path of a drag (a part of `PindropMapTool`)."""

    def focus_step(self, step: int):
        self._set_view()
        self.map.frame(self._now())  # the focus walks what the last frame drew
        f = self.map.focus_step(step)
        if f.kind == "pin":
            self._announce(self._name(f.id))
        elif f.kind == "cluster":
            c = next((c for c in self.map.clusters(self._t) if c.key == f.key), None)
            what = "stack" if c is not None and c.flags & CLUSTER_STACK else "cluster"
            self._announce(f"{what} of {self.summary(f.key, c.count if c else 0)}")
        else:
            self._announce("Nothing to focus here")
        self._redraw()
        return f

    def key_lift(self) -> bool:
        f = self.map.focus
        if f.kind != "pin":
            self._announce("Tab to a point first")
            return False
        why = self._why_read_only()
        if why is not None:
            self._say(f"{self._name(f.id)} cannot be moved: {why}.")
            return False
        self.map.select(f.id)
        try:
            self.map.key_lift(self._now())
        except pindrop.PindropError as e:
            self._announce(f"{self._name(f.id)} cannot be lifted: {e}")
            return False
        lon, lat = self.map.position(f.id)
        self._key_lifted = (f.id, lon, lat)
        self._handle_events()
        self._announce(f"{self._name(f.id)} lifted")
        return True

    def key_activate(self) -> bool:
        """Space / Enter: drop the lifted point; on a focused cluster zoom in, on a stack open it."""
        if self._key_lifted is not None:
            fid = self._key_lifted[0]
            try:
                self.map.key_drop(self._now())
            except pindrop.PindropError:
                return False
            self._key_lifted = None
            self._handle_events()
            self._announce(f"{self._name(fid)} dropped")
            return True
        f = self.map.focus
        if f.kind != "cluster":
            return False
        c = next((c for c in self.map.clusters(self._t) if c.key == f.key), None)
        if c is not None and c.flags & CLUSTER_STACK and HAS_STACKS:
            self.open_stack(c)
        elif c is not None:
            zoom_before = self.view_zoom()
            self._zoom_to_cluster(c.key, c.lon, c.lat)
            self._announce(f"zoomed in to the cluster of {c.count:,} {self.noun}"
                           if zoom_before is None else f"zoomed in to the cluster of {c.count:,} {self.noun}")
        return True

    def open_stack(self, stack) -> None:
        """Opens a collapsed stack (a click on its marker, Space on its focus): spread, every
        point touchable, until the map is clicked elsewhere or Esc."""
        try:
            self.map.open_stack(stack.key, self._now())
        except pindrop.NotFound:
            return
        self._handle_events()  # STACK_OPENED: announced there

    def nudge(self, dx: float, dy: float) -> bool:
        """Moves the selected point by (dx, dy) pixels; False (nothing moved) when no point is
        selected, a gesture holds it, or the move is refused."""
        if self.map is None:
            return False
        if self.map.selected is None:
            ids = self.layer.selectedFeatureIds()
            if len(ids) != 1:
                return False
            self.map.select(ids[0])
        self._set_view()
        try:
            self.map.nudge(dx, dy, self._now())
        except pindrop.PindropError:  # nothing selected, held by a gesture, refused by the area
            return False
        finally:
            self._handle_events()
        if self._key_lifted is not None:
            fid, lon, lat = self._key_lifted
            dragged = [e for e in self.events if e.type == "DRAGGED"]
            if dragged:
                self._announce(f"moved {_describe((lon, lat), (dragged[-1].lon, dragged[-1].lat))}")
        return True

    def _announce(self, text: str) -> None:
        self.announcements.append(text)
        self.announce.emit(text)

    def _name(self, fid: int) -> str:
        return f"{self.noun[:-1].capitalize() if self.noun.endswith('s') else self.noun.capitalize()} {fid}"


def _describe(a: Tuple[float, float], b: Tuple[float, float]) -> str:
    """"12 m north-east": the distance and the compass direction from a to b (lon, lat), on
    pindrop's sphere (pindrop.distance where the library has it)."""
    if hasattr(pindrop, "distance"):
        d, bearing = pindrop.distance(a[0], a[1], b[0], b[1])
    else:
        d = _distance(a, b)
        y = math.sin(math.radians(b[0] - a[0])) * math.cos(math.radians(b[1]))
        x = math.cos(math.radians(a[1])) * math.sin(math.radians(b[1])) - \
            math.sin(math.radians(a[1])) * math.cos(math.radians(b[1])) * math.cos(math.radians(b[0] - a[0]))
        bearing = (math.degrees(math.atan2(y, x)) + 360) % 360
    if d < 0.5:
        return "less than a metre"
    names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
    return f"{d:,.0f} m {names[int((bearing + 22.5) // 45) % 8]}"
