"""Reading a layer's points and attributes, on any thread: a QgsTask for a big layer, GDAL's Arrow
stream where it applies, categories numbered by frequency, and a pindrop map built with its cluster
levels so that none of that work falls to the GUI thread."""
from __future__ import annotations

import math
from typing import Callable, Dict, Optional, Tuple

from qgis.core import QgsTask, QgsWkbTypes

import pindrop

#: Layers with at most this many features are read at once on the GUI thread (well under 0.1 s).
READ_AT_ONCE = 20000
STEP = 10000  # features read between progress reports and cancel checks


def _point(geometry) -> Optional[Tuple[float, float]]:
    """The (x, y) of a point geometry or a multipoint of one, else None."""
    if geometry is None or geometry.isNull() or geometry.isEmpty():
        return None
    if geometry.isMultipart():
        parts = geometry.asMultiPoint()
        if len(parts) != 1:
            return None
        p = parts[0]
    else:
        p = geometry.asPoint()
    x, y = p.x(), p.y()
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


class _Read(QgsTask):
    """Runs `work(progress, cancelled)` on QGIS's task manager thread; `done(result, error)` is
    called on the GUI thread once it has finished."""

    def __init__(self, description: str, work: Callable, done: Callable):
        super().__init__(description, QgsTask.CanCancel)
        self._work, self._done = work, done
        self.result, self.error = None, None
        _LIVE.add(self)  # the task manager holds the C++ task; Python must keep the wrapper

    def run(self) -> bool:  # the task's thread
        try:
            self.result = self._work(self.setProgress, self.isCanceled)
        except Exception as e:  # handed to the GUI thread by finished()
            self.error = e
        return self.result is not None

    def finished(self, ok: bool) -> None:  # the GUI thread
        _LIVE.discard(self)
        self._done(self.result if ok else None, self.error)


_LIVE: set = set()


def _number(v) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return math.nan
    return x if math.isfinite(x) else math.nan


def _category(v):
    """A category value as a dict key: None for a null, text stripped, whole numbers as int."""
    if v is None or (hasattr(v, "isNull") and v.isNull()):
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str):
        v = v.strip()
        return v or None
    return v


def _categorise(raw, n: int):
    """Numbers the categories, most frequent first (ties by name), from 1 (0: none): the codes
    (uint32 per feature), the names by number, and the numbers by value."""
    import numpy as np
    names, numbers = ["(none)"], {}
    if raw is None:
        return np.zeros(n, dtype=np.uint32), names, numbers
    counts: Dict[object, int] = {}
    for c in raw:
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    for value in sorted(counts, key=lambda c: (-counts[c], str(c))):
        numbers[value] = len(names)
        names.append(str(value))
    return np.fromiter((numbers.get(c, 0) for c in raw), dtype=np.uint32, count=n), names, numbers


def _new_map(options: dict, ids, lonlat, attrs=None) -> "pindrop.Map":
    """A map of the points (and their attributes), its cluster levels built (the first frame
    builds them: 0.1 s for 916k points), so that none of that work falls to the GUI thread."""
    m = pindrop.Map(**options)
    if len(ids):
        m.add_many(ids, lonlat)
        if attrs is not None and hasattr(m, "set_attributes"):
            import numpy as np
            aids, values, codes = attrs
            keep = np.isin(aids, ids)
            m.set_attributes(aids[keep], values[keep], codes[keep])
        m.set_camera(0.0, 0.0, 1.0, 512.0, 512.0)
        m.frame(0.0, array=True)
        m.clusters(0.0, array=True)
        # The first change after a bulk load is slow (0.1-0.2 s for 916k pins): make it here.
        spare = int(ids.min()) - 1 if ids.min() > -(2 ** 62) else 2 ** 62
        m.add(spare, float(lonlat[0, 0]), float(lonlat[0, 1]))
        m.frame(0.0, array=True)
        m.clusters(0.0, array=True)
        m.remove(spare)
    return m


def _to_lonlat(transform, xy):
    """(n, 2) points in lon/lat, transformed by QGIS in one call (as one multipoint)."""
    from .spread_algorithm import _transform
    return _transform(transform, xy, False)


def _arrow_read(arrow, n: int, cancelled, progress=lambda p: None):
    """(ids, xy) of a GDAL layer read by its Arrow stream (GDAL 3.6+), or None where that does not
    apply (an older GDAL, a geometry that is not one 2D/Z/M point, a count that differs)."""
    import struct
    import numpy as np
    path, name, number = arrow
    try:
        from osgeo import ogr
        if not path or not hasattr(ogr.Layer, "GetArrowStreamAsNumPy"):
            return None
        dataset = ogr.Open(path)
        if dataset is None:
            return None
        table = dataset.GetLayerByName(name) if name else dataset.GetLayer(number or 0)
        if table is None or table.GetFeatureCount() != n or not table.GetFIDColumn():
            return None
        table.SetIgnoredFields([field.GetName() for field in table.schema][1:])
        column = table.GetGeometryColumn() or "wkb_geometry"
        fid = table.GetFIDColumn()
        ids, blobs = [], []
        for batch in table.GetArrowStreamAsNumPy(options=["INCLUDE_FID=YES", "MAX_FEATURES_IN_BATCH=8192"]):
            if cancelled() or column not in batch or fid not in batch:
                return None
            ids.append(np.asarray(batch[fid], dtype=np.int64))
            blobs.append(b"".join(batch[column]))  # TypeError if a geometry is null
            progress(80.0 * sum(len(i) for i in ids) / max(n, 1))
    except (RuntimeError, TypeError, ValueError):
        return None
    from .spread_algorithm import _decode_points
    ids = np.concatenate(ids) if ids else np.empty(0, dtype=np.int64)
    xy = _decode_points(struct.pack("<BII", 1, QgsWkbTypes.MultiPoint, len(ids)) + b"".join(blobs), len(ids))
    if xy is None or len(ids) != n:
        return None
    return ids, xy
