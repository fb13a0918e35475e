"""Calls without a map explain themselves: the exception carries the library's own message
(pindrop_last_error, per thread), not one the bindings made up."""
import threading

import numpy as np
import pytest

import pindrop
from pindrop._ffi import lib


def test_map_create_refusal_carries_the_library_message():
    with pytest.raises(pindrop.InvalidArgument) as e:
        pindrop.Map(hit_radius=-1.0)
    assert "options.hit_radius must be" in str(e.value) and "-1" in str(e.value)


def test_spread_refusal_carries_the_library_message():
    with pytest.raises(pindrop.InvalidArgument) as e:
        pindrop.spread([[0.0, 0.0], [200.0, 0.0]])
    assert "200" in str(e.value)
    with pytest.raises(pindrop.InvalidArgument) as e:
        pindrop.spread([[0.0, 0.0]], tolerance_m=float("nan"))
    assert "tolerance" in str(e.value)


def test_last_error_is_per_thread():
    with pytest.raises(pindrop.InvalidArgument):
        pindrop.spread(np.array([[0.0, 95.0]]))
    here = lib.pindrop_last_error().decode()
    seen = []
    t = threading.Thread(target=lambda: seen.append(lib.pindrop_last_error().decode()))
    t.start()
    t.join()
    assert "95" in here
    assert seen == [""]
