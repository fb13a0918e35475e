"""pindrop.wasm in Node against the native library through Python, in one run, on the 916k LA
trees: add_many, frame_clusters and frame at zoom 10 and 16, 1,000 hit tests. Not a timed test."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import pindrop

ROOT = Path(__file__).resolve().parents[1]
CSV = (ROOT / ".." / "shared" / "data" / "la_trees.csv").resolve()


def native() -> dict:
    data = np.loadtxt(CSV, delimiter=",", skiprows=1, usecols=(2, 3))
    n = len(data)
    ids = np.arange(1, n + 1, dtype=np.int64)
    lonlat = np.ascontiguousarray(data[:, ::-1])
    out = {"pins": n}
    # add_many: the best of three fresh maps (the last one is kept).
    out["add_many"] = float("inf")
    m = None
    for _ in range(3):
        if m is not None:
            m.close()
        m = pindrop.Map(cluster_radius=60)
        t0 = time.perf_counter(); m.add_many(ids, lonlat)
        out["add_many"] = min(out["add_many"], (time.perf_counter() - t0) * 1e3)
    t = [0.0]

    def best(f, repeats=5):
        b = float("inf")
        for _ in range(repeats):
            s = time.perf_counter(); f(); b = min(b, time.perf_counter() - s)
        return b * 1e3

    def tick():
        t[0] += 1
        return t[0]
    m.set_camera(-118.25, 33.95, 10, 1280, 800)
    t0 = time.perf_counter(); m.clusters(tick(), array=True); out["first_frame_clusters_z10"] = (time.perf_counter() - t0) * 1e3
    out["frame_clusters_z10"] = best(lambda: m.clusters(tick(), array=True))
    out["frame_z10"] = best(lambda: m.frame(tick(), array=True))
    out["clusters_z10"] = len(m.clusters(tick(), array=True))

    def zooms():
        for z in range(8, 17):
            m.set_camera(-118.25, 33.95, z, 1280, 800)
            t = tick()
            m.clusters(t, array=True)
            m.frame(t, array=True)
    out["zoom_change_8_16"] = best(zooms, 3) / 9
    m.set_camera(-118.3526, 33.887, 16, 1280, 800)  # Lawndale
    out["frame_clusters_z16"] = best(lambda: m.clusters(tick(), array=True))
    out["frame_z16"] = best(lambda: m.frame(tick(), array=True))
    out["frame_z16_pins"] = len(m.frame(tick(), array=True))
    out["hit_tests_1000_z16"] = best(lambda: [m.hit_test((i * 37) % 1280, (i * 53) % 800) for i in range(1000)])
    m.set_camera(-118.3526, 33.887, 12, 1280, 800)
    m.clusters(tick(), array=True)

    def moves():
        for i in range(1000):
            j = (i * 7919) % n
            m.set_position(int(ids[j]), float(lonlat[j, 0]) + 1e-4, float(lonlat[j, 1]))
            m.clusters(tick(), array=True)
    out["set_position_and_clusters_1000"] = best(moves, 3)
    m.set_camera(-118.3526, 33.887, 18, 1280, 800)
    v = m.frame(tick(), array=True)
    x0, y0 = float(v["x"][0]), float(v["y"][0])
    m.touch(0, "down", x0, y0, tick())
    t[0] += 300
    m.tick(t[0])
    out["drag_moves_1000"] = best(lambda: [m.touch(0, "move", x0 + (i % 200), y0 + (i % 100), tick()) for i in range(1000)], 3)
    m.touch(0, "up", x0, y0, tick())
    m.close()
    return out


def main() -> None:
    wasm = ROOT / "bindings" / "js" / "pindrop.wasm"
    raw = wasm.read_bytes()
    print(f"pindrop.wasm: {len(raw):,} bytes, {len(gzip.compress(raw, 9)):,} gzipped")
    w = json.loads(subprocess.run(["node", str(ROOT / "benchmarks" / "bench_wasm_node.mjs"), str(CSV)],
                                  check=True, capture_output=True, text=True).stdout)
    nat = native()
    print(f"{'operation (ms)':28} {'native':>10} {'wasm':>10} {'ratio':>7}")
    for k in nat:
        if k in ("pins", "frame_z16_pins", "clusters_z10"):
            print(f"{k:28} {nat[k]:>10} {w[k]:>10}")
            continue
        print(f"{k:28} {nat[k]:>10.2f} {w[k]:>10.2f} {w[k] / nat[k]:>7.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
