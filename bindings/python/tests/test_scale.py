"""Scale (issue 22, part 7): a frame of about 695,000 LA street trees reaches Python, as a `Frame`
over one array, in at most twice the time of the C call alone, measured in the same run (the
best of five alternating runs of each, so that another process on the machine slows both)."""
import time

import numpy as np
import pytest

import pindrop
from pindrop import _ffi


def best(fn, runs):
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def test_a_frame_of_695k_pins_costs_at_most_twice_the_c_call(la_trees):
    with pindrop.Map() as m:
        m.add_many(np.arange(len(la_trees)), la_trees.lon, la_trees.lat)
        m.set_camera(-118.2, 33.95, 10.4, 1280, 690)
        first = m.frame()
        n = len(first)
        assert 650_000 < n < 750_000
        buf = np.empty(n, dtype=pindrop.PIN_VIEW_DTYPE)

        def c_frame():
            assert _ffi.lib.pindrop_map_frame(m._handle, 0.0, buf.ctypes.data, n) == n

        def python_frame():
            f = m.frame()
            assert len(f) == n and f.x.shape == (n,)

        c, py = [], []
        for _ in range(3):
            c.append(best(c_frame, 1))
            py.append(best(python_frame, 1))
        ratio = min(py) / min(c)
        print(f"\n{n} pins: C {min(c) * 1e3:.1f} ms, Python Frame {min(py) * 1e3:.1f} ms, ratio {ratio:.2f}")
        assert ratio <= 2.0, (min(c), min(py))
        # The same pins as the C call wrote, and what is made on demand is right.
        assert np.array_equal(m.frame().array, buf)
        v = first[n // 2]
        assert (v.id, v.x, v.y) == (int(buf["id"][n // 2]), float(buf["x"][n // 2]), float(buf["y"][n // 2]))
