"""The plugin's Processing provider: pindrop's algorithms in the Processing Toolbox ("pindrop:...")."""
from pathlib import Path

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from .spread_algorithm import SpreadAlgorithm

ICON = Path(__file__).resolve().parent / "icon.svg"


class PindropProvider(QgsProcessingProvider):
    def id(self):
        return "pindrop"

    def name(self):
        return "pindrop"

    def longName(self):
        return "pindrop: placement, drag and spreading of map pins"

    def icon(self):
        return QIcon(str(ICON))

    def loadAlgorithms(self):
        self.addAlgorithm(SpreadAlgorithm())
