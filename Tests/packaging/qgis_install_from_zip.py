"""Runs inside the QGIS desktop (qgis --code this_file): installs the plugin zip named by
$PINDROP_TEST_ZIP through the Plugin Manager's own "Install from ZIP" code, then uses what it
installed (the map tool, the Processing algorithm), writes what it saw as JSON to
$PINDROP_TEST_RESULT and quits QGIS. test_qgis_zip.py checks the JSON."""
import json
import os
import traceback


def _check():
    import pyplugin_installer
    import qgis.utils
    from pyplugin_installer.installer_data import plugins
    from qgis.core import (QgsApplication, QgsFeature, QgsGeometry, QgsPointXY, QgsProject,
                           QgsVectorLayer)
    from qgis.utils import iface

    seen = {"home_plugin_path": qgis.utils.home_plugin_path,
            "active_before": sorted(qgis.utils.active_plugins)}
    pyplugin_installer.instance().installFromZipFile(os.environ["PINDROP_TEST_ZIP"])
    seen["active_after"] = sorted(qgis.utils.active_plugins)
    seen["manager_entry"] = {k: str(plugins.all().get("pindrop_drag", {}).get(k))
                             for k in ("installed", "version_installed", "error", "name")}
    import pindrop
    import pindrop._ffi
    seen["pindrop_module"] = pindrop.__file__
    seen["library"] = str(pindrop._ffi.library_path)
    seen["version"] = pindrop.version()

    # The map tool on a point layer: three trees, two on one spot.
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string", "trees", "memory")
    features = []
    for name, lon, lat in (("a", -118.3535474, 33.8870931), ("b", -118.3535474, 33.8870931),
                           ("c", -118.3530, 33.8873)):
        f = QgsFeature(layer.fields())
        f.setAttributes([name])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(lon, lat)))
        features.append(f)
    layer.dataProvider().addFeatures(features)
    QgsProject.instance().addMapLayer(layer)
    iface.setActiveLayer(layer)
    plugin = qgis.utils.plugins["pindrop_drag"]
    plugin.drag_action.trigger()
    seen["map_tool_is_pindrop"] = iface.mapCanvas().mapTool() is plugin.tool
    seen["map_tool_pins"] = len(plugin.tool.map) if plugin.tool is not None else None

    # The Processing algorithm, as the Toolbox runs it.
    import processing
    seen["algorithm"] = QgsApplication.processingRegistry().algorithmById("pindrop:spread").displayName()
    out = processing.run("pindrop:spread", {"INPUT": layer, "TOLERANCE": 0, "LAYOUT": 0, "OUTPUT": "memory:"})["OUTPUT"]
    seen["spread"] = [[f["name"], f.geometry().asPoint().x(), f.geometry().asPoint().y(), f["true_x"], f["true_y"]]
                      for f in out.getFeatures()]
    with open("/proc/self/maps") as maps:
        seen["mapped_pindrop"] = sorted({line.split()[-1] for line in maps if "libpindrop" in line})
    QgsProject.instance().setDirty(False)
    return seen


try:
    result = _check()
except Exception:  # reported to the test, which fails with it
    result = {"error": traceback.format_exc()}
with open(os.environ["PINDROP_TEST_RESULT"], "w") as f:
    json.dump(result, f, indent=1)
os._exit(0)  # QGIS's own exit would wait for the event loop (and ask to save the project)
