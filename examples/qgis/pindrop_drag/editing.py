"""A drop written to the layer as one undoable edit, or refused with the reason."""
from __future__ import annotations

from typing import Optional

from qgis.core import QgsGeometry, QgsPointXY, QgsVectorDataProvider

import pindrop


class LayerEdits:
    """What the map tool writes to its layer (a part of `PindropMapTool`)."""

    def _write(self, e: pindrop.Event) -> None:
        """A drop: one undoable edit of the layer."""
        layer = self.layer
        why = self._why_read_only()
        if why is not None:
            self._refuse(e, why)
            return
        if not layer.isEditable() and not layer.startEditing():
            self._refuse(e, "editing could not be started on the layer")
            return
        p = self.pins.from_wgs84.transform(QgsPointXY(e.lon, e.lat))
        self.pins.writing = True
        try:
            layer.beginEditCommand("Move point with pindrop")
            ok = layer.changeGeometry(e.id, QgsGeometry.fromPointXY(p))
            if ok:
                layer.endEditCommand()
            else:
                layer.destroyEditCommand()
        finally:
            self.pins.writing = False
        if ok:
            self.moved.emit(e.id, p.x(), p.y())
        else:
            self._refuse(e, "the layer refused the new geometry")
        layer.triggerRepaint()

    def _refuse(self, e: pindrop.Event, why: str) -> None:
        """Puts the point back and says why the move was not saved."""
        self.map.set_position(e.id, e.from_lon, e.from_lat)
        self._say(f"The move of point {e.id} in {self.layer.name()!r} was not saved: {why}.")

    def _why_read_only(self) -> Optional[str]:
        """Why the layer's geometries cannot be changed, or None if they can."""
        layer = self.layer
        if layer is None:
            return None
        if layer.readOnly():
            return "the layer is read-only"
        provider = layer.dataProvider()
        if provider is None or not (provider.capabilities() & QgsVectorDataProvider.ChangeGeometries):
            name = provider.name() if provider is not None else "no"
            return f"its data source ({name} provider) cannot change geometries"
        return None

    def _say(self, message: str) -> None:
        self.messages.append(message)
        self.refused.emit(message)
