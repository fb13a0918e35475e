"""The Processing algorithm "Spread points that share a spot (pindrop)" (pindrop:spread).

Every point of the input layer is copied with all its attributes; points that share a spot (or lie
within the tolerance of a group's first point) are moved onto pindrop's ring around the group's
mean position (SPEC behaviour 11: pin i of n at bearing 2πi/n and 1.5·n metres, on the sphere), and
every output feature records its true position in `true_x`, `true_y` (the layer's CRS), so that a
style can draw a leg from the drawn point to the true spot. Distances are metres on the ground
whatever the layer's CRS (QGIS's own Points displacement works in layer units).

The Spiral layout spreads each group in screen points at a map scale instead (SPEC behaviour 17).
The work between reading and writing is one call of the batch function `pindrop_spread` (or
`pindrop_spread_spiral`).
"""
from __future__ import annotations

import math

from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsCsException, QgsFeatureRequest,
                       QgsFeatureSink, QgsField, QgsFields, QgsGeometry, QgsPointXY, QgsProcessing,
                       QgsProcessingAlgorithm, QgsProcessingException, QgsProcessingParameterEnum,
                       QgsProcessingParameterFeatureSink, QgsProcessingParameterFeatureSource,
                       QgsProcessingParameterNumber, QgsProcessingParameterScale, QgsProcessingUtils,
                       QgsWkbTypes)
from qgis.PyQt.QtCore import QVariant

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")
STEP = 1000    # features read between progress reports and cancel checks
CHUNK = 20000  # features written at once, between progress reports and cancel checks


class SpreadAlgorithm(QgsProcessingAlgorithm):
    INPUT = "INPUT"
    TOLERANCE = "TOLERANCE"
    LAYOUT = "LAYOUT"
    OUTPUT = "OUTPUT"
    SPACING = "SPACING"
    SCALE = "SCALE"
    LAYOUTS = [("ring", "Ring: 1.5·n metres around the spot"),
               ("spiral", "Spiral: compact, in screen points at the map scale below (as web maps spread stacks)")]

    def name(self):
        return "spread"

    def displayName(self):
        return "Spread points that share a spot (pindrop)"

    def group(self):
        return "Cartography"

    def groupId(self):
        return "cartography"

    def shortHelpString(self):
        return ("Copies a point layer and moves the points that share a spot onto a ring around it, "
                "so that each one can be seen and picked: point i of n at bearing 360°·i/n and "
                "1.5·n metres from the group's mean position (pindrop's spreading rule). Points "
                "within the tolerance (metres) of a group's first point join the group. Every "
                "attribute is kept; true_x and true_y hold each point's true position in the "
                "layer's CRS (draw legs with make_line(make_point(\"true_x\", \"true_y\"), $geometry)). "
                "Features without a single point geometry are copied unchanged. The spiral layout "
                "spreads each group in screen points instead, as web maps do (a circle below 9 points, "
                "Leaflet.markercluster's spiral from 9), for the map scale given: a point is OGC's "
                "0.28 mm at that scale, exact at the layer's mean latitude.")

    def createInstance(self):
        return SpreadAlgorithm()

    def initAlgorithm(self, config=None):
        self.addParameter(QgsProcessingParameterFeatureSource(
            self.INPUT, "Input point layer", [QgsProcessing.TypeVectorPoint]))
        self.addParameter(QgsProcessingParameterNumber(
            self.TOLERANCE, "Tolerance (metres): points this close to a group's first point join it",
            QgsProcessingParameterNumber.Double, defaultValue=0.0, minValue=0.0))
        self.addParameter(QgsProcessingParameterEnum(
            self.LAYOUT, "Layout", options=[label for _, label in self.LAYOUTS], defaultValue=0))
        self.addParameter(QgsProcessingParameterNumber(
            self.SPACING, "Spiral: spacing between points (points of 0.28 mm at the map scale)",
            QgsProcessingParameterNumber.Double, defaultValue=25.0, minValue=0.001))
        self.addParameter(QgsProcessingParameterScale(
            self.SCALE, "Spiral: map scale the layout is meant for (1:scale)", defaultValue=5000.0))
        self.addParameter(QgsProcessingParameterFeatureSink(
            self.OUTPUT, "Spread points", QgsProcessing.TypeVectorPoint))

    def processAlgorithm(self, parameters, context, feedback):
        import time

        import numpy as np
        import pindrop

        started = time.perf_counter()
        source = self.parameterAsSource(parameters, self.INPUT, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.INPUT))
        tolerance = self.parameterAsDouble(parameters, self.TOLERANCE, context)
        layout = self.LAYOUTS[self.parameterAsEnum(parameters, self.LAYOUT, context)][0]
        spacing = self.parameterAsDouble(parameters, self.SPACING, context)
        scale = self.parameterAsDouble(parameters, self.SCALE, context)
        if layout == "spiral" and not scale > 0:
            raise QgsProcessingException("the map scale must be positive (e.g. 5000 for 1:5000)")

        fields = QgsProcessingUtils.combineFields(source.fields(), _true_position_fields())
        sink, dest_id = self.parameterAsSink(parameters, self.OUTPUT, context, fields,
                                             source.wkbType(), source.sourceCrs())
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, self.OUTPUT))

        # Read: every feature, and the lon/lat of those with one point (progress 0-45 %).
        total = source.featureCount()
        step = 45.0 / total if total > 0 else 0
        features, xs, ys, rows = [], [], [], []  # rows[k]: index in features of the k-th point
        single = not QgsWkbTypes.isMultiType(source.wkbType())
        for i, f in enumerate(source.getFeatures(QgsFeatureRequest())):
            if i % STEP == 0:
                if feedback.isCanceled():
                    return {self.OUTPUT: dest_id}
                feedback.setProgress(i * step)
            features.append(f)
            if single:  # the common case, without _single_point's calls (a tenth of the time here)
                point = f.geometry().asPoint() if f.hasGeometry() else None
            else:
                point = _single_point(f)
            if point is not None:
                rows.append(i)
                xs.append(point.x())
                ys.append(point.y())
        x = np.array(xs, dtype=np.float64)
        y = np.array(ys, dtype=np.float64)
        feedback.pushInfo(f"read {len(features)} features ({len(rows)} with one point) in "
                          f"{time.perf_counter() - started:.2f} s")
        started = time.perf_counter()

        # Spread in lon/lat (45-50 %).
        to_wgs84 = None
        if source.sourceCrs() != WGS84:
            to_wgs84 = QgsCoordinateTransform(source.sourceCrs(), WGS84, context.transformContext())
        try:
            lonlat = np.column_stack((x, y)) if to_wgs84 is None else _transform(to_wgs84, x, y, False)
            if layout == "spiral":
                zoom = zoom_at_scale(scale, float(np.mean(lonlat[:, 1])) if len(lonlat) else 0.0)
                feedback.pushInfo(f"spiral at 1:{scale:g}: Web Mercator zoom {zoom:.3f}")
                drawn = pindrop.spread(lonlat, tolerance_m=tolerance, layout="spiral", spacing=spacing, zoom=zoom)
            else:
                drawn = pindrop.spread(lonlat, tolerance_m=tolerance)
        except QgsCsException as e:
            raise QgsProcessingException(f"a point could not be transformed to lon/lat: {e}")
        except pindrop.PindropError as e:
            raise QgsProcessingException(f"pindrop could not spread these points: {e}")
        moved = np.flatnonzero(np.any(drawn != lonlat, axis=1))
        feedback.pushInfo(f"spread them in {time.perf_counter() - started:.2f} s: {len(moved)} points moved onto rings")
        started = time.perf_counter()
        feedback.setProgress(50)
        if feedback.isCanceled():
            return {self.OUTPUT: dest_id}
        new = drawn[moved] if to_wgs84 is None else _transform(to_wgs84, drawn[moved, 0], drawn[moved, 1], True)
        for (nx, ny), k in zip(new.tolist(), moved.tolist()):
            f = features[rows[k]]
            geometry = f.geometry().constGet().clone()  # keeps z and m
            point = geometry.geometryN(0) if QgsWkbTypes.isMultiType(geometry.wkbType()) else geometry
            point.setX(nx)
            point.setY(ny)
            f.setGeometry(QgsGeometry(geometry))

        # Write: every feature with its true position appended (50-100 %).
        true_x = [None] * len(features)
        true_y = [None] * len(features)
        for r, tx, ty in zip(rows, xs, ys):
            true_x[r] = tx
            true_y[r] = ty
        step = 50.0 / len(features) if features else 0
        width = fields.count()
        for start in range(0, len(features), CHUNK):
            if feedback.isCanceled():
                break
            chunk = features[start:start + CHUNK]
            for f, tx, ty in zip(chunk, true_x[start:start + CHUNK], true_y[start:start + CHUNK]):
                f.resizeAttributes(width)  # 4 times faster than a round trip through a list
                f.setAttribute(width - 2, tx)
                f.setAttribute(width - 1, ty)
            if not sink.addFeatures(chunk, QgsFeatureSink.FastInsert):
                raise QgsProcessingException(f"could not write features: {sink.lastError()}")
            feedback.setProgress(50 + (start + len(chunk)) * step)
        feedback.pushInfo(f"wrote them in {time.perf_counter() - started:.2f} s")
        return {self.OUTPUT: dest_id}


def zoom_at_scale(scale: float, latitude: float) -> float:
    """The Web Mercator zoom (256-point tiles) whose points, taken as OGC's standard 0.28 mm pixel,
    show the ground at 1:scale at this latitude: zoom 0 is 1:559082264 at the equator (the
    GoogleMapsCompatible scale set of WMTS), and Mercator's scale grows as 1/cos(latitude)."""
    return math.log2(559082264.0287178 * math.cos(math.radians(latitude)) / scale)


def _true_position_fields() -> QgsFields:
    fields = QgsFields()
    fields.append(QgsField("true_x", QVariant.Double))
    fields.append(QgsField("true_y", QVariant.Double))
    return fields


def _single_point(feature):
    """The point of a feature with exactly one point (a point, or a multipoint of one), else None."""
    if not feature.hasGeometry():
        return None
    geometry = feature.geometry()
    if geometry.isMultipart():
        parts = geometry.asMultiPoint()
        return parts[0] if len(parts) == 1 else None
    return geometry.asPoint()


def _transform(transform, x, y, reverse: bool):
    """(n, 2) array of the points (x[i], y[i]) transformed (or reverse-transformed)."""
    import numpy as np
    direction = QgsCoordinateTransform.ReverseTransform if reverse else QgsCoordinateTransform.ForwardTransform
    out = np.empty((len(x), 2))
    for i, (px, py) in enumerate(zip(x.tolist(), y.tolist())):
        p = transform.transform(QgsPointXY(px, py), direction)
        out[i] = (p.x(), p.y())
    return out
