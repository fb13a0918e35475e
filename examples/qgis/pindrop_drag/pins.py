"""pindrop's copy of a point layer's points: read once, then kept in step with the layer's edits.

A `LayerPins` reads a layer's points once (a small layer at once; a big one in a QgsTask, off the
GUI thread, with its progress in QGIS's task bar) and from then on follows the layer's own edit
signals — featureAdded, geometryChanged, featureDeleted (the edit buffer's, so also QGIS's Add
Point, its undo and redo, a rollback, and a commit that renumbers added features) — with one
`add`, `set_position` or `remove` each. Nothing re-reads the layer on ordinary actions: picking the
tool, choosing another layer and coming back, toggling touch mode (a new map built on another
thread from the points kept here) or editing.

`PinsRegistry` holds one `LayerPins` per layer of the project, and lets it go with the layer.
Feature ids are pindrop ids (QGIS's are int64, negative for features not yet committed).
"""
from __future__ import annotations

import math
import threading
from typing import Callable, Dict, List, Optional, Tuple

from qgis.core import (QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsFeatureRequest, QgsProject,
                       QgsProviderRegistry, QgsVectorLayerFeatureSource)
from qgis.PyQt.QtCore import QObject, pyqtSignal

import pindrop

from .reading import (READ_AT_ONCE, STEP, _arrow_read, _category, _categorise, _new_map, _number, _point,
                      _Read, _to_lonlat)

WGS84 = QgsCoordinateReferenceSystem("EPSG:4326")


class LayerPins(QObject):
    """The pindrop map of one point layer. `map` is None until the first read has finished
    (`ready` is emitted then, and after a new map for other options has been swapped in);
    `changed` is emitted after each edit applied to it."""

    ready = pyqtSignal()
    changed = pyqtSignal()
    failed = pyqtSignal(str)

    def __init__(self, layer, options: dict, background: Optional[bool] = None):
        super().__init__()
        self.layer = layer
        self.options = dict(options)
        self.map: Optional[pindrop.Map] = None
        self.reads = 0          # full reads of the layer (1 once read; again only if its CRS changes)
        self.progress = 0.0     # percent of the read in progress
        self.how = ""           # how the points were read
        self.writing = False    # the tool is writing a drop: its own geometryChanged is not news
        self._ids = None        # the points read (NumPy), and the edits since, for a new map
        self._lonlat = None
        self._edits: Dict[int, Optional[Tuple[float, float]]] = {}
        self._journal: Optional[List[Tuple[str, int, Optional[Tuple[float, float]]]]] = None
        self._task: Optional[_Read] = None
        self._map_options: Optional[dict] = None
        self._started_with: dict = {}
        self._generation = 0
        # What clusters summarise (pindrop_map_set_attributes, since pindrop 0.3): a numeric field
        # as the value, a field (text or integer) as the category. Categories are numbered by the
        # plugin, most frequent first, from 1: 0 is "none" (a null, or a pin not yet told).
        self.value_field: Optional[str] = None
        self.category_field: Optional[str] = None
        self.category_names: List[str] = ["(none)"]
        self._category_codes: Dict[object, int] = {}
        self._attrs = None  # (ids, values, codes) read for the fields above
        self._attr_edits: Dict[int, Tuple[float, int]] = {}
        self._closed = False
        self._background = background
        self._transform()
        layer.featureAdded.connect(self._added)
        layer.featureDeleted.connect(self._deleted)
        layer.geometryChanged.connect(self._geometry_changed)
        layer.crsChanged.connect(self._crs_changed)
        layer.attributeValueChanged.connect(self._attribute_changed)

    # -- reading ----------------------------------------------------------------------------------
    def _transform(self) -> None:
        self.to_wgs84 = QgsCoordinateTransform(self.layer.crs(), WGS84, QgsProject.instance())
        self.from_wgs84 = QgsCoordinateTransform(WGS84, self.layer.crs(), QgsProject.instance())

    @property
    def busy(self) -> bool:
        """A read or a new map is being made."""
        return self._journal is not None

    def start(self) -> None:
        """Reads the layer unless it has been read or is being read."""
        if self.map is not None or self.busy or self._closed:
            return
        self.reads += 1
        self._journal = []
        self._edits = {}
        background = self._background
        if background is None:
            background = self.layer.featureCount() > READ_AT_ONCE
        work = self._reader()
        attributes = self._attribute_reader()
        options = self._started_with = dict(self.options)

        def build(progress, cancelled):
            read = work(progress, cancelled)
            if read is None:
                return None
            ids, lonlat, how = read
            attrs = attributes(cancelled) if attributes is not None else None
            return ids, lonlat, how, _new_map(options, ids, lonlat, attrs[:3] if attrs else None), attrs

        self._generation += 1
        generation = self._generation
        if not background:
            self._read_done(generation, build(lambda p: None, lambda: False), None)
            return
        name = self.layer.name()
        self._task = _Read(f"pindrop: reading the points of {name!r}", build,
                           lambda result, error: self._read_done(generation, result, error))
        self._task.progressChanged.connect(self._progress)
        from qgis.core import QgsApplication
        QgsApplication.taskManager().addTask(self._task)

    def _progress(self, p: float) -> None:
        self.progress = p

    def _reader(self) -> Callable:
        """What reads the points (on any thread): GDAL's Arrow stream for a layer that GDAL reads
        with no edits and no subset (ids and WKB points in batches, decoded by NumPy), else the
        layer's features through a QgsVectorLayerFeatureSource (a copy safe on another thread,
        edit buffer included). Both give lon/lat."""
        layer = self.layer
        to_wgs84 = QgsCoordinateTransform(self.to_wgs84)
        n = layer.featureCount()
        arrow = None
        if layer.providerType() == "ogr" and not layer.subsetString() and not layer.isModified():
            parts = QgsProviderRegistry.instance().decodeUri("ogr", layer.source())
            arrow = (parts.get("path"), parts.get("layerName"), parts.get("layerId"))
        source = QgsVectorLayerFeatureSource(layer)

        def read(progress, cancelled):
            import numpy as np
            got = _arrow_read(arrow, n, cancelled, progress) if arrow is not None else None
            how = "GDAL's Arrow stream"
            if got is None:
                if cancelled():
                    return None
                how = "QGIS's features"
                ids, xs, ys = [], [], []
                request = QgsFeatureRequest().setNoAttributes()
                for i, f in enumerate(source.getFeatures(request)):
                    if i % STEP == 0:
                        if cancelled():
                            return None
                        progress(90.0 * i / max(n, 1))
                    p = _point(f.geometry()) if f.hasGeometry() else None
                    if p is not None:
                        ids.append(f.id())
                        xs.append(p[0])
                        ys.append(p[1])
                got = np.array(ids, dtype=np.int64), np.column_stack((np.array(xs, dtype=np.float64),
                                                                      np.array(ys, dtype=np.float64)))
            ids, xy = got
            progress(90.0)
            lonlat = xy if to_wgs84.isShortCircuited() or len(xy) == 0 else _to_lonlat(to_wgs84, xy)
            keep = np.all(np.isfinite(lonlat), axis=1)
            return ids[keep], lonlat[keep], how

        return read

    def _read_done(self, generation: int, result, error) -> None:
        if generation != self._generation or self._closed:  # a read given up (closed, CRS changed)
            if result is not None:
                result[3].close()
            return
        self._task = None
        journal, self._journal = self._journal, None
        if self._closed:
            if result is not None:
                result[3].close()
            return
        if result is None:
            if error is not None:
                self.failed.emit(f"the points of {self.layer.name()!r} could not be read: {error}")
            return
        self._ids, self._lonlat, self.how, new, attrs = result
        if attrs is not None:
            self._take_attributes(attrs)
        self._swap(new, journal, self._started_with)

    def _swap(self, new: "pindrop.Map", journal, options: dict) -> None:
        """Makes `new` the map, with the edits made while it was being built replayed on it."""
        old, self.map = self.map, new
        self._map_options = options
        for kind, fid, p in journal or []:
            self._apply(kind, fid, p)
        for fid, (value, code) in list(self._attr_edits.items()):
            self._set_attributes(fid, value, code)
        if old is not None:  # freeing 916k pins takes a while: not on the GUI thread
            threading.Thread(target=old.close, daemon=True).start()
        self.progress = 100.0
        if self.options != options:
            self._rebuild()
        if not self.busy:
            self.ready.emit()

    # -- attributes (what clusters summarise) -----------------------------------------------------
    def set_fields(self, value_field: Optional[str], category_field: Optional[str]) -> None:
        """The fields clusters summarise: `value_field` numeric (its sum, mean, range), and
        `category_field` text or integer (each cluster's makeup). Read once (on a task thread for
        a big layer), then a new map with them is built on another thread."""
        value_field, category_field = value_field or None, category_field or None
        if (value_field, category_field) == (self.value_field, self.category_field):
            return
        self.value_field, self.category_field = value_field, category_field
        self._attr_edits = {}
        if self.map is None or self.busy:
            if self.busy and self._task is None:  # a rebuild: read once it is done
                self.ready.connect(self._read_attributes_once)
            elif self.busy:
                self._generation += 1  # restart the read with the fields
                self._task.cancel()
                self._task, self._journal = None, None
                self.start()
            return
        self._read_attributes()

    def _read_attributes_once(self) -> None:
        self.ready.disconnect(self._read_attributes_once)
        self._read_attributes()

    def _read_attributes(self) -> None:
        attributes = self._attribute_reader()
        if attributes is None:
            self._attrs = None
            self.category_names, self._category_codes = ["(none)"], {}
            self._map_options = None
            self._rebuild()
            return
        self._journal = []
        self._generation += 1
        generation = self._generation

        def done(result, error):
            if generation != self._generation or self._closed:
                return
            self._task, self._journal = None, None
            if result is None:
                if error is not None:
                    self.failed.emit(f"the fields of {self.layer.name()!r} could not be read: {error}")
                return
            self._take_attributes(result)
            self._map_options = None
            self._rebuild()

        if self.layer.featureCount() <= READ_AT_ONCE:
            done(attributes(lambda: False), None)
            return
        self._task = _Read(f"pindrop: reading {self.category_field or self.value_field!r} of {self.layer.name()!r}",
                           lambda progress, cancelled: attributes(cancelled), done)
        from qgis.core import QgsApplication
        QgsApplication.taskManager().addTask(self._task)

    def _attribute_reader(self) -> Optional[Callable]:
        """What reads (ids, values, raw categories) of the fields on any thread, or None."""
        fields = self.layer.fields()
        names = [f for f in (self.value_field, self.category_field) if f and fields.indexOf(f) >= 0]
        if not names:
            return None
        value_field = self.value_field if self.value_field in names else None
        category_field = self.category_field if self.category_field in names else None
        request = QgsFeatureRequest().setFlags(QgsFeatureRequest.NoGeometry).setSubsetOfAttributes(names, fields)
        source = QgsVectorLayerFeatureSource(self.layer)

        def read(cancelled):
            import numpy as np
            ids, values, cats = [], [], []
            iv = fields.indexOf(value_field) if value_field else -1
            ic = fields.indexOf(category_field) if category_field else -1
            for i, f in enumerate(source.getFeatures(request)):
                if i % STEP == 0 and cancelled():
                    return None
                ids.append(f.id())
                values.append(_number(f.attribute(iv)) if iv >= 0 else math.nan)
                cats.append(_category(f.attribute(ic)) if ic >= 0 else None)
            codes, names, numbers = _categorise(cats if category_field else None, len(ids))
            return np.array(ids, dtype=np.int64), np.array(values, dtype=np.float64), codes, names, numbers

        return read

    def _take_attributes(self, attrs) -> None:
        """Keeps the attributes read and their categories' names (numbered on the reading thread)."""
        ids, values, codes, names, numbers = attrs
        self.category_names, self._category_codes = names, numbers
        self._attrs = (ids, values, codes)

    def category_code(self, value) -> int:
        """The number of a category (a new one for a value not seen yet)."""
        c = _category(value)
        if c is None:
            return 0
        code = self._category_codes.get(c)
        if code is None:
            code = self._category_codes[c] = len(self.category_names)
            self.category_names.append(str(c))
        return code

    def _set_attributes(self, fid: int, value: float, code: int) -> None:
        if self.map is None or not hasattr(self.map, "set_attributes"):
            return
        try:
            self.map.set_attributes([fid], [value], [code])
        except pindrop.NotFound:
            pass

    def _attributes_of(self, feature) -> Optional[Tuple[float, int]]:
        if not (self.value_field or self.category_field):
            return None
        fields = self.layer.fields()
        iv = fields.indexOf(self.value_field) if self.value_field else -1
        ic = fields.indexOf(self.category_field) if self.category_field else -1
        value = _number(feature.attribute(iv)) if iv >= 0 else math.nan
        code = self.category_code(feature.attribute(ic)) if ic >= 0 else 0
        return value, code

    def _attribute_changed(self, fid: int, index: int, value) -> None:
        name = self.layer.fields().at(index).name() if 0 <= index < self.layer.fields().count() else None
        if name is None or name not in (self.value_field, self.category_field):
            return
        attrs = self._attributes_of(self.layer.getFeature(fid))
        if attrs is not None:
            self._attr_edits[fid] = attrs
            self._set_attributes(fid, *attrs)
            self.changed.emit()

    def set_options(self, options: dict) -> None:
        """Other map options (touch or mouse): a new map from the points kept here, built on
        another thread (pindrop's calls release Python's lock); the old one serves until then."""
        self.options = dict(options)
        if self.map is not None and not self.busy and self.options != self._map_options:
            self._rebuild()

    def _rebuild(self) -> None:
        import numpy as np
        from qgis.PyQt.QtCore import QTimer
        options = dict(self.options)
        ids, lonlat = self._ids, self._lonlat
        if self._edits:  # fold the edits since the read into the points kept
            edited = np.fromiter(self._edits.keys(), dtype=np.int64, count=len(self._edits))
            keep = ~np.isin(ids, edited)
            added = [(fid, p) for fid, p in self._edits.items() if p is not None]
            ids = np.concatenate((ids[keep], np.array([fid for fid, _ in added], dtype=np.int64)))
            lonlat = np.concatenate((lonlat[keep], np.array([p for _, p in added], dtype=np.float64).reshape(-1, 2)))
            self._ids, self._lonlat, self._edits = ids, lonlat, {}
        self._journal = []
        result = {}
        attrs = self._attrs
        thread = threading.Thread(target=lambda: result.setdefault("map", _new_map(options, ids, lonlat, attrs)),
                                  daemon=True)
        thread.start()

        def check():
            if thread.is_alive():
                QTimer.singleShot(5, check)
                return
            journal, self._journal = self._journal, None
            if self._closed or "map" not in result:
                if "map" in result:
                    result["map"].close()
                return
            self._swap(result["map"], journal, options)

        QTimer.singleShot(5, check)

    def wait(self, timeout_s: float = 120.0) -> bool:
        """Processes Qt's events until the map is ready (tests, scripts)."""
        import time
        from qgis.PyQt.QtWidgets import QApplication
        self.start()
        end = time.monotonic() + timeout_s
        while (self.map is None or self.busy) and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.005)
        return self.map is not None and not self.busy

    # -- edits ------------------------------------------------------------------------------------
    def _record(self, kind: str, fid: int, p: Optional[Tuple[float, float]], apply: bool = True) -> None:
        if self._journal is not None:
            self._journal.append((kind, fid, p))
        if self.map is not None:
            if apply:
                self._apply(kind, fid, p)
            else:
                self._edits[fid] = p
        if apply:
            self.changed.emit()

    def _apply(self, kind: str, fid: int, p: Optional[Tuple[float, float]]) -> None:
        m = self.map
        self._edits[fid] = p
        if p is None:
            try:
                m.remove(fid)
            except pindrop.NotFound:
                pass
            return
        try:
            m.set_position(fid, *p)
        except pindrop.NotFound:
            m.add(fid, *p)

    def _lonlat_of(self, geometry) -> Optional[Tuple[float, float]]:
        p = _point(geometry)
        if p is None:
            return None
        from qgis.core import QgsPointXY
        q = self.to_wgs84.transform(QgsPointXY(*p))
        return (q.x(), q.y()) if math.isfinite(q.x()) and math.isfinite(q.y()) else None

    def _added(self, fid: int) -> None:
        f = self.layer.getFeature(fid)
        self._record("set", fid, self._lonlat_of(f.geometry()) if f.hasGeometry() else None, apply=True)
        attrs = self._attributes_of(f)
        if attrs is not None:
            self._attr_edits[fid] = attrs
            self._set_attributes(fid, *attrs)

    def _deleted(self, fid: int) -> None:
        self._record("set", fid, None)

    def _geometry_changed(self, fid: int, geometry) -> None:
        self._record("set", fid, self._lonlat_of(geometry), apply=not self.writing)

    def _crs_changed(self) -> None:
        """The layer's CRS was set anew: every lon/lat changes, so the points are read again."""
        self._transform()
        if self.map is None and not self.busy:
            return
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._generation += 1
        old, self.map = self.map, None
        if old is not None:
            old.close()
        self._journal = None
        self._map_options = None
        self.start()

    def close(self) -> None:
        self._closed = True
        for signal, slot in ((self.layer.featureAdded, self._added), (self.layer.featureDeleted, self._deleted),
                             (self.layer.geometryChanged, self._geometry_changed),
                             (self.layer.crsChanged, self._crs_changed),
                             (self.layer.attributeValueChanged, self._attribute_changed)):
            try:
                signal.disconnect(slot)
            except (TypeError, RuntimeError):
                pass
        if self._task is not None:
            self._task.cancel()
        if self.map is not None:
            self.map.close()
            self.map = None


class PinsRegistry(QObject):
    """One LayerPins per layer, for as long as the layer is in the project."""

    def __init__(self, project: Optional[QgsProject] = None):
        super().__init__()
        self.project = project or QgsProject.instance()
        self.pins: Dict[str, LayerPins] = {}
        self.project.layersWillBeRemoved.connect(self._removed)

    def get(self, layer, options: dict) -> LayerPins:
        pins = self.pins.get(layer.id())
        if pins is None or pins.layer is not layer:
            pins = self.pins[layer.id()] = LayerPins(layer, options)
        else:
            pins.set_options(options)
        return pins

    def _removed(self, ids) -> None:
        for layer_id in ids:
            pins = self.pins.pop(layer_id, None)
            if pins is not None:
                pins.close()

    def close(self) -> None:
        try:
            self.project.layersWillBeRemoved.disconnect(self._removed)
        except (TypeError, RuntimeError):
            pass
        for pins in self.pins.values():
            pins.close()
        self.pins = {}
