"""The keyboard drag (pindrop 0.3): Tab / Shift+Tab focus the points and clusters in view,
L (or Alt+Space) lifts the focused point, arrows move it (or nudge the selected point), Space / Enter drop
it (on a cluster: zoom in; on a stack: open it); each step is announced."""
from __future__ import annotations

import math
from typing import Tuple

from qgis.PyQt.QtCore import QPoint, Qt

import pindrop

from .library import CLUSTER_STACK, HAS_STACKS
from .view import _distance

#: How far (canvas pixels) the focused or lifted point stays inside the visible canvas: the view
#: follows it when it comes nearer an edge (or the message bar's bottom) than this.
IN_SIGHT_MARGIN = 40

ARROWS = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}


def is_lift_key(key: int, mods) -> bool:
    """The keys that lift the focused point: L, and Alt+Space. Alt+Space opens the window menu on
    Windows and in GNOME, XFCE and some KDE setups, where the window manager takes it before QGIS
    sees it; no window manager takes a plain L, and QGIS binds no shortcut to it."""
    if key == Qt.Key_L:
        return not mods & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier)
    return key == Qt.Key_Space and bool(mods & Qt.AltModifier)


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
        if f.kind in ("pin", "cluster"):
            self._keep_in_sight(f.x, f.y)
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
        self._keep_point_in_sight(f.id)
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
            self._keep_point_in_sight(fid)  # the drop is seen where it is made
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
        self._keep_point_in_sight(self.map.selected)
        if self._key_lifted is not None:
            fid, lon, lat = self._key_lifted
            dragged = [e for e in self.events if e.type == "DRAGGED"]
            if dragged:
                self._announce(f"moved {_describe((lon, lat), (dragged[-1].lon, dragged[-1].lat))}")
        return True

    def visible_area(self) -> Tuple[float, float, float, float]:
        """(left, top, right, bottom) in canvas pixels: the part of the canvas the user sees,
        without the widget that lies over its top (`cover`, QGIS's message bar, laid over the
        canvas by the main window) while it is shown."""
        size = self.canvas.mapSettings().outputSize()
        top = 0.0
        cover = getattr(self, "cover", None)
        try:
            if cover is not None and cover.isVisible():
                origin = self.canvas.viewport().mapToGlobal(QPoint(0, 0))
                corner = cover.mapToGlobal(QPoint(0, 0))
                # The bar is laid out after the message that showed it: take its height as it will be.
                bottom = corner.y() - origin.y() + max(cover.height(), cover.sizeHint().height())
                left, right = corner.x() - origin.x(), corner.x() - origin.x() + cover.width()
                if bottom > 0 and left < size.width() and right > 0:
                    top = min(float(bottom), size.height() / 2.0)
        except RuntimeError:  # the bar is gone (QGIS quitting)
            pass
        return 0.0, top, float(size.width()), float(size.height())

    def _keep_in_sight(self, x: float, y: float) -> Tuple[float, float]:
        """Pans the canvas, as little as it takes, so that the canvas pixel (x, y) lies at least
        IN_SIGHT_MARGIN inside the visible area; returns the pan (dx, dy) in pixels."""
        left, top, right, bottom = self.visible_area()
        m = min(IN_SIGHT_MARGIN, (right - left) / 4, (bottom - top) / 4)
        dx = min(0.0, x - (left + m)) + max(0.0, x - (right - m))
        dy = min(0.0, y - (top + m)) + max(0.0, y - (bottom - m))
        if abs(dx) < 0.5 and abs(dy) < 0.5:
            return 0.0, 0.0
        size = self.canvas.mapSettings().outputSize()
        self.canvas.setCenter(self._canvas_point(size.width() / 2 + dx, size.height() / 2 + dy))
        self.canvas.refresh()
        self._set_view()
        return dx, dy

    def _keep_point_in_sight(self, fid) -> None:
        """The view follows the point `fid` where it is drawn (a lifted or nudged point)."""
        if fid is None or self.map is None:
            return
        self._set_view()
        try:
            x, y = self.map.to_screen(*self.map.display_position(fid))
        except pindrop.PindropError:
            return
        dx, dy = self._keep_in_sight(x, y)
        if dx or dy:
            if self._key_lifted is not None and self._key_lifted[0] == fid:
                # A point held by the keyboard stays at its screen point while the view moves under
                # it (as under a finger): move it back by the pan, to where it was on the ground.
                try:
                    self.map.nudge(-dx, -dy, self._now())
                except pindrop.PindropError:
                    pass
                self._handle_events()
            self._redraw()

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
