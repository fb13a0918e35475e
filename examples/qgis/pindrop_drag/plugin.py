"""The plugin: two actions on the toolbar, "Drag points (pindrop)" and "Touch mode"."""
from __future__ import annotations

from typing import Optional

from qgis.core import QgsMapLayer, QgsVectorLayer, QgsWkbTypes
from qgis.PyQt.QtWidgets import QAction

from .maptool import PindropMapTool
from .processing_provider import PindropProvider


class PindropDragPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.tool: Optional[PindropMapTool] = None
        self.actions = []
        self.provider: Optional[PindropProvider] = None

    def initProcessing(self) -> None:  # noqa: N802 (QGIS's name)
        """Registers pindrop's Processing algorithms ("pindrop:spread"), also for qgis_process."""
        from qgis.core import QgsApplication
        self.provider = PindropProvider()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 (QGIS's name)
        self.initProcessing()
        self.drag_action = QAction("Drag points (pindrop)", self.iface.mainWindow())
        self.drag_action.setCheckable(True)
        self.drag_action.setToolTip("Drag the points of the active point layer; Esc cancels a drag")
        self.drag_action.triggered.connect(self.activate)
        self.touch_action = QAction("Touch mode (hold to lift)", self.iface.mainWindow())
        self.touch_action.setCheckable(True)
        self.touch_action.toggled.connect(self._touch_toggled)
        for action in (self.drag_action, self.touch_action):
            self.iface.addToolBarIcon(action)
            self.iface.addPluginToVectorMenu("pindrop", action)
            self.actions.append(action)
        self.iface.currentLayerChanged.connect(self._layer_changed)

    def unload(self) -> None:
        if self.provider is not None:
            from qgis.core import QgsApplication
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        self._drop_tool()
        try:
            self.iface.currentLayerChanged.disconnect(self._layer_changed)
        except (TypeError, RuntimeError):
            pass
        for action in self.actions:
            self.iface.removeToolBarIcon(action)
            self.iface.removePluginVectorMenu("pindrop", action)
        self.actions = []

    @staticmethod
    def _is_point_layer(layer) -> bool:
        return (layer is not None and layer.type() == QgsMapLayer.VectorLayer
                and layer.geometryType() == QgsWkbTypes.PointGeometry)

    def activate(self) -> Optional[PindropMapTool]:
        """Makes the pindrop tool the canvas's map tool for the active layer."""
        layer = self.iface.activeLayer()
        if not self._is_point_layer(layer):
            self.iface.messageBar().pushWarning("pindrop", "Select a point layer to drag its points")
            self.drag_action.setChecked(False)
            return None
        self._drop_tool()
        canvas = self.iface.mapCanvas()
        self.tool = PindropMapTool(canvas, layer, touch=self.touch_action.isChecked())
        self.tool.setAction(self.drag_action)
        self.tool.refused.connect(lambda message: self.iface.messageBar().pushWarning("pindrop", message))
        canvas.setMapTool(self.tool)
        return self.tool

    def _touch_toggled(self, on: bool) -> None:
        if self.tool is not None:
            self.tool.set_touch_mode(on)

    def _layer_changed(self, layer) -> None:
        if self.tool is not None and self.iface.mapCanvas().mapTool() is self.tool:
            if self._is_point_layer(layer):
                self.activate()
            else:
                self.iface.mapCanvas().unsetMapTool(self.tool)
                self._drop_tool()

    def _drop_tool(self) -> None:
        if self.tool is not None:
            canvas = self.iface.mapCanvas()
            if canvas.mapTool() is self.tool:
                canvas.unsetMapTool(self.tool)
            self.tool.close()
            self.tool = None
