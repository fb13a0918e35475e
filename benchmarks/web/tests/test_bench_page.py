"""The benchmark page's three paths give the same answers (`make test-bench-web`, part of `make test`).

bench_web.py times the same workload through the native library (C loops through ctypes),
through the JavaScript package in Chromium, and through the module's exports called directly in
Chromium (a second instance, the C contract by hand: options, camera and event structs laid out
in the page). A figure is worth reading only if the three did the same work, so this runs the
benchmark's workload on the 7,937 bundled Lawndale trees and compares what each found: the hit
tests that found a pin, where the dragged tree landed, and that every figure is a time.
"""

import json
import math
import sys
import threading
import urllib.request
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent.parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "examples" / "web"))

import bench_web  # noqa: E402
import cdp  # noqa: E402

OPS = ["add_many", "frame", "frame_clusters", "hit_test", "set_position_cluster_update", "drag_move"]


@pytest.fixture(scope="module")
def server():
    httpd = bench_web.make_server(0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_the_benchmark_page_is_cross_origin_isolated(server):
    # (from examples/web/tests/test_serve.py, where the page was served before it moved here)
    with urllib.request.urlopen(server + bench_web.PAGE) as r:
        assert r.headers.get("Cross-Origin-Opener-Policy") == "same-origin"
        assert r.headers.get("Cross-Origin-Embedder-Policy") == "require-corp"


def lawndale():
    rows = np.loadtxt(ROOT / "examples" / "data" / "lawndale_trees.csv", delimiter=",", skiprows=1,
                      usecols=(1, 2), comments=None)
    return np.arange(len(rows), dtype=np.int64), np.ascontiguousarray(rows).reshape(-1)


def test_native_package_and_raw_exports_agree(server):
    ids, lonlat = lawndale()
    w = bench_web.workload(lonlat)
    w["trials"] = 2
    nat = bench_web.native(ids, lonlat, w)       # also lays out the drag (dragStart, dragPath)
    b = cdp.Chromium(bench_web.W, bench_web.H)
    try:
        b.navigate(f"{server}{bench_web.PAGE}")
        b.wait_for("window.bench && window.bench.ready", timeout=60)
        assert b.eval(f"bench.setData({lonlat.tolist()})") == len(ids)
        package = b.eval(f"bench.ops({json.dumps(w)})")
        raw = b.eval(f"bench.rawOps({json.dumps(w)})")
        assert not b.exceptions, b.exceptions
    finally:
        b.close()
    assert nat["hits_found"] > 0
    assert package["hits_found"] == raw["hits_found"] == nat["hits_found"], (nat, package, raw)
    assert nat["drag_owned"]
    for got in (package["drag_landed"], raw["drag_landed"]):
        assert all(abs(a - b) <= 1e-9 for a, b in zip(got, nat["drag_landed"])), (got, nat["drag_landed"])
    for side in (nat, package, raw):
        for op in OPS:
            assert isinstance(side[op], float) and math.isfinite(side[op]) and side[op] >= 0, (op, side)
