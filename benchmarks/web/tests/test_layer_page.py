"""The benchmark page's Leaflet layer part (`make test-bench-web`): on the 7,937 bundled Lawndale
trees, the layer loads them, a mouse drag of the map records pan frames with the layer's drawing,
zoom changes are timed with their drawing, and a drag of a tree moves it, its frames recorded."""

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent.parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "examples" / "web"))

import bench_layer  # noqa: E402
import bench_web  # noqa: E402
import cdp  # noqa: E402


def test_the_layer_part_measures_loads_pans_zooms_and_a_drag(monkeypatch):
    if bench_layer.missing():
        pytest.fail(bench_layer.missing())
    rows = np.loadtxt(ROOT / "examples" / "data" / "lawndale_trees.csv", delimiter=",", skiprows=1,
                      usecols=(1, 2), comments=None)
    lonlat = np.ascontiguousarray(rows).reshape(-1)
    # Lawndale, not the coast of Los Angeles: the pans start over trees' clusters there
    monkeypatch.setattr(bench_layer, "COAST", (-118.3526, 33.8872))
    monkeypatch.setattr(bench_layer, "DRAG", (-118.3526, 33.8872))
    httpd = bench_web.make_server(0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}{bench_web.PAGE}"

    def open_page(u):
        b = cdp.Chromium(bench_web.W, bench_web.H)
        b.navigate(u)
        b.wait_for("window.bench && window.bench.ready", timeout=60)
        return b, b.eval(f"bench.setData({lonlat.tolist()})")
    try:
        r = bench_layer.run(open_page, url, [14, 15, 16], bench_web.W, bench_web.H)
    finally:
        httpd.shutdown()
    assert r["load"]["pins"] == len(rows) and r["load"]["loadMs"] > 0
    assert r["pan"]["frames"] > 10 and r["pan"]["max"] > 0, r["pan"]
    assert [z["zoom"] for z in r["zoom"]] == [14, 15, 16, 16, 15, 14]
    assert all(z["ms"] > 0 and z["drawn"] > 0 for z in r["zoom"]), r["zoom"]
    d = r["drag"]
    assert d and d["frames"] > 10, d
    assert d["after"] != d["before"], "the dragged tree moved"
    lines = bench_layer.report(r, 100.0)
    assert {name for name, *_ in lines} >= {"Leaflet layer: slowest pan frame with drawing",
                                            "Leaflet layer: a tree's drag, slowest frame of pindrop's work"}
