"""The records a map's queries answer with besides frames: `Focus` (what has the keyboard focus),
`ClusterSummary` (what a cluster holds), and the NumPy dtypes of the structs C fills in bulk."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import _ffi, _tables
from ._constants import ClusterFlag
from ._ffi import CATEGORY_MIXED

#: The NumPy dtype of a frame's records: the C struct pindrop_pin_view's exact layout.
PIN_VIEW_DTYPE: "np.dtype[Any]" = np.dtype(_ffi.PinView)
#: The NumPy dtype of `Map.clusters` records (pindrop_cluster_view).
CLUSTER_VIEW_DTYPE: "np.dtype[Any]" = np.dtype(_ffi.ClusterView)
#: The dtype of `Map.cluster_categories`: one row per category, most pins first.
CATEGORY_COUNT_DTYPE: "np.dtype[Any]" = np.dtype([("category", "<u4"), ("count", "<u4")])


@dataclass(frozen=True)
class Focus:
    """What has the keyboard focus (pindrop_focus): `kind` "none", "pin" or "cluster"; `id` the
    pin (None unless a pin), `key` the cluster's key (None unless a cluster), (x, y) its drawn
    screen point in the last frame. Since 0.3.0."""
    kind: str
    id: Optional[int]
    key: Optional[int]
    x: float
    y: float

    KINDS = tuple(kind.lower() for kind in _tables.FOCUS_KINDS)  # by value, from 0

    @classmethod
    def _from_c(cls, f: "_ffi.Focus") -> "Focus":
        kind = cls.KINDS[f.kind] if 0 <= f.kind < len(cls.KINDS) else str(f.kind)
        return cls(kind, f.id if kind == "pin" else None, f.key if kind == "cluster" else None, f.x, f.y)


@dataclass(frozen=True)
class ClusterSummary:
    """What a cluster holds (`Map.cluster_summary`): its pin `count`, how many have a value
    (`valued`), the sum, minimum and maximum of those values (NaN when none has one), the pins'
    common `category` or `CATEGORY_MIXED`, and `flags` (`CLUSTER_ONE_SPOT` when all its pins share
    one point: zooming in will not separate them)."""
    count: int
    valued: int
    category: int
    flags: int
    value_sum: float
    value_min: float
    value_max: float

    @property
    def value_mean(self) -> float:
        """The mean of the values (NaN when no pin has one)."""
        return self.value_sum / self.valued if self.valued else float("nan")

    @property
    def mixed(self) -> bool:
        """The members' categories differ (`category` is `CATEGORY_MIXED`)."""
        return self.category == CATEGORY_MIXED

    @property
    def one_spot(self) -> bool:
        """Every member shares one point: zooming in cannot separate them."""
        return bool(self.flags & ClusterFlag.ONE_SPOT)
