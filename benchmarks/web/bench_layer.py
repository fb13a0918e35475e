"""pindrop's Leaflet layer (pindrop/leaflet) on the trees, with real input events (bench_web.py's
layer part; layer.js in the page): the load (addPins, in chunks), each pan frame of a mouse drag
of the map and each zoom change with the layer's drawing, and a drag of a tree at 60 frames a
second, where pindrop's work per frame is what counts. Without the layer in the tree (the
package's src/leaflet.js) the run says so and measures the rest."""

import json
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ENTRY = ROOT / "bindings" / "js" / "src" / "leaflet.js"
SEA = (-118.60, 33.93)     # lon, lat: Santa Monica Bay, the left of a view centred on the coast
COAST = (-118.47, 33.95)   # the view of the pans: the coast, trees on the right, sea on the left
DRAG = (-118.0751, 33.8979)  # the view of the tree's drag: the densest 0.01 degree cell


def missing():
    return "" if ENTRY.exists() else ("the Leaflet layer: not measured: bindings/js/src/leaflet.js (pindrop/leaflet) "
                                      "is not in this tree")


def summary(frames):
    totals = [f["total"] for f in frames]
    if not totals:
        return {"frames": 0, "max": 0.0, "p95": 0.0, "median": 0.0}
    totals.sort()
    return {"frames": len(totals), "max": totals[-1], "p95": totals[int(0.95 * (len(totals) - 1))],
            "median": statistics.median(totals)}


def run(open_bench, url, zooms, w, h):
    b, n = open_bench(url)
    try:
        out = {"n": n}
        out["load"] = b.eval(f"bench.layer.load([{COAST[1]}, {COAST[0]}], 13)")
        b.sleep(0.5)
        # pans: the map dragged by the mouse from the sea, 60 moves of 8 points at 16 ms
        b.eval("bench.layer.resetFrames()")
        x0, y0 = 150, h // 2
        for _ in range(3):
            path = [(x0 + 8 * i, y0 + 2 * i) for i in range(61)]
            b.drag_mouse(path, step_s=0.016)
            b.sleep(0.2)
            b.drag_mouse(list(reversed(path)), step_s=0.016)
            b.sleep(0.2)
        out["pan"] = summary(b.eval("bench.layer.takeFrames()"))
        # zoom changes, up and down, each with its drawing
        order = list(zooms) + list(reversed(zooms))
        out["zoom"] = b.eval(f"bench.layer.zoomFrames({json.dumps(order)})")
        # a drag of a lone tree at zoom 17.5 (unclustered), 120 moves at 16 ms
        b.eval(f"bench.layer.view({DRAG[0]}, {DRAG[1]}, 17.5)")
        b.sleep(0.3)
        tree = b.eval("bench.layer.loneTree()")
        out["drag"] = None
        if tree:
            tid, lon, lat = tree
            x, y = b.eval(f"bench.layer.treePoint({lon}, {lat})")
            b.eval("bench.layer.resetFrames()")
            path = [(x + 1.5 * i, y + 0.5 * i) for i in range(121)]
            b.drag_mouse(path, step_s=0.016)
            b.sleep(0.3)
            frames = b.eval("bench.layer.takeFrames()")
            moved = b.eval(f"bench.layer.position({tid})")
            out["drag"] = dict(summary(frames), id=tid, before=[lon, lat], after=moved)
        assert not b.exceptions, b.exceptions
        return out
    finally:
        b.close()


def report(r, markercluster_add_ms):
    """Prints the layer's figures; returns them as (name, value, unit, target) lines."""
    lines = []
    load = r["load"]
    print(f"  load of {load['pins']:,} trees: addPins (chunked) {load['loadMs']:.0f} ms, first drawing "
          f"{load['firstDrawMs']:.1f} ms; markercluster's addLayers {markercluster_add_ms:.0f} ms")
    lines.append(("Leaflet layer: addPins of the trees (chunked)", load["loadMs"], "ms", None))
    lines.append(("markercluster's addLayers / the layer's addPins", markercluster_add_ms / load["loadMs"], "x", None))
    pan = r["pan"]
    print(f"  pan frames (mouse drag of the map, input handlers + drawing): {pan['frames']} frames, median "
          f"{pan['median']:.2f} ms, p95 {pan['p95']:.2f} ms, max {pan['max']:.2f} ms")
    lines.append(("Leaflet layer: slowest pan frame with drawing", pan["max"], "ms", "<= 8"))
    lines.append(("Leaflet layer: pan frames with drawing, 95th percentile", pan["p95"], "ms", None))
    zmax = max(z["ms"] for z in r["zoom"])
    print("  zoom changes with drawing, ms: " + ", ".join(f"{z['zoom']}: {z['ms']:.2f}" for z in r["zoom"]))
    lines.append(("Leaflet layer: slowest zoom change with drawing", zmax, "ms", "<= 8"))
    d = r["drag"]
    if d:
        print(f"  drag of tree {d['id']} at 60 fps: {d['frames']} frames, pindrop's work per frame (input + drawing) "
              f"median {d['median']:.2f} ms, p95 {d['p95']:.2f} ms, max {d['max']:.2f} ms; moved {d['before']} -> {d['after']}")
        lines.append(("Leaflet layer: a tree's drag, slowest frame of pindrop's work", d["max"], "ms", "<= 4"))
        lines.append(("Leaflet layer: a tree's drag, pindrop's work per frame, 95th percentile", d["p95"], "ms", None))
    else:
        print("  drag: no lone tree in the view")
    return lines
