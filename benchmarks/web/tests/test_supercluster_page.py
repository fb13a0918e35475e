"""The benchmark page's supercluster part (`make test-bench-web`, part of `make test`): with a local
copy of supercluster (SUPERCLUSTER_DIR, KDBUSH_DIR) pindrop.wasm and supercluster show the same
trees in every view the benchmark times, empty ones included; without one the page says so, and
pindrop's side still runs. On the 7,937 bundled Lawndale trees."""

import json
import os
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent.parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "examples" / "web"))

import bench_supercluster as scb  # noqa: E402
import bench_web  # noqa: E402
import cdp  # noqa: E402

LAWNDALE = (33.8872, -118.3526)   # lat, lon


@pytest.fixture(scope="module")
def page():
    httpd = bench_web.make_server(0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    rows = np.loadtxt(ROOT / "examples" / "data" / "lawndale_trees.csv", delimiter=",", skiprows=1,
                      usecols=(1, 2), comments=None)
    lonlat = np.ascontiguousarray(rows).reshape(-1)
    b = cdp.Chromium(bench_web.W, bench_web.H)
    try:
        b.navigate(f"http://127.0.0.1:{httpd.server_address[1]}{bench_web.PAGE}")
        b.wait_for("window.bench && window.bench.ready", timeout=60)
        assert b.eval(f"bench.setData({lonlat.tolist()})") == len(rows)
        yield b, lonlat
    finally:
        b.close()
        httpd.shutdown()


def test_the_views_include_an_empty_one_at_every_zoom():
    lonlat = np.array([-118.35, 33.88, -118.36, 33.89])
    cams = scb.view_list(lonlat, LAWNDALE, bench_web.ZOOMS, bench_web.W, bench_web.H)
    assert sorted({c["zoom"] for c in cams}) == [float(z) for z in bench_web.ZOOMS]
    assert sum(1 for c in cams if (c["centerLon"], c["centerLat"]) == scb.EMPTY) == len(bench_web.ZOOMS)


def test_without_a_copy_the_run_says_so(monkeypatch):
    monkeypatch.delenv("SUPERCLUSTER_DIR", raising=False)
    sc, kd, why = scb.peer_dirs()
    assert sc is None and kd is None and "SUPERCLUSTER_DIR" in why


def test_pindrop_and_supercluster_show_the_same_trees(page):
    b, lonlat = page
    missing = b.eval("bench.peers.missing()")
    cam = scb.camera(LAWNDALE[1], LAWNDALE[0], 14, bench_web.W, bench_web.H)
    first = b.eval(f"bench.peers.pindropFirstView({json.dumps(cam)})")
    assert first["clusters"] > 0 and first["ms"] > 0
    if not os.environ.get("SUPERCLUSTER_DIR"):
        # the page names what is missing and how to give it
        assert "SUPERCLUSTER_DIR" in missing
        return
    assert missing == ""
    sc_first = b.eval(f"bench.peers.superclusterFirstView({json.dumps(cam)})")
    assert sc_first["clusters"] > 0
    cams = scb.view_list(lonlat, LAWNDALE, bench_web.ZOOMS, bench_web.W, bench_web.H)
    rows = b.eval(f"bench.peers.views({json.dumps(cams)}, 2, 1)")
    assert not b.exceptions, b.exceptions
    assert len(rows) == len(cams)
    for cam, r in zip(cams, rows):
        assert r["pindropMs"] > 0 and r["superclusterMs"] >= 0, r
        if (cam["centerLon"], cam["centerLat"]) == scb.EMPTY:
            assert r["pindropShown"] == 0 and r["superclusterPins"] == 0, r
        else:
            # the same trees in view: pindrop counts its clusters' members and lone pins in the
            # viewport; supercluster its features' points in the same box (a cluster near the edge
            # may fall in one and not the other)
            assert r["superclusterPins"] > 0, r
            assert abs(r["pindropShown"] - r["superclusterPins"]) <= 0.2 * r["superclusterPins"] + 20, r
