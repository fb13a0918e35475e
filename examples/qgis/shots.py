"""Runs inside the QGIS desktop (`qgis --code shots.py`, under Xvfb): the README's screenshots of the
map tool. $PINDROP_SHOT_SCENE picks one:

- county: the 916k LA trees ($PINDROP_GPKG) at county zoom, clusters coloured by city;
- lawndale: Lawndale's trees ($PINDROP_LAWNDALE, GeoJSON), clusters by species;
- stack: Lawndale at street zoom, the 305-tree stack clicked open;
- expansion: Lawndale at 1:5,295, the scale a click on one of its clusters zooms to: its stacks as
  markers, drawn apart.

The plugin is loaded from $PINDROP_PLUGIN_DIR with QGIS's own loader, the pointer moved (and
clicked) with xdotool so that the tooltip is QGIS's own, the screen captured with ImageMagick's
`import -window root` into $PINDROP_SHOT_PNG, and QGIS quits."""
import os
import subprocess
import sys
import time
import traceback

from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject, QgsRectangle, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QDockWidget
from qgis.utils import iface

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


def wait(seconds, until=None):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or (until is not None and not until() and time.perf_counter() < end + 120):
        QApplication.processEvents()
        time.sleep(0.005)


def xdotool(*args):
    process = subprocess.Popen(["xdotool", *map(str, args)])
    while process.poll() is None:
        QApplication.processEvents()
        time.sleep(0.005)


def main():
    try:
        import qgis.utils
        window = iface.mainWindow()
        window.setGeometry(0, 0, 1280, 800)
        for dock in window.findChildren(QDockWidget):
            if dock.objectName().startswith("Browser"):
                dock.hide()
        plugins = os.environ["PINDROP_PLUGIN_DIR"]
        qgis.utils.plugin_paths.insert(0, plugins)
        sys.path.insert(0, plugins)
        qgis.utils.updateAvailablePlugins()
        assert qgis.utils.loadPlugin("pindrop_drag") and qgis.utils.startPlugin("pindrop_drag")
        plugin = qgis.utils.plugins["pindrop_drag"]
        scene = os.environ["PINDROP_SHOT_SCENE"]
        if scene == "county":
            layer = QgsVectorLayer(f"{os.environ['PINDROP_GPKG']}|layername=la_trees", "LA county street trees", "ogr")
            props = {"category_field": "city", "noun": "trees", "categories_are": "cities"}
            extent = QgsRectangle(-118.75, 33.70, -117.70, 34.55)
        else:
            layer = QgsVectorLayer(os.environ["PINDROP_LAWNDALE"], "Lawndale street trees", "ogr")
            props = {"category_field": "BOTANICAL_", "noun": "trees", "categories_are": "species"}
            extent = (QgsRectangle(-118.3720, 33.8770, -118.3340, 33.9030) if scene == "lawndale"
                      else QgsRectangle(-118.36255, 33.8816, -118.34455, 33.8926))
        assert layer.isValid()
        for key, value in props.items():
            layer.setCustomProperty(f"pindrop/{key}", value)
        QgsProject.instance().addMapLayer(layer)
        iface.setActiveLayer(layer)
        canvas = iface.mapCanvas()
        wait(1.5)  # QGIS zooms to the first layer's extent meanwhile
        canvas.setExtent(QgsCoordinateTransform(WGS84, canvas.mapSettings().destinationCrs(),
                                                QgsProject.instance()).transformBoundingBox(extent))
        plugin.drag_action.trigger()
        tool = plugin.tool
        wait(1.0, until=lambda: tool.map is not None and not tool.pins.busy)
        wait(2.0)
        tool._redraw()
        origin = canvas.viewport().mapToGlobal(canvas.viewport().rect().topLeft())
        if scene == "expansion":
            canvas.zoomScale(5295)
            wait(2.0)
            tool._redraw()
            xdotool("mousemove", origin.x() + 5, origin.y() + 5)
        elif scene == "stack":  # centre on the biggest stack (Lawndale's 305), then click it
            stack = max((c for c in tool.clusters if c.flags & 2), key=lambda c: c.count)
            canvas.setCenter(QgsCoordinateTransform(WGS84, canvas.mapSettings().destinationCrs(),
                                                    QgsProject.instance()).transform(stack.lon, stack.lat))
            canvas.refresh()
            wait(2.0)
            tool._redraw()
            stack = max((c for c in tool.clusters if c.flags & 2), key=lambda c: c.count)
            xdotool("mousemove", origin.x() + int(stack.x), origin.y() + int(stack.y), "click", 1)
            wait(1.5)
            tool._redraw()
            xdotool("mousemove", origin.x() + 5, origin.y() + 5)
        else:
            biggest = max(tool.clusters, key=lambda c: c.count)
            xdotool("mousemove", origin.x() + int(biggest.x) + 3, origin.y() + int(biggest.y) + 2)
            xdotool("mousemove", origin.x() + int(biggest.x) + 4, origin.y() + int(biggest.y) + 3)
        wait(2.5)
        subprocess.run(["import", "-window", "root", os.environ["PINDROP_SHOT_PNG"]], check=True)
    except Exception:
        traceback.print_exc()
    finally:
        QgsProject.instance().setDirty(False)
        os._exit(0)


QTimer.singleShot(1000, main)
