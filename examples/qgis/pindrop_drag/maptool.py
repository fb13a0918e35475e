"""The map tool: drag the points of a vector point layer with pindrop's behaviour.

- Mouse (the default): press on a point and drag it at once; press elsewhere and drag to pan.
- Touch (``touch=True``): hold a point for 250 ms to lift it 40 points above the finger, then drag;
  a finger that moves before that pans the map.
- Esc cancels the drag: the point goes back, nothing is written.
- Arrow keys move the selected point (a click selects it, or QGIS's selection of one feature) by
  one pixel, ten with Shift. A series of key presses is one step of pindrop's history; each press
  is one edit of the layer.
- The keyboard drag (pindrop 0.3): Tab / Shift+Tab focus the points and clusters in view,
  Alt+Space lifts the focused point, arrows move it, Space / Enter drop it (on a cluster: zoom in,
  on a stack: open it), Esc puts it back, Ctrl+Z undoes through the layer's edit buffer; each step
  is announced (`announce`).
- Stacks open on tap (pindrop 0.3, on by default): points on one spot are one marker with their
  count, drawn by its makeup as a cluster is, until clicked (pindrop gives the press to the
  nearest drawn target: the stack's marker, a cluster or a pin).
- Clusters by what they hold (pindrop 0.3): with a category field, coloured by the dominant
  category with a ring of the shares; the tooltip says what a cluster holds.
- The drop is written to the layer as one undoable edit ("Move point with pindrop"); undoing it in
  QGIS moves the point back, and pindrop follows.
- Points that share a coordinate (Lawndale's 305 trees on one spot) are drawn spread on a ring,
  each with a leg to the true spot, so each can be grabbed and dragged out.
- Below street zoom (Web Mercator zoom 16) points within 60 pixels of each other are
  drawn as clusters with their count; a click on a cluster zooms to its expansion zoom (where it
  comes apart), centred on it. Only what is in view is asked for and drawn, so a whole county's
  inventory stays responsive.
- What is seen is what the tool hit-tests: while the tool is active, the layer's own symbols are
  not drawn where pindrop draws (every point below street zoom, the spread and the dragged ones
  above); the layer's renderer is put back as it was when another tool is picked.
- A layer that cannot be edited is said so when the tool is picked and when a point is pressed;
  nothing is lifted.
- One tool lives as long as the plugin, whichever layer is active: its points come from a
  `LayerPins` (pins.py), read once per layer off the GUI thread and kept in step with the edits.

pindrop works in WGS84 (lon, lat); the tool converts through QGIS's own transforms, so the layer and
the canvas can be in any CRS. pindrop sees the canvas through a host projection: pixel <-> lon/lat.
"""
from __future__ import annotations

import math
import time
from typing import Callable, List, Optional, Set, Tuple

from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsFeatureRequest, QgsGeometry,
                       QgsMapLayer, QgsPointXY, QgsProject, QgsReadWriteContext, QgsRenderContext, QgsRuleBasedRenderer,
                       QgsSymbolLayerUtils, QgsVectorDataProvider, QgsVectorLayer, QgsWkbTypes)
from qgis.gui import QgsMapCanvas, QgsMapMouseEvent, QgsMapTool, QgsRubberBand
from qgis.PyQt.QtCore import QEvent, QRectF, QSize, Qt, QTimer, pyqtSignal
from qgis.PyQt.QtGui import QBrush, QColor, QFont, QKeyEvent, QPen
from qgis.PyQt.QtWidgets import QGraphicsItem

import pindrop

from .pins import LayerPins, PinsRegistry

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
EARTH = 6378137.0
MOUSE = dict(lift_delay_ms=0.0, lift_height=0.0)
ARROWS = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}
TOUCH = dict(lift_delay_ms=250.0, lift_height=40.0)
CLUSTERS = dict(cluster_radius=60.0, cluster_max_zoom=16.0)  # street level and closer: every point
#: Single points drawn by the tool below street zoom with their feature's own symbol, at most.
STYLED_SINGLES = 2000
HAS_SUMMARIES = hasattr(pindrop.Map, "cluster_summary")   # pindrop 0.3: what clusters hold
HAS_KEYBOARD = hasattr(pindrop.Map, "focus_step")         # pindrop 0.3: the keyboard drag
HAS_STACKS = hasattr(pindrop.Map, "open_stack")           # pindrop 0.3: stacks that open on tap
CLUSTER_STACK = getattr(pindrop, "CLUSTER_STACK", 2)
PIN_FOCUSED = getattr(pindrop, "PIN_FOCUSED", 32)
PIN_ANIMATING = getattr(pindrop, "PIN_ANIMATING", 64)
#: The points the tool draws itself, not the layer: spread ones, the dragged one, and one still on
#: its way (a glide back after Esc or a refused drop) or settling after its drop.
TOOL_DRAWN = pindrop.PIN_SPREAD | pindrop.PIN_DRAGGING | PIN_ANIMATING
#: Category colours (Tableau 10), category 0 ("none") grey.
PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac"]
NONE_COLOUR = "#9a9a9a"
#: Shares drawn as slices at most (the rest as one grey slice).
SLICES = 6


def is_point_layer(layer) -> bool:
    return (layer is not None and layer.type() == QgsMapLayer.VectorLayer
            and layer.geometryType() == QgsWkbTypes.PointGeometry)


class ClusterOverlay(QGraphicsItem):
    """What the tool draws in one paint: the single points below street zoom (each with its
    feature's symbol from the layer's renderer), then the clusters — a disc sized by the count,
    coloured by the dominant category with a ring of the category shares where the disc is big
    enough, the count on it — the collapsed stacks alike with a second disc behind, and the
    keyboard focus ring. Positions are canvas pixels (the scene of a QgsMapCanvas is its viewport)."""

    def __init__(self, canvas: QgsMapCanvas):
        super().__init__()
        self.canvas = canvas
        self.items: List[tuple] = []   # (x, y, count, shares [(QColor, fraction)], is_stack)
        self.singles: List[Tuple[float, float, object]] = []  # x, y, QPixmap
        self.focus: Optional[Tuple[float, float, float]] = None  # x, y, radius
        self.setZValue(100)
        self._font = QFont()
        self._font.setPointSizeF(8)
        canvas.scene().addItem(self)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        size = self.canvas.mapSettings().outputSize()
        return QRectF(0, 0, size.width(), size.height())

    def set_items(self, items: List[tuple], singles=(), focus=None) -> None:
        self.prepareGeometryChange()
        self.setPos(0, 0)
        self.items = list(items)
        self.singles = list(singles)
        self.focus = focus
        self.update()

    @staticmethod
    def radius(count: int) -> float:
        return 9 + 3 * math.log10(max(count, 1))

    def paint(self, painter, option, widget=None) -> None:
        from qgis.PyQt.QtGui import QPainter
        painter.setRenderHint(QPainter.Antialiasing, True)
        for x, y, pixmap in self.singles:
            painter.drawPixmap(int(round(x - pixmap.width() / 2)), int(round(y - pixmap.height() / 2)), pixmap)
        painter.setFont(self._font)
        white = QPen(QColor(255, 255, 255), 1.5)
        default = QColor(176, 58, 46, 210)
        for x, y, count, shares, is_stack in self.items:
            r = self.radius(count)
            box = QRectF(x - r, y - r, 2 * r, 2 * r)
            fill = QColor(shares[0][0]) if shares else default
            fill.setAlpha(215)
            painter.setPen(white)
            painter.setBrush(QBrush(fill))
            if is_stack:  # a stack: a second disc behind the first (points on one spot)
                painter.drawEllipse(box.translated(2.5, -2.5))
            painter.drawEllipse(box)
            if len(shares) > 1 and r >= 12:  # the makeup: a ring of the category shares
                ring = box.adjusted(-4, -4, 4, 4)
                start = 90 * 16
                for colour, fraction in shares:
                    span = -int(round(fraction * 360 * 16))
                    painter.setPen(QPen(QColor(colour), 4, Qt.SolidLine, Qt.FlatCap))
                    painter.drawArc(ring, start, span)
                    start += span
            painter.setPen(QPen(QColor(255, 255, 255)))
            painter.drawText(box, Qt.AlignCenter, f"{count:,}" if count < 10000 else f"{count / 1000:.0f}k")
        if self.focus is not None:
            x, y, r = self.focus
            painter.setBrush(Qt.NoBrush)
            painter.setPen(QPen(QColor(20, 20, 20), 2.5, Qt.DashLine))
            painter.drawEllipse(QRectF(x - r - 5, y - r - 5, 2 * r + 10, 2 * r + 10))


class RendererSwap:
    """While the tool is active, the layer draws through a temporary renderer: its own renderer's
    rules behind a filter that leaves out what pindrop draws. `restore` puts back a clone of the
    renderer the layer had (or the one the user set meanwhile), so that nothing of the tool's stays
    in the layer's style or a saved project."""

    def __init__(self, layer: QgsVectorLayer):
        self.layer = layer
        self.original = None     # a clone of the layer's own renderer while ours is set
        self.ours = None
        self.expression: Optional[str] = None
        self._setting = False

    @property
    def active(self) -> bool:
        return self.original is not None

    def show_all_but(self, expression: Optional[str]) -> None:
        """Draws only the features for which `expression` is true (None: all of them)."""
        if self.original is not None and expression == self.expression:
            return
        if self.original is None:
            renderer = self.layer.renderer()
            if renderer is None:
                return
            self.original = renderer.clone()
            self.layer.rendererChanged.connect(self._changed)
            QgsProject.instance().writeMapLayer.connect(self._written)
        self.expression = expression
        self._set(self._filtered(expression))

    def _filtered(self, expression: Optional[str]):
        if expression is None:
            return self.original.clone()
        inner = QgsRuleBasedRenderer.convertFromRenderer(self.original.clone())
        root = QgsRuleBasedRenderer.Rule(None)
        gate = QgsRuleBasedRenderer.Rule(None, filterExp=expression, label="pindrop tool active")
        if inner is not None:
            for child in inner.rootRule().children():
                gate.appendChild(child.clone())
        root.appendChild(gate)
        return QgsRuleBasedRenderer(root)

    def _set(self, renderer) -> None:
        self._setting = True
        try:
            self.ours = renderer
            self.layer.setRenderer(renderer)
        finally:
            self._setting = False
        self.layer.triggerRepaint()

    def _changed(self) -> None:
        """The layer's renderer was set by someone else (its style dialog): that one is the layer's
        own now, drawn with the same filter."""
        if self._setting or self.original is None:
            return
        renderer = self.layer.renderer()
        if renderer is None or renderer is self.ours:
            return
        self.original = renderer.clone()
        self._set(self._filtered(self.expression))

    def _written(self, layer, element, document) -> None:
        """A project saved while the tool is active keeps the layer's own renderer."""
        if layer is not self.layer or self.original is None:
            return
        ours = element.firstChildElement("renderer-v2")
        if not ours.isNull():
            element.replaceChild(self.original.save(document, QgsReadWriteContext()), ours)

    def restore(self) -> None:
        if self.original is None:
            return
        for signal, slot in ((self.layer.rendererChanged, self._changed),
                             (QgsProject.instance().writeMapLayer, self._written)):
            try:
                signal.disconnect(slot)
            except (TypeError, RuntimeError):
                pass
        original, self.original, self.ours, self.expression = self.original, None, None, None
        try:
            self.layer.setRenderer(original)
            self.layer.triggerRepaint()
        except RuntimeError:  # the layer is gone
            pass


def _to_map(m2p, x: float, y: float) -> QgsPointXY:
    """Map coordinates of a (fractional) pixel. QGIS 3.22 takes doubles in toMapCoordinatesF only;
    later versions in toMapCoordinates."""
    f = getattr(m2p, "toMapCoordinatesF", None)
    return f(x, y) if f is not None else m2p.toMapCoordinates(x, y)


def _distance(a: Tuple[float, float], b: Tuple[float, float]) -> float:
    (lon1, lat1), (lon2, lat2) = (map(math.radians, a)), (map(math.radians, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(min(1.0, math.sqrt(h)))


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


class PindropMapTool(QgsMapTool):
    """Drags the points of the point layer it is given (`set_layer`) on `canvas` with pindrop.

    `clock` returns milliseconds on a monotonic clock (tests pass their own). `moved` is emitted
    with (feature id, x, y in the layer's CRS) after each drop written to the layer. The layer's
    points come from `registry` (one read per layer, shared by the tools that use it).
    """

    moved = pyqtSignal(int, float, float)
    #: Why a point cannot be moved (the plugin shows it in the message bar).
    refused = pyqtSignal(str)
    #: What the tool is doing, for the status bar ("reading the points of 'trees': 43 %").
    status = pyqtSignal(str)
    #: What the keyboard did, for the status bar and the message bar ("Tree 5603 lifted").
    announce = pyqtSignal(str)

    def __init__(self, canvas: QgsMapCanvas, layer: Optional[QgsVectorLayer] = None, touch: bool = False,
                 clock: Optional[Callable[[], float]] = None, registry: Optional[PinsRegistry] = None):
        super().__init__(canvas)
        if layer is not None and not is_point_layer(layer):
            raise ValueError(f"layer {layer.name()!r} is not a point layer")
        self.canvas = canvas
        self.layer: Optional[QgsVectorLayer] = None
        self.pins: Optional[LayerPins] = None
        self.touch_mode = touch
        self.spread_on_tap = True
        self.noun = "points"           # what the points are called in announcements and tooltips
        self.clock = clock or (lambda: time.monotonic() * 1000.0)
        self.registry = registry if registry is not None else PinsRegistry()
        self._own_registry = registry is None
        self._t = -math.inf
        self._pressed = False
        self._panning = False
        self._closed = False
        self._swap: Optional[RendererSwap] = None
        self._single_icons = {}
        self._tooltip: Optional[str] = None
        self._key_lifted: Optional[Tuple[int, float, float]] = None  # id, lon, lat where it was lifted
        self.events: List[pindrop.Event] = []  # every event pindrop reported, for the curious
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.tick)
        # While a drawn pin is flagged ANIMATING (a drop falling, a glide back after Esc or a
        # refused drop), the overlay is drawn again every 16 ms: pindrop's next deadline does not
        # count animations, and nothing else would redraw a glide that has no input behind it.
        self._animation = QTimer(self)
        self._animation.setSingleShot(True)
        self._animation.setInterval(16)
        self._animation.timeout.connect(self._redraw)
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
        self.singles: List[pindrop.PinView] = []  # the single points the tool draws itself
        self.hidden: Set[int] = set()  # features the layer does not draw while the tool is active
        self.legs: List[List[QgsPointXY]] = []
        self.messages: List[str] = []  # every refusal, for the curious
        self._locked = None  # (map, id): the point of a read-only layer held by a press
        self.announcements: List[str] = []  # everything announced
        canvas.extentsChanged.connect(self._redraw)
        canvas.destinationCrsChanged.connect(self._redraw)
        canvas.keyPressed.connect(self._key)  # during a mouse drag the canvas keeps keys from tools
        canvas.installEventFilter(self)  # the canvas pans with arrow keys before a tool sees them
        self.set_layer(layer)

    @property
    def map(self) -> Optional[pindrop.Map]:
        """The pindrop map of the layer, None while it is being read (or without a layer)."""
        return self.pins.map if self.pins is not None else None

    def options(self) -> dict:
        options = dict(**(TOUCH if self.touch_mode else MOUSE), **CLUSTERS)
        if HAS_STACKS:
            options["spread_on_tap"] = bool(self.spread_on_tap)
        return options

    def set_spread_on_tap(self, on: bool) -> None:
        """Stacks drawn as one marker with their count until tapped (on, the default), or always
        spread on their ring (off)."""
        if on != self.spread_on_tap:
            self.spread_on_tap = on
            if self.pins is not None:
                self.pins.set_options(self.options())

    # -- the layer --------------------------------------------------------------------------------
    def set_layer(self, layer: Optional[QgsVectorLayer]) -> None:
        """Drags the points of `layer` from now on (None: no layer; presses pan the map). The
        layer's points are read the first time the tool is active on it."""
        if layer is not None and not is_point_layer(layer):
            raise ValueError(f"layer {layer.name()!r} is not a point layer")
        if layer is self.layer and layer is not None:
            return
        self._leave_layer()
        self.layer = layer
        if layer is None:
            self._redraw()
            return
        from .settings import layer_settings, spread_on_tap
        self.spread_on_tap = spread_on_tap()
        self.pins = self.registry.get(layer, self.options())
        value, category, self.noun = layer_settings(layer)
        self.pins.set_fields(value, category)
        self.pins.ready.connect(self._pins_ready)
        self.pins.changed.connect(self._redraw)
        self.pins.failed.connect(self._failed)
        layer.willBeDeleted.connect(self._layer_deleted)
        if self.isActive():
            self._start()
        self._redraw()

    def apply_settings(self) -> None:
        """The settings changed (the plugin's dialog): fields, name, stacks on tap."""
        from .settings import layer_settings, spread_on_tap
        self.set_spread_on_tap(spread_on_tap())
        if self.layer is not None and self.pins is not None:
            value, category, self.noun = layer_settings(self.layer)
            self.pins.set_fields(value, category)
        self._redraw()

    def _leave_layer(self) -> None:
        self._unlock()
        if self.pins is not None:
            if self.map is not None:
                self.map.cancel_gesture(self._now())
                for _ in self.map.events():
                    pass
            for signal, slot in ((self.pins.ready, self._pins_ready), (self.pins.changed, self._redraw),
                                 (self.pins.failed, self._failed)):
                try:
                    signal.disconnect(slot)
                except (TypeError, RuntimeError):
                    pass
        if self.layer is not None:
            try:
                self.layer.willBeDeleted.disconnect(self._layer_deleted)
            except (TypeError, RuntimeError):
                pass
        self._restore_renderer()
        self._pressed = self._panning = False
        self._single_icons = {}
        self.pins, self.layer = None, None
        self._hide_overlay()

    def _layer_deleted(self) -> None:
        self._swap = None  # nothing to restore on a layer that is going
        self.set_layer(None)

    def _start(self) -> None:
        """The tool is active on its layer: read it (once), say if it cannot be edited."""
        self.pins.start()
        if self.map is None:
            self.status.emit(f"pindrop: reading the points of {self.layer.name()!r}…")
        why = self._why_read_only()
        if why is not None:
            self._say(f"The points of {self.layer.name()!r} cannot be moved: {why}.")

    def _pins_ready(self) -> None:
        self._pressed = self._panning = False
        self.status.emit(f"pindrop: {len(self.map):,} points of {self.layer.name()!r}")
        self._redraw()

    def _failed(self, message: str) -> None:
        self._say(message)

    def set_touch_mode(self, touch: bool) -> None:
        """Touch: hold to lift, 40 points above the finger. Mouse: drag at once, under the pointer.
        The layer is not read again: a map with the other options is built on another thread."""
        if touch != self.touch_mode:
            self.touch_mode = touch
            if self.pins is not None:
                self.pins.set_options(self.options())

    # -- coordinates ------------------------------------------------------------------------------
    def _transforms(self):
        project = QgsProject.instance()
        canvas_crs = self.canvas.mapSettings().destinationCrs()
        return QgsCoordinateTransform(WGS84, canvas_crs, project), QgsCoordinateTransform(canvas_crs, WGS84, project)

    def _project(self, lon: float, lat: float) -> Tuple[float, float]:
        p = self._to_canvas.transform(QgsPointXY(lon, lat))
        q = self.canvas.getCoordinateTransform().transform(p)
        return q.x(), q.y()

    def _unproject(self, x: float, y: float) -> Tuple[float, float]:
        p = self._from_canvas.transform(_to_map(self.canvas.getCoordinateTransform(), x, y))
        return p.x(), p.y()

    def _canvas_point(self, x: float, y: float) -> QgsPointXY:
        return _to_map(self.canvas.getCoordinateTransform(), x, y)

    def _set_view(self) -> bool:
        """Gives pindrop the canvas's view; False when there is no map (yet)."""
        if self.map is None:
            return False
        size = self.canvas.mapSettings().outputSize()
        self._to_canvas, self._from_canvas = self._transforms()
        self.map.set_projection(self._project, self._unproject, max(size.width(), 1), max(size.height(), 1))
        return True

    def view_zoom(self) -> Optional[float]:
        """The Web Mercator zoom of the canvas as pindrop reckons it for a host projection: the
        zoom whose ground resolution at the view's centre is the canvas's there, metres per pixel
        averaged over both screen axes."""
        size = self.canvas.mapSettings().outputSize()
        self._to_canvas, self._from_canvas = self._transforms()
        cx, cy, h = size.width() / 2, size.height() / 2, 2.0
        try:
            c = self._unproject(cx, cy)
            e, w = self._unproject(cx + h, cy), self._unproject(cx - h, cy)
            s, n = self._unproject(cx, cy + h), self._unproject(cx, cy - h)
        except Exception:
            return None
        res = (_distance(w, e) + _distance(n, s)) / (4 * h)
        lat = min(abs(c[1]), 85.0511287798066)
        if not res > 0:
            return None
        return math.log2(math.cos(math.radians(lat)) * 2 * math.pi * EARTH / (256 * res))

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
        self._pressed = True
        self._panning = False
        if not self._set_view():
            if self.pins is not None and self.pins.busy:
                self.status.emit(f"pindrop: still reading the points of {self.layer.name()!r} "
                                 f"({self.pins.progress:.0f} %)")
            return  # no map (yet): the press pans
        self._unlock()
        why = self._why_read_only()
        x, y = float(e.pos().x()), float(e.pos().y())
        hit = self.map.hit_test(x, y) if why is not None else None
        if hit is not None:
            # A layer that cannot be edited: pindrop still decides what the press is on (the
            # nearest drawn target: a point, a cluster or a stack's marker), but the one point
            # it could lift, the one its hit test finds, is not draggable for this press.
            self.map.set_draggable(hit, False)
            self._locked = (self.map, hit)
        self._feed(pindrop.TOUCH_DOWN, e)
        if hit is not None and self._pressed_point(hit, x, y):
            self._say(f"Point {hit} of {self.layer.name()!r} cannot be moved: {why}.")

    def _pressed_point(self, fid: int, x: float, y: float) -> bool:
        """Whether pindrop gave the press at (x, y) to point `fid` (its hit test's answer there)
        rather than to a cluster or a stack's marker: a marker takes a press only when it is
        drawn within hit_radius and strictly nearer than the point (docs/clusters.md). Only
        the message depends on this; what the press does is pindrop's."""
        try:
            px, py = self.map.to_screen(*self.map.display_position(fid))
        except pindrop.PindropError:
            return False
        d_point = math.hypot(px - x, py - y)
        r = self.map.options.hit_radius
        return not any(math.hypot(c.x - x, c.y - y) <= r and math.hypot(c.x - x, c.y - y) < d_point
                       for c in self.clusters)

    def _unlock(self) -> None:
        """Makes the point a press on a read-only layer held still draggable again in its map."""
        if self._locked is not None:
            m, fid = self._locked
            self._locked = None
            if not m.closed:
                try:
                    m.set_draggable(fid, True)
                except pindrop.PindropError:
                    pass

    def canvasMoveEvent(self, e: QgsMapMouseEvent) -> None:
        if not self._pressed:
            self._hover(e)
            return
        owned = self.map is not None and self._feed(pindrop.TOUCH_MOVE, e)
        if not owned:  # the gesture is the map's: pan it
            self._panning = True
            self.canvas.panAction(e)

    def canvasReleaseEvent(self, e: QgsMapMouseEvent) -> None:
        if e.button() != Qt.LeftButton or not self._pressed:
            return
        self._pressed = False
        if self.map is not None:
            self._feed(pindrop.TOUCH_UP, e)
        self._unlock()
        if self._panning:
            self._panning = False
            self.canvas.panActionEnd(e.pos())

    def _hover(self, e: QgsMapMouseEvent) -> None:
        """The tooltip of the cluster under the pointer: what it holds."""
        from qgis.PyQt.QtWidgets import QToolTip
        c = self.cluster_at(float(e.pos().x()), float(e.pos().y())) if self.map is not None else None
        if c is None:
            if self._tooltip is not None:
                QToolTip.hideText()
                self._tooltip = None
            return
        text = self.summary(c.key, c.count)
        if c.flags & CLUSTER_STACK:
            text += " · click to open the stack" if self.spread_on_tap else ""
        if text != self._tooltip:
            self._tooltip = text
            QToolTip.showText(self.canvas.mapToGlobal(e.pos()), text, self.canvas)

    def keyPressEvent(self, e: QKeyEvent) -> None:
        self._key(e)

    def _key(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key_Escape and self.map is not None and self.isActive():
            lifted, self._key_lifted = self._key_lifted, None
            self.cancel()
            if lifted is not None:
                self._announce(f"{self._name(lifted[0])} back where it was")
            e.accept()

    def eventFilter(self, watched, event) -> bool:
        """The keyboard while the tool is active: Tab / Shift+Tab move the focus over what is
        drawn, Alt+Space lifts the focused point, arrows move it (Shift: 10 pixels) or nudge the
        selected point, Space / Enter drop it (on a cluster: zoom in; on a stack: open it), Esc
        cancels, Ctrl+Z undoes through the layer's edit buffer. The canvas would pan with the
        arrows and Qt move the focus with Tab before a tool saw them."""
        if watched is not self.canvas or event.type() != QEvent.KeyPress or self.map is None \
                or self.canvas.mapTool() is not self:
            return False
        key, mods = event.key(), event.modifiers()
        if key in ARROWS:
            dx, dy = ARROWS[key]
            step = 10 if mods & Qt.ShiftModifier else 1
            return self.nudge(dx * step, dy * step)
        if not HAS_KEYBOARD:
            return False
        if key in (Qt.Key_Tab, Qt.Key_Backtab) and not mods & (Qt.ControlModifier | Qt.AltModifier):
            self.focus_step(-1 if key == Qt.Key_Backtab or mods & Qt.ShiftModifier else 1)
            return True
        if key == Qt.Key_Space and mods & Qt.AltModifier:
            self.key_lift()
            return True
        if key in (Qt.Key_Space, Qt.Key_Return, Qt.Key_Enter) and not mods & Qt.AltModifier:
            return self.key_activate()
        if key == Qt.Key_Z and mods & Qt.ControlModifier and self.layer is not None:
            if self.layer.undoStack().canUndo():
                text = self.layer.undoStack().undoText()
                self.layer.undoStack().undo()
                self._announce(f"Undone: {text}")
            return True
        return False

    # -- the keyboard (pindrop 0.3) -----------------------------------------------------------------
    def _announce(self, text: str) -> None:
        self.announcements.append(text)
        self.announce.emit(text)

    def _name(self, fid: int) -> str:
        return f"{self.noun[:-1].capitalize() if self.noun.endswith('s') else self.noun.capitalize()} {fid}"

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

    def open_stack(self, stack) -> None:
        """Opens a collapsed stack (a click on its marker, Space on its focus): spread, every
        point touchable, until the map is clicked elsewhere or Esc."""
        try:
            self.map.open_stack(stack.key, self._now())
        except pindrop.NotFound:
            return
        self._handle_events()  # STACK_OPENED: announced there

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

    def cancel(self) -> None:
        """Cancels the drag in progress (Esc): the point goes back, nothing is written."""
        if self.map is None:
            return
        self.map.cancel_gesture(self._now())
        self._handle_events()

    # -- timers (touch mode: the lift delay, the double-tap window, animations) -------------------
    def _run_timers(self, t: float) -> None:
        self.map.advance(t)

    def tick(self) -> None:
        """Runs what is due now; the QTimer calls it at pindrop's next deadline."""
        if self.map is None:
            return
        self._run_timers(self._now())
        self._handle_events()

    def _schedule(self) -> None:
        due = self.map.next_deadline if self.map is not None else math.inf
        if math.isinf(due):
            self._timer.stop()
        else:
            self._timer.start(max(0, int(math.ceil(due - self._t))))

    # -- events -> the layer ----------------------------------------------------------------------
    def _handle_events(self) -> None:
        if self.map is None:
            return
        for e in self.map.events():
            self.events.append(e)
            if e.type == "MOVED":
                self._write(e)
            elif e.type == "CLUSTER_TAPPED":
                self._zoom_into(e)
            elif e.type == "STACK_OPENED":  # a tap on its marker (pindrop's nearest target) or Space
                stack = next((c for c in self.clusters if c.key == e.request), None)
                self._announce(f"stack of {stack.count:,} {self.noun} opened" if stack else "stack opened")
        self._schedule()
        self._redraw()

    def _zoom_into(self, e: pindrop.Event) -> None:
        """A click on a cluster: centre on it and zoom to its expansion zoom."""
        self._zoom_to_cluster(e.request, e.lon, e.lat)

    def _zoom_to_cluster(self, key: int, lon: float, lat: float) -> None:
        """Centres on a cluster and zooms to its expansion zoom (the lowest zoom at which it comes
        apart), as pindrop reckons the canvas's zoom."""
        try:
            zoom = self.map.cluster_expansion_zoom(key)
        except pindrop.NotFound:
            return
        self._to_canvas, self._from_canvas = self._transforms()
        centre = self._to_canvas.transform(QgsPointXY(lon, lat))
        self.canvas.setCenter(centre)
        target = zoom + 1e-3  # just past the level's boundary, whatever the rounding
        for _ in range(4):  # the canvas's CRS need not be Mercator: measure again after each step
            now = self.view_zoom()
            if now is None or target <= now < target + 1e-3:
                break
            self.canvas.zoomByFactor(2 ** (now - target - 5e-4), centre)
        self.canvas.refresh()

    def _why_read_only(self) -> Optional[str]:
        """Why the layer's geometries cannot be changed, or None if they can."""
        layer = self.layer
        if layer is None:
            return None
        if layer.readOnly():
            return "the layer is read-only"
        provider = layer.dataProvider()
        if provider is None or not (provider.capabilities() & QgsVectorDataProvider.ChangeGeometries):
            name = provider.name() if provider is not None else "no"
            return f"its data source ({name} provider) cannot change geometries"
        return None

    def _say(self, message: str) -> None:
        self.messages.append(message)
        self.refused.emit(message)

    def _refuse(self, e: pindrop.Event, why: str) -> None:
        """Puts the point back and says why the move was not saved."""
        self.map.set_position(e.id, e.from_lon, e.from_lat)
        self._say(f"The move of point {e.id} in {self.layer.name()!r} was not saved: {why}.")

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
        p = self.pins.from_wgs84.transform(QgsPointXY(e.lon, e.lat))
        self.pins.writing = True
        try:
            layer.beginEditCommand("Move point with pindrop")
            ok = layer.changeGeometry(e.id, QgsGeometry.fromPointXY(p))
            if ok:
                layer.endEditCommand()
            else:
                layer.destroyEditCommand()
        finally:
            self.pins.writing = False
        if ok:
            self.moved.emit(e.id, p.x(), p.y())
        else:
            self._refuse(e, "the layer refused the new geometry")
        layer.triggerRepaint()

    # -- drawing ----------------------------------------------------------------------------------
    def drawn(self) -> List[pindrop.PinView]:
        """What pindrop asks to draw now (pins in view, in drawing order; below street zoom only
        the unclustered ones)."""
        if not self._set_view():
            return []
        return self.map.frame(self._now())

    def clustered_view(self) -> bool:
        """Below street zoom: pindrop draws every point in view (clusters and single points)."""
        z = self.view_zoom()
        return z is not None and z < CLUSTERS["cluster_max_zoom"]

    def _redraw(self, *args) -> None:
        """Draws the clusters in view, the single points below street zoom, the spread pins with
        their legs and the dragged pin with a leg to where it was; the layer leaves out what the
        tool draws. Nothing while another map tool is active or the layer is being read."""
        if self.map is None or not self.isActive():
            if not self.isActive() or self.pins is None:
                self._hide_overlay()
            return
        legs: List[List[QgsPointXY]] = []
        pins: List[QgsPointXY] = []
        hidden: Set[int] = set()
        views = self.drawn()
        clustered = self.clustered_view()
        for v in views:
            if v.flags & TOOL_DRAWN:
                a = self._canvas_point(v.anchor_x, v.anchor_y)
                b = self._canvas_point(v.x, v.y)
                legs.append([a, b])
                pins.append(b)
                hidden.add(v.id)
        crs = self.canvas.mapSettings().destinationCrs()
        self._legs.reset(QgsWkbTypes.LineGeometry)
        self._pins.reset(QgsWkbTypes.PointGeometry)
        if legs:
            self._legs.setToGeometry(QgsGeometry.fromMultiPolylineXY(legs), crs)
            self._pins.setToGeometry(QgsGeometry.fromMultiPointXY(pins), crs)
        self.legs = legs  # in canvas coordinates: (true spot, drawn position)
        if any(v.flags & PIN_ANIMATING for v in views):
            self._animation.start()
        self.clusters = self.map.clusters(self._t)
        self.singles = [v for v in views if not v.flags & TOOL_DRAWN] \
            if clustered else []
        items = []
        for c in self.clusters:
            is_stack = bool(c.flags & CLUSTER_STACK)
            items.append((c.x, c.y, c.count, self._shares(c.key), is_stack))
            if is_stack and not clustered:  # its pins are drawn by the stack marker, not the layer
                try:
                    hidden.update(int(i) for i in self.map.cluster_members(c.key))
                except pindrop.NotFound:
                    pass
        self._clusters.set_items(items, self._styled(self.singles), self._focus_ring(views))
        self._clusters.show()
        self.hidden = hidden
        self._hide_in_layer(clustered, hidden)

    def _hide_in_layer(self, clustered: bool, hidden: Set[int]) -> None:
        if self.layer is None:
            return
        if self._swap is None:
            self._swap = RendererSwap(self.layer)
        if clustered:
            expression = "FALSE"  # pindrop draws every point in view
        elif hidden:
            expression = f"$id NOT IN ({','.join(str(i) for i in sorted(hidden))})"
        else:
            expression = None
        self._swap.show_all_but(expression)

    # -- what clusters hold (pindrop 0.3) ---------------------------------------------------------
    def colour(self, code: int) -> str:
        """The colour of a category: the layer's own when its renderer is categorized on the
        category field, else a qualitative palette; grey for none."""
        if code == 0 or self.pins is None:
            return NONE_COLOUR
        own = self._renderer_colours()
        name = self.pins.category_names[code] if code < len(self.pins.category_names) else None
        if name is not None and name in own:
            return own[name]
        return PALETTE[(code - 1) % len(PALETTE)]

    def _renderer_colours(self) -> dict:
        renderer = self._swap.original if self._swap is not None and self._swap.active else \
            (self.layer.renderer() if self.layer is not None else None)
        if renderer is None or renderer.type() != "categorizedSymbol" or self.pins is None \
                or renderer.classAttribute() != self.pins.category_field:
            return {}
        return {str(c.value()): c.symbol().color().name() for c in renderer.categories() if c.symbol() is not None}

    def _shares(self, key: int):
        """[(colour, fraction)] of a cluster's categories, most members first (SLICES at most, the
        rest as one grey share); [] without categories."""
        if not HAS_SUMMARIES or self.pins is None or not self.pins.category_field:
            return []
        try:
            counts = self.map.cluster_categories(key, as_dict=True)
        except pindrop.NotFound:
            return []
        total = sum(counts.values()) or 1
        items = list(counts.items())
        shares = [(self.colour(code), n / total) for code, n in items[:SLICES]]
        rest = sum(n for _, n in items[SLICES:])
        if rest:
            shares.append((NONE_COLOUR, rest / total))
        return shares

    def summary(self, key: int, count: int) -> str:
        """What a cluster holds, in words: "1,204 trees · 38 species · mostly Jacaranda · mean
        trunk 31" (the parts the fields allow)."""
        parts = [f"{count:,} {self.noun}"]
        if HAS_SUMMARIES and self.pins is not None:
            try:
                s = self.map.cluster_summary(key)
                counts = self.map.cluster_categories(key, as_dict=True) if self.pins.category_field else {}
            except pindrop.NotFound:
                return parts[0]
            named = {c: n for c, n in counts.items() if c != 0}
            if named:
                from .settings import categories_are
                field = self.pins.category_field
                label = categories_are(self.layer) or (
                    field if field.endswith("s") else (field[:-1] + "ies" if field.endswith("y") else field + "s"))
                parts.append(f"{len(named):,} {label}")
                top = next(iter(named))
                parts.append(f"mostly {self.pins.category_names[top]}" if named[top] * 2 < s.count
                             else f"{named[top] * 100 // s.count} % {self.pins.category_names[top]}")
            if self.pins.value_field and s.valued:
                mean = s.value_sum / s.valued
                parts.append(f"mean {self.pins.value_field} " + (f"{mean:,.0f}" if abs(mean) >= 100 else f"{mean:.3g}"))
            if s.flags & getattr(pindrop, "CLUSTER_ONE_SPOT", 1):
                parts.append("all on one spot")
        return " · ".join(parts)

    def cluster_at(self, x: float, y: float):
        """The cluster or stack drawn under screen point (x, y), or None."""
        best = None
        for c in self.clusters:
            d = math.hypot(c.x - x, c.y - y)
            if d <= ClusterOverlay.radius(c.count) + 2 and (best is None or d < best[0]):
                best = (d, c)
        return best[1] if best else None

    def _focus_ring(self, views):
        if not HAS_KEYBOARD or self.map is None:
            return None
        f = self.map.focus
        if f.kind == "cluster":
            c = next((c for c in self.clusters if c.key == f.key), None)
            return (f.x, f.y, ClusterOverlay.radius(c.count) if c else 10)
        if f.kind == "pin":
            return (f.x, f.y, 6)
        return None

    def _restore_renderer(self) -> None:
        if self._swap is not None:
            self._swap.restore()
            self._swap = None

    def _styled(self, singles: List[pindrop.PinView]):
        """(x, y, pixmap) of the single points, each drawn with its feature's symbol."""
        if not singles or self.layer is None:
            return []
        renderer = self._swap.original if self._swap is not None and self._swap.active else self.layer.renderer()
        if renderer is None:
            return []
        scale = self.canvas.mapSettings().outputDpi() / 25.4
        out = []
        context = QgsRenderContext.fromMapSettings(self.canvas.mapSettings())
        fetch = [v.id for v in singles[:STYLED_SINGLES] if v.id not in self._single_icons]
        if fetch:
            request = QgsFeatureRequest().setFilterFids(fetch).setFlags(QgsFeatureRequest.NoGeometry)
            renderer = renderer.clone()
            renderer.startRender(context, self.layer.fields())
            try:
                for f in self.layer.getFeatures(request):
                    symbol = renderer.originalSymbolForFeature(f, context)
                    self._single_icons[f.id()] = self._icon(symbol, scale)
            finally:
                renderer.stopRender(context)
        fallback = self._icon(None, scale)
        for v in singles:
            out.append((v.x, v.y, self._single_icons.get(v.id, fallback)))
        return out

    def _icon(self, symbol, scale: float):
        key = ("symbol", symbol.dump() if symbol is not None else None)
        icon = self._single_icons.get(key)
        if icon is None:
            from qgis.core import QgsMarkerSymbol
            if symbol is None:
                symbol = QgsMarkerSymbol.createSimple({"name": "circle", "color": "176,58,46", "size": "2"})
            size = max(4, int(math.ceil(symbol.size() * scale)) + 4) if hasattr(symbol, "size") else 12
            icon = QgsSymbolLayerUtils.symbolPreviewPixmap(symbol, QSize(size, size), 0)
            self._single_icons[key] = icon
        return icon

    def _hide_overlay(self) -> None:
        self._legs.reset(QgsWkbTypes.LineGeometry)
        self._pins.reset(QgsWkbTypes.PointGeometry)
        self._clusters.set_items([])
        self._clusters.hide()
        self.legs, self.clusters, self.singles = [], [], []

    # -- lifetime ---------------------------------------------------------------------------------
    def activate(self) -> None:
        super().activate()
        if self.pins is not None and not self._closed:
            self._start()
        self._redraw()

    def deactivate(self) -> None:
        """Another map tool was chosen: the drag in progress is cancelled, the overlay goes and
        the layer's renderer is put back."""
        try:
            self.cancel()
            self._pressed = self._panning = False
            self._key_lifted = None
            super().deactivate()
            self._hide_overlay()
            self._restore_renderer()
        except RuntimeError:  # the canvas is being deleted (QGIS quitting)
            pass

    def close(self) -> None:
        """Releases the overlay and the tool's hold on the layer (the plugin's unload). The tool
        is still safe to use afterwards: with no layer, a press pans."""
        if self._closed:
            return
        self._leave_layer()
        self._closed = True
        for signal, slot in ((self.canvas.extentsChanged, self._redraw), (self.canvas.keyPressed, self._key),
                             (self.canvas.destinationCrsChanged, self._redraw)):
            try:
                signal.disconnect(slot)
            except (TypeError, RuntimeError):
                pass
        self.canvas.removeEventFilter(self)
        self._timer.stop()
        self._animation.stop()
        self.canvas.scene().removeItem(self._legs)
        self.canvas.scene().removeItem(self._pins)
        self.canvas.scene().removeItem(self._clusters)
        if self._own_registry:
            self.registry.close()
