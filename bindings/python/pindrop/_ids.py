"""The ids of a map's pins, as the Python side keeps them."""
from __future__ import annotations

from typing import TYPE_CHECKING, List

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray


class _Ids:
    """The ids of a map's pins, kept beside it (the C API has no call that lists them): a sorted
    array plus what changed since it was last sorted. Every call that adds or removes pins tells
    it; `Map.ids` checks its count against the library's."""

    def __init__(self) -> None:
        self.base = np.empty(0, dtype=np.int64)
        self.parts: List["NDArray[np.int64]"] = []
        self.added: set[int] = set()
        self.removed: set[int] = set()

    def add(self, i: int) -> None:
        self.removed.discard(i)
        self.added.add(i)

    def add_many(self, ids: "NDArray[np.int64]") -> None:
        if self.removed:
            self.removed.difference_update(ids.tolist())
        self.parts.append(ids.copy())

    def remove(self, i: int) -> None:
        self.added.discard(i)
        self.removed.add(i)

    def sorted(self) -> "NDArray[np.int64]":
        if self.parts or self.added or self.removed:
            every = np.concatenate([self.base, *self.parts, np.fromiter(self.added, dtype=np.int64, count=len(self.added))])
            every = np.unique(every)
            if self.removed:
                every = every[~np.isin(every, np.fromiter(self.removed, dtype=np.int64, count=len(self.removed)))]
            self.base, self.parts, self.added, self.removed = every, [], set(), set()
        return self.base

    def __contains__(self, i: int) -> bool:
        if i in self.removed:
            return False
        if i in self.added:
            return True
        if self.parts:
            self.sorted()
        k = int(np.searchsorted(self.base, i))
        return k < self.base.size and int(self.base[k]) == i
