"""The plugin: two toolbar buttons (icons, their text as tooltips), "Drag points (pindrop)" and
"Touch mode", and the Processing provider.

One map tool lives as long as the plugin. It follows the active layer (a point layer, or none:
then a press pans), so that whatever restores it as the canvas's tool later — the Processing
dialog restores the tool that was active when it opened — gets a working tool.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from qgis.PyQt.QtGui import QIcon
from qgis.PyQt.QtWidgets import QAction, QWidget

from .maptool import PindropMapTool, is_point_layer
from .pins import PinsRegistry
from .processing_provider import PindropProvider

HERE = Path(__file__).resolve().parent
DRAG_TEXT = "Drag points (pindrop)"
TOUCH_TEXT = "Touch mode (hold to lift)"


class PindropDragPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.tool: Optional[PindropMapTool] = None
        self.registry: Optional[PinsRegistry] = None
        self.actions = []
        self.provider: Optional[PindropProvider] = None

    def initProcessing(self) -> None:  # noqa: N802 (QGIS's name)
        """Registers pindrop's Processing algorithms ("pindrop:spread"), also for qgis_process."""
        from qgis.core import QgsApplication
        provider = PindropProvider()
        # The registry deletes a provider it refuses (another "pindrop" is there already).
        self.provider = provider if QgsApplication.processingRegistry().addProvider(provider) else None

    def initGui(self) -> None:  # noqa: N802 (QGIS's name)
        self.initProcessing()
        window = self.iface.mainWindow()
        self.drag_action = QAction(QIcon(str(HERE / "icon.svg")), DRAG_TEXT, window)
        self.drag_action.setCheckable(True)
        self.drag_action.setToolTip(f"<b>{DRAG_TEXT}</b><br>Drag the points of the active point layer; "
                                    "Esc cancels a drag, a click on a cluster zooms in")
        self.drag_action.triggered.connect(self.activate)
        self.touch_action = QAction(QIcon(str(HERE / "icon_touch.svg")), TOUCH_TEXT, window)
        self.touch_action.setCheckable(True)
        self.touch_action.setToolTip(f"<b>{TOUCH_TEXT}</b><br>Hold a point for 250 ms to lift it above "
                                     "the finger; a finger that moves at once pans the map")
        self.touch_action.toggled.connect(self._touch_toggled)
        for action in (self.drag_action, self.touch_action):
            self.iface.addToolBarIcon(action)
            self.iface.addPluginToVectorMenu("pindrop", action)
            self.actions.append(action)
        self.settings_action = QAction("Settings…", window)
        self.settings_action.setToolTip("Cluster fields, what the points are called, stacks on tap")
        self.settings_action.triggered.connect(self.show_settings)
        self.iface.addPluginToVectorMenu("pindrop", self.settings_action)
        self.iface.currentLayerChanged.connect(self._layer_changed)

    def unload(self) -> None:
        if self.provider is not None:
            from qgis.core import QgsApplication
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        try:
            self.iface.currentLayerChanged.disconnect(self._layer_changed)
        except (TypeError, RuntimeError):
            pass
        if self.tool is not None:
            canvas = self.iface.mapCanvas()
            if canvas.mapTool() is self.tool:
                canvas.unsetMapTool(self.tool)
            self.tool.close()
            self.tool = None
        if self.registry is not None:
            self.registry.close()
            self.registry = None
        for action in self.actions:
            self.iface.removeToolBarIcon(action)
            self.iface.removePluginVectorMenu("pindrop", action)
        self.iface.removePluginVectorMenu("pindrop", self.settings_action)
        self.actions = []

    def _ensure_tool(self) -> PindropMapTool:
        if self.tool is None:
            self.registry = PinsRegistry()
            self.tool = PindropMapTool(self.iface.mapCanvas(), touch=self.touch_action.isChecked(),
                                       registry=self.registry)
            self.tool.setAction(self.drag_action)
            bar = self.iface.messageBar()
            self.tool.cover = bar if isinstance(bar, QWidget) else None  # it lies over the canvas's top
            self.tool.refused.connect(self._warn)
            self.tool.status.connect(self._status)
            self.tool.announce.connect(self._announce)
        return self.tool

    def _warn(self, message: str) -> None:
        self.iface.messageBar().pushWarning("pindrop", message)

    def _announce(self, message: str) -> None:
        """What the keyboard did: in the status bar and the message bar (screen readers read both)."""
        self._status(message)
        bar = self.iface.messageBar()
        push = getattr(bar, "pushInfo", None)
        if push is not None:
            push("pindrop", message)

    def show_settings(self, layer=None) -> bool:
        """The settings dialog for the active point layer; True when accepted."""
        from .settings import SettingsDialog
        layer = layer or self.iface.activeLayer()
        if not is_point_layer(layer):
            self._warn("Select a point layer to set what its clusters show")
            return False
        dialog = SettingsDialog(layer, self.iface.mainWindow())
        if not dialog.exec_():
            return False
        dialog.apply()
        if self.tool is not None:
            self.tool.apply_settings()
        return True

    def _status(self, message: str) -> None:
        bar = getattr(self.iface, "statusBarIface", None)
        if bar is not None:
            bar().showMessage(message, 5000)

    def activate(self) -> Optional[PindropMapTool]:
        """Makes the pindrop tool the canvas's map tool, on the active layer."""
        layer = self.iface.activeLayer()
        if not is_point_layer(layer):
            self._warn("Select a point layer to drag its points")
            self.drag_action.setChecked(False)
            return None
        tool = self._ensure_tool()
        tool.set_layer(layer)
        canvas = self.iface.mapCanvas()
        if canvas.mapTool() is not tool:
            canvas.setMapTool(tool)
        self.drag_action.setChecked(True)
        return tool

    def _touch_toggled(self, on: bool) -> None:
        if self.tool is not None:
            self.tool.set_touch_mode(on)

    def _layer_changed(self, layer) -> None:
        """The tool follows the active layer, active or not: a point layer's points are read
        when the tool is active on it (once per layer); any other layer leaves it without one."""
        if self.tool is None:
            return
        self.tool.set_layer(layer if is_point_layer(layer) else None)
        if layer is not None and not is_point_layer(layer) and self.iface.mapCanvas().mapTool() is self.tool:
            self._status("pindrop: select a point layer to drag its points")
