"""Snapping (behaviour 24) on a street grid over Los Angeles County, in one process and one run.

Usage: python3 bench_snap.py DATA_DIR

- build: a generated street grid of 200,000 segments (1,000 streets of 200 segments, slightly
  bent, over the county's box) given to `pindrop_map_set_snap_layer` as WKT, read and indexed
  (GEOS's STRtree of the vertices and segments), against shapely building its STRtree over the
  same 200,000 segments (shapely's geometries made beforehand, untimed), and against shapely
  reading the same text and building the tree (`from_wkt` + STRtree), the same work as pindrop's;
- drag move: a drag among the 916,114 LA street trees at zoom 18, moving along a street, with
  snap_tolerance 12 (one query of the snap layer per move) against the same moves with snapping
  off (0), both maps alike otherwise. The moves run in C (a small loop compiled here), so that the
  ratio is the library's and not the Python call's.

Times are CPU time, each the best of a few repetitions.
"""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import pindrop  # noqa: E402
from pindrop import _ffi  # noqa: E402

LON0, LON1, LAT0, LAT1 = -118.95, -117.65, 33.70, 34.82
STREETS, SEGMENTS = 1000, 200
REPS = 3
MOVES = 20_000

LOOP_C = r"""
#include <pindrop.h>
/* A drag of the pin under (x0, y0): down, then n moves along y = y0 + 4, then up; returns the
   status of the last call. */
int snap_drag(pindrop_map *map, double x0, double y0, int n, double t0) {
  int i, s = pindrop_map_touch(map, 0, PINDROP_TOUCH_DOWN, x0, y0, t0);
  if (s < 0) return s;
  for (i = 1; i <= n; i++) {
    double x = x0 + 20.0 + (i % 400) * 0.5;
    s = pindrop_map_touch(map, 0, PINDROP_TOUCH_MOVE, x, y0 + 4.0 + (i % 7) * 0.25, t0 + i);
    if (s < 0) return s;
    if ((i & 255) == 0) { pindrop_event e; while (pindrop_map_poll_event(map, &e) == 1) {} }
  }
  s = pindrop_map_touch(map, 0, PINDROP_TOUCH_UP, x0 + 20.0, y0 + 4.0, t0 + n + 1);
  { pindrop_event e; while (pindrop_map_poll_event(map, &e) == 1) {} }
  return s;
}
"""


def best(f, reps=REPS) -> float:
    out = float("inf")
    for _ in range(reps):
        t = time.process_time()
        f()
        out = min(out, time.process_time() - t)
    return out


def streets(rng: np.random.Generator) -> list[np.ndarray]:
    """Half the streets east-west, half north-south, each SEGMENTS segments long, bent a little."""
    out = []
    half = STREETS // 2
    for k in range(STREETS):
        t = np.linspace(0.0, 1.0, SEGMENTS + 1)
        wobble = rng.normal(0, 0.0004, SEGMENTS + 1)
        if k < half:
            lat = LAT0 + (LAT1 - LAT0) * (k + 0.5) / half
            xy = np.column_stack([LON0 + (LON1 - LON0) * t, lat + wobble])
        else:
            lon = LON0 + (LON1 - LON0) * (k - half + 0.5) / half
            xy = np.column_stack([lon + wobble, LAT0 + (LAT1 - LAT0) * t])
        out.append(xy)
    return out


def wkt(lines: list[np.ndarray]) -> str:
    parts = ("LINESTRING (" + ", ".join(f"{x!r} {y!r}" for x, y in line.tolist()) + ")" for line in lines)
    return "GEOMETRYCOLLECTION (" + ", ".join(parts) + ")"


def snap_loop():
    build = ROOT / ".build" / "bench"
    build.mkdir(parents=True, exist_ok=True)
    src, lib = build / "snap_loop.c", build / "libsnap_loop.so"
    src.write_text(LOOP_C)
    lib_dir = ROOT / ".build" / "release"
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", f"-I{ROOT / 'include'}", str(src),
                    "-o", str(lib), f"-L{lib_dir}", "-lpindrop", f"-Wl,-rpath,{lib_dir}"], check=True)
    so = ctypes.CDLL(str(lib))
    so.snap_drag.restype = ctypes.c_int
    so.snap_drag.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_int, ctypes.c_double]
    return so.snap_drag


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".." / "shared" / "data"
    rng = np.random.default_rng(24)
    lines = streets(rng)
    text = wkt(lines)
    nseg = sum(len(l) - 1 for l in lines)
    print(f"snap layer; {STREETS} streets, {nseg} segments, {len(text) / 1e6:.1f} MB of WKT")

    # -- building the layer ----------------------------------------------------------------------
    m = pindrop.Map(snap_tolerance=12)
    pindrop_build = best(lambda: m.set_snap_layer(0, text))
    import shapely
    coords = np.concatenate([np.stack([l[:-1], l[1:]], axis=1) for l in lines])  # (nseg, 2, 2)
    segments = shapely.linestrings(coords)
    shapely_tree = best(lambda: shapely.STRtree(segments).query(shapely.points(0, 0)))
    shapely_text = best(lambda: shapely.STRtree(shapely.get_parts(shapely.from_wkt(text))).query(shapely.points(0, 0)), 1)
    print(f"snap layer build, pindrop set_snap_layer (read + index): {pindrop_build * 1e3:.1f} ms")
    print(f"snap layer build, shapely STRtree over the segments: {shapely_tree * 1e3:.1f} ms")
    print(f"snap layer build, shapely from_wkt + STRtree: {shapely_text * 1e3:.1f} ms")
    print(f"snap layer build / shapely STRtree: {pindrop_build / shapely_tree:.2f} x (target <= 1)")
    print(f"snap layer build / shapely from_wkt + STRtree: {pindrop_build / shapely_text:.2f} x")
    m.close()

    # -- a drag move among the LA trees, snapping on and off --------------------------------------
    path = data / "la_trees.csv"
    if not path.exists():
        print(f"snap drag; skipped: {path} is missing")
        return
    rows = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(2, 3))
    lonlat = np.ascontiguousarray(rows[:, ::-1])
    drag = snap_loop()
    maps = {}
    for tolerance in (0.0, 12.0):
        mm = pindrop.Map(snap_tolerance=tolerance, lift_delay_ms=0, lift_height=0)
        mm.add_many(np.arange(1, len(lonlat) + 1, dtype=np.int64), lonlat)
        mm.set_snap_layer(0, text)
        maps[tolerance] = mm
    # A tree near a street of the grid: the drag runs along the street, snapped on every move.
    k = int(np.argmin(np.abs(lonlat[:, 1] - (LAT0 + (LAT1 - LAT0) * 100.5 / (STREETS // 2)))))
    lon, lat = lonlat[k]
    times = {}
    for tolerance, mm in maps.items():
        mm.set_camera(float(lon), float(lat), 18, 1024, 768)
        mm.frame(0.0)
        x0, y0 = mm.to_screen(float(lon), float(lat))
        clock = [1.0]

        def run(mm=mm, x0=x0, y0=y0):
            h = mm._handle
            status = drag(h, x0, y0, MOVES, clock[0])
            clock[0] += MOVES + 1000
            assert status >= 0, _ffi.lib.pindrop_map_last_error(h)
            mm.set_position(k + 1, float(lon), float(lat))  # back where it was, for the next run
        times[tolerance] = best(run) / MOVES
    mm = maps[12.0]
    mm.touch(0, "down", *mm.to_screen(float(lon), float(lat)), 1e9)
    mm.touch(0, "move", mm.to_screen(float(lon), float(lat))[0] + 20, mm.to_screen(float(lon), float(lat))[1] + 4, 1e9 + 16)
    snapped = mm.snap_target()
    mm.touch(0, "up", 0, 0, 1e9 + 32)
    print(f"snap drag; {len(lonlat)} LA trees, zoom 18, {MOVES} moves along a street (snapped to: {snapped.kind})")
    print(f"drag move, snapping off: {times[0.0] * 1e6:.2f} us")
    print(f"drag move, snapping on (12 points): {times[12.0] * 1e6:.2f} us")
    print(f"drag move snapping on / off: {times[12.0] / times[0.0]:.2f} x (target <= 2)")
    for mm in maps.values():
        mm.close()


if __name__ == "__main__":
    main()
