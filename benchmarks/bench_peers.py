"""pindrop against its peers on the 916,114 LA street trees, in one process and one run: scipy's
cKDTree and shapely's STRtree (GEOS) answer the same questions on the same points.

Usage: python3 bench_peers.py DATA_DIR

- load: pindrop add_many + first query (default options) against the peers' tree builds (the
  peers get their input already projected; pindrop takes lon/lat);
- hit tests: taps on 1,600 cameras at zoom 19 (1024x768, default options), half near the pins in
  view and half anywhere; pindrop draws a frame first (untimed, as a host draws before the user
  taps) and answers each camera's taps with one hit_test_many; then the same taps with no frame
  drawn (a host that draws its pins itself: the spatial index answers). The peers answer "nearest pin
  within the hit radius" for the same taps, given in Web Mercator world units, all in one
  vectorised call; GEOS's own STRtree answers them from C too (peer_loops.c, one query per tap
  with its rectangle made beforehand): the floor of any answer through GEOS;
- nearby 15 m: pindrop_map_nearby from C, one call per point, against cKDTree.query_ball_point
  on the same points (vectorised, earth-centred metres);
- resident memory per pin of each, measured in a child process;
- set_position after the first query: 200,000 moves of random trees, each timed on its own.

pindrop's loops run in C (benchmarks/peer_loops.c, built here as a shared library): the figures
are what a C host pays. Times are CPU time, each the best of a few repetitions. Each figure is
printed next to its target, as the targets of issue 12 define them against the peers.
"""
from __future__ import annotations

import ctypes
import math
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

R = 6378137.0
HIT_RADIUS = 22.0
ZOOM, WIDTH, HEIGHT = 19.0, 1024.0, 768.0
NCAM, PER = 1600, 50
NNEAR, NEAR_M = 50_000, 15.0
NMOVES = 200_000
REPS = 3

try:
    from scipy.spatial import cKDTree
except ImportError:  # pragma: no cover - make bench installs it
    cKDTree = None
try:
    import shapely
except ImportError:  # pragma: no cover
    shapely = None


def load(data: Path) -> np.ndarray:
    cols = np.loadtxt(data / "la_trees.csv", delimiter=",", skiprows=1, usecols=(2, 3), dtype=np.float64)
    return np.ascontiguousarray(cols[:, ::-1])  # lon, lat


def mercator(ll: np.ndarray) -> np.ndarray:
    """Normalised Web Mercator (x, y in [0, 1], y down), as pindrop's camera uses."""
    x = (ll[:, 0] + 180.0) / 360.0
    s = np.sin(np.radians(ll[:, 1]))
    y = 0.5 - np.log((1 + s) / (1 - s)) / (4 * np.pi)
    return np.column_stack([x, y])


def ecef(ll: np.ndarray) -> np.ndarray:
    lon, lat = np.radians(ll[:, 0]), np.radians(ll[:, 1])
    return np.column_stack([R * np.cos(lat) * np.cos(lon), R * np.cos(lat) * np.sin(lon), R * np.sin(lat)])


def cpu() -> float:
    return time.thread_time()


def best(k, f):
    b, out = math.inf, None
    for _ in range(k):
        t = cpu()
        out = f()
        b = min(b, cpu() - t)
    return b, out


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return -1


def in_child(f) -> float:
    """Runs f() in a forked child; returns the float it returns (memory measured from the same start)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(r)
        try:
            os.write(w, repr(float(f())).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 4096):
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return float(data) if data else float("nan")


def build_loops() -> ctypes.CDLL:
    out = ROOT / ".build" / "bench" / "libpeer_loops.so"
    out.parent.mkdir(parents=True, exist_ok=True)
    lib_dir = ROOT / ".build" / "release"
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    f"-I{ROOT / 'include'}", str(ROOT / "benchmarks" / "peer_loops.c"), "-o", str(out),
                    f"-L{lib_dir}", "-lpindrop", f"-Wl,-rpath,{lib_dir}", "-lgeos_c"], check=True)
    lib = ctypes.CDLL(str(out))
    p = ctypes.c_void_p
    lib.pl_nearby.restype = ctypes.c_double
    lib.pl_nearby.argtypes = [p, p, ctypes.c_size_t, ctypes.c_double, p, p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
    lib.pl_moves.restype = ctypes.c_size_t
    lib.pl_moves.argtypes = [p, p, p, ctypes.c_size_t, p, ctypes.POINTER(ctypes.c_double)]
    lib.pl_warm.restype = ctypes.c_double
    lib.pl_warm.argtypes = [p, p, ctypes.c_size_t, ctypes.c_size_t]
    lib.pl_cluster_moves.restype = ctypes.c_size_t
    lib.pl_cluster_moves.argtypes = [p, p, p, ctypes.c_size_t, ctypes.c_double, p, ctypes.c_size_t, p, p,
                                     ctypes.POINTER(ctypes.c_double), p, ctypes.c_size_t, p, p]
    lib.pl_hits.restype = ctypes.c_int
    lib.pl_geos_hits.restype = ctypes.c_double
    lib.pl_probe.restype = ctypes.c_int
    lib.pl_probe.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]
    lib.pl_geos_hits.argtypes = [p, ctypes.c_size_t, p, ctypes.c_size_t, ctypes.c_double, p, ctypes.c_int]
    lib.pl_hits.argtypes = [p, p, ctypes.c_size_t, p, ctypes.c_size_t, p, p, p, ctypes.c_size_t]
    return lib


WARM_CALLS = 60_000


def probe(loops: ctypes.CDLL) -> tuple[float, float]:
    """The machine's memory latency and integer multiply-add time (ns), measured in this process
    (peer_loops.c's pl_probe): what a run's figures are read against."""
    load, alu = ctypes.c_double(), ctypes.c_double()
    if loops.pl_probe(ctypes.byref(load), ctypes.byref(alu)) < 0:
        raise MemoryError("pl_probe")
    return load.value, alu.value


def warm(loops: ctypes.CDLL, m: pindrop.Map, flat: np.ndarray) -> float:
    """Enough calls (tiny queries) for the index to build every leaf's GEOS tree, a slice per call."""
    return loops.pl_warm(m._as_parameter_, flat.ctypes.data, len(flat) // 2, WARM_CALLS)


def main() -> int:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else (ROOT / ".." / "shared" / "data").resolve()
    if cKDTree is None or shapely is None:
        print("bench_peers needs scipy and shapely (make bench installs them)", file=sys.stderr)
        return 2
    ll = load(data)
    n = len(ll)
    ids = np.arange(n, dtype=np.int64)
    flat = np.ascontiguousarray(ll.reshape(-1))
    merc = mercator(ll)
    xyz = ecef(ll)
    loops = build_loops()
    rng = np.random.default_rng(12)
    print(f"pins: {n}; scipy {__import__('scipy').__version__}, shapely {shapely.__version__} "
          f"(GEOS {shapely.geos_version_string}), pindrop {pindrop.version()}")

    # -- memory (child processes, from the same start) -----------------------------------------
    # Measured before this process makes any map or tree: a child forked later would fill the
    # heap that the maps and trees freed before it (already resident), and count less.
    pts = shapely.points(merc)

    def mem_pindrop(full: bool):
        def f():
            r0 = rss()
            mm = pindrop.Map()
            mm.add_many(ids, ll)
            mm.nearby(float(ll[0, 0]), float(ll[0, 1]), 1.0)
            if full:
                warm(loops, mm, flat)
            return (rss() - r0) / n
        return f

    def mem_ck():
        r0 = rss()
        xy = mercator(ll)  # cKDTree's own copy of the coordinates counts, as pindrop's does
        t = cKDTree(xy)
        del xy
        _ = t
        return (rss() - r0) / n

    def mem_sh():
        r0 = rss()
        t = shapely.STRtree(pts)
        t.query(pts[0])  # built
        return (rss() - r0) / n

    mem_first = in_child(mem_pindrop(False))
    mem_full = in_child(mem_pindrop(True))
    mem_ck_b = in_child(mem_ck)
    mem_sh_b = in_child(mem_sh)

    # -- load ---------------------------------------------------------------------------------
    def pindrop_load():
        m = pindrop.Map()
        m.add_many(ids, ll)
        m.nearby(float(ll[0, 0]), float(ll[0, 1]), 1.0)
        return m

    t_load, m = best(REPS, pindrop_load)
    t_warm = warm(loops, m, flat)
    t_ck, ck = best(REPS, lambda: cKDTree(merc))
    t_sh, sh = best(REPS, lambda: shapely.STRtree(pts))


    # -- hit tests: 1,600 cameras at zoom 19 -----------------------------------------------------
    world = 256.0 * 2 ** ZOOM
    centres = rng.integers(0, n, NCAM)
    cams = (_ffi.Camera * NCAM)()
    xy = np.empty((NCAM, PER, 2))
    cap = 1 << 16
    views = (_ffi.PinView * cap)()
    for c, k in enumerate(centres):
        cams[c] = _ffi.Camera(ll[k, 0], ll[k, 1], ZOOM, 0.0, WIDTH, HEIGHT)
        m.set_camera(ll[k, 0], ll[k, 1], ZOOM, WIDTH, HEIGHT)
        shown = m.frame(0.0)
        for q in range(PER):
            if q % 2 == 0 and shown:
                v = shown[rng.integers(0, len(shown))]
                xy[c, q] = (v.x + (rng.random() - 0.5) * 60, v.y + (rng.random() - 0.5) * 60)
            else:
                xy[c, q] = (rng.random() * WIDTH, rng.random() * HEIGHT)
    xy_flat = np.ascontiguousarray(xy.reshape(-1))
    out = np.empty(NCAM * PER, dtype=np.int64)
    ns = np.empty(NCAM)

    def pindrop_hits():
        if loops.pl_hits(m._as_parameter_, ctypes.addressof(cams), NCAM, xy_flat.ctypes.data, PER, out.ctypes.data,
                         ns.ctypes.data, ctypes.addressof(views), cap) != 0:
            raise RuntimeError("hit_test_many failed")
        return ns.sum()

    hit_ns = min(pindrop_hits() for _ in range(REPS)) / (NCAM * PER)
    hits = int((out != pindrop.NO_ID).sum())

    # The same taps with no frame drawn (a host that draws its pins itself): the index answers.
    out_index = np.empty(NCAM * PER, dtype=np.int64)

    def pindrop_hits_no_frame():
        if loops.pl_hits(m._as_parameter_, ctypes.addressof(cams), NCAM, xy_flat.ctypes.data, PER,
                         out_index.ctypes.data, ns.ctypes.data, None, 0) != 0:
            raise RuntimeError("hit_test_many failed")
        return ns.sum()

    index_hit_ns = min(pindrop_hits_no_frame() for _ in range(REPS)) / (NCAM * PER)
    if not np.array_equal(out, out_index):
        raise RuntimeError("hit tests with and without a frame disagree")
    # The same taps in world units for the peers (Mercator x, y times the world size).
    cw = merc[centres] * world
    taps = (cw[:, None, :] + (xy - [WIDTH / 2, HEIGHT / 2])) / world
    rw = HIT_RADIUS / world

    # The peers answer all the taps in one vectorised call (their best case; pindrop makes one
    # call per camera, as the camera changes between them).
    all_taps = np.ascontiguousarray(taps.reshape(-1, 2))
    t_ckh, (d, _) = best(REPS, lambda: ck.query(all_taps, k=1, distance_upper_bound=rw))
    ck_ns = t_ckh * 1e9 / (NCAM * PER)
    ck_found = int(np.isfinite(d).sum())
    # GEOS's own tree from C, one query per tap with its rectangle made beforehand: the floor of an
    # answer through GEOS, the index the native library is made of.
    merc_flat = np.ascontiguousarray(merc.reshape(-1))
    geos_out = np.empty(len(all_taps), dtype=np.int64)
    geos_ns = loops.pl_geos_hits(merc_flat.ctypes.data, n, all_taps.ctypes.data, len(all_taps), rw,
                                 geos_out.ctypes.data, REPS)
    geos_found = int((geos_out >= 0).sum())
    tap_pts = shapely.points(all_taps)
    t_shh, _ = best(REPS, lambda: sh.query_nearest(tap_pts, max_distance=rw))
    sh_ns = t_shh * 1e9 / (NCAM * PER)

    # -- nearby 15 m ----------------------------------------------------------------------------
    k = rng.integers(0, n, NNEAR)
    q = ll[k] + (rng.random((NNEAR, 2)) - 0.5) * 2e-4
    qf = np.ascontiguousarray(q.reshape(-1))
    near_ids = np.empty(4096, dtype=np.int64)
    near_d = np.empty(4096)
    found = ctypes.c_size_t()

    def pindrop_near():
        return loops.pl_nearby(m._as_parameter_, qf.ctypes.data, NNEAR, NEAR_M, near_ids.ctypes.data,
                               near_d.ctypes.data, 4096, ctypes.byref(found))

    near_ns = min(pindrop_near() for _ in range(REPS)) * 1e9 / NNEAR
    tree3 = cKDTree(xyz)
    qxyz = ecef(q)
    t_ckn, res = best(REPS, lambda: tree3.query_ball_point(qxyz, NEAR_M))
    ck_near_ns = t_ckn * 1e9 / NNEAR
    ck_near_found = sum(len(r) for r in res)

    # -- set_position after the first query ----------------------------------------------------
    mv = rng.integers(0, n, NMOVES).astype(np.int64)
    to = np.ascontiguousarray((ll[mv] + (rng.random((NMOVES, 2)) - 0.5) * 2e-4).reshape(-1))
    move_ns = np.empty(NMOVES)
    clock_ns = ctypes.c_double()
    failed = loops.pl_moves(m._as_parameter_, mv.ctypes.data, to.ctypes.data, NMOVES, move_ns.ctypes.data,
                            ctypes.byref(clock_ns))
    if failed:
        raise RuntimeError(f"{failed} set_position calls failed")
    p50, p99, p999 = np.percentile(move_ns, [50, 99, 99.9])
    worst = move_ns.max()
    # The same moves on a map with spreading off: the index alone.
    off = pindrop.Map(spread_mode=pindrop.SPREAD_OFF)
    off.add_many(ids, ll)
    off.nearby(float(ll[0, 0]), float(ll[0, 1]), 1.0)
    off_ns = np.empty(NMOVES)
    loops.pl_moves(off._as_parameter_, mv.ctypes.data, to.ctypes.data, NMOVES, off_ns.ctypes.data, ctypes.byref(clock_ns))
    off.close()
    off_p999, off_worst = np.percentile(off_ns, 99.9), off_ns.max()
    # The first queries after the moves pay for the leaves they rebuild: the worst single tap.
    tap_after = np.empty(NCAM)
    loops.pl_hits(m._as_parameter_, ctypes.addressof(cams), NCAM, xy_flat.ctypes.data, PER, out.ctypes.data,
                  tap_after.ctypes.data, ctypes.addressof(views), cap)
    m.close()

    print(f"hit tests: {NCAM} cameras x {PER} taps at zoom {ZOOM:g}, {hits} pindrop hits, {ck_found} "
          f"cKDTree hits; nearby {NEAR_M:g} m: {found.value / NNEAR:.2f} pins found per query by pindrop, "
          f"{ck_near_found / NNEAR:.2f} by cKDTree")
    print(f"cKDTree build: {t_ck:.3f} s; shapely STRtree build: {t_sh:.3f} s")
    print(f"pindrop load (add_many + first query), default options: {t_load:.3f} s (target <= {1.2 * t_ck:.3f} s)")
    print(f"pindrop load vs cKDTree build: {t_load / t_ck:.2f} x (target <= 1.2 x)")
    print(f"pindrop {WARM_CALLS} tiny queries after the load, which build every leaf's tree a slice at a time: {t_warm:.3f} s")
    print(f"cKDTree hit test: {ck_ns:.0f} ns per query")
    print(f"shapely STRtree hit test: {sh_ns:.0f} ns per query")
    print(f"GEOS STRtree from C, query only (rectangles made beforehand): {geos_ns:.0f} ns per query, "
          f"{geos_found} hits (cKDTree {ck_found}); {geos_ns / ck_ns:.2f} x cKDTree")
    print(f"pindrop hit test: {hit_ns:.0f} ns per query (target <= {0.6 * ck_ns:.0f} ns)")
    print(f"pindrop hit test vs cKDTree: {hit_ns / ck_ns:.2f} x (target <= 0.6 x)")
    print(f"pindrop hit test with no frame drawn (the spatial index answers): {index_hit_ns:.0f} ns per query "
          f"(target <= {ck_ns:.0f} ns)")
    print(f"pindrop hit test with no frame drawn vs cKDTree: {index_hit_ns / ck_ns:.2f} x (target <= 1 x)")
    print(f"cKDTree nearby 15 m (query_ball_point, vectorised): {ck_near_ns:.0f} ns per query")
    print(f"pindrop nearby 15 m: {near_ns:.0f} ns per query (target <= {ck_near_ns:.0f} ns)")
    print(f"pindrop nearby vs cKDTree: {near_ns / ck_near_ns:.2f} x (target <= 1 x)")
    print(f"cKDTree memory (with its coordinates): {mem_ck_b:.1f} bytes per pin")
    print(f"shapely STRtree memory (the tree, not the points): {mem_sh_b:.1f} bytes per pin")
    print(f"pindrop memory after load + first query, default options: {mem_first:.1f} bytes per pin (target <= 110 bytes)")
    print(f"pindrop memory, every leaf built, default options: {mem_full:.1f} bytes per pin (target <= 110 bytes)")
    print(f"set_position after the first query, median: {p50:.0f} ns")
    print(f"set_position p99: {p99:.0f} ns")
    print(f"set_position p99.9: {p999 / 1000:.2f} us (target <= 30 us)")
    print(f"set_position worst of {NMOVES}: {worst / 1e6:.3f} ms (target <= 5 ms)")
    print(f"set_position p99.9 with spreading off (the index alone): {off_p999 / 1000:.2f} us")
    print(f"set_position worst of {NMOVES} with spreading off: {off_worst / 1e6:.3f} ms")
    print(f"hit_test_many for one camera after the moves, worst (rebuilds included): {tap_after.max() / 1e6:.3f} ms (target <= 5 ms)")
    print(f"  (clock read cost subtracted: {clock_ns.value:.0f} ns per call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
