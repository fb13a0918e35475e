"""pindrop drag: a QGIS plugin to drag the points of a point layer with pindrop's behaviour."""


def classFactory(iface):  # noqa: N802 (QGIS's name)
    from .plugin import PindropDragPlugin
    return PindropDragPlugin(iface)
