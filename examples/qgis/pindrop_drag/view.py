"""The canvas as pindrop sees it: a host projection (pixel <-> lon/lat through QGIS's own
transforms, so the layer and the canvas can be in any CRS), the canvas's Web Mercator zoom as
pindrop reckons it, and the zoom into a cluster."""
from __future__ import annotations

import math
from typing import Optional, Tuple

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsPointXY, QgsProject

import pindrop

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
EARTH = 6378137.0


class CanvasView:
    """The map tool's view of its canvas (a part of `PindropMapTool`)."""

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

    def _set_view(self) -> bool:
        """Gives pindrop the canvas's view; False when there is no map (yet)."""
        if self.map is None:
            return False
        size = self.canvas.mapSettings().outputSize()
        self._to_canvas, self._from_canvas = self._transforms()
        self.map.set_projection(self._fast_projection() or self._project, self._unproject,
                                max(size.width(), 1), max(size.height(), 1))
        return True

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
        target = zoom + 1e-3  # just past the level's boundary, whatever the rounding
        # The steps below each change the extent; the tool draws once, at the end (each drawing of
        # a street-zoom view full of stacks costs a frame).
        self._drawing_held = True
        try:
            self.canvas.setCenter(centre)
            for _ in range(4):  # the canvas's CRS need not be Mercator: measure again after each step
                now = self.view_zoom()
                if now is None or target <= now < target + 1e-3:
                    break
                self.canvas.zoomByFactor(2 ** (now - target - 5e-4), centre)
        finally:
            self._drawing_held = False
        self.canvas.refresh()
        self._redraw()

    def _fast_projection(self):
        """project(lon, lat) -> canvas pixel as plain arithmetic, for the canvases where QGIS's
        transforms are that arithmetic: not rotated, in lon/lat (the layer's GeoPackage CRS) or in
        Web Mercator on the sphere. None for any other canvas (QGIS's transforms then). pindrop
        calls project once per pin it places: through QGIS's objects that took 60-90 µs a pin, a
        third of a second for a street-zoom view of Lawndale's stacks."""
        m2p = self.canvas.getCoordinateTransform()
        if m2p.mapRotation() != 0:
            return None
        upp, xc, yc = m2p.mapUnitsPerPixel(), m2p.xCenter(), m2p.yCenter()
        w2, h2 = m2p.mapWidth() / 2.0, m2p.mapHeight() / 2.0
        if not upp > 0:
            return None
        crs = self.canvas.mapSettings().destinationCrs()
        if crs == WGS84 or self._to_canvas.isShortCircuited():
            return lambda lon, lat: ((lon - xc) / upp + w2, h2 - (lat - yc) / upp)
        if crs.authid() == "EPSG:3857":
            def mercator(lon, lat):
                if not -89.9 < lat < 89.9:
                    raise ValueError("outside Web Mercator")
                y = EARTH * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
                return (EARTH * math.radians(lon) - xc) / upp + w2, h2 - (y - yc) / upp
            return mercator
        return None

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


def _to_map(m2p, x: float, y: float) -> QgsPointXY:
    """Map coordinates of a (fractional) pixel. QGIS 3.22 takes doubles in toMapCoordinatesF only;
    later versions in toMapCoordinates."""
    f = getattr(m2p, "toMapCoordinatesF", None)
    return f(x, y) if f is not None else m2p.toMapCoordinates(x, y)


def _distance(a: Tuple[float, float], b: Tuple[float, float]) -> float:
    (lon1, lat1), (lon2, lat2) = (map(math.radians, a)), (map(math.radians, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH * math.asin(min(1.0, math.sqrt(h)))
