"""Runs inside the QGIS desktop (`qgis --code desktop_session.py`, under Xvfb; test_desktop.py starts
it): loads the plugin from $PINDROP_PLUGIN_DIR with QGIS's own plugin loader, opens the GeoPackage
$PINDROP_GPKG (the 916k LA trees) and

- measures the freeze table: for each action a user reported (picking the tool, choosing a layer,
  touch mode, the algorithm's output loaded, adding a layer, QGIS's Add Point and its undo), the
  longest the GUI thread left a 5 ms timer waiting while the action ran and settled;
- drives the tool with real X events (xdotool): the toolbar button clicked, the crash path of the
  Processing dialog (the output layer made active, the tool it saved restored, a tree dragged), a
  click on a cluster.

Writes what it saw as JSON to $PINDROP_DESKTOP_RESULT and quits QGIS. $PINDROP_DESKTOP_PARTS picks
the parts ("freeze,stalls,x"); $PINDROP_DESKTOP_SHOT, if set, names a PNG of the screen at the end."""
import json
import math
import os
import subprocess
import sys
import time
import traceback

from qgis.core import (QgsFeature, QgsGeometry, QgsPointXY, QgsProject, QgsRectangle, QgsVectorLayer)
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QDockWidget, QToolButton
from qgis.utils import iface

RESULT = {"errors": []}


def log(message):
    """Progress, for whoever watches a long run ($PINDROP_DESKTOP_RESULT.log)."""
    with open(os.environ["PINDROP_DESKTOP_RESULT"] + ".log", "a") as f:
        f.write(f"{time.strftime('%H:%M:%S')} {message}\n")


def wait(seconds, until=None):
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or (until is not None and not until() and time.perf_counter() < end + 180):
        QApplication.processEvents()
        time.sleep(0.002)


def stall(action, settle_s, until=None):
    """The longest the GUI thread was away: the action's own time, then the longest gap between
    the ticks of a 5 ms timer while it settles."""
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(5)
    started = time.perf_counter()
    log(f"action {getattr(action, '__name__', action)}")
    action()
    longest = time.perf_counter() - started
    ticks.append(time.perf_counter())
    wait(settle_s, until)
    timer.stop()
    ticks.append(time.perf_counter())
    return round(max([longest] + [b - a for a, b in zip(ticks, ticks[1:])]), 3)


def longest_gap(action, settle_s):
    """The longest the GUI thread left a 5 ms timer waiting while `action` ran (real X events
    from xdotool, delivered to QGIS meanwhile) and for settle_s after."""
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(5)
    ticks.append(time.perf_counter())
    action()
    wait(settle_s)
    timer.stop()
    ticks.append(time.perf_counter())
    return round(max(b - a for a, b in zip(ticks, ticks[1:])), 3)


def xdotool(*args):
    """Runs xdotool without blocking QGIS's event loop (its events reach QGIS meanwhile)."""
    process = subprocess.Popen(["xdotool", *map(str, args)])
    while process.poll() is None:
        QApplication.processEvents()
        time.sleep(0.002)


def global_point(canvas, x, y):
    p = canvas.viewport().mapToGlobal(canvas.viewport().rect().topLeft())
    return p.x() + int(round(x)), p.y() + int(round(y))


def canvas_zoom(canvas):
    """The Web Mercator zoom of a lon/lat canvas, measured here: metres per pixel at its centre
    along both axes (haversine), averaged."""
    e, d = canvas.extent(), canvas.mapUnitsPerPixel()
    c = e.center()

    def metres(a, b):
        (lon1, lat1), (lon2, lat2) = [tuple(map(math.radians, p)) for p in (a, b)]
        h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
        return 2 * 6378137.0 * math.asin(math.sqrt(h))
    res = (metres((c.x() - d, c.y()), (c.x() + d, c.y())) + metres((c.x(), c.y() - d), (c.x(), c.y() + d))) / 4
    return math.log2(math.cos(math.radians(c.y())) * 2 * math.pi * 6378137.0 / (256 * res))


def load_plugin():
    import qgis.utils
    qgis.utils.plugin_paths.insert(0, os.environ["PINDROP_PLUGIN_DIR"])
    sys.path.insert(0, os.environ["PINDROP_PLUGIN_DIR"])
    qgis.utils.updateAvailablePlugins()
    assert qgis.utils.loadPlugin("pindrop_drag") and qgis.utils.startPlugin("pindrop_drag")
    return qgis.utils.plugins["pindrop_drag"]


def ready(plugin):
    tool = plugin.tool
    pins = getattr(tool, "pins", None)
    return tool is not None and tool.map is not None and (pins is None or not pins.busy)


def freeze(plugin, layer, canvas):
    from qgis.gui import QgsMapToolPan
    table = {}
    table["pick the tool (first time: the read starts)"] = stall(plugin.drag_action.trigger, 0.5)
    wait(0, until=lambda: ready(plugin))
    wait(2)
    pan = QgsMapToolPan(canvas)
    canvas.setMapTool(pan)
    table["pick the tool"] = stall(plugin.drag_action.trigger, 1.0, until=lambda: ready(plugin))
    other = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string", "other", "memory")

    def add_layer():  # as the Add Layer dialog does: the new layer becomes the active one
        QgsProject.instance().addMapLayer(other)
        iface.setActiveLayer(other)

    table["add a layer (it becomes the active one)"] = stall(add_layer, 1.0)
    table["select the 916k layer in the Layers panel"] = stall(lambda: iface.setActiveLayer(layer), 1.0,
                                                               until=lambda: ready(plugin))
    table["touch mode on"] = stall(lambda: plugin.touch_action.setChecked(True), 1.0, until=lambda: ready(plugin))
    table["touch mode off"] = stall(lambda: plugin.touch_action.setChecked(False), 1.0, until=lambda: ready(plugin))
    output = QgsVectorLayer(f"{os.environ['PINDROP_GPKG']}|layername=la_trees", "la trees spread", "ogr")

    def load_output():
        QgsProject.instance().addMapLayer(output)
        iface.setActiveLayer(output)

    table["the algorithm's output loaded (its first read)"] = stall(load_output, 1.0, until=lambda: ready(plugin))
    stall(lambda: iface.setActiveLayer(layer), 1.0, until=lambda: ready(plugin))
    layer.startEditing()

    def add_point():
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(-118.3, 34.1)))
        layer.beginEditCommand("Add feature")
        layer.addFeature(f)
        layer.endEditCommand()
        layer.triggerRepaint()

    table["Add Point (the tool active)"] = stall(add_point, 1.0)
    table["its undo"] = stall(layer.undoStack().undo, 1.0)
    canvas.setMapTool(pan)
    table["Add Point (the tool not active)"] = stall(add_point, 1.0)
    table["its undo (the tool not active)"] = stall(layer.undoStack().undo, 1.0)
    layer.rollBack()
    QgsProject.instance().removeMapLayer(output.id())
    QgsProject.instance().removeMapLayer(other.id())
    registry = getattr(plugin, "registry", None)
    RESULT["reads"] = registry.pins[layer.id()].reads if registry is not None else None
    RESULT["freeze"] = table


def drop_and_click(plugin, layer, canvas):
    """Issue 36: the first drop on the 916k layer (not yet in edit mode) and a click on a cluster
    of Lawndale, with real X events; for each, the longest the GUI thread was away while it ran
    and settled (the lift, the drag and the drop; the click, the zoom and its drawing)."""
    seen = RESULT["stalls"] = {}
    iface.setActiveLayer(layer)
    plugin.drag_action.trigger()
    wait(0.5, until=lambda: ready(plugin))
    tool = plugin.tool
    if layer.isEditable():
        layer.rollBack()
    # Lawndale at street zoom: a tree standing alone, dragged 64 px right and dropped.
    canvas.setExtent(QgsRectangle(-118.3560, 33.8855, -118.3510, 33.8885))
    canvas.refresh()
    wait(1.5)
    tool._redraw()
    size = canvas.mapSettings().outputSize()
    tree = next(v for v in tool.map.frame(tool._now()) if not v.flags & 7
                and 0.3 * size.width() < v.x < 0.6 * size.width() and 0.3 * size.height() < v.y < 0.7 * size.height())
    start = layer.getFeature(tree.id).geometry().asPoint()
    x, y = global_point(canvas, tree.x, tree.y)
    drag = ["mousemove", x, y, "mousedown", 1, "sleep", 0.1,
            *sum((["mousemove", x + 8 * k, y, "sleep", 0.03] for k in range(1, 9)), []), "mouseup", 1]
    seen["first drop"] = longest_gap(lambda: xdotool(*drag), 1.5)
    seen["drop_moved"] = layer.getFeature(tree.id).geometry().asPoint() != start
    layer.rollBack()
    # Lawndale below street zoom: a click on the cluster nearest 388 trees of those that come apart
    # at street zoom (Lawndale's stacks then drawn as markers), until it has settled.
    canvas.setExtent(QgsRectangle(-118.3750, 33.8750, -118.3250, 33.9050))
    canvas.refresh()
    wait(1.5)
    tool._redraw()
    street = [c for c in tool.clusters if tool.map.cluster_expansion_zoom(c.key) >= 16]
    c = min(street or tool.clusters, key=lambda c: abs(c.count - 388))
    seen["cluster_count"], seen["scale_before"] = c.count, canvas.scale()
    seen["expansion_zoom"] = tool.map.cluster_expansion_zoom(c.key)
    x, y = global_point(canvas, c.x, c.y)
    seen["cluster click"] = longest_gap(lambda: xdotool("mousemove", x, y, "click", 1), 1.5)
    seen["scale_after"] = canvas.scale()
    log(f"stalls {seen}")


def with_x_events(plugin, layer, canvas):
    """The toolbar button clicked, the Processing dialog's crash path, a drag and a cluster click,
    all with real X events."""
    seen = RESULT["x"] = {}
    from qgis.gui import QgsMapToolPan
    canvas.setMapTool(QgsMapToolPan(canvas))
    iface.setActiveLayer(layer)
    button = next(b for b in iface.mainWindow().findChildren(QToolButton) if b.defaultAction() is plugin.drag_action)
    seen["button_icon_only"] = button.toolButtonStyle() == 0 and not plugin.drag_action.icon().isNull()
    centre = button.mapToGlobal(button.rect().center())
    xdotool("mousemove", centre.x(), centre.y(), "click", 1)
    wait(0.5, until=lambda: ready(plugin))
    seen["button_picked_the_tool"] = canvas.mapTool() is plugin.tool and plugin.tool is not None
    saved = canvas.mapTool()  # what the Processing dialog keeps when it opens

    # Lawndale at street zoom: the output of pindrop:spread made active, the saved tool restored.
    lawndale = QgsRectangle(-118.3560, 33.8855, -118.3510, 33.8885)
    canvas.setExtent(lawndale)
    canvas.refresh()
    wait(1.0)
    output = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string", "spread", "memory")
    f = QgsFeature(output.fields())
    f.setAttributes(["tree"])
    f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(-118.3530, 33.8872)))
    output.dataProvider().addFeatures([f])
    QgsProject.instance().addMapLayer(output)
    iface.setActiveLayer(output)
    canvas.setMapTool(saved)
    wait(0.5, until=lambda: ready(plugin))
    tool = canvas.mapTool()
    fid = next(output.getFeatures()).id()
    start = output.getFeature(fid).geometry().asPoint()
    to_pixel = canvas.getCoordinateTransform()
    p = to_pixel.transform(tool._to_canvas.transform(start)) if hasattr(tool, "_to_canvas") else to_pixel.transform(start)
    x, y = global_point(canvas, p.x(), p.y())
    xdotool("mousemove", x, y, "mousedown", 1, "sleep", 0.1,
            *sum((["mousemove", x + 8 * k, y, "sleep", 0.03] for k in range(1, 9)), []), "mouseup", 1)
    wait(0.5)
    moved = output.getFeature(fid).geometry().asPoint()
    seen["drag_after_dialog_moved_m"] = QgsPointXY(start).distance(moved) * 111320 * math.cos(math.radians(33.887))
    output.rollBack()
    QgsProject.instance().removeMapLayer(output.id())

    # A click on the biggest cluster at county zoom zooms to its expansion zoom.
    iface.setActiveLayer(layer)
    wait(0.5, until=lambda: ready(plugin))
    canvas.setExtent(QgsRectangle(-118.70, 33.70, -117.90, 34.35))
    canvas.refresh()
    wait(1.5)
    tool = plugin.tool
    tool._redraw()
    c = max(tool.clusters, key=lambda c: c.count)
    expansion = tool.map.cluster_expansion_zoom(c.key)
    zoom = lambda: canvas_zoom(canvas)  # noqa: E731
    seen["cluster"] = {"count": c.count, "expansion_zoom": expansion, "zoom_before": zoom(),
                       "scale_before": canvas.scale()}
    x, y = global_point(canvas, c.x, c.y)
    xdotool("mousemove", x, y, "click", 1)
    wait(1.0)
    seen["cluster"].update(zoom_after=zoom(), scale_after=canvas.scale())

    # The layer made read-only, Lawndale's 305-tree stack at street zoom: a click nearer its marker
    # than the tree beside it opens it; a press on that tree and a drag lift nothing.
    layer.setReadOnly(True)
    spot = (-118.34600679066747, 33.88355188855412)
    canvas.setExtent(QgsRectangle(spot[0] - 0.009, spot[1] - 0.006, spot[0] + 0.009, spot[1] + 0.006))
    canvas.refresh()
    wait(1.0)
    tool._redraw()
    ro = seen["read_only"] = {"messages_before": len(tool.messages)}
    big = max((c for c in tool.clusters if c.flags & 2), key=lambda c: c.count)
    apart = {int(i) for c in tool.clusters if c.flags & 2 for i in tool.map.cluster_members(c.key)}
    beside = sorted((math.hypot(v.x - big.x, v.y - big.y), v.id, v) for v in tool.map.frame(tool._now())
                    if v.id not in apart and 5 < math.hypot(v.x - big.x, v.y - big.y) <= 21)
    ro["stack"], ro["tree_beside"] = big.count, bool(beside)
    ro["nearest_px"] = sorted(round(math.hypot(v.x - big.x, v.y - big.y), 1) for v in tool.map.frame(tool._now())
                              if v.id not in apart)[:3]
    if beside:
        tree = beside[0][2]
        d = math.hypot(tree.x - big.x, tree.y - big.y)
        px, py = round(big.x + 3 * (tree.x - big.x) / d), round(big.y + 3 * (tree.y - big.y) / d)
        ro["hit_test_finds_the_tree"] = tool.map.hit_test(px, py) == tree.id
        n = len(tool.events)
        x, y = global_point(canvas, px, py)
        xdotool("mousemove", x, y, "click", 1)
        wait(1.0)
        ro["click_on_marker"] = [getattr(e.type, "name", e.type) for e in tool.events[n:]]
        ro["messages_after_click"] = list(tool.messages[ro["messages_before"]:])
        tool.cancel()  # Esc: the stack closes
        wait(0.5)
        tool._redraw()
        tree = next(v for v in tool.map.frame(tool._now()) if v.id == tree.id)
        start = layer.getFeature(tree.id).geometry().asPoint()
        n = len(tool.events)
        x, y = global_point(canvas, tree.x, tree.y)
        xdotool("mousemove", x, y, "mousedown", 1, "sleep", 0.1,
                *sum((["mousemove", x + 8 * k, y, "sleep", 0.03] for k in range(1, 9)), []), "mouseup", 1)
        wait(1.0)
        ro["press_on_tree"] = [getattr(e.type, "name", e.type) for e in tool.events[n:]]
        ro["messages_after_press"] = list(tool.messages[ro["messages_before"]:])
        ro["tree_moved"] = layer.getFeature(tree.id).geometry().asPoint() != start
    layer.setReadOnly(False)
    shot = os.environ.get("PINDROP_DESKTOP_SHOT")
    if shot:
        subprocess.run(["import", "-window", "root", shot], check=False)


def watch_for_errors():
    """Every Python exception that reaches Qt (an exception in a slot: PyQt hands it to
    sys.excepthook, QGIS would show its "Python error" dialog) is kept with its traceback in the
    result and in the progress log; a crash of the process (a Python fault, Qt's qFatal abort)
    leaves its tracebacks in $PINDROP_DESKTOP_RESULT.fault, which test_desktop.py prints."""
    import faulthandler
    fault = open(os.environ["PINDROP_DESKTOP_RESULT"] + ".fault", "w")
    faulthandler.enable(file=fault, all_threads=True)
    previous = sys.excepthook

    def record(kind, value, tb):
        text = "".join(traceback.format_exception(kind, value, tb))
        RESULT["errors"].append(f"{kind.__name__}: {value}")
        RESULT.setdefault("tracebacks", []).append(text)
        log(f"python error in a Qt slot:\n{text}")
        previous(kind, value, tb)
    sys.excepthook = record


def main():
    try:
        window = iface.mainWindow()
        window.setGeometry(0, 0, 1280, 800)
        for dock in window.findChildren(QDockWidget):
            if dock.objectName().startswith("Browser"):
                dock.hide()
        log("started")
        plugin = load_plugin()
        log("plugin loaded")
        layer = QgsVectorLayer(f"{os.environ['PINDROP_GPKG']}|layername=la_trees", "la trees", "ogr")
        assert layer.isValid()
        QgsProject.instance().addMapLayer(layer)
        iface.setActiveLayer(layer)
        canvas = iface.mapCanvas()
        wait(3.0)
        parts = os.environ.get("PINDROP_DESKTOP_PARTS", "freeze,stalls,x").split(",")
        if "freeze" in parts:
            freeze(plugin, layer, canvas)
        if "stalls" in parts:
            drop_and_click(plugin, layer, canvas)
        if "x" in parts:
            with_x_events(plugin, layer, canvas)
    except Exception:
        RESULT["error"] = traceback.format_exc()
    finally:
        with open(os.environ["PINDROP_DESKTOP_RESULT"], "w") as f:
            json.dump(RESULT, f, indent=1)
        QgsProject.instance().setDirty(False)
        os._exit(0)


watch_for_errors()
QTimer.singleShot(1000, main)
