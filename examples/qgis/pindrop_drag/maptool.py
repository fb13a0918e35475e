"""The map tool: drag the points of a vector point layer with pindrop's behaviour.

- Mouse (the default): press on a point and drag it at once; press elsewhere and drag to pan.
- Touch (``touch=True``): hold a point for 250 ms to lift it 40 points above the finger, then drag;
  a finger that moves before that pans the map.
- Esc cancels the drag: the point goes back, nothing is written.
- Arrow keys move the selected point (a click selects it, or QGIS's selection of one feature) by
  one pixel, ten with Shift. A series of key presses is one step of pindrop's history; each press
  is one edit of the layer.
- The keyboard drag (pindrop 0.3): Tab / Shift+Tab focus the points and clusters in view,
  L (or Alt+Space) lifts the focused point, arrows move it, Space / Enter drop it (on a cluster: zoom in,
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

The tool is one class in parts, one concern a module: this one routes QGIS's events and holds the
layer's points; keyboard.py is the keyboard drag, drawing.py what the tool draws (renderer_swap.py
what the layer leaves out), cluster_makeup.py what clusters hold, editing.py the drop written to
the layer, view.py the canvas as pindrop sees it, library.py the options and what pindrop offers.
"""
from __future__ import annotations

import math
import time
from typing import Callable, List, Optional, Set, Tuple

from qgis.core import QgsMapLayer, QgsPointXY, QgsVectorLayer, QgsWkbTypes
from qgis.gui import QgsMapCanvas, QgsMapMouseEvent, QgsMapTool, QgsRubberBand
from qgis.PyQt.QtCore import QEvent, Qt, QTimer, pyqtSignal
from qgis.PyQt.QtGui import QColor, QKeyEvent

import pindrop

from .cluster_makeup import ClusterMakeup
from .drawing import ClusterOverlay, ToolDrawing
from .editing import LayerEdits
from .keyboard import ARROWS, KeyboardDrag, is_lift_key
from .library import CLUSTER_STACK, CLUSTERS, HAS_KEYBOARD, HAS_STACKS, MOUSE, RING, SPIRAL, TOUCH
from .pins import LayerPins, PinsRegistry
from .renderer_swap import RendererSwap
from .view import CanvasView


def is_point_layer(layer) -> bool:
    return (layer is not None and layer.type() == QgsMapLayer.VectorLayer
            and layer.geometryType() == QgsWkbTypes.PointGeometry)


class PindropMapTool(KeyboardDrag, ClusterMakeup, ToolDrawing, LayerEdits, CanvasView, QgsMapTool):
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
        self.stack_layout = "spiral"   # how an opened stack is laid out: "spiral" or "ring"
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
        #: A widget laid over the canvas's top (the plugin gives QGIS's message bar): the focused
        #: or lifted point is kept out from under it.
        self.cover = None
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
        options.update(SPIRAL if self.stack_layout == "spiral" else RING)
        return options

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
        from .settings import layer_settings, spread_on_tap, stack_layout
        self.spread_on_tap = spread_on_tap()
        self.stack_layout = stack_layout()
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

    def set_touch_mode(self, touch: bool) -> None:
        """Touch: hold to lift, 40 points above the finger. Mouse: drag at once, under the pointer.
        The layer is not read again: a map with the other options is built on another thread."""
        if touch != self.touch_mode:
            self.touch_mode = touch
            if self.pins is not None:
                self.pins.set_options(self.options())

    def set_spread_on_tap(self, on: bool) -> None:
        """Stacks drawn as one marker with their count until tapped (on, the default), or always
        spread on their ring (off)."""
        if on != self.spread_on_tap:
            self.spread_on_tap = on
            if self.pins is not None:
                self.pins.set_options(self.options())

    def set_stack_layout(self, layout: str) -> None:
        """An opened stack on a spiral in screen points ("spiral", the default: it fits the view)
        or on a ring on the ground ("ring", 1.5 m a point)."""
        if layout != self.stack_layout:
            self.stack_layout = layout
            if self.pins is not None:
                self.pins.set_options(self.options())

    def apply_settings(self) -> None:
        """The settings changed (the plugin's dialog): fields, name, stacks on tap."""
        from .settings import layer_settings, spread_on_tap, stack_layout
        self.set_spread_on_tap(spread_on_tap())
        self.set_stack_layout(stack_layout())
        if self.layer is not None and self.pins is not None:
            value, category, self.noun = layer_settings(self.layer)
            self.pins.set_fields(value, category)
        self._redraw()

    def cancel(self) -> None:
        """Cancels the drag in progress (Esc): the point goes back, nothing is written."""
        if self.map is None:
            return
        self.map.cancel_gesture(self._now())
        self._handle_events()

    def tick(self) -> None:
        """Runs what is due now; the QTimer calls it at pindrop's next deadline."""
        if self.map is None:
            return
        self._run_timers(self._now())
        self._handle_events()

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

    # -- QGIS's events: the pointer to pindrop (else a pan), the keys to the keyboard drag ---------
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

    def keyPressEvent(self, e: QKeyEvent) -> None:
        self._key(e)

    def eventFilter(self, watched, event) -> bool:
        """The keyboard while the tool is active: Tab / Shift+Tab move the focus over what is
        drawn, L or Alt+Space lifts the focused point, arrows move it (Shift: 10 pixels) or nudge the
        selected point, Space / Enter drop it (on a cluster: zoom in; on a stack: open it), Esc
        cancels, Ctrl+Z undoes through the layer's edit buffer. The canvas would pan with the
        arrows and Qt move the focus with Tab before a tool saw them."""
        if watched is not self.canvas or event.type() not in (QEvent.KeyPress, QEvent.ShortcutOverride) \
                or self.map is None or self.canvas.mapTool() is not self:
            return False
        key, mods = event.key(), event.modifiers()
        if event.type() == QEvent.ShortcutOverride:
            # The lift keys come to the tool as key presses, not as an application shortcut.
            if HAS_KEYBOARD and is_lift_key(key, mods):
                event.accept()
            return False
        if key in ARROWS:
            dx, dy = ARROWS[key]
            step = 10 if mods & Qt.ShiftModifier else 1
            return self.nudge(dx * step, dy * step)
        if not HAS_KEYBOARD:
            return False
        if key in (Qt.Key_Tab, Qt.Key_Backtab) and not mods & (Qt.ControlModifier | Qt.AltModifier):
            self.focus_step(-1 if key == Qt.Key_Backtab or mods & Qt.ShiftModifier else 1)
            return True
        if is_lift_key(key, mods):
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

    # -- plumbing: the layer's points, time, input, timers, events --------------------------------
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

    def _now(self) -> float:
        self._t = max(self._t, self.clock())  # pindrop's time never goes back
        return self._t

    def _feed(self, phase: int, e: QgsMapMouseEvent) -> bool:
        t = self._now()
        self._run_timers(t)
        owned = self.map.touch(0, phase, float(e.pos().x()), float(e.pos().y()), t)
        self._handle_events()
        return owned

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

    def _key(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key_Escape and self.map is not None and self.isActive():
            lifted, self._key_lifted = self._key_lifted, None
            self.cancel()
            if lifted is not None:
                self._announce(f"{self._name(lifted[0])} back where it was")
            e.accept()

    def _run_timers(self, t: float) -> None:
        self.map.advance(t)

    def _schedule(self) -> None:
        due = self.map.next_deadline if self.map is not None else math.inf
        if math.isinf(due):
            self._timer.stop()
        else:
            self._timer.start(max(0, int(math.ceil(due - self._t))))

    def _handle_events(self) -> None:
        if self.map is None:
            return
        zoomed = False
        for e in self.map.events():
            self.events.append(e)
            if e.type == "MOVED":
                self._write(e)
            elif e.type == "CLUSTER_TAPPED":
                self._zoom_into(e)  # draws the view it zoomed to
                zoomed = True
            elif e.type == "STACK_OPENED":  # a tap on its marker (pindrop's nearest target) or Space
                stack = next((c for c in self.clusters if c.key == e.request), None)
                self._announce(f"stack of {stack.count:,} {self.noun} opened" if stack else "stack opened")
                zoomed = False
        self._schedule()
        if not zoomed:
            self._redraw()
