"""The result of `pindrop.spread`: the drawn positions (an (n, 2) array, as before) that also say
which points moved, which group each belongs to, the groups' centres, each point's rank in its
group and the legs a cartographer draws from true to drawn positions.

The groups follow the library's rule: in index order, a point joins
the first-formed group whose first point is within the tolerance (tolerance 0: the very same
coordinate), or starts a group. They are computed on first use, from the input, with NumPy (exact
coordinates) or a grid of first points (a tolerance); the positions come from the library.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, cast

import numpy as np

from . import _check, _geo
from ._ffi import lib

if TYPE_CHECKING:
    from typing import Literal

    from ._hints import Coordinates

RADIUS = 6378137.0
_RAD = math.pi / 180.0


def _distance(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance in metres (haversine, as the library computes it)."""
    p1, p2 = lat1 * _RAD, lat2 * _RAD
    sdp, sdl = math.sin((p2 - p1) / 2), math.sin((lon2 - lon1) * _RAD / 2)
    h = sdp * sdp + math.cos(p1) * math.cos(p2) * sdl * sdl
    return 2 * RADIUS * math.asin(min(1.0, math.sqrt(h)))


def _lon_offset(lon: float, base: float) -> float:
    d = lon - base
    if d > 180:
        d -= 360
    elif d < -180:
        d += 360
    return d


def _normalize_lon(lon: float) -> float:
    if -180 <= lon <= 180:
        return lon
    return (lon + 180) % 360 - 180


def group_exact(src: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Groups of equal coordinates (-0.0 equals 0.0), numbered in the order of their first point:
    (group per point, rank per point, first point per group, size per group)."""
    n = src.shape[0]
    if n == 0:
        e = np.empty(0, dtype=np.int64)
        return e, e.copy(), e.copy(), e.copy()
    lon, lat = src[:, 0] + 0.0, src[:, 1] + 0.0  # + 0.0 makes -0.0 into 0.0
    order = np.lexsort((lat, lon))  # stable: equal coordinates stay in index order
    slon, slat = lon[order], lat[order]
    start = np.ones(n, dtype=bool)
    start[1:] = (slon[1:] != slon[:-1]) | (slat[1:] != slat[:-1])
    run = np.cumsum(start) - 1                  # run number per sorted point
    run_start = np.flatnonzero(start)
    first = order[run_start]                    # the lowest index of each run
    renumber = np.empty(first.size, dtype=np.int64)
    by_first = np.argsort(first, kind="stable")
    renumber[by_first] = np.arange(first.size)
    group = np.empty(n, dtype=np.int64)
    group[order] = renumber[run]
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - run_start[run]
    sizes = np.diff(np.append(run_start, n))[by_first]
    return group, rank, first[by_first], sizes


def isolated(src: np.ndarray, tolerance: float) -> np.ndarray:
    """(n,) bool: points with certainly no other point within `tolerance` metres, found with a
    grid whose cells are at least that wide everywhere in the data (a point alone in its 3 x 3
    cells). Conservative: near the antimeridian or a pole nothing is taken as alone."""
    n = src.shape[0]
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    lon, lat = src[:, 0], src[:, 1]
    dlat = tolerance / (RADIUS * _RAD) * 1.001
    widest = min(90.0, float(np.abs(lat).max()) + 2 * dlat)
    c = math.cos(widest * _RAD)
    if c < 0.01 or dlat > 1.0:
        return out
    dlon = dlat / c
    row = np.floor(lat / dlat).astype(np.int64)
    col = np.floor((lon + 180.0) / dlon).astype(np.int64)
    width = int(360.0 / dlon) + 3
    keys = row * width + col
    cells, counts = np.unique(keys, return_counts=True)
    around = np.zeros(n, dtype=np.int64)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            k = keys + dr * width + dc
            at = np.clip(np.searchsorted(cells, k), 0, cells.size - 1)
            around += np.where(cells[at] == k, counts[at], 0)
    edge = (lon < -180.0 + 2 * dlon) | (lon > 180.0 - 2 * dlon)
    out[:] = (around == 1) & ~edge
    return out


def group_tolerance(src: np.ndarray, tolerance: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rule with a tolerance in metres: each point joins the lowest-numbered group whose first
    point is within `tolerance` (great-circle), or starts one. Also returns the centres: the first
    point plus the members' mean offset from it (longitudes folded across the antimeridian).

    A point with no other point within the tolerance (`isolated`) is a group of its own; the rule
    runs over the others, then the groups are numbered by their first point."""
    n = src.shape[0]
    alone = isolated(src, tolerance)
    rest = np.flatnonzero(~alone)
    g_rest, r_rest, f_rest, s_rest, c_rest = _group_loop(src[rest], tolerance)
    firsts = np.concatenate([np.flatnonzero(alone), rest[f_rest]])
    order = np.argsort(firsts, kind="stable")
    number = np.empty(firsts.size, dtype=np.int64)
    number[order] = np.arange(firsts.size)
    k = int(alone.sum())
    group = np.empty(n, dtype=np.int64)
    rank = np.zeros(n, dtype=np.int64)
    group[alone] = number[:k]
    group[rest] = number[k:][g_rest]
    rank[rest] = r_rest
    sizes = np.concatenate([np.ones(k, dtype=np.int64), s_rest])[order]
    centres = np.concatenate([src[alone], c_rest])[order]
    return group, rank, firsts[order], sizes, centres


def _group_loop(src: np.ndarray, tolerance: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`group_tolerance`'s rule, point by point, through a grid of first points."""
    n = src.shape[0]
    cell = tolerance / (RADIUS * _RAD) * 1.0000001  # degrees of latitude per cell
    rows: Dict[int, Dict[int, List[int]]] = {}
    leaders: List[Tuple[float, float]] = []
    sums: List[List[float]] = []
    group = np.empty(n, dtype=np.int64)
    rank = np.empty(n, dtype=np.int64)
    sizes: List[int] = []
    first: List[int] = []
    lons, lats = src[:, 0].tolist(), src[:, 1].tolist()

    def lon_cells(lat_row: int) -> int:
        """Cells across 360 degrees of longitude in a row: wide enough for the row's widest
        tolerance in longitude (near a pole, one cell)."""
        edge = min(90.0, (abs(lat_row) + 1) * cell + cell)
        c = math.cos(edge * _RAD)
        if c <= 1e-9:
            return 1
        return max(1, min(2 ** 30, int(360.0 / (cell / c))))

    last: Optional[Tuple[float, float, int]] = None
    for i in range(n):
        x, y = lons[i], lats[i]
        best = -1
        if last is not None and last[0] == x and last[1] == y:
            best = last[2]
        else:
            r0 = int(math.floor(y / cell))
            for r in (r0 - 1, r0, r0 + 1):
                row = rows.get(r)
                if not row:
                    continue
                k = lon_cells(r)
                c0 = int(math.floor((x + 180.0) / 360.0 * k))
                for c in {(c0 - 1) % k, c0 % k, (c0 + 1) % k}:
                    for g in row.get(c, ()):
                        if (best < 0 or g < best) and _distance(leaders[g][0], leaders[g][1], x, y) <= tolerance:
                            best = g
        if best < 0:
            best = len(sizes)
            sizes.append(0)
            first.append(i)
            leaders.append((x, y))
            sums.append([0.0, 0.0])
            r = int(math.floor(y / cell))
            k = lon_cells(r)
            rows.setdefault(r, {}).setdefault(int(math.floor((x + 180.0) / 360.0 * k)) % k, []).append(best)
        last = (x, y, best)
        lx, ly = leaders[best]
        sums[best][0] += _lon_offset(x, lx)
        sums[best][1] += y - ly
        group[i] = best
        rank[i] = sizes[best]
        sizes[best] += 1
    centres = np.empty((len(sizes), 2), dtype=np.float64)
    for g, (lx, ly) in enumerate(leaders):
        s, k = sums[g], sizes[g]
        if s[0] == 0 and s[1] == 0:
            centres[g] = lx, ly
        else:
            centres[g] = _normalize_lon(lx + s[0] / k), min(90.0, max(-90.0, ly + s[1] / k))
    return group, rank, np.asarray(first, dtype=np.int64), np.asarray(sizes, dtype=np.int64), centres


class SpreadResult(np.ndarray):  # type: ignore[type-arg, unused-ignore]
    """The drawn positions of `pindrop.spread` as an (n, 2) float64 array of (lon, lat), which
    also knows how it was made:

    - `positions`: the same array, as a plain ndarray; `true_positions`: the input;
    - `moved`: an (n,) bool mask of the points drawn away from their true coordinate;
    - `group`: each point's group (numbered in the order groups form, a point alone is a group of
      one), `rank`: its place in the group (0 = the group's first point), `sizes`: points per
      group, `centres`: (groups, 2) the spots the groups are spread around;
    - `legs()`: the line from each moved point's true coordinate to where it is drawn.

    Operations on it (slices, arithmetic) give plain ndarrays.
    """

    _true: np.ndarray
    _tolerance: float
    _groups: Optional[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]

    @classmethod
    def _make(cls, drawn: np.ndarray, true: np.ndarray, tolerance: float) -> "SpreadResult":
        r = cast("SpreadResult", drawn.view(cls))
        r._true = true
        r._tolerance = tolerance
        r._groups = None
        return r

    def __array_wrap__(self, array: Any, context: Any = None, return_scalar: bool = False) -> Any:
        a = np.asarray(array)
        return a[()] if return_scalar else a

    def __getitem__(self, index: Any) -> Any:
        return np.asarray(self)[index]

    def __reduce__(self) -> Any:  # pickles as a plain array
        return np.asarray(self).copy().__reduce__()

    @property
    def positions(self) -> np.ndarray:
        """The drawn (lon, lat) positions, (n, 2) float64."""
        return np.asarray(self)

    @property
    def true_positions(self) -> np.ndarray:
        """The input (lon, lat) positions, (n, 2) float64 (a copy the call made)."""
        return self._true

    @property
    def moved(self) -> np.ndarray:
        """(n,) bool: the points drawn away from their true coordinate."""
        return np.asarray((np.asarray(self) != self._true).any(axis=1))

    def _grouping(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        if self._groups is None:
            if self._tolerance == 0:
                group, rank, first, sizes = group_exact(self._true)
                centres = self._true[first] + 0.0
            else:
                group, rank, first, sizes, centres = group_tolerance(self._true, self._tolerance)
            self._groups = (group, rank, sizes, centres)
        return self._groups

    @property
    def group(self) -> np.ndarray:
        """(n,) int64: each point's group, numbered in the order groups form (by first point)."""
        return self._grouping()[0]

    @property
    def rank(self) -> np.ndarray:
        """(n,) int64: each point's place in its group, in index order (0 = its first point)."""
        return self._grouping()[1]

    @property
    def sizes(self) -> np.ndarray:
        """(groups,) int64: the number of points in each group."""
        return self._grouping()[2]

    @property
    def centres(self) -> np.ndarray:
        """(groups, 2) float64: the spot each group is spread around: its first point with a
        tolerance of 0, else the members' mean (as the library computes it)."""
        return self._grouping()[3]

    def legs(self, every: bool = False) -> np.ndarray:
        """(k, 2, 2) float64: for each moved point (or every point, with ``every=True``), the
        line from its true coordinate to its drawn position, as [[lon, lat], [lon, lat]]."""
        pick = slice(None) if every else self.moved
        return np.stack([self._true[pick], np.asarray(self)[pick]], axis=1)


def spread(lonlat: "Coordinates", tolerance_m: float = 0.0, layout: "Literal['ring', 'spiral']" = "ring",
           spacing: float = 25.0, zoom: Optional[float] = None, *, lat: Any = None) -> SpreadResult:
    """The spreading rule over n points: where each is drawn when points sharing a coordinate (or
    within tolerance_m metres of a group's first point) are spread around their spot.

    `lonlat`: (n, 2) (lon, lat) rows, or shapely points, a GeoSeries or GeoDataFrame of points in
    EPSG:4326, ``__geo_interface__``, GeoJSON or WKT; or the longitudes as a 1-D array with the
    latitudes as `lat` (``spread(lon, lat=lat)``). Points are taken in order as their ids.

    layout="ring" (the default) draws a group of n on a ring of 3n/2 metres. layout="spiral"
    lays it out in screen points (a circle below 9 points, Leaflet's spiral from 9, `spacing`
    points apart) at Web Mercator `zoom`, which it then needs.

    Returns a `SpreadResult`: the (n, 2) array of drawn positions, which also holds the `moved`
    mask, the `group`, `rank`, `sizes` and `centres` of the groups and their `legs()`. The input
    is not modified."""
    if layout not in ("ring", "spiral"):
        raise _check.invalid(f"layout must be 'ring' or 'spiral', not {_check.shown(layout)}")
    if layout == "spiral" and zoom is None:
        raise _check.invalid("layout='spiral' is laid out in screen points: it needs the zoom")
    if layout == "ring" and zoom is not None:
        raise _check.invalid("zoom applies to layout='spiral' only (the ring is in metres)")
    src = _geo.lonlat(lonlat, lat, name="lonlat")
    if src is lonlat or (isinstance(lonlat, np.ndarray) and np.shares_memory(src, lonlat)):
        src = src.copy()
    tol = _check.real(tolerance_m, "tolerance_m")
    out = np.empty_like(src)
    if layout == "ring":
        lib.pindrop_spread(src.ctypes.data, src.shape[0], tol, out.ctypes.data)
    else:
        lib.pindrop_spread_spiral(src.ctypes.data, src.shape[0], tol, _check.real(spacing, "spacing"),
                                  _check.real(zoom, "zoom"), out.ctypes.data)
    return SpreadResult._make(out, src, tol)
