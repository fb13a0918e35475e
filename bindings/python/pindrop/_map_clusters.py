"""`Map`'s clusters and stacks: the clusters to draw, their members, summaries and categories, the
pins' attributes they summarise, and the stacks that open on demand."""
from __future__ import annotations

from ctypes import byref, c_double
from typing import TYPE_CHECKING, Any, Optional, Union, overload

import numpy as np

from . import _check, _ffi
from ._ffi import lib
from ._map_state import _MapState
from ._records import CATEGORY_COUNT_DTYPE, CLUSTER_VIEW_DTYPE, ClusterSummary
from ._views import Clusters

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import NDArray


class _Clusters(_MapState):
    # -- clusters ---------------------------------------------------------------------------------
    @overload
    def clusters(self, time_ms: Optional[float] = None, array: "Literal[False]" = False) -> Clusters: ...
    @overload
    def clusters(self, time_ms: Optional[float] = None, *, array: "Literal[True]") -> "NDArray[Any]": ...
    @overload
    def clusters(self, time_ms: Optional[float], array: "Literal[True]") -> "NDArray[Any]": ...

    def clusters(self, time_ms: Optional[float] = None, array: bool = False) -> Union[Clusters, "NDArray[Any]"]:
        """The clusters to draw at time_ms (inside the viewport grown by cluster_radius), at the
        map's latest time without one: empty when clustering is off or the zoom is at or above
        cluster_max_zoom. A `Clusters` sequence of `ClusterView` (columns as arrays), or with
        ``array=True`` the structured array (dtype `CLUSTER_VIEW_DTYPE`)."""
        h = _check.open_handle(self)
        t = self._time_or_now(time_ms)
        a = self._fill(h, "_cluster_buf", lib.pindrop_map_frame_clusters, t, CLUSTER_VIEW_DTYPE,
                       "pindrop_map_frame_clusters")
        self._note_time(t)
        return a if array else Clusters(a)

    def cluster_members(self, key: int, offset: int = 0, limit: Optional[int] = None) -> "NDArray[np.int64]":
        """The ids of a cluster's (or a stack's) pins in ascending order (an int64 array), from
        `offset` on, at most `limit` of them (all when None): a page, as supercluster's getLeaves.
        NotFound for an unknown or stale key (a key goes stale once its cluster's pins change)."""
        h = _check.open_handle(self)
        k = _check.key(key)
        first = _check.count(offset, "offset")
        most = None if limit is None else _check.count(limit, "limit")
        total = lib.pindrop_map_cluster_members_from(h, k, first, None, 0)
        if total == 0:
            _ffi.raise_for(-2, h, "pindrop_map_cluster_members_from")
        n = max(0, total - first) if most is None else max(0, min(most, total - first))
        out = np.empty(n, dtype=np.int64)
        if n:
            lib.pindrop_map_cluster_members_from(h, k, first, out.ctypes.data, n)
        return out

    def set_attributes(self, ids: Any, values: Any = None, categories: Any = None) -> None:
        """Sets the pins' values (float64, e.g. a trunk diameter; NaN = none) and/or categories
        (uint32, e.g. a species code; any but `CATEGORY_MIXED`); None leaves that attribute as it
        is. Arrays as long as `ids`, or one scalar for every id. All-or-nothing: NotFound for an
        unknown id, InvalidArgument for an infinite value, and nothing changes. Clusters'
        summaries follow at once (`cluster_summary`, `cluster_categories`)."""
        h = _check.open_handle(self)
        idv = _check.ids_array(ids)
        n = len(idv)
        def per_pin(a: Any) -> Any:  # one scalar for every id
            return [a] * n if not isinstance(a, (str, bytes)) and np.ndim(a) == 0 else a
        v = None if values is None else _check.floats(per_pin(values), "values", n)
        c = None if categories is None else _check.uint32s(per_pin(categories), "categories", n)
        lib.pindrop_map_set_attributes(h, idv.ctypes.data, None if v is None else v.ctypes.data,
                                       None if c is None else c.ctypes.data, n)

    def cluster_summary(self, key: int) -> ClusterSummary:
        """What a cluster holds (a `ClusterSummary`). NotFound for an unknown or stale key."""
        h = _check.open_handle(self)
        out = _ffi.ClusterSummary()
        lib.pindrop_map_cluster_summary(h, _check.key(key), byref(out))
        return ClusterSummary(out.count, out.valued, out.category, out.flags, out.value_sum, out.value_min,
                              out.value_max)

    @overload
    def cluster_categories(self, key: int, as_dict: "Literal[False]" = False) -> "NDArray[Any]": ...
    @overload
    def cluster_categories(self, key: int, as_dict: "Literal[True]") -> "dict[int, int]": ...

    def cluster_categories(self, key: int, as_dict: bool = False) -> "Union[NDArray[Any], dict[int, int]]":
        """A cluster's categories with their pin counts, most pins first, ties by lower category:
        a NumPy structured array (dtype `CATEGORY_COUNT_DTYPE`: fields ``category`` and ``count``),
        or with ``as_dict=True`` a dict {category: count} in that order. NotFound for an unknown or
        stale key."""
        h = _check.open_handle(self)
        k = _check.key(key)
        total = lib.pindrop_map_cluster_categories(h, k, None, None, 0)
        if total == 0:
            _ffi.raise_for(-2, h, "pindrop_map_cluster_categories")
        cats = np.empty(total, dtype=np.uint32)
        counts = np.empty(total, dtype=np.uint32)
        total = lib.pindrop_map_cluster_categories(h, k, cats.ctypes.data, counts.ctypes.data, total)
        if as_dict:
            return {int(c): int(n) for c, n in zip(cats[:total], counts[:total])}
        out = np.empty(total, dtype=CATEGORY_COUNT_DTYPE)
        out["category"] = cats[:total]
        out["count"] = counts[:total]
        return out

    def cluster_expansion_zoom(self, key: int) -> float:
        """The lowest zoom at which the cluster's pins are no longer one cluster (at most
        cluster_max_zoom): where a tap on it should take the camera."""
        h = _check.open_handle(self)
        z = c_double()
        lib.pindrop_map_cluster_expansion_zoom(h, _check.key(key), byref(z))
        return z.value


class _Stacks(_MapState):
    # -- stacks (spread_on_tap) ---------------------------------------------------------------------
    def open_stack(self, key: int, time_ms: float) -> None:
        """Opens the collapsed stack `key` (a `clusters()` item with the CLUSTER_STACK flag): it is
        drawn spread, every pin touchable; the stack open before closes. STACK_CLOSED / STACK_OPENED
        events. NotFound for a key that names no stack now (stale once the group's pins change)."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_open_stack(h, _check.key(key), t)
        self._note_time(t)

    def close_stack(self, time_ms: float) -> None:
        """Closes the open stack (a STACK_CLOSED event); nothing happens when none is open."""
        h = _check.open_handle(self)
        t = _check.time(time_ms)
        lib.pindrop_map_close_stack(h, t)
        self._note_time(t)
