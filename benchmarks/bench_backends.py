"""The Python package on its two backends in one run: native (libpindrop.so through ctypes) and wasm
(pindrop.wasm through wasmtime), each in a process of its own ($PINDROP_BACKEND), on the 916k LA
trees: a single call (hit_test, touch), add_many of 916k, a frame of 100k pins, frame_clusters,
a spread of 916k. Prints each figure, the ratio wasm / native and the 2x target; with --json, the
figures as JSON. Times are CPU time of the process (time.process_time, the best of several runs),
which a busy machine disturbs less than the wall clock. Not a timed test."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSV = (ROOT / ".." / "shared" / "data" / "la_trees.csv").resolve()
TARGET = 2.0


def best(f, repeats=5, number=1):
    """The best CPU time of `repeats` runs of `number` calls of f, per call, in microseconds."""
    b = float("inf")
    for _ in range(repeats):
        s = time.process_time()
        for _ in range(number):
            f()
        b = min(b, (time.process_time() - s) / number)
    return b * 1e6


def measure() -> dict:
    import numpy as np

    import pindrop
    data = np.loadtxt(CSV, delimiter=",", skiprows=1, usecols=(2, 3))
    lonlat = np.ascontiguousarray(data[:, ::-1])
    n = len(lonlat)
    ids = np.arange(1, n + 1, dtype=np.int64)
    out = {"backend": pindrop.backend, "pins": n}

    # A single call: hit_test on a hit, and a touch MOVE of a pan gesture (the pointer on no pin).
    m = pindrop.Map(lift_delay_ms=0, lift_height=0)
    m.set_camera(-118.3535474, 33.8870931, 19, 800, 600)
    m.add(1, -118.3535474, 33.8870931)
    assert m.hit_test(400, 300) == 1
    out["hit_test_us"] = best(lambda: m.hit_test(400, 300), repeats=7, number=20000)
    m.touch(0, "down", 10, 10, 1.0)
    clock = [2.0]

    def move():
        clock[0] += 0.001
        m.touch(0, "move", 20, 20, clock[0])
    out["touch_us"] = best(move, repeats=7, number=20000)
    m.close()

    # add_many of the 916k trees into a clustered map: the best of three fresh maps.
    out["add_many_916k_ms"] = float("inf")
    big = None
    for _ in range(3):
        if big is not None:
            big.close()
        big = pindrop.Map(cluster_radius=60)
        s = time.process_time()
        big.add_many(ids, lonlat)
        out["add_many_916k_ms"] = min(out["add_many_916k_ms"], (time.process_time() - s) * 1e3)
    t = [10.0]

    def tick():
        t[0] += 1
        return t[0]
    big.set_camera(-118.25, 33.95, 10, 1280, 800)
    out["clusters_z10"] = len(big.clusters(tick(), array=True))
    out["frame_clusters_z10_ms"] = best(lambda: big.clusters(tick(), array=True)) / 1e3
    big.set_camera(-118.25, 33.95, 13, 4096, 4096)
    out["clusters_z13"] = len(big.clusters(tick(), array=True))
    out["frame_clusters_z13_ms"] = best(lambda: big.clusters(tick(), array=True)) / 1e3
    big.close()

    # A frame of 100k pins: the first 100k trees, all inside one large viewport.
    k = 100_000
    part = lonlat[:k]
    frame_map = pindrop.Map()
    frame_map.add_many(ids[:k], part)
    lo, hi = part.min(axis=0), part.max(axis=0)
    frame_map.set_camera(float(lo[0] + hi[0]) / 2, float(lo[1] + hi[1]) / 2, 9, 4096, 4096)
    out["frame_pins"] = len(frame_map.frame(tick(), array=True))
    out["frame_100k_ms"] = best(lambda: frame_map.frame(tick(), array=True)) / 1e3
    frame_map.close()

    # The spreading rule over the 916k trees.
    out["spread_916k_ms"] = best(lambda: pindrop.spread(lonlat), repeats=3) / 1e3
    return out


ROWS = [("hit_test_us", "hit_test, one call", "µs"), ("touch_us", "touch MOVE, one call", "µs"),
        ("add_many_916k_ms", "add_many, 916k trees", "ms"), ("frame_100k_ms", "frame, 100k pins", "ms"),
        ("frame_clusters_z10_ms", "frame_clusters, 916k at zoom 10", "ms"),
        ("frame_clusters_z13_ms", "frame_clusters, 916k at zoom 13, 4096²", "ms"),
        ("spread_916k_ms", "spread, 916k trees", "ms")]


def run(backend: str) -> dict:
    env = dict(os.environ, PINDROP_BACKEND=backend)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bindings" / "python"), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, __file__, "--measure"], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if "--measure" in sys.argv:
        print(json.dumps(measure()))
        return
    if not CSV.exists():
        raise SystemExit(f"{CSV} is missing (the LA trees, ../shared/data)")
    figures = {b: run(b) for b in ("native", "wasm")}
    if "--json" in sys.argv:
        print(json.dumps(figures, indent=2))
        return
    native, wasm = figures["native"], figures["wasm"]
    for key in ("frame_pins", "clusters_z10", "clusters_z13"):  # the same work on both
        assert native[key] == wasm[key], (key, native[key], wasm[key])
    print(f"The Python package on both backends ({native['pins']} LA trees; a frame of {native['frame_pins']} pins, "
          f"{native['clusters_z10']} and {native['clusters_z13']} clusters at zoom 10 and 13; CPU time, best of several runs)")
    print(f"{'':36} {'native':>10} {'wasm':>10} {'wasm/native':>12}  target")
    for key, label, unit in ROWS:
        ratio = wasm[key] / native[key]
        verdict = "ok" if ratio <= TARGET else "over"
        print(f"{label:36} {native[key]:>8.2f}{unit:>2} {wasm[key]:>8.2f}{unit:>2} {ratio:>11.2f}x  "
              f"<= {TARGET:.0f}x {verdict}")


if __name__ == "__main__":
    main()
