"""What to draw, as Python sees it: `Frame` (the pins of a frame) and `Clusters` (the clusters),
sequences over one NumPy structured array filled by a single C call.

Nothing is made per pin until it is asked for: a frame of 700,000 pins costs the C call and one
copy. Columns come out as arrays (``frame.x``, ``frame["id"]``, ``frame.lonlat``); indexing and
iterating give `PinView` / `ClusterView` objects, made on demand. The (lon, lat) of each drawn
pin is computed from its screen point through the view of the frame, when first read.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence, Tuple, Union, overload

import numpy as np

from ._constants import ClusterFlag, PinFlag

if TYPE_CHECKING:
    from numpy.typing import NDArray

_RAD, _DEG = math.pi / 180.0, 180.0 / math.pi
#: 2**x as the library computes a zoom's world size (exp2; Python before 3.11 has only pow).
_exp2: Callable[[float], float] = getattr(math, "exp2", lambda v: 2.0 ** v)


@dataclass(frozen=True)
class PinView:
    """One pin of a frame: the screen point it marks (`x`, `y`: where it is drawn, or where it
    would land while dragged), the screen point of its true coordinate (`anchor_x`, `anchor_y`:
    the foot of a spread leg), its `lift` (0 at rest .. 1 lifted, below 0 during the drop bounce),
    its `PinFlag` flags, and the (`lon`, `lat`) of the point it marks."""
    id: int
    x: float
    y: float
    anchor_x: float
    anchor_y: float
    lift: float
    flags: int
    lon: float = math.nan
    lat: float = math.nan


@dataclass(frozen=True)
class ClusterView:
    """One cluster of a clustered view: `key` names it (in `Map.cluster_members` and
    `Map.cluster_expansion_zoom`) until pins or the view change; (`x`, `y`) its screen point, the
    mean Web Mercator point of its `count` pins, and (`lon`, `lat`) the same point on the map;
    `flags` are `ClusterFlag` values."""
    key: int
    x: float
    y: float
    lon: float
    lat: float
    count: int
    flags: int


class CameraInverse:
    """Screen points back to (lon, lat) through a Web Mercator camera, as the library's camera
    computes them, for whole arrays at once: the same formulas in the same order, so the results
    are `Map.to_lonlat`'s to within a unit or two in the last place (NumPy's vectorised sinh and
    arctan round differently from libm's for about one point in ten; taking them point by point
    through `math` would make a 700k-pin frame's coordinates five times slower to read)."""

    def __init__(self, lon: float, lat: float, zoom: float, bearing: float, width: float, height: float):
        self.world = 256.0 * _exp2(zoom)
        self.cx = (lon + 180) / 360 * self.world
        self.cy = (0.5 - math.atanh(math.sin(lat * _RAD)) / (2 * math.pi)) * self.world
        b = bearing * _RAD
        self.cos, self.sin = math.cos(b), math.sin(b)
        self.hw, self.hh = width / 2, height / 2

    def __call__(self, x: "NDArray[np.float64]", y: "NDArray[np.float64]") -> Tuple["NDArray[np.float64]", "NDArray[np.float64]"]:
        sx, sy = x - self.hw, y - self.hh
        wx = self.cx + sx * self.cos - sy * self.sin
        wy = self.cy + sx * self.sin + sy * self.cos
        lon = wx / self.world * 360 - 180
        lat = np.degrees(np.arctan(np.sinh((0.5 - wy / self.world) * 2 * math.pi)))
        out = (lon < -180) | (lon > 180)
        if out.any():
            lon = np.where(out, np.fmod(lon + 180, 360), lon)
            lon = np.where(out & (lon < 0), lon + 360, lon)
            lon = np.where(out, lon - 180, lon)
        return lon, np.clip(lat, -90, 90)


#: How a frame turns screen points into (lon, lat): arrays in, arrays out.
Inverse = Callable[["NDArray[np.float64]", "NDArray[np.float64]"], Tuple["NDArray[np.float64]", "NDArray[np.float64]"]]


def pointwise(to_lonlat: Callable[[float, float], Tuple[float, float]]) -> Inverse:
    """An `Inverse` from a one-point function (a host projection's unproject)."""
    def inverse(x: "NDArray[np.float64]", y: "NDArray[np.float64]") -> Tuple["NDArray[np.float64]", "NDArray[np.float64]"]:
        lon = np.empty(x.shape, dtype=np.float64)
        lat = np.empty(x.shape, dtype=np.float64)
        for i in range(x.size):
            try:
                lon[i], lat[i] = to_lonlat(float(x[i]), float(y[i]))
            except Exception:
                lon[i] = lat[i] = math.nan
        return lon, lat
    return inverse


class _Records(Sequence[Any]):
    """A read-only sequence over a structured array; columns by attribute or by name."""

    _array: "NDArray[Any]"

    def __len__(self) -> int:
        return int(self._array.shape[0])

    @property
    def array(self) -> "NDArray[Any]":
        """The records as one NumPy structured array (not a copy: do not write to it)."""
        return self._array

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> "NDArray[Any]":
        return self._array if dtype is None else self._array.astype(dtype)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Records):
            return bool(np.array_equal(self._array, other._array))
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    def __repr__(self) -> str:
        return f"<pindrop.{type(self).__name__} of {len(self)}>"


class Frame(_Records):
    """The pins of a frame, in drawing order (the dragged pin last): a sequence of `PinView`
    made on demand, over one structured array (dtype `PIN_VIEW_DTYPE`).

    Columns as arrays: `id`, `x`, `y`, `anchor_x`, `anchor_y`, `lift`, `flags` (also
    ``frame["x"]``), `lon`, `lat` and `lonlat` (where each pin is drawn), `anchor_lonlat` (its true
    coordinate), computed once, when first read, through the view the frame was drawn in.
    """

    def __init__(self, array: "NDArray[Any]", inverse: Inverse):
        self._array = array
        self._inverse = inverse
        self._lonlat: Optional["NDArray[np.float64]"] = None
        self._anchor: Optional["NDArray[np.float64]"] = None

    @overload
    def __getitem__(self, index: int) -> PinView: ...
    @overload
    def __getitem__(self, index: slice) -> "Frame": ...
    @overload
    def __getitem__(self, index: str) -> "NDArray[Any]": ...

    def __getitem__(self, index: Union[int, slice, str]) -> Union[PinView, "Frame", "NDArray[Any]"]:
        if isinstance(index, str):
            if index == "lon":
                return self.lon
            if index == "lat":
                return self.lat
            return self._array[index]
        if isinstance(index, slice):
            part = Frame(self._array[index], self._inverse)
            if self._lonlat is not None:
                part._lonlat = self._lonlat[index]
            return part
        i = int(index)
        r = self._array[i]
        ll = self.lonlat[i]
        return PinView(int(r["id"]), float(r["x"]), float(r["y"]), float(r["anchor_x"]), float(r["anchor_y"]),
                       float(r["lift"]), PinFlag(int(r["flags"])), float(ll[0]), float(ll[1]))

    def __iter__(self) -> Iterator[PinView]:
        a, ll = self._array, self.lonlat
        for i in range(a.shape[0]):
            r = a[i]
            yield PinView(int(r["id"]), float(r["x"]), float(r["y"]), float(r["anchor_x"]), float(r["anchor_y"]),
                          float(r["lift"]), PinFlag(int(r["flags"])), float(ll[i, 0]), float(ll[i, 1]))

    @property
    def id(self) -> "NDArray[np.int64]":
        return self._array["id"]

    @property
    def x(self) -> "NDArray[np.float64]":
        return self._array["x"]

    @property
    def y(self) -> "NDArray[np.float64]":
        return self._array["y"]

    @property
    def anchor_x(self) -> "NDArray[np.float64]":
        return self._array["anchor_x"]

    @property
    def anchor_y(self) -> "NDArray[np.float64]":
        return self._array["anchor_y"]

    @property
    def lift(self) -> "NDArray[np.float64]":
        return self._array["lift"]

    @property
    def flags(self) -> "NDArray[np.uint32]":
        return self._array["flags"]

    @property
    def lonlat(self) -> "NDArray[np.float64]":
        """(n, 2): the (lon, lat) of the point each pin marks (where it is drawn)."""
        if self._lonlat is None:
            lon, lat = self._inverse(np.ascontiguousarray(self._array["x"]), np.ascontiguousarray(self._array["y"]))
            self._lonlat = np.column_stack([lon, lat])
        return self._lonlat

    @property
    def lon(self) -> "NDArray[np.float64]":
        return self.lonlat[:, 0]

    @property
    def lat(self) -> "NDArray[np.float64]":
        return self.lonlat[:, 1]

    @property
    def anchor_lonlat(self) -> "NDArray[np.float64]":
        """(n, 2): the (lon, lat) of each pin's anchor, its true coordinate as the view places it."""
        if self._anchor is None:
            lon, lat = self._inverse(np.ascontiguousarray(self._array["anchor_x"]),
                                     np.ascontiguousarray(self._array["anchor_y"]))
            self._anchor = np.column_stack([lon, lat])
        return self._anchor


class Clusters(_Records):
    """The clusters of a clustered view: a sequence of `ClusterView` made on demand, over one
    structured array (dtype `CLUSTER_VIEW_DTYPE`). Columns as arrays: `key`, `x`, `y`, `lon`,
    `lat`, `counts`, `flags` (also ``clusters["x"]``) and `lonlat`."""

    def __init__(self, array: "NDArray[Any]"):
        self._array = array

    @overload
    def __getitem__(self, index: int) -> ClusterView: ...
    @overload
    def __getitem__(self, index: slice) -> "Clusters": ...
    @overload
    def __getitem__(self, index: str) -> "NDArray[Any]": ...

    def __getitem__(self, index: Union[int, slice, str]) -> Union[ClusterView, "Clusters", "NDArray[Any]"]:
        if isinstance(index, str):
            return self._array[index]
        if isinstance(index, slice):
            return Clusters(self._array[index])
        return self._view(self._array[int(index)])

    @staticmethod
    def _view(r: Any) -> ClusterView:
        return ClusterView(int(r["key"]), float(r["x"]), float(r["y"]), float(r["lon"]), float(r["lat"]),
                           int(r["count"]), ClusterFlag(int(r["flags"])))

    def __iter__(self) -> Iterator[ClusterView]:
        for i in range(self._array.shape[0]):
            yield self._view(self._array[i])

    @property
    def key(self) -> "NDArray[np.uint64]":
        return self._array["key"]

    @property
    def x(self) -> "NDArray[np.float64]":
        return self._array["x"]

    @property
    def y(self) -> "NDArray[np.float64]":
        return self._array["y"]

    @property
    def lon(self) -> "NDArray[np.float64]":
        return self._array["lon"]

    @property
    def lat(self) -> "NDArray[np.float64]":
        return self._array["lat"]

    @property
    def lonlat(self) -> "NDArray[np.float64]":
        return np.column_stack([self._array["lon"], self._array["lat"]])

    @property
    def counts(self) -> "NDArray[np.uint32]":
        """The `count` column (``clusters["count"]``): a sequence's `count()` stays a method."""
        return self._array["count"]

    @property
    def flags(self) -> "NDArray[np.uint32]":
        return self._array["flags"]
