"""A typed user of pindrop, checked by `mypy --strict` and pyright (tests/test_types.py) and run.

Every ``assert_type`` is a claim about what the checkers infer; every line that ends with both
ignore comments is an error both checkers must report (mypy's warn_unused_ignores and pyright's
reportUnnecessaryTypeIgnoreComment fail the check if it is not reported).
"""
from __future__ import annotations

import sys
from typing import Any, List, Optional, Tuple

import numpy as np
from numpy.typing import NDArray

import pindrop
from pindrop import Cause, EventType, PinFlag, SpreadMode, TouchPhase

if sys.version_info >= (3, 11):
    from typing import assert_type
else:
    from typing_extensions import assert_type


def main() -> None:
    with pindrop.Map(lift_delay_ms=0, lift_height=0, spread_mode="spiral") as m:
        m.set_camera(-118.35, 33.9, zoom=18, width=800, height=600)
        m.add(1, -118.35, 33.9)
        m.add_many(np.arange(2, 5), np.array([[-118.351, 33.9]] * 3))
        assert_type(m.hit_test(400, 300), Optional[int])
        assert_type(m.touch(0, "down", 400, 300, 0.0), bool)
        assert_type(m.touch(0, TouchPhase.UP, 400, 300, 16.0), bool)

        xs = m.frame(16, array=True)["x"]         # an ndarray to the checkers, not a Union
        assert_type(m.frame(array=True), NDArray[Any])
        frame = m.frame()
        assert_type(frame, pindrop.Frame)
        assert_type(frame[0], pindrop.PinView)
        assert_type(frame.lonlat, NDArray[np.float64])
        assert_type(m.clusters(), pindrop.Clusters)
        assert_type(m.positions(), NDArray[np.float64])
        assert_type(m.ids(), NDArray[np.int64])
        assert float(xs.sum()) > 0

        events: List[pindrop.Event] = list(m.events())
        moved = [e for e in events if e.type is EventType.MOVED]
        assert_type(events[0].id, Optional[int])
        assert_type(events[0].cause, Optional[Cause])
        assert all(e.cause in (Cause.DRAG, None) for e in moved)
        assert_type(m.options.spread_mode, SpreadMode)
        assert_type(m.position(1), Tuple[float, float])
        flags = PinFlag(int(frame.flags[0]))
        assert_type(flags & PinFlag.SPREAD, PinFlag)

        result = pindrop.spread(np.array([[-118.35, 33.9]] * 3))
        assert_type(result, pindrop.SpreadResult)
        assert_type(result.moved, NDArray[Any])
        assert result.legs().shape == (3, 2, 2)

        # What the checkers must refuse:
        if not m:
            pindrop.Map(hitradius=3)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
            m.touch(0, "press", 1, 1, 0)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
            m.options.hit_radius = 100  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
            pindrop.spread(np.zeros((2, 2)), layout="hexagon")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


if __name__ == "__main__":
    main()
