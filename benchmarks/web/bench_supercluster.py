"""pindrop.wasm against supercluster in the benchmark page (bench_web.py's second part; peers.js in
the page): the first view of the trees in a fresh page, every view at zooms 8-16 (empty ones
included), and the memory each holds for the same trees.

supercluster is in neither Debian nor PyPI and is not vendored: give a local copy of the package
(its index.js, an ES module importing 'kdbush') as SUPERCLUSTER_DIR, and kdbush's as KDBUSH_DIR,
or one directory holding both (`supercluster/` and `kdbush/`) as SUPERCLUSTER_DIR. Without them the
run says so and measures the rest.
"""

import json
import os
from pathlib import Path

import numpy as np

FRESH_PAGES = 3      # the first view: the best of this many fresh browsers, on each side
VIEW_REPS = 50       # each view: calls per trial
VIEW_TRIALS = 5      # each view: the best of this many trials after one untimed
EMPTY = (-125.0, 30.0)   # lon, lat: the open Pacific, no tree of Los Angeles within a view at zooms 8-16


def peer_dirs():
    """(supercluster_dir, kdbush_dir, why_not): the directories to serve, or None and the reason."""
    given = os.environ.get("SUPERCLUSTER_DIR")
    if not given:
        return None, None, ("supercluster: not measured: SUPERCLUSTER_DIR is not set (a local copy of the "
                            "supercluster package, v8, and KDBUSH_DIR for kdbush, or one directory holding both)")
    sc = Path(given)
    if not (sc / "index.js").is_file() and (sc / "supercluster" / "index.js").is_file():
        sc = sc / "supercluster"
    kd_given = os.environ.get("KDBUSH_DIR")
    candidates = [Path(kd_given)] if kd_given else [sc.parent / "kdbush", sc / "node_modules" / "kdbush"]
    kd = next((c for c in candidates if (c / "index.js").is_file()), None)
    if not (sc / "index.js").is_file():
        return None, None, f"supercluster: not measured: {sc}/index.js is missing (SUPERCLUSTER_DIR={given})"
    if kd is None:
        return None, None, (f"supercluster: not measured: kdbush, which it imports, is not found "
                            f"(set KDBUSH_DIR; looked in {', '.join(map(str, candidates))})")
    return sc, kd, ""


def mounts():
    """The server mounts for the peers (none when they are not given)."""
    sc, kd, _ = peer_dirs()
    return [("/peers/supercluster/", sc), ("/peers/kdbush/", kd)] if sc else []


def camera(lon, lat, zoom, w, h):
    return {"centerLon": float(lon), "centerLat": float(lat), "zoom": float(zoom), "bearingDeg": 0.0,
            "width": float(w), "height": float(h)}


def view_list(lonlat, center, zooms, w, h, seed=23):
    """The views timed at each zoom: the densest place, two trees picked at random, and the open
    sea (a view with nothing in it)."""
    rng = np.random.default_rng(seed)
    pts = lonlat.reshape(-1, 2)
    out = []
    for z in zooms:
        out.append(camera(center[1], center[0], z, w, h))
        for i in rng.choice(len(pts), 2, replace=False):
            out.append(camera(pts[i, 0], pts[i, 1], z, w, h))
        out.append(camera(EMPTY[0], EMPTY[1], z, w, h))
    return out


def first_views(open_bench, heap, url, cam):
    """Each side's first view in fresh browsers (the best of FRESH_PAGES) and the memory it holds
    after it: supercluster's JS heap (features + index, after a garbage collection, less the page
    with the trees loaded); pindrop's wasm memory and its JS heap the same way."""
    out = {"pindrop": [], "supercluster": [], "pindrop_wasm_bytes": 0, "pindrop_heap": 0, "supercluster_heap": 0}
    for _ in range(FRESH_PAGES):
        for side in ("pindrop", "supercluster"):
            b, _n = open_bench(url)
            try:
                base = heap(b)
                r = b.eval(f"bench.peers.{side}FirstView({json.dumps(cam)})")
                out[side].append(r["ms"])
                out[f"{side}_clusters"] = r["clusters"]
                out[f"{side}_heap"] = heap(b) - base
                if side == "pindrop":
                    out["pindrop_wasm_bytes"] = b.eval("bench.wasmBytes()")
                assert not b.exceptions, b.exceptions
            finally:
                b.close()
    return out


def views(open_bench, url, view_cams):
    b, _n = open_bench(url)
    try:
        r = b.eval(f"bench.peers.views({json.dumps(view_cams)}, {VIEW_REPS}, {VIEW_TRIALS})")
        assert not b.exceptions, b.exceptions
        return r
    finally:
        b.close()


def report(first, rows):
    """Prints the comparison; returns the figures as (name, value, unit, target) lines."""
    lines = []
    p, s = min(first["pindrop"]), min(first["supercluster"])
    print(f"  first view in a fresh page, ms (best of {FRESH_PAGES}): pindrop.wasm (addMany + first clusters) "
          f"{p:.0f}, supercluster (features + load() + first getClusters) {s:.0f}")
    lines.append(("first view of the trees in a fresh page, pindrop.wasm / supercluster", p / s, "x", "<= 0.7"))
    lines.append(("first view in a fresh page, pindrop.wasm (addMany + first clusters)", p, "ms", None))
    lines.append(("first view in a fresh page, supercluster (features + load + getClusters)", s, "ms", None))
    print("  views, us per call (best of trials): pindrop.wasm setCamera + clusters() + frame() (clusters and lone")
    print("  pins), and setCamera + clusters() alone, against supercluster's getClusters(bbox, zoom)")
    print(f"  {'zoom':>5} {'view':>20} {'pindrop':>9} {'clusters':>9} {'superc.':>9} {'ratio':>7} {'(cl.)':>7}"
          "  shown: pindrop / supercluster")
    worst = worst_c = worst_empty = 0.0
    for r in rows:
        ratio, ratio_c = r["pindropMs"] / r["superclusterMs"], r["pindropClustersMs"] / r["superclusterMs"]
        empty = r["superclusterPins"] == 0 and r["pindropShown"] == 0
        worst, worst_c = max(worst, ratio), max(worst_c, ratio_c)
        if empty:
            worst_empty = max(worst_empty, ratio)
        where = "empty (sea)" if empty else f"{r['lon']:.4f},{r['lat']:.4f}"
        print(f"  {r['zoom']:5.0f} {where:>20} {r['pindropMs'] * 1e3:9.2f} {r['pindropClustersMs'] * 1e3:9.2f} "
              f"{r['superclusterMs'] * 1e3:9.2f} {ratio:6.2f}x {ratio_c:6.2f}x  {r['pindropShown']} in "
              f"{r['pindropClusters']} cl. / {r['superclusterPins']} in {r['superclusterFeatures']} features")
    lines.append(("slowest view at zooms 8-16 (clusters + lone pins) against getClusters, pindrop.wasm / supercluster",
                  worst, "x", "<= 0.7"))
    lines.append(("slowest view at zooms 8-16, clusters() alone against getClusters", worst_c, "x", "<= 0.7"))
    lines.append(("slowest empty view at zooms 8-16 against getClusters", worst_empty, "x", "<= 0.7"))
    wasm, sc_heap = first["pindrop_wasm_bytes"], first["supercluster_heap"]
    print(f"  memory for the trees: pindrop.wasm {wasm / 2**20:.1f} MB wasm memory (+ {first['pindrop_heap'] / 2**20:.1f} MB "
          f"JS heap), supercluster {sc_heap / 2**20:.1f} MB JS heap (features + index, after a GC)")
    lines.append(("memory for the trees, pindrop.wasm's wasm memory / supercluster's JS heap", wasm / sc_heap, "x", "<= 0.6"))
    lines.append(("pindrop.wasm's wasm memory after the first view", wasm / 2**20, "MB", None))
    lines.append(("supercluster's JS heap after the first view (features + index)", sc_heap / 2**20, "MB", None))
    return lines
