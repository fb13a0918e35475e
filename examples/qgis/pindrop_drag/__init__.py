"""pindrop drag: a QGIS plugin to drag the points of a point layer with pindrop's behaviour."""
import sys
from pathlib import Path

# The installable zip (make qgis-plugin) carries the pindrop package and its library in ext/: it
# comes first, so that the plugin runs with the library it was packaged with.
_BUNDLED = Path(__file__).resolve().parent / "ext"
if (_BUNDLED / "pindrop").is_dir() and str(_BUNDLED) not in sys.path:
    sys.path.insert(0, str(_BUNDLED))


def classFactory(iface):  # noqa: N802 (QGIS's name)
    from .plugin import PindropDragPlugin
    return PindropDragPlugin(iface)
