#!/usr/bin/env python3
"""pindrop in the browser, measured (`make bench-web`; minutes long, not a test).

On the 916,114 LA trees (../shared/data/la_trees.csv or $PINDROP_LA_TREES), in one run:

1. pindrop.wasm against Leaflet.markercluster 1.5.3 (Debian's), on the same Leaflet 1.7 map in the
   same headless Chromium, each in a browser of its own: the time to cluster the whole inventory
   (markercluster: addLayers of the markers, chunkedLoading off; pindrop: addMany, the first view,
   which builds every cluster level as addLayers does, and a view at every zoom 0-16; the native
   library's add_many and first frame_clusters beside them), the time of each zoom change at zooms 8-16
   including drawing (setView, then pindrop's frame()/clusters() painted into the canvas or
   markercluster's DOM markers, then a forced style and layout), and the JS heap
   (Runtime.getHeapUsage after a garbage collection) plus, for pindrop, the wasm memory.
2. pindrop.wasm against the native library (bindings/python and C loops through ctypes, the same
   process's figures) on the same operations with the same inputs: add_many, hit tests after a
   frame, frame, frame_clusters, set_position + cluster update, a drag's MOVE.
3. pindrop.wasm against supercluster (bench_supercluster.py; a local copy given by SUPERCLUSTER_DIR
   and KDBUSH_DIR, said so when not given): the first view in a fresh page, every view at zooms
   8-16 (empty ones included), the memory for the trees.
4. The size of dist/pindrop.wasm, raw and gzipped.

Writes the figures with a target, and the ratios, into docs/benchmarks.md's section "In the
browser" (benchmarks/run.py's write_web_section), and the module's size sentence into the docs
that quote it (benchmarks/wasm_size.py).

Prints a table with the ratios and the issue's targets; writes the figures as JSON to
$OUT/bench_web.json (out/ by default).
"""

import ctypes
import gzip
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WEB = ROOT / "examples" / "web"          # the host page: its server, its drawing code, cdp.py
sys.path.insert(0, str(WEB))
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import cdp  # noqa: E402
import serve  # noqa: E402
import pindrop  # noqa: E402
import bench_supercluster as scb  # noqa: E402
import bench_layer  # noqa: E402

# The benchmark page is served by the host page's server (examples/web/serve.py), with this folder
# mounted at /bench/: the page loads the package from /pindrop/, Leaflet from /leaflet/ and the
# host page's drawing code and style from /. serve.py sends /bench* cross-origin isolated.
MOUNT = ("/bench/", HERE)
PAGE = "/bench/bench.html"


def make_server(port=0):
    """serve.py's server, with the benchmark page mounted at /bench/."""
    if MOUNT not in serve.MOUNTS:
        serve.MOUNTS.insert(0, MOUNT)
    for m in scb.mounts():   # supercluster and kdbush, when given
        if m not in serve.MOUNTS:
            serve.MOUNTS.insert(0, m)
    return serve.make_server(port)


LA = Path(os.environ.get("PINDROP_LA_TREES", ROOT.parent / "shared" / "data" / "la_trees.csv"))
WASM = ROOT / "dist" / "pindrop.wasm"
W, H = 1200, 800
CENTER = (33.8979, -118.0751)      # lat, lon: the view of the zoom changes (the densest 0.01 deg cell)
ZOOMS = list(range(8, 17))
ROUNDS = 4                          # up and down the zooms, twice each
TRIALS = 5                          # each operation's figure is the best of this many trials (after one
                                    # untimed), on both sides
WARM_PASSES = 5                     # the untimed trial of the moves and of the drag runs this many times
                                    # (bench.js's WARM_PASSES)


def load_trees():
    rows = np.loadtxt(LA, delimiter=",", skiprows=1, usecols=(2, 3))
    lonlat = np.ascontiguousarray(rows[:, ::-1]).reshape(-1)
    return np.arange(len(rows), dtype=np.int64), lonlat


def workload(lonlat, seed=19):
    """The same inputs for both runs (screen points, cameras, moves), from a fixed seed."""
    rng = np.random.default_rng(seed)
    pts = lonlat.reshape(-1, 2)
    n = len(pts)

    def cam(i, zoom):
        return [float(pts[i, 0]), float(pts[i, 1]), float(zoom), float(W), float(H)]
    frame_cams = [cam(i, 17.5) for i in rng.choice(n, 20, replace=False)]
    cluster_cams = [[CENTER[1], CENTER[0], float(z), float(W), float(H)] for z in ZOOMS] + \
                   [cam(i, z) for z in ZOOMS for i in rng.choice(n, 2, replace=False)]
    hit_cams = [cam(i, 17.5) for i in rng.choice(n, 10, replace=False)]
    per = 1000
    # half the taps uniform over the viewport, half next to trees (within 15 points of the centre
    # tree's screen point, where the view starts)
    hit_xy = []
    for _ in hit_cams:
        u = rng.uniform([0, 0], [W, H], size=(per // 2, 2))
        near = np.array([W / 2, H / 2]) + rng.normal(0, 15, size=(per - per // 2, 2))
        hit_xy.append(np.concatenate([u, near]))
    hit_xy = np.concatenate(hit_xy).reshape(-1)
    move_ids = rng.choice(n, 2000, replace=False)
    ang = rng.uniform(0, 2 * np.pi, len(move_ids))
    dist_deg = rng.uniform(0, 0.002, len(move_ids))
    move_ll = np.stack([pts[move_ids, 0] + dist_deg * np.cos(ang), pts[move_ids, 1] + dist_deg * np.sin(ang)], 1)
    drag_tree = int(rng.choice(n))
    return dict(center=[CENTER[1], CENTER[0]], width=W, height=H, addReps=3, reps=20, trials=TRIALS,
                frameCams=frame_cams, clusterCams=cluster_cams, hitCams=hit_cams, hitXY=hit_xy.tolist(),
                moveCam=[CENTER[1], CENTER[0], 12.0, float(W), float(H)], moveIds=move_ids.tolist(),
                moveLonLat=move_ll.reshape(-1).tolist(), dragTree=drag_tree,
                dragCam=cam(drag_tree, 17.5))


# ---- native ------------------------------------------------------------------------------------
def build_loops():
    out = ROOT / ".build" / "bench" / "libweb_native_loops.so"
    out.parent.mkdir(parents=True, exist_ok=True)
    lib_dir = ROOT / ".build" / "release"
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    f"-I{ROOT / 'include'}", str(HERE / "native_loops.c"), "-o", str(out),
                    f"-L{lib_dir}", "-lpindrop", f"-Wl,-rpath,{lib_dir}"], check=True)
    lib = ctypes.CDLL(str(out))
    p, d, z = ctypes.c_void_p, ctypes.c_double, ctypes.c_size_t
    pd_, pz, pi = ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_int)
    for name, args in dict(nl_add_many=[p, p, p, z, pi], nl_frames=[p, p, z, z, ctypes.c_int, p, p, z, pd_],
                           nl_hits=[p, p, z, p, z, p, z, d, pz], nl_moves=[p, p, p, p, z, p, z, pd_, pz],
                           nl_drag=[p, p, d, d, p, z, p, z, pd_, pi],
                           nl_first_clusters=[p, p, p, z, d]).items():
        getattr(lib, name).restype = d
        getattr(lib, name).argtypes = args
    return lib


def cams(rows):
    a = np.array([[c[0], c[1], c[2], 0.0, c[3], c[4]] for c in rows], dtype=np.float64)
    return np.ascontiguousarray(a)


def options():
    return pindrop.Options(hit_radius=22, lift_delay_ms=0, lift_height=0, cluster_radius=60, cluster_max_zoom=17,
                           spread_mode=pindrop.SPREAD_SPIRAL, spread_spacing=25)


def supercluster_build_ms(lonlat, reps):
    """supercluster's algorithm (SPEC 16's rule) compiled natively, on the same trees: the best of
    `reps` builds, what the fastest peer implementation of the rule takes to cluster them (ms), or
    None without pysupercluster (`make bench-deps` installs it)."""
    try:
        import pysupercluster
    except ImportError:
        return None
    pts = np.ascontiguousarray(lonlat.reshape(-1, 2))
    best = float("inf")
    for _ in range(reps):
        t0 = time.thread_time()
        pysupercluster.SuperCluster(pts, min_zoom=0, max_zoom=16, radius=60, extent=256)
        best = min(best, time.thread_time() - t0)
    return best * 1e3


def native(ids, lonlat, w):
    lib = build_loops()
    st = ctypes.c_int()
    best, m = float("inf"), None
    for _ in range(w["addReps"]):
        if m is not None:
            m.close()
        m = pindrop.Map(options())
        best = min(best, lib.nl_add_many(m._as_parameter_, ids.ctypes.data, lonlat.ctypes.data, len(ids), ctypes.byref(st)))
        assert st.value == 0
    out = {"add_many": best * 1e3}
    cap = 200_000
    pins = (pindrop._ffi.PinView * cap)()
    views = (pindrop._ffi.ClusterView * cap)()
    t = ctypes.c_double(1.0)
    # the first frame_clusters builds every cluster level: the native side of the first view
    out["first_frame_clusters"] = lib.nl_first_clusters(m._as_parameter_, cams([[w["center"][0], w["center"][1], 8, W, H]]).ctypes.data,
                                                        views, cap, t.value) * 1e3
    for zz in range(17):
        m.set_camera(w["center"][0], w["center"][1], zz, W, H)
        lib.nl_frames(m._as_parameter_, cams([[w["center"][0], w["center"][1], zz, W, H]]).ctypes.data, 1, 0, 1,
                      pins, views, cap, ctypes.byref(t))
    T = w["trials"]

    def best(trial):
        """The best of T trials after one untimed, as bench.js does (trial k = 0 .. T)."""
        return min([trial(k) for k in range(T + 1)][1:])
    fc = cams(w["frameCams"])
    out["frame"] = best(lambda _: lib.nl_frames(m._as_parameter_, fc.ctypes.data, len(fc), w["reps"], 0, pins, views,
                                                cap, ctypes.byref(t))) * 1e3
    cc = cams(w["clusterCams"])
    out["frame_clusters"] = best(lambda _: lib.nl_frames(m._as_parameter_, cc.ctypes.data, len(cc), w["reps"], 1, pins,
                                                         views, cap, ctypes.byref(t))) * 1e3
    hc = cams(w["hitCams"])
    xy = np.array(w["hitXY"], dtype=np.float64)
    found = ctypes.c_size_t()
    per = len(xy) // 2 // len(hc)
    out["hit_test"] = best(lambda _: lib.nl_hits(m._as_parameter_, hc.ctypes.data, len(hc), xy.ctypes.data, per, pins,
                                                 cap, t.value, ctypes.byref(found))) * 1e3
    out["hits_found"] = found.value
    mc = cams([w["moveCam"]])
    mid = np.array(w["moveIds"], dtype=np.int64)
    mll = np.array(w["moveLonLat"], dtype=np.float64)
    failed = ctypes.c_size_t()
    chunk = len(mid) // (T + 1)

    def moves(k):   # each trial moves its own slice of the pins; the untimed one WARM_PASSES times there and back
        ids_k, ll_k = mid[k * chunk:(k + 1) * chunk], mll[2 * k * chunk:2 * (k + 1) * chunk]
        back = np.ascontiguousarray(lonlat.reshape(-1, 2)[ids_k]).reshape(-1)
        for p in range(1 if k else WARM_PASSES):
            dt = lib.nl_moves(m._as_parameter_, mc.ctypes.data, ids_k.ctypes.data, (back if p % 2 else ll_k).ctypes.data,
                              len(ids_k), views, cap, ctypes.byref(t), ctypes.byref(failed))
            assert failed.value == 0
        return dt
    out["set_position_cluster_update"] = best(moves) * 1e3
    dc = cams([w["dragCam"]])
    m.set_camera(*w["dragCam"][:3], W, H)
    lon, lat = m.display_position(w["dragTree"])
    x0, y0 = m.to_screen(lon, lat)
    w["dragStart"] = [x0, y0]
    # one turn of a circle of radius 120 points from 10 points right of the pin, then back onto the
    # point pressed: each trial's drag ends where the next one presses
    k = np.arange(1257)
    path = np.concatenate([np.stack([x0 + 10 + 120 * np.sin(k / 200), y0 + 120 * (1 - np.cos(k / 200))], 1),
                           [[x0, y0]]]).reshape(-1)
    w["dragPath"] = path.tolist()
    owned = ctypes.c_int()
    drags = []
    for _ in range(T + WARM_PASSES):
        drags.append(lib.nl_drag(m._as_parameter_, dc.ctypes.data, x0, y0, path.ctypes.data, len(path) // 2, pins, cap,
                                 ctypes.byref(t), ctypes.byref(owned)))
        assert owned.value == 1, ("the drag's press missed the pin", len(drags), m.hit_test(x0, y0),
                                  m.to_screen(*m.display_position(w["dragTree"])))
    out["drag_move"] = min(drags[WARM_PASSES:]) * 1e3
    out["drag_owned"] = bool(owned.value)
    out["drag_landed"] = list(m.position(w["dragTree"]))
    m.close()
    return out


# ---- the browser -------------------------------------------------------------------------------
def heap(b):
    b.send("HeapProfiler.collectGarbage")
    return b.send("Runtime.getHeapUsage")["usedSize"]


def open_bench(url):
    b = cdp.Chromium(W, H, extra_args=["--js-flags=--max-old-space-size=8192", "--enable-precise-memory-info"])
    b.navigate(url)
    b.wait_for("window.bench && window.bench.ready", timeout=60)
    b.send("HeapProfiler.enable")
    n = b.eval("bench.loadData()")
    return b, n


def run_pindrop(url):
    b, n = open_bench(url)
    try:
        base = heap(b)
        lat, lon = CENTER
        r = b.eval(f"bench.pindropCluster([{lat}, {lon}], 8)")
        r.update(b.eval(f"bench.pindropAllLevels([{lat}, {lon}])"))
        r["heap"] = heap(b) - base
        r["wasm_bytes"] = b.eval("bench.wasmBytes()")
        r["zoom"] = b.eval(f"bench.zoomChanges('pindrop', [{lat}, {lon}], {ZOOMS}, {ROUNDS})")
        r["n"] = n
        assert not b.exceptions, b.exceptions
        return r
    finally:
        b.close()


def run_markercluster(url):
    b, n = open_bench(url)
    try:
        base = heap(b)
        lat, lon = CENTER
        r = b.eval(f"bench.markerclusterCreate([{lat}, {lon}], 8)")
        r.update(b.eval("bench.markerclusterAddLayers()"))
        r["heap"] = heap(b) - base
        r["zoom"] = b.eval(f"bench.zoomChanges('markercluster', [{lat}, {lon}], {ZOOMS}, {ROUNDS})")
        r["n"] = n
        assert not b.exceptions, b.exceptions
        return r
    finally:
        b.close()


def run_ops(url, w, fn="ops"):
    b, n = open_bench(url)
    try:
        r = b.eval(f"bench.{fn}({json.dumps(w)})")
        assert not b.exceptions, b.exceptions
        return r
    finally:
        b.close()


def fmt_ms(v):
    return f"{v:.4f}" if v < 0.1 else f"{v:.3f}" if v < 10 else f"{v:.1f}"


def main():
    if not LA.exists():
        sys.exit(f"bench-web needs the LA trees at {LA} (or $PINDROP_LA_TREES)")
    if not WASM.exists():
        sys.exit("dist/pindrop.wasm is missing: make wasm")
    raw = WASM.read_bytes()
    size = {"raw": len(raw), "gzip": len(gzip.compress(raw, 9))}

    httpd = make_server(0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}{PAGE}"

    ids, lonlat = load_trees()
    w = workload(lonlat)
    print(f"{len(ids):,} trees; native library (ctypes, C loops) ...", flush=True)
    nat = native(ids, lonlat, w)
    nat["pysupercluster_build"] = supercluster_build_ms(lonlat, w["addReps"])
    print("pindrop.wasm operations in Chromium ...", flush=True)
    wops = run_ops(url, w)
    print("pindrop.wasm's exports called directly in Chromium ...", flush=True)
    raw = run_ops(url, w, "rawOps")
    print("pindrop.wasm on the Leaflet map ...", flush=True)
    pdw = run_pindrop(url)
    print("Leaflet.markercluster on the Leaflet map ...", flush=True)
    mc = run_markercluster(url)
    sc_dir, _, sc_missing = scb.peer_dirs()
    sc_first = sc_views = None
    if sc_dir:
        first_cam = scb.camera(CENTER[1], CENTER[0], 10, W, H)
        print(f"pindrop.wasm and supercluster ({sc_dir}): first views in fresh pages ...", flush=True)
        sc_first = scb.first_views(open_bench, heap, url, first_cam)
        print("pindrop.wasm and supercluster: views at zooms 8-16 ...", flush=True)
        sc_views = scb.views(open_bench, url, scb.view_list(lonlat, CENTER, ZOOMS, W, H))
    layer = None
    if not bench_layer.missing():
        print("pindrop's Leaflet layer with real input events ...", flush=True)
        layer = bench_layer.run(open_bench, url, ZOOMS, W, H)

    results = dict(size=size, native=nat, wasm_ops=wops, wasm_raw=raw, pindrop=pdw, markercluster=mc,
                   supercluster_first=sc_first, supercluster_views=sc_views, layer=layer,
                   chromium=subprocess.run([cdp.CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip())
    out = Path(os.environ.get("OUT", ROOT / "out"))
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench_web.json").write_text(json.dumps(results, indent=1))

    print()
    print(f"pindrop.wasm: {size['raw'] / 1024:.0f} KB, {size['gzip'] / 1024:.0f} KB gzipped (target <= 400 KB gzipped): "
          f"{'met' if size['gzip'] <= 400 * 1024 else 'NOT met'}")
    print()
    # pindrop's whole clustering: addMany, the first view (which builds every cluster level) and a
    # view at each zoom 0-16, against markercluster's addLayers (chunkedLoading off: one
    # synchronous call, its fastest; every level built, the zoom-8 markers drawn and laid out).
    cluster_pd = pdw["addManyMs"] + pdw["firstViewMs"] + pdw["allLevelsMs"]
    print(f"Clustering the {pdw['n']:,} LA trees in {results['chromium']}")
    print(f"  {'':52} {'ms':>8}")
    print(f"  {'markercluster: creating the L.marker objects':52} {mc['createMarkersMs']:8.0f}")
    print(f"  {'markercluster: addLayers (chunkedLoading off, + layout)':52} {mc['addLayersMs']:8.0f}")
    print(f"  {'pindrop.wasm: addMany (typed arrays, no objects)':52} {pdw['addManyMs']:8.0f}")
    print(f"  {'pindrop.wasm: first view at zoom 8 (builds the levels)':52} {pdw['firstViewMs']:8.0f}")
    print(f"  {'pindrop.wasm: then a view at each zoom 0-16':52} {pdw['allLevelsMs']:8.0f}")
    ratio = mc["addLayersMs"] / cluster_pd
    print(f"  addLayers / pindrop's (addMany + first view + every zoom) = {ratio:.1f}x (target >= 20x): "
          f"{'met' if ratio >= 20 else 'NOT met'}")
    ratio_all = (mc["createMarkersMs"] + mc["addLayersMs"]) / cluster_pd
    print(f"  (markers created + addLayers) / the same                  = {ratio_all:.1f}x")
    print(f"  native library, same process: add_many {nat['add_many']:.0f} ms, first frame_clusters "
          f"{nat['first_frame_clusters']:.0f} ms: addLayers / native = "
          f"{mc['addLayersMs'] / (nat['add_many'] + nat['first_frame_clusters']):.1f}x")
    if nat.get("pysupercluster_build"):
        print(f"  pysupercluster (supercluster's rule in C++, native), same process: its build alone "
              f"{nat['pysupercluster_build']:.0f} ms: addLayers / pysupercluster = "
              f"{mc['addLayersMs'] / nat['pysupercluster_build']:.1f}x")
    print()
    print(f"Zoom changes at {CENTER[0]}, {CENTER[1]} ({W}x{H}), setView + drawing + layout, ms "
          f"({ROUNDS} rounds: median / max)")
    print(f"  {'zoom':>4} {'pindrop.wasm':>16} {'drawn':>14} {'markercluster':>16} {'icons':>7}")
    worst = 0.0
    for z in ZOOMS:
        a = pdw["zoom"]["times"][str(z)]
        m_ = mc["zoom"]["times"][str(z)]
        worst = max(worst, max(a))
        c, p = pdw["zoom"]["drawn"][str(z)]
        print(f"  {z:>4} {statistics.median(a):7.2f} / {max(a):6.2f} {f'{c} cl, {p} pins':>14} "
              f"{statistics.median(m_):7.2f} / {max(m_):6.1f} {mc['zoom']['drawn'][str(z)]:>7}")
    print(f"  slowest pindrop zoom change: {worst:.2f} ms (target <= 16 ms): {'met' if worst <= 16 else 'NOT met'}")
    print()
    print("JS heap after clustering (after a GC, less the page with the trees loaded)")
    print(f"  markercluster: {mc['heap'] / 2**20:8.1f} MB")
    print(f"  pindrop.wasm:  {pdw['heap'] / 2**20:8.1f} MB JS heap + {(pdw['wasm_bytes'] or 0) / 2**20:.1f} MB wasm memory")
    print()
    print("pindrop.wasm against the native library (C loops through ctypes), ms per call; wasm through the JS")
    print("package (what a page pays) and through the module's exports directly (the wasm code alone)")
    print(f"  {'operation':36} {'native':>10} {'wasm (JS)':>10} {'ratio':>8} {'wasm (raw)':>11} {'ratio':>8}")
    names = [("add_many (916,114 pins)", "add_many"), ("hit test after a frame (per tap)", "hit_test"),
             ("frame (zoom 17.5, unclustered)", "frame"), ("frame_clusters (zooms 8-16)", "frame_clusters"),
             ("set_position + cluster update", "set_position_cluster_update"), ("drag MOVE (+ events)", "drag_move")]
    over = []
    for label, key in names:
        r = wops[key] / nat[key]
        rr = raw[key] / nat[key]
        if r > 2:
            over.append(label)
        print(f"  {label:36} {fmt_ms(nat[key]):>10} {fmt_ms(wops[key]):>10} {r:7.2f}x {fmt_ms(raw[key]):>11} {rr:7.2f}x")
    print(f"  every operation <= 2x native: {'met' if not over else 'NOT met (' + ', '.join(over) + ')'}")
    print(f"  (each figure the best of {TRIALS} trials after one untimed, on all sides)")
    print(f"  hit tests that found a pin: native {nat['hits_found']}, wasm (JS) {wops['hits_found']}, wasm (raw) {raw['hits_found']}")
    same = np.allclose(nat["drag_landed"], wops["drag_landed"], rtol=0, atol=1e-9)
    print(f"  the drag landed at the same coordinate in both: {same} ({nat['drag_landed']} / {wops['drag_landed']})")
    print()
    rows = [("pindrop.wasm gzipped", size["gzip"] / 1024, "KB", "<= 400"),
            ("markercluster's addLayers / pindrop.wasm's addMany + first view + every zoom", ratio, "x", ">= 20"),
            ("slowest zoom change at zooms 8-16 with drawing, pindrop.wasm", worst, "ms", "<= 16"),
            ("markercluster's slowest zoom change at zooms 8-16",
             max(max(mc["zoom"]["times"][str(z)]) for z in ZOOMS), "ms", None)]
    rows += [(f"{label}, pindrop.wasm (JS package) / native", wops[key] / nat[key], "x", "<= 2") for label, key in names]
    print(f"Against supercluster ({results['chromium']}; the same page, peers in the same run)")
    if sc_first:
        rows += scb.report(sc_first, sc_views)
    else:
        print(f"  {sc_missing}")
    print()
    print("pindrop's Leaflet layer (pindrop/leaflet) on the trees, real input events")
    if layer:
        rows += bench_layer.report(layer, mc["addLayersMs"])
    else:
        print(f"  {bench_layer.missing()}")
    import run
    run.write_web_section(rows, results["chromium"], "make bench-web")
    httpd.shutdown()


if __name__ == "__main__":
    main()
