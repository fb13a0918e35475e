"""Runs inside the QGIS desktop (`qgis --code screenshot.py`, under Xvfb; `make bench-qgis` does it):
opens the output of pindrop:spread on the 916k Los Angeles trees ($PINDROP_SHOT_LAYER, a
GeoPackage), styles it (spread trees in red with a leg to their true spot, the others in green),
zooms to Lawndale's two big stacks (305 and 261 trees), waits for the canvas to finish drawing,
captures the screen with ImageMagick's `import -window root` into $PINDROP_SHOT_PNG and quits."""
import os
import subprocess
import traceback

from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsRectangle,
                       QgsRuleBasedRenderer, QgsSymbol, QgsVectorLayer, QgsWkbTypes)
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QDockWidget
from qgis.utils import iface

LAWNDALE = QgsRectangle(-118.3655, 33.8765, -118.3265, 33.8925)
MOVED = '"true_x" <> $x OR "true_y" <> $y'


def style(layer):
    from qgis.core import QgsGeometryGeneratorSymbolLayer, QgsMarkerSymbol
    root = QgsRuleBasedRenderer.Rule(None)
    moved = QgsMarkerSymbol.createSimple({"name": "circle", "color": "#d9342b", "outline_color": "#7a1a14",
                                          "size": "1.8"})
    leg = QgsGeometryGeneratorSymbolLayer.create({"geometryModifier": 'make_line(make_point("true_x", "true_y"), $geometry)'})
    leg.setSymbolType(QgsSymbol.Line)
    leg.subSymbol().symbolLayer(0).setColor(QgsProject.instance().backgroundColor().fromRgb(90, 90, 90, 110))
    leg.subSymbol().symbolLayer(0).setWidth(0.15)
    moved.insertSymbolLayer(0, leg)
    still = QgsMarkerSymbol.createSimple({"name": "circle", "color": "#3a8a3a", "outline_style": "no", "size": "1.6"})
    for symbol, expression, label in ((moved, MOVED, "spread by pindrop (leg to the true spot)"),
                                      (still, "NOT (" + MOVED + ")", "alone on its spot")):
        rule = QgsRuleBasedRenderer.Rule(symbol, filterExp=expression, label=label)
        root.appendChild(rule)
    layer.setRenderer(QgsRuleBasedRenderer(root))


def capture():
    try:
        subprocess.run(["import", "-window", "root", os.environ["PINDROP_SHOT_PNG"]], check=True)
    except Exception:
        traceback.print_exc()
    finally:
        QgsProject.instance().setDirty(False)
        os._exit(0)


def main():
    layer = QgsVectorLayer(os.environ["PINDROP_SHOT_LAYER"], "LA trees spread by pindrop", "ogr")
    assert layer.isValid() and layer.geometryType() == QgsWkbTypes.PointGeometry
    style(layer)
    window = iface.mainWindow()
    window.setGeometry(0, 0, 1600, 1000)  # Xvfb has no window manager to maximize it
    for dock in window.findChildren(QDockWidget):
        if dock.objectName().startswith("Browser"):
            dock.hide()
    QgsProject.instance().addMapLayer(layer)
    iface.setActiveLayer(layer)
    QTimer.singleShot(3000, zoom)  # once QGIS has settled on the new layer's extent


def zoom():
    QgsProject.instance().setCrs(QgsCoordinateReferenceSystem("EPSG:3857"))  # a web map's view: rings look round
    canvas = iface.mapCanvas()
    canvas.setDestinationCrs(QgsProject.instance().crs())
    to_map = QgsCoordinateTransform(QgsCoordinateReferenceSystem("EPSG:4326"), canvas.mapSettings().destinationCrs(),
                                    QgsProject.instance())
    canvas.setExtent(to_map.transformBoundingBox(LAWNDALE))
    canvas.mapCanvasRefreshed.connect(lambda: QTimer.singleShot(1500, capture))
    canvas.refresh()


try:
    main()
except Exception:
    traceback.print_exc()
    os._exit(1)
