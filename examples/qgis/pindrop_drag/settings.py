"""The tool's settings: what clusters summarise (a numeric field as the value, a text or integer
field as the category), what the points are called, whether stacks open on tap and how an
opened stack is laid out.

The fields and the name are kept with the layer (its custom properties, saved in the project);
"stacks open on tap" (on by default) and the stack layout (a spiral by default) are the user's
(QgsSettings)."""
from __future__ import annotations

from qgis.core import QgsFieldProxyModel, QgsSettings
from qgis.gui import QgsFieldComboBox
from qgis.PyQt.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit

VALUE, CATEGORY, NOUN = "pindrop/value_field", "pindrop/category_field", "pindrop/noun"
CATEGORIES = "pindrop/categories_are"
SPREAD_ON_TAP = "pindrop/spread_on_tap"
STACK_LAYOUT = "pindrop/stack_layout"
#: How an opened stack is laid out: "spiral" (the default: in screen points, 25 apart, so that it
#: fits the view at any zoom: Lawndale's 305 trees take about 500 points across) or "ring" (on the
#: ground, 1.5 m a point: 457.5 m for the same 305, far wider than the canvas at street zoom).
STACK_LAYOUTS = ("spiral", "ring")


def layer_settings(layer):
    """(value field, category field, noun) kept with the layer; None for a field not chosen."""
    if layer is None:
        return None, None, "points"
    value = layer.customProperty(VALUE) or None
    category = layer.customProperty(CATEGORY) or None
    fields = layer.fields()
    value = value if value and fields.indexOf(value) >= 0 else None
    category = category if category and fields.indexOf(category) >= 0 else None
    return value, category, layer.customProperty(NOUN) or "points"


def categories_are(layer) -> str:
    """What the categories are called, in the plural ("species", "cities"); by default the
    category field's name."""
    return (layer.customProperty(CATEGORIES) or "") if layer is not None else ""


def set_layer_settings(layer, value, category, noun, categories="") -> None:
    layer.setCustomProperty(VALUE, value or "")
    layer.setCustomProperty(CATEGORY, category or "")
    layer.setCustomProperty(NOUN, noun or "points")
    layer.setCustomProperty(CATEGORIES, categories or "")


def spread_on_tap() -> bool:
    return QgsSettings().value(SPREAD_ON_TAP, True, type=bool)


def set_spread_on_tap(on: bool) -> None:
    QgsSettings().setValue(SPREAD_ON_TAP, bool(on))


def stack_layout() -> str:
    layout = QgsSettings().value(STACK_LAYOUT, "spiral", type=str)
    return layout if layout in STACK_LAYOUTS else "spiral"


def set_stack_layout(layout: str) -> None:
    if layout not in STACK_LAYOUTS:
        raise ValueError(f"the stack layout is one of {', '.join(STACK_LAYOUTS)}, not {layout!r}")
    QgsSettings().setValue(STACK_LAYOUT, layout)


class SettingsDialog(QDialog):
    """The settings of the tool for one layer."""

    def __init__(self, layer, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"pindrop: {layer.name()}")
        value, category, noun = layer_settings(layer)
        form = QFormLayout(self)
        self.value = QgsFieldComboBox()
        self.value.setFilters(QgsFieldProxyModel.Numeric)
        self.value.setAllowEmptyFieldName(True)
        self.value.setLayer(layer)
        self.value.setField(value or "")
        self.value.setToolTip("A numeric field: a cluster's tooltip gives its mean")
        self.category = QgsFieldComboBox()
        self.category.setAllowEmptyFieldName(True)
        self.category.setLayer(layer)
        self.category.setField(category or "")
        self.category.setToolTip("A text or integer field: clusters are coloured by their dominant "
                                 "category with a ring of the shares")
        self.categories = QLineEdit(categories_are(layer))
        self.categories.setPlaceholderText("the field's name")
        self.categories.setToolTip('What the categories are, in the plural ("species", "cities")')
        self.noun = QLineEdit(noun)
        self.noun.setToolTip('What the points are, in the plural ("trees"): "1,204 trees · 38 species"')
        self.stacks = QCheckBox("Stacks open on tap")
        self.stacks.setChecked(spread_on_tap())
        self.stacks.setToolTip("Points on one spot stay one marker with their count until tapped; "
                               "off: always spread on their ring")
        self.layout_box = QComboBox()
        self.layout_box.addItem("on a spiral that fits the view", "spiral")
        self.layout_box.addItem("on a ring on the ground (1.5 m a point)", "ring")
        self.layout_box.setCurrentIndex(STACK_LAYOUTS.index(stack_layout()))
        self.layout_box.setToolTip("How an opened stack's points are laid out")
        form.addRow("Value", self.value)
        form.addRow("Category", self.category)
        form.addRow("Categories are", self.categories)
        form.addRow("Points are", self.noun)
        form.addRow(self.stacks)
        form.addRow("Stacks open", self.layout_box)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.layer = layer

    def apply(self) -> None:
        set_layer_settings(self.layer, self.value.currentField(), self.category.currentField(),
                           self.noun.text().strip(), self.categories.text().strip())
        set_spread_on_tap(self.stacks.isChecked())
        set_stack_layout(self.layout_box.currentData())
