"""Nothing crashes the host, and a failed call changes nothing.

A random host hammers the whole C contract — every function, with valid arguments, garbage
(NaN, infinities, out-of-range coordinates, unknown ids, PINDROP_NO_ID, unknown phases and enum
values, NULL pointers, time going backwards) and gestures in between. It runs in a child process so
that a crash is a test failure, not the end of the test run. After every call it checks:
  - the status is one the header defines;
  - a failed call (negative status) changed nothing the host can see: the pin count, every pin's
    true and drawn position, the selection, and no event was queued by it;
  - the map's pins equal a plain model of adds and removals that succeeded.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

DRIVER = textwrap.dedent(r'''
    import ctypes, math, random, sys
    from ctypes import byref, c_double, c_int64, c_size_t
    import pindrop
    from pindrop import _ffi
    lib = _ffi.lib
    NO_ID = _ffi.NO_ID
    STATUSES = {0, 1, -1, -2, -3, -4, -5, -6, -7}

    seed, steps = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    opts = _ffi.Options()
    lib.pindrop_options_init(byref(opts), ctypes.sizeof(opts))
    opts.lift_delay_ms = rng.choice([0.0, 250.0])
    opts.min_spacing_m = rng.choice([0.0, 3.0])
    opts.spread_tolerance_m = rng.choice([0.0, 2.0])
    opts.outside_policy = rng.choice([0, 1])
    handle = ctypes.c_void_p()
    assert lib.pindrop_map_create(byref(opts), byref(handle)) == 0
    m = handle
    cam = _ffi.Camera(-118.35, 33.9, 17.0, rng.choice([0.0, 30.0]), 800.0, 600.0)
    assert lib.pindrop_map_set_camera(m, byref(cam)) == 0
    model = {}          # id -> True for every pin the map should hold
    clock = [0.0]
    BAD = [math.nan, math.inf, -math.inf, 1e300, -1e300, 181.0, -91.0]

    def lon():
        return rng.choice(BAD) if rng.random() < 0.08 else -118.35 + rng.uniform(-0.002, 0.002)
    def lat():
        return rng.choice(BAD) if rng.random() < 0.08 else 33.9 + rng.uniform(-0.002, 0.002)
    def pid():
        r = rng.random()
        if r < 0.05: return NO_ID
        if r < 0.6 and model: return rng.choice(list(model))
        return rng.randrange(-5, 60)
    def t():
        r = rng.random()
        if r < 0.05: return clock[0] - rng.uniform(1, 100)     # backwards: must fail
        if r < 0.07: return rng.choice([math.nan, math.inf])
        clock[0] += rng.choice([0.0, 1.0, 16.0, 120.0, 400.0])
        return clock[0]
    def xy():
        if rng.random() < 0.05: return rng.choice(BAD), rng.uniform(0, 600)
        return rng.uniform(-50, 850), rng.uniform(-50, 650)

    def snapshot():
        n = lib.pindrop_map_count(m)
        pos = {}
        for i in list(model) + [999]:
            a, b, c, d = c_double(), c_double(), c_double(), c_double()
            s1 = lib.pindrop_map_position(m, i, byref(a), byref(b)) if i in model else None
            s2 = lib.pindrop_map_display_position(m, i, byref(c), byref(d)) if i in model else None
            pos[i] = (a.value, b.value, c.value, d.value) if i in model else None
        sel = c_int64()
        lib.pindrop_map_selected(m, byref(sel))
        return n, pos, sel.value

    def drain():
        e = _ffi.Event(); k = 0
        while lib.pindrop_map_poll_event(m, byref(e)) == 1:
            k += 1
        return k

    # the same library, without the raising errcheck (on the wasm backend: the same module)
    raw = ctypes.CDLL(str(_ffi.library_path)) if _ffi.backend == "native" else lib.unchecked()
    for name, (restype, argtypes, _checked) in _ffi.SIGNATURES.items():
        getattr(raw, name).restype = restype
        getattr(raw, name).argtypes = argtypes

    def call(name, *args):
        return getattr(raw, name)(*args)

    buf = (_ffi.PinView * 64)()
    ids_out = (c_int64 * 8)()
    dist_out = (c_double * 8)()
    text = ctypes.create_string_buffer(16)
    tlen = c_size_t()
    areas = [None, b"POLYGON((-118.352 33.898, -118.348 33.898, -118.348 33.902, -118.352 33.902, -118.352 33.898))",
             b"POLYGON((0 0, 1 1", b"{\"type\": \"Point\", \"coordinates\": [0, 0]}", b"\xff\xfe"]
    failed = moved = most = 0
    for step in range(steps):
        before = snapshot()
        k = rng.randrange(26)
        status = None
        if k == 0:   status = call("pindrop_map_add", m, pid(), lon(), lat())
        elif k == 1:
            n = rng.randrange(0, 12)
            ids = (c_int64 * max(n, 1))(*[pid() for _ in range(n)])
            ll = (c_double * max(2 * n, 1))(*[v for _ in range(n) for v in (lon(), lat())])
            status = call("pindrop_map_add_many", m, ids if rng.random() > 0.05 else None, ll, n)
        elif k == 2: status = call("pindrop_map_remove", m, pid())
        elif k == 3: status = call("pindrop_map_set_position", m, pid(), lon(), lat())
        elif k == 4: status = call("pindrop_map_set_draggable", m, pid(), rng.choice([0, 1, 7]))
        elif k in (5, 6, 7, 8):
            x, y = xy()
            phase = rng.choice([0, 1, 1, 1, 2, 3, 7, -1])
            r = call("pindrop_map_touch", m, rng.choice([0, 0, 1, 2]), phase, x, y, t())
            status = r if r < 0 else 0
            assert r in (0, 1) or r in STATUSES, ("touch", r)
        elif k == 9: status = call("pindrop_map_tick", m, t())
        elif k == 10: status = call("pindrop_map_cancel_gesture", m, t())
        elif k == 11:
            tm = t()
            total = call("pindrop_map_frame", m, tm, buf if rng.random() > 0.1 else None, rng.choice([0, 8, 64]))
            status = 0
        elif k == 12: status = call("pindrop_map_place", m, pid(), lon(), lat(), t())
        elif k == 13: status = call("pindrop_map_edit", m, pid(), t())
        elif k == 14: status = call("pindrop_map_commit", m, t())
        elif k == 15: status = call("pindrop_map_cancel_edit", m, t())
        elif k == 16: status = call("pindrop_map_select", m, pid())
        elif k == 17: status = call("pindrop_map_set_title", m, pid(), rng.choice([b"Oak", "\u6a7f\u306e\u6728".encode(), b"\xc3\x28", None]))
        elif k == 18: status = call("pindrop_map_answer_geocode", m, rng.randrange(0, 40), rng.choice([b"1 Main St", None]))
        elif k == 19: status = call("pindrop_map_callout", m, pid(), rng.choice([0, 1, 5]), text if rng.random() > 0.1 else None, rng.choice([0, 4, 16]), byref(tlen))
        elif k == 20: status = call("pindrop_map_set_allowed_area", m, rng.choice(areas))
        elif k == 21: status = call("pindrop_map_undo", m, t())
        elif k == 22: status = call("pindrop_map_redo", m, t())
        elif k == 23:
            x, y = xy(); out = c_int64()
            status = call("pindrop_map_hit_test", m, x, y, byref(out) if rng.random() > 0.1 else None)
        elif k == 24:
            call("pindrop_map_nearby", m, lon(), lat(), rng.choice([5.0, 50.0, -1.0, math.nan]), ids_out, dist_out, rng.choice([0, 8]))
            status = 0
        elif k == 25:
            c2 = _ffi.Camera(-118.35 + rng.uniform(-0.001, 0.001), rng.choice([33.9, 89.0, math.nan]), rng.choice([16.0, 19.0, 31.0]), 0.0, 800.0, rng.choice([600.0, 0.0]))
            status = call("pindrop_map_set_camera", m, byref(c2))
        assert status in STATUSES, (step, k, status)
        if status < 0:
            failed += 1
            after = snapshot()
            queued = drain()
            assert after == before, (step, k, status, lib.pindrop_map_last_error(m))
            assert queued == 0, (step, k, "a failed call queued events")
            assert lib.pindrop_map_last_error(m), (step, k, "no message")
        else:
            e = _ffi.Event()
            while lib.pindrop_map_poll_event(m, byref(e)) == 1:
                moved += e.type == 6
            # Which ids the map holds now (every id the host uses lies in -5..59).
            for i in list(model):
                a, b = c_double(), c_double()
                if call("pindrop_map_position", m, i, byref(a), byref(b)) != 0:
                    del model[i]
            for i in range(-5, 60):
                a, b = c_double(), c_double()
                if i not in model and call("pindrop_map_position", m, i, byref(a), byref(b)) == 0:
                    model[i] = True
            assert lib.pindrop_map_count(m) == len(model), (step, k)
            most = max(most, len(model))
    call("pindrop_map_destroy", m)
    # A NULL map, everywhere.
    assert call("pindrop_map_add", None, 1, 0.0, 0.0) == -1
    assert call("pindrop_map_touch", None, 0, 0, 1.0, 1.0, 1.0) == -1
    assert call("pindrop_map_frame", None, 0.0, None, 0) == 0
    assert call("pindrop_map_poll_event", None, None) == 0
    call("pindrop_map_destroy", None)
    print("ok", steps, failed, moved, most)
''')


@pytest.mark.parametrize("seed", range(6))
def test_random_hosts_never_crash_and_failed_calls_change_nothing(seed, repo_root):
    result = subprocess.run([sys.executable, "-c", DRIVER, str(seed), "2500"], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    ok, steps, failed, moved, most_pins = result.stdout.split()
    assert (ok, steps) == ("ok", "2500")
    # The random host really mixes failures, user moves and a populated map.
    assert 200 < int(failed) < 2000 and int(moved) > 5 and int(most_pins) >= 8, result.stdout
