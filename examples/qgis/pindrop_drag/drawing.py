"""What the map tool draws: the clusters in view, the single points below street zoom (each with its
feature's own symbol), the spread pins with their legs and the dragged pin; the layer leaves out
what the tool draws (renderer_swap.py)."""
from __future__ import annotations

import math
from typing import List, Optional, Set, Tuple

from qgis.core import QgsFeatureRequest, QgsGeometry, QgsPointXY, QgsRenderContext, QgsSymbolLayerUtils, QgsWkbTypes
from qgis.gui import QgsMapCanvas
from qgis.PyQt.QtCore import QRectF, QSize, Qt
from qgis.PyQt.QtGui import QBrush, QColor, QFont, QPen
from qgis.PyQt.QtWidgets import QGraphicsItem

import pindrop

from .library import CLUSTER_STACK, CLUSTERS, HAS_KEYBOARD, PIN_ANIMATING
from .renderer_swap import RendererSwap

#: Single points drawn by the tool below street zoom with their feature's own symbol, at most.
STYLED_SINGLES = 2000
#: The points the tool draws itself, not the layer: spread ones, the dragged one, and one still on
#: its way (a glide back after Esc or a refused drop) or settling after its drop.
TOOL_DRAWN = pindrop.PIN_SPREAD | pindrop.PIN_DRAGGING | PIN_ANIMATING


class ToolDrawing:
    """The map tool's drawing (a part of `PindropMapTool`)."""

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
        if getattr(self, "_drawing_held", False):
            return
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

    def _focus_ring(self, views):
        if not HAS_KEYBOARD or self.map is None:
            return None
        f = self.map.focus
        if f.kind == "cluster":
            c = next((c for c in self.clusters if c.key == f.key), None)
            return (f.x, f.y, ClusterOverlay.radius(c.count, bool(c.flags & CLUSTER_STACK)) if c else 10)
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
        self._small_font = QFont()
        self._small_font.setPointSizeF(6.5)
        self._badges = {}  # (count, shares, is_stack, radius) -> (QPixmap, half its size)
        self.radii: List[float] = []   # the radius each item is drawn at (`fitted_radii`)
        canvas.scene().addItem(self)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        size = self.canvas.mapSettings().outputSize()
        return QRectF(0, 0, size.width(), size.height())

    def set_items(self, items: List[tuple], singles=(), focus=None) -> None:
        self.prepareGeometryChange()
        self.setPos(0, 0)
        self.items = list(items)
        self.radii = self.fitted_radii(self.items)
        self.singles = list(singles)
        self.focus = focus
        self.update()

    def _badge(self, count: int, shares, is_stack: bool, r: Optional[float] = None):
        """The picture of one cluster or stack drawn at radius r (its own `radius` unless
        given), and half its size: drawn once for each look (count, shares, stack or not, radius)
        and kept, so that a view of hundreds of stacks paints in a few milliseconds (drawn one by
        one with antialiasing, 592 of them took 0.55 s a paint)."""
        r = self.radius(count, is_stack) if r is None else r
        key = (count, tuple((QColor(c).rgba(), round(f, 3)) for c, f in shares), is_stack, r)
        found = self._badges.get(key)
        if found is not None:
            return found
        from qgis.PyQt.QtGui import QFontMetricsF, QPainter, QPixmap
        half = math.ceil(r + 8)
        ratio = self.canvas.devicePixelRatioF() if hasattr(self.canvas, "devicePixelRatioF") else 1.0
        pixmap = QPixmap(int(2 * half * ratio), int(2 * half * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.Antialiasing, True)
        text = f"{count:,}" if count < 10000 else f"{count / 1000:.0f}k"
        font = self._font if r >= 9 and QFontMetricsF(self._font).horizontalAdvance(text) <= 2 * r - 3 else self._small_font
        painter.setFont(font)
        box = QRectF(half - r, half - r, 2 * r, 2 * r)
        fill = QColor(shares[0][0]) if shares else QColor(176, 58, 46, 210)
        fill.setAlpha(215)
        painter.setPen(QPen(QColor(255, 255, 255), 1.5))
        painter.setBrush(QBrush(fill))
        if is_stack:  # a stack: a second disc behind the first (points on one spot)
            painter.drawEllipse(box.translated(2.5 if r >= 9 else 1.5, -2.5 if r >= 9 else -1.5))
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
        painter.drawText(box, Qt.AlignCenter, text)
        painter.end()
        if len(self._badges) > 4096:
            self._badges.clear()
        self._badges[key] = (pixmap, half)
        return pixmap, half

    @staticmethod
    def radius(count: int, is_stack: bool = False) -> float:
        """The disc's radius in pixels. A stack of a few points (fewer than 10: in a city's
        inventory, the two or three trees of one address) is a small disc: at street zoom such
        stacks stand a house apart, 10-15 pixels at 1:5,000, and full-size discs piled up there."""
        if is_stack and count < 10:
            return 6.5
        return 9 + 3 * math.log10(max(count, 1))

    @staticmethod
    def reach(r: float, shares, is_stack: bool) -> float:
        """How far from its centre a badge drawn at radius r paints: its white outline, the disc
        behind a stack's (2.5 px up and right), the ring of the shares (4 px wide, 4 px out)."""
        if len(shares) > 1 and r >= 12:
            return r + 6
        return r + (0.75 + 2.5 * math.sqrt(2) if is_stack else 0.75)

    @classmethod
    def fitted_radii(cls, items: List[tuple]) -> List[float]:
        """The radius each badge is drawn at: its own (`radius`), or smaller where a neighbour is
        near, so that what it paints (`reach`) stays within half the distance to its nearest
        badge, less half a pixel: no two badges overlap. pindrop keeps badges hit_radius (22 px)
        apart, so a badge's paint keeps 21 px across (a stack's front disc at least 12 px); the
        ring of the shares is left out where it does not fit."""
        radii = [cls.radius(count, is_stack) for _, _, count, _, is_stack in items]
        cell = 2 * max((cls.reach(r, item[3], item[4]) for r, item in zip(radii, items)), default=1.0)
        grid = {}
        for i, (x, y, *_) in enumerate(items):
            grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append(i)
        for i, (x, y, _, shares, is_stack) in enumerate(items):
            cx, cy = math.floor(x / cell), math.floor(y / cell)
            nearest = min((math.hypot(items[j][0] - x, items[j][1] - y)
                           for dx in (-1, 0, 1) for dy in (-1, 0, 1) for j in grid.get((cx + dx, cy + dy), ())
                           if j != i), default=math.inf)
            r = radii[i]
            while r > 1 and cls.reach(r, shares, is_stack) > (nearest - 1) / 2:  # a pixel between
                r -= 0.5
            radii[i] = r
        return radii

    def paint(self, painter, option, widget=None) -> None:
        from qgis.PyQt.QtGui import QPainter
        painter.setRenderHint(QPainter.Antialiasing, True)
        for x, y, pixmap in self.singles:
            painter.drawPixmap(int(round(x - pixmap.width() / 2)), int(round(y - pixmap.height() / 2)), pixmap)
        radii = self.radii if len(self.radii) == len(self.items) else self.fitted_radii(self.items)
        for (x, y, count, shares, is_stack), r in zip(self.items, radii):
            badge, half = self._badge(count, shares, is_stack, r)
            painter.drawPixmap(int(round(x - half)), int(round(y - half)), badge)
        if self.focus is not None:
            x, y, r = self.focus
            painter.setBrush(Qt.NoBrush)
            painter.setPen(QPen(QColor(20, 20, 20), 2.5, Qt.DashLine))
            painter.drawEllipse(QRectF(x - r - 5, y - r - 5, 2 * r + 10, 2 * r + 10))
