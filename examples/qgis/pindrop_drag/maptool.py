"""The map tool: drag the points of a vector point layer with pindrop's behaviour.

- Mouse (the default): press on a point and drag it at once; press elsewhere and drag to pan.
- Touch (``touch=True``): hold a point for 250 ms to lift it 40 points above the finger, then drag;
  a finger that moves before that pans the map.
- Esc cancels the drag: the point goes back, nothing is written.
- Arrow keys move the selected point (a click selects it, or QGIS's selection of one feature) by
  one pixel, ten with Shift: the keyboard alternative to dragging. A series of key presses is one
  step of pindrop's history; each press is one edit of the layer.
- The drop is written to the layer as one undoable edit ("Move point with pindrop"); undoing it in
  QGIS moves the point back, and pindrop follows.
- Points that share a coordinate (Lawndale's 305 trees on one spot) are drawn spread on a ring,
  each with a leg to the true spot, so each can be grabbed and dragged out.
- Below street zoom (Web Mercator zoom 16) points within 60 pixels of each other are
  drawn as clusters with their count; a click on a cluster zooms to where it comes apart. Only
  what is in view is asked for and drawn, so a whole county's inventory stays responsive.
- A drop on a layer that cannot be edited says why instead of snapping back silently.

pindrop works in WGS84 (lon, lat); the tool converts through QGIS's own transforms, so the layer and
the canvas can be in any CRS. pindrop sees the canvas through a host projection: pixel <-> lon/lat.
"""
from __future__ import annotations

import math
import time
from typing import Callable, Dict, List, Optional, Tuple

from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsFeatureRequest,
                       QgsGeometry, QgsPointXY, QgsProject, QgsRectangle, QgsVectorDataProvider, QgsVectorLayer,
                       QgsWkbTypes)
from qgis.gui import QgsMapCanvas, QgsMapMouseEvent, QgsMapTool, QgsRubberBand
from qgis.PyQt.QtCore import QEvent, QObject, QRectF, Qt, QTimer, pyqtSignal
from qgis.PyQt.QtGui import QBrush, QColor, QFont, QKeyEvent, QPen
from qgis.PyQt.QtWidgets import QGraphicsItem

import pindrop

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
MOUSE = dict(lift_delay_ms=0.0, lift_height=0.0)
ARROWS = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}
TOUCH = dict(lift_delay_ms=250.0, lift_height=40.0)
CLUSTERS = dict(cluster_radius=60.0, cluster_max_zoom=16.0)  # street level and closer: every point


class ClusterOverlay(QGraphicsItem):
    """The clusters of the view, drawn in one paint: a disc sized by the count, the count on it.
    Positions are canvas pixels (the scene of a QgsMapCanvas is its viewport)."""

    def __init__(self, canvas: QgsMapCanvas):
        super().__init__()
        self.canvas = canvas
        self.items: List[Tuple[float, float, int]] = []
        self.setZValue(100)
        self._font = QFont()
        self._font.setPointSizeF(8)
        canvas.scene().addItem(self)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        size = self.canvas.mapSettings().outputSize()
        return QRectF(0, 0, size.width(), size.height())

    def set_items(self, items: List[Tuple[float, float, int]]) -> None:
        self.prepareGeometryChange()
        self.setPos(0, 0)
        self.items = items
        self.update()

    def paint(self, painter, option, widget=None) -> None:
        painter.setFont(self._font)
        painter.setPen(QPen(QColor(255, 255, 255), 1.5))
        brush = QBrush(QColor(176, 58, 46, 200))
        for x, y, count in self.items:
            r = 9 + 3 * math.log10(max(count, 1))
            painter.setBrush(brush)
            painter.drawEllipse(QRectF(x - r, y - r, 2 * r, 2 * r))
            painter.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignCenter, str(count))


def _to_map(m2p, x: float, y: float) -> QgsPointXY:
    """Map coordinates of a (fractional) pixel. QGIS 3.22 takes doubles in toMapCoordinatesF only;
    later versions in toMapCoordinates."""
    f = getattr(m2p, "toMapCoordinatesF", None)
    return f(x, y) if f is not None else m2p.toMapCoordinates(x, y)


class PindropMapTool(QgsMapTool):
    """Drags the points of `layer` on `canvas` with pindrop.

    `clock` returns milliseconds on a monotonic clock (tests pass their own). `moved` is emitted
    with (feature id, x, y in the layer's CRS) after each drop written to the layer.
    """

    moved = pyqtSignal(int, float, float)
    #: Why a drop could not be written to the layer (the plugin shows it in the message bar).
    refused = pyqtSignal(str)

    def __init__(self, canvas: QgsMapCanvas, layer: QgsVectorLayer, touch: bool = False,
                 clock: Optional[Callable[[], float]] = None):
        super().__init__(canvas)
        if layer.geometryType() != QgsWkbTypes.PointGeometry:
            raise ValueError(f"layer {layer.name()!r} is not a point layer")
        self.canvas = canvas
        self.layer = layer
        self.touch_mode = touch
        self.clock = clock or (lambda: time.monotonic() * 1000.0)
        self._t = -math.inf
        self._pressed = False
        self._panning = False
        self._writing = False
        self.events: List[pindrop.Event] = []  # every event pindrop reported, for the curious
        self.map: Optional[pindrop.Map] = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.tick)
        # The spread display and the dragged pin: legs (lines) and markers (circles).
        self._legs = QgsRubberBand(canvas, QgsWkbTypes.LineGeometry)
        self._legs.setColor(QColor(176, 58, 46, 150))
        self._legs.setWidth(1)
        self._pins = QgsRubberBand(canvas, QgsWkbTypes.PointGeometry)
        self._pins.setIcon(QgsRubberBand.ICON_CIRCLE)
        self._pins.setIconSize(7)
        self._pins.setColor(QColor(176, 58, 46))
        self._clusters = ClusterOverlay(canvas)
        self.clusters: List[pindrop.ClusterView] = []  # the clusters drawn now
        self.legs: List[List[QgsPointXY]] = []
        self.messages: List[str] = []  # every refusal, for the curious
        self._rebuild()
        layer.geometryChanged.connect(self._geometry_changed)
        layer.featureAdded.connect(self._rebuild)
        layer.featuresDeleted.connect(self._rebuild)
        canvas.extentsChanged.connect(self._redraw)
        canvas.keyPressed.connect(self._key)  # during a mouse drag the canvas keeps keys from tools
        canvas.installEventFilter(self)  # the canvas pans with arrow keys before a tool sees them

    # -- coordinates ------------------------------------------------------------------------------
    def _transforms(self):
        project = QgsProject.instance()
        layer_crs = self.layer.crs()
        canvas_crs = self.canvas.mapSettings().destinationCrs()
        return (QgsCoordinateTransform(layer_crs, WGS84, project), QgsCoordinateTransform(WGS84, layer_crs, project),
                QgsCoordinateTransform(WGS84, canvas_crs, project), QgsCoordinateTransform(canvas_crs, WGS84, project))

    def _project(self, lon: float, lat: float) -> Tuple[float, float]:
        p = self._to_canvas.transform(QgsPointXY(lon, lat))
        q = self.canvas.getCoordinateTransform().transform(p)
        return q.x(), q.y()

    def _unproject(self, x: float, y: float) -> Tuple[float, float]:
        p = self._from_canvas.transform(_to_map(self.canvas.getCoordinateTransform(), x, y))
        return p.x(), p.y()

    def _canvas_point(self, x: float, y: float) -> QgsPointXY:
        return _to_map(self.canvas.getCoordinateTransform(), x, y)

    # -- the pindrop map --------------------------------------------------------------------------
    def _rebuild(self, *args) -> None:
        """(Re)creates the pindrop map from the layer's points: ids are feature ids."""
        if self.map is not None:
            self.map.close()
        self._to_wgs84, self._from_wgs84, self._to_canvas, self._from_canvas = self._transforms()
        self.map = pindrop.Map(**(TOUCH if self.touch_mode else MOUSE), **CLUSTERS)
        ids, lonlat = [], []
        request = QgsFeatureRequest().setNoAttributes()
        for f in self.layer.getFeatures(request):
            g = f.geometry()
            if g is None or g.isEmpty():
                continue
            p = self._to_wgs84.transform(g.asPoint())
            ids.append(f.id())
            lonlat.append((p.x(), p.y()))
        if ids:
            self.map.add_many(ids, lonlat)
        self._set_view()
        self._redraw()

    def set_touch_mode(self, touch: bool) -> None:
        """Touch: hold to lift, 40 points above the finger. Mouse: drag at once, under the pointer."""
        if touch != self.touch_mode:
            self.touch_mode = touch
            self._rebuild()

    def _set_view(self) -> None:
        size = self.canvas.mapSettings().outputSize()
        self._to_wgs84, self._from_wgs84, self._to_canvas, self._from_canvas = self._transforms()
        self.map.set_projection(self._project, self._unproject, max(size.width(), 1), max(size.height(), 1))

    def _now(self) -> float:
        self._t = max(self._t, self.clock())  # pindrop's time never goes back
        return self._t

    # -- input ------------------------------------------------------------------------------------
    def _feed(self, phase: int, e: QgsMapMouseEvent) -> bool:
        t = self._now()
        self._run_timers(t)
        owned = self.map.touch(0, phase, float(e.pos().x()), float(e.pos().y()), t)
        self._handle_events()
        return owned

    def canvasPressEvent(self, e: QgsMapMouseEvent) -> None:
        if e.button() != Qt.LeftButton:
            return
        self._set_view()
        self._pressed = True
        self._panning = False
        self._feed(pindrop.TOUCH_DOWN, e)

    def canvasMoveEvent(self, e: QgsMapMouseEvent) -> None:
        if not self._pressed:
            return
        owned = self._feed(pindrop.TOUCH_MOVE, e)
        if not owned:  # the gesture is the map's: pan it
            self._panning = True
            self.canvas.panAction(e)

    def canvasReleaseEvent(self, e: QgsMapMouseEvent) -> None:
        if e.button() != Qt.LeftButton or not self._pressed:
            return
        self._pressed = False
        self._feed(pindrop.TOUCH_UP, e)
        if self._panning:
            self._panning = False
            self.canvas.panActionEnd(e.pos())

    def keyPressEvent(self, e: QKeyEvent) -> None:
        self._key(e)

    def _key(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key_Escape and self.map is not None:
            self.cancel()
            e.accept()

    def eventFilter(self, watched, event) -> bool:
        """Arrow keys nudge the selected point instead of panning the canvas."""
        if (watched is self.canvas and event.type() == QEvent.KeyPress and event.key() in ARROWS
                and self.map is not None and self.canvas.mapTool() is self):
            dx, dy = ARROWS[event.key()]
            step = 10 if event.modifiers() & Qt.ShiftModifier else 1
            return self.nudge(dx * step, dy * step)
        return False

    def nudge(self, dx: float, dy: float) -> bool:
        """Moves the selected point by (dx, dy) pixels; False (nothing moved) when no point is
        selected, a gesture holds it, or the move is refused."""
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
        return True

    def cancel(self) -> None:
        """Cancels the drag in progress (Esc): the point goes back, nothing is written."""
        t = self._now()
        self.map.cancel_gesture(t)
        self._handle_events()

    # -- timers (touch mode: the lift delay, the double-tap window, animations) -------------------
    def _run_timers(self, t: float) -> None:
        self.map.advance(t)

    def tick(self) -> None:
        """Runs what is due now; the QTimer calls it at pindrop's next deadline."""
        self._run_timers(self._now())
        self._handle_events()

    def _schedule(self) -> None:
        due = self.map.next_deadline
        if math.isinf(due):
            self._timer.stop()
        else:
            self._timer.start(max(0, int(math.ceil(due - self._t))))

    # -- events -> the layer ----------------------------------------------------------------------
    def _handle_events(self) -> None:
        for e in self.map.events():
            self.events.append(e)
            if e.type == "MOVED":
                self._write(e)
            elif e.type == "CLUSTER_TAPPED":
                self._zoom_into(e)
        self._schedule()
        self._redraw()

    def _zoom_into(self, e: pindrop.Event) -> None:
        """A click on a cluster: zoom in to where its points come apart, centred on it."""
        try:
            zoom = self.map.cluster_expansion_zoom(e.request)
        except pindrop.NotFound:
            return
        # The canvas scale that has the ground resolution of that Web Mercator zoom at the cluster.
        ground = math.cos(math.radians(e.lat)) * 2 * math.pi * 6378137.0 / (256 * 2 ** zoom)
        now = self.canvas.mapUnitsPerPixel() * self._ground_per_unit()
        factor = ground / now if now > 0 else 1
        centre = self._to_canvas.transform(QgsPointXY(e.lon, e.lat))
        extent = self.canvas.extent()
        w, h = extent.width() * factor / 2, extent.height() * factor / 2
        self.canvas.setExtent(QgsRectangle(centre.x() - w, centre.y() - h, centre.x() + w, centre.y() + h))
        self.canvas.refresh()

    def _ground_per_unit(self) -> float:
        """Metres on the ground per canvas map unit at the view's centre (along x)."""
        c = self.canvas.extent().center()
        d = self.canvas.mapUnitsPerPixel()
        a = self._from_canvas.transform(c)
        b = self._from_canvas.transform(QgsPointXY(c.x() + d, c.y()))
        ra, rb = math.radians(a.y()), math.radians(b.y())
        h = math.sin((rb - ra) / 2) ** 2 + math.cos(ra) * math.cos(rb) * math.sin(math.radians(b.x() - a.x()) / 2) ** 2
        return 2 * 6378137.0 * math.asin(math.sqrt(h)) / d

    def _why_read_only(self) -> Optional[str]:
        """Why the layer's geometries cannot be changed, or None if they can."""
        layer = self.layer
        if layer.readOnly():
            return "the layer is read-only"
        provider = layer.dataProvider()
        if provider is None or not (provider.capabilities() & QgsVectorDataProvider.ChangeGeometries):
            name = provider.name() if provider is not None else "no"
            return f"its data source ({name} provider) cannot change geometries"
        return None

    def _refuse(self, e: pindrop.Event, why: str) -> None:
        """Puts the point back and says why the move was not saved."""
        self.map.set_position(e.id, e.from_lon, e.from_lat)
        message = f"The move of point {e.id} in {self.layer.name()!r} was not saved: {why}."
        self.messages.append(message)
        self.refused.emit(message)

    def _write(self, e: pindrop.Event) -> None:
        """A drop: one undoable edit of the layer."""
        layer = self.layer
        why = self._why_read_only()
        if why is not None:
            self._refuse(e, why)
            return
        if not layer.isEditable() and not layer.startEditing():
            self._refuse(e, "editing could not be started on the layer")
            return
        p = self._from_wgs84.transform(QgsPointXY(e.lon, e.lat))
        self._writing = True
        try:
            layer.beginEditCommand("Move point with pindrop")
            ok = layer.changeGeometry(e.id, QgsGeometry.fromPointXY(p))
            if ok:
                layer.endEditCommand()
            else:
                layer.destroyEditCommand()
        finally:
            self._writing = False
        if ok:
            self.moved.emit(e.id, p.x(), p.y())
        else:
            self._refuse(e, "the layer refused the new geometry")
        layer.triggerRepaint()

    def _geometry_changed(self, fid: int, geometry: QgsGeometry) -> None:
        """A change made elsewhere (undo/redo, another tool): pindrop follows as the host."""
        if self._writing or self.map is None or geometry is None or geometry.isEmpty():
            return
        p = self._to_wgs84.transform(geometry.asPoint())
        try:
            self.map.set_position(fid, p.x(), p.y())
        except pindrop.NotFound:
            self._rebuild()
            return
        self._redraw()

    # -- drawing ----------------------------------------------------------------------------------
    def drawn(self) -> List[pindrop.PinView]:
        """What pindrop asks to draw now (pins in view, in drawing order; below street zoom only
        the unclustered ones)."""
        if self.map is None:
            return []
        self._set_view()
        return self.map.frame(self._now())

    def _redraw(self, *args) -> None:
        """Draws the clusters in view, the spread pins with their legs, and the dragged pin with a
        leg to where it was. Nothing while another map tool is active."""
        if self.map is None or not self.isActive():
            return
        legs: List[List[QgsPointXY]] = []
        pins: List[QgsPointXY] = []
        for v in self.drawn():
            if v.flags & (pindrop.PIN_SPREAD | pindrop.PIN_DRAGGING):
                a = self._canvas_point(v.anchor_x, v.anchor_y)
                b = self._canvas_point(v.x, v.y)
                legs.append([a, b])
                pins.append(b)
        crs = self.canvas.mapSettings().destinationCrs()
        self._legs.reset(QgsWkbTypes.LineGeometry)
        self._pins.reset(QgsWkbTypes.PointGeometry)
        if legs:
            self._legs.setToGeometry(QgsGeometry.fromMultiPolylineXY(legs), crs)
            self._pins.setToGeometry(QgsGeometry.fromMultiPointXY(pins), crs)
        self.legs = legs  # in canvas coordinates: (true spot, drawn position)
        self.clusters = self.map.clusters(self._t)
        self._clusters.set_items([(c.x, c.y, c.count) for c in self.clusters])
        self._clusters.show()

    def _hide_overlay(self) -> None:
        self._legs.reset(QgsWkbTypes.LineGeometry)
        self._pins.reset(QgsWkbTypes.PointGeometry)
        self._clusters.set_items([])
        self._clusters.hide()
        self.legs, self.clusters = [], []

    # -- lifetime ---------------------------------------------------------------------------------
    def activate(self) -> None:
        super().activate()
        self._redraw()

    def deactivate(self) -> None:
        """Another map tool was chosen: the drag in progress is cancelled and the overlay goes."""
        if self.map is not None:
            self.cancel()
        super().deactivate()
        self._hide_overlay()

    def close(self) -> None:
        """Releases the pindrop map and the overlay."""
        for signal, slot in ((self.layer.geometryChanged, self._geometry_changed),
                             (self.layer.featureAdded, self._rebuild), (self.layer.featuresDeleted, self._rebuild),
                             (self.canvas.extentsChanged, self._redraw), (self.canvas.keyPressed, self._key)):
            try:
                signal.disconnect(slot)
            except (TypeError, RuntimeError):
                pass
        self.canvas.removeEventFilter(self)
        self._timer.stop()
        self._legs.reset(QgsWkbTypes.LineGeometry)
        self._pins.reset(QgsWkbTypes.PointGeometry)
        self.canvas.scene().removeItem(self._legs)
        self.canvas.scene().removeItem(self._pins)
        self.canvas.scene().removeItem(self._clusters)
        if self.map is not None:
            self.map.close()
            self.map = None
