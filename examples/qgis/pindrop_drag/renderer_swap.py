"""The layer's renderer while the map tool is active: the layer's own, behind a filter that leaves
out what the tool draws; put back as it was when another tool is picked."""
from __future__ import annotations

from typing import Optional

from qgis.core import QgsProject, QgsReadWriteContext, QgsRuleBasedRenderer, QgsVectorLayer


class RendererSwap:
    """While the tool is active, the layer draws through a temporary renderer: its own renderer's
    rules behind a filter that leaves out what pindrop draws. `restore` puts back a clone of the
    renderer the layer had (or the one the user set meanwhile), so that nothing of the tool's stays
    in the layer's style or a saved project."""

    def __init__(self, layer: QgsVectorLayer):
        self.layer = layer
        self.original = None     # a clone of the layer's own renderer while ours is set
        self.ours = None
        self.expression: Optional[str] = None
        self._setting = False

    @property
    def active(self) -> bool:
        return self.original is not None

    def show_all_but(self, expression: Optional[str]) -> None:
        """Draws only the features for which `expression` is true (None: all of them)."""
        if self.original is not None and expression == self.expression:
            return
        if self.original is None:
            renderer = self.layer.renderer()
            if renderer is None:
                return
            self.original = renderer.clone()
            self.layer.rendererChanged.connect(self._changed)
            QgsProject.instance().writeMapLayer.connect(self._written)
        gate = self._gate()
        if gate is not None and expression is not None and self.expression is not None:
            # Only the filter changes (a point lifted, dropped, a stack opened): change it in the
            # renderer the layer has. A new renderer would tell the whole desktop (legend, styling
            # panel, project) that the layer's style changed, at each lift and drop.
            self.expression = expression
            gate.setFilterExpression(expression)
            self.layer.triggerRepaint()
            return
        self.expression = expression
        self._set(self._filtered(expression))

    def _gate(self):
        """The rule of our renderer that holds the filter, while the layer still has it."""
        if self.ours is None or self.layer.renderer() is not self.ours:
            return None
        children = self.ours.rootRule().children() if isinstance(self.ours, QgsRuleBasedRenderer) else []
        return children[0] if len(children) == 1 and children[0].label() == "pindrop tool active" else None

    def _filtered(self, expression: Optional[str]):
        if expression is None:
            return self.original.clone()
        inner = QgsRuleBasedRenderer.convertFromRenderer(self.original.clone())
        root = QgsRuleBasedRenderer.Rule(None)
        gate = QgsRuleBasedRenderer.Rule(None, filterExp=expression, label="pindrop tool active")
        if inner is not None:
            for child in inner.rootRule().children():
                gate.appendChild(child.clone())
        root.appendChild(gate)
        return QgsRuleBasedRenderer(root)

    def _set(self, renderer) -> None:
        self._setting = True
        try:
            self.ours = renderer
            self.layer.setRenderer(renderer)
        finally:
            self._setting = False
        self.layer.triggerRepaint()

    def _changed(self) -> None:
        """The layer's renderer was set by someone else (its style dialog): that one is the layer's
        own now, drawn with the same filter."""
        if self._setting or self.original is None:
            return
        renderer = self.layer.renderer()
        if renderer is None or renderer is self.ours:
            return
        self.original = renderer.clone()
        self._set(self._filtered(self.expression))

    def _written(self, layer, element, document) -> None:
        """A project saved while the tool is active keeps the layer's own renderer."""
        if layer is not self.layer or self.original is None:
            return
        ours = element.firstChildElement("renderer-v2")
        if not ours.isNull():
            element.replaceChild(self.original.save(document, QgsReadWriteContext()), ours)

    def restore(self) -> None:
        if self.original is None:
            return
        for signal, slot in ((self.layer.rendererChanged, self._changed),
                             (QgsProject.instance().writeMapLayer, self._written)):
            try:
                signal.disconnect(slot)
            except (TypeError, RuntimeError):
                pass
        original, self.original, self.ours, self.expression = self.original, None, None, None
        try:
            self.layer.setRenderer(original)
            self.layer.triggerRepaint()
        except RuntimeError:  # the layer is gone
            pass
